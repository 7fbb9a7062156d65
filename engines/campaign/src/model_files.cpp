#include "femc/engines/model_files.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "model_files_detail.hpp"

namespace femc::engines {

std::vector<ModelFileCheck> model_file_checks(const std::string& engine) {
  std::vector<ModelFileCheck> out;
  model_files::planar_checks(engine, out);
  model_files::bricard_checks(engine, out);
  return out;
}

namespace {
std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}
// error ÷ tolerance; an exact check (tolerance 0) met is 0.
double ratio(double error, double tolerance) {
  if (tolerance > 0) return error / tolerance;
  return error == 0 ? 0 : std::numeric_limits<double>::infinity();
}
}  // namespace

std::string model_files_csv(const std::vector<ModelFileCheck>& checks) {
  std::ostringstream out;
  out << "engine,mechanism,state,quantity,error,tolerance,wrong_model,wrong_error,pass\n";
  out.precision(6);
  for (const ModelFileCheck& c : checks)
    out << c.engine << "," << c.mechanism << "," << c.state << "," << c.quantity << "," << c.error << ","
        << c.tolerance << "," << c.wrong << "," << (c.has_wrong() ? sci(c.wrong_error) : "") << ","
        << (c.pass() ? "pass" : "FAIL") << "\n";
  return out.str();
}

std::string model_files_section(const std::vector<ModelFileCheck>& checks) {
  // Per engine and mechanism: states seen, checks, passes, the largest
  // error ÷ tolerance of the data and of the answer, the smallest
  // wrong-model error ÷ tolerance (how far the wrong mechanism falls outside).
  struct Group {
    std::vector<std::string> states;
    int checks = 0, passes = 0;
    double data = 0, answer = -1, wrong = std::numeric_limits<double>::infinity();
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (const ModelFileCheck& c : checks) {
    const std::string key = c.engine + " | " + c.mechanism;
    if (!groups.count(key)) order.push_back(key);
    Group& g = groups[key];
    if (std::find(g.states.begin(), g.states.end(), c.state) == g.states.end() &&
        c.state.rfind("femc's", 0) != 0)
      g.states.push_back(c.state);
    ++g.checks;
    g.passes += c.pass();
    if (c.quantity == "u̇") g.answer = std::max(g.answer, ratio(c.error, c.tolerance));
    else if (c.has_wrong()) g.data = std::max(g.data, ratio(c.error, c.tolerance));
    if (c.has_wrong()) g.wrong = std::min(g.wrong, ratio(c.wrong_error, c.tolerance));
  }
  std::ostringstream out;
  out << "## The engines' mechanisms from femc's model files, at 256 bits\n\n"
         "Each engine's extracted data against femc's own construction of the same mechanism from a model file "
         "(engines/common: planar_loop_model.hpp writes the planar loops, bricard_model.hpp Simbody's Bricard "
         "geometry in the two forms the engines build: the cut link's halves welded, or one body closed by its "
         "second pin), evaluated at MPFR 256 bits at the engine's state. The planar loops at the engine's own "
         "joint angles at rest; Bricard's mechanism at femc's own assembly q* (Newton at 256 bits from the "
         "example's angles: the weld's σ₆/σ₁ below 1e-60, the redundancy exact), each engine put at q* rounded "
         "to double, at rest and moving. In the engine's coordinates: M = TᵀM T, Q = Tᵀ(Q − M Ṫq̇), the "
         "constraint rows' null space (through its orthogonal projector), b through the minimum-norm point A⁺b "
         "of {q̈ : A q̈ = b}, and a hard engine's u̇ against the model's q̈; ODE in its maximal coordinates "
         "through the embedding of the plane or the map V = ∂(r, p)/∂(v, ω); Bullet's M⁻¹ and free "
         "acceleration, which it exposes instead of M and Q. Tolerances from error analysis "
         "(engines/campaign/src/model_files_planar.cpp, model_files_bricard.cpp: 16·n·ε of the recursions' "
         "magnitudes, Wedin for the null spaces, twice the rounded-data bound for u̇). Every check with a "
         "tolerance above 0 is also run against a deliberately wrong model (a link 1e-6 longer or heavier, a "
         "centre of mass 1e-6 off, an answer off by 1e-6), which must fail it; a check passes when the engine "
         "is within the tolerance and the wrong model is not. All checks: `model_files.csv`.\n\n"
         "| engine | mechanism | states | checks passed | data: largest error ÷ tolerance | answer u̇: "
         "error ÷ bound | wrong models: smallest error ÷ tolerance |\n|---|---|---|---|---|---|---|\n";
  for (const std::string& key : order) {
    const Group& g = groups[key];
    out << "| " << key << " | " << g.states.size() << " | " << g.passes << "/" << g.checks << " | " << sci(g.data)
        << " | " << (g.answer < 0 ? "not the hard q̈: its campaign's" : sci(g.answer)) << " | " << sci(g.wrong) << " |\n";
  }
  out << "\n";
  return out.str();
}

}  // namespace femc::engines
