#include "femc/engines/model_files.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>

#include "conformance.hpp"
#include "model_files_detail.hpp"

namespace femc::engines {

std::vector<ModelFileCheck> model_file_checks(const std::string& engine) {
  std::vector<ModelFileCheck> out;
  model_files::planar_checks(engine, out);
  model_files::bricard_checks(engine, out);
  return out;
}

std::vector<ModelFileCheck> femc_model_file_checks() {
  std::vector<ModelFileCheck> out;
  model_files::bricard_assembly_checks(out);
  return out;
}

namespace {
using campaign::sci;
// error ÷ tolerance; an exact check (tolerance 0) met is 0; NaN stays NaN.
double ratio(double error, double tolerance) {
  if (error != error) return error;
  if (tolerance > 0) return error / tolerance;
  return error == 0 ? 0 : std::numeric_limits<double>::infinity();
}
// The larger (smaller) of two ratios, a NaN winning: it must show.
double worse_max(double a, double b) { return a != a || b != b ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b); }
double worse_min(double a, double b) { return a != a || b != b ? std::numeric_limits<double>::quiet_NaN() : std::min(a, b); }
// A CSV field, quoted when it holds a comma or a quote (RFC 4180).
std::string field(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string model_files_csv(const std::vector<ModelFileCheck>& checks) {
  std::ostringstream out;
  out << "engine,mechanism,state,quantity,error,tolerance,wrong_model,wrong_error,pass\n";
  out.precision(6);
  for (const ModelFileCheck& c : checks)
    out << field(c.engine) << "," << field(c.mechanism) << "," << field(c.state) << "," << field(c.quantity) << ","
        << c.error << "," << c.tolerance << "," << field(c.wrong) << ","
        << (c.wrong_error ? sci(*c.wrong_error) : "") << "," << (c.pass() ? "pass" : "FAIL") << "\n";
  return out.str();
}

std::string model_files_section(const std::vector<ModelFileCheck>& checks) {
  // Per engine and mechanism: states seen, checks, passes, the largest
  // error ÷ tolerance of the engine's data, of its answer and of the checks
  // of femc's own construction, the smallest wrong-value error ÷ tolerance
  // (how far the wrong value falls outside).
  struct Group {
    std::vector<std::string> states;
    int checks = 0, passes = 0;
    double data = 0, own = 0, answer = -1, wrong = std::numeric_limits<double>::infinity();
    bool has_data = false;  // an engine's data among the checks (not femc's construction alone)
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
    if (c.quantity == "u̇") {
      g.answer = worse_max(g.answer, ratio(c.error, c.tolerance));
    } else if (c.wrong_error) {
      g.data = worse_max(g.data, ratio(c.error, c.tolerance));
      g.has_data = true;
    } else {
      g.own = worse_max(g.own, ratio(c.error, c.tolerance));
    }
    if (c.wrong_error) g.wrong = worse_min(g.wrong, ratio(*c.wrong_error, c.tolerance));
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
         "acceleration, which it exposes instead of M and Q. MuJoCo's Bricard M and Q twice: against the model's "
         "inertias, its compiled ones' distance from them in the tolerance (Σ_links 3·max|ΔI|), and against the "
         "mechanism with its compiled inertias (\"its stored inertias\": the recursion alone, to rounding). "
         "Tolerances from error analysis "
         "(engines/campaign/src/model_files_planar.cpp, model_files_bricard.cpp: 16·n·ε of the recursions' "
         "magnitudes, Wedin for the null spaces, twice the rounded-data bound for u̇). Every check of an engine's data or "
         "answer is also run against a deliberately wrong value (a mechanism with a link 1e-6 longer or heavier, a "
         "centre of mass 1e-6 off; for a force, b or an answer, the engine's own value off by 1e-6), which must "
         "fail it; such a check passes when the engine is within the tolerance and the wrong value is not. The "
         "checks of femc's own construction (its tree map T and Ṫq̇ to 256 bits; engine \"femc\": Bricard's "
         "assembly) have no wrong value. All checks: `model_files.csv`.\n\n"
         "| engine | mechanism | states | checks passed | engine's data: largest error ÷ tolerance | answer u̇: "
         "error ÷ bound | wrong values: smallest error ÷ tolerance | checks without a wrong value (femc's T, "
         "Ṫq̇, ranks, assembly; exact zeros): largest error ÷ tolerance |\n|---|---|---|---|---|---|---|---|\n";
  for (const std::string& key : order) {
    const Group& g = groups[key];
    const std::string answer = !g.has_data ? "—" : g.answer < 0 ? "not the hard q̈: its campaign's" : sci(g.answer);
    out << "| " << key << " | " << (g.has_data ? std::to_string(g.states.size()) : "—") << " | " << g.passes << "/"
        << g.checks << " | " << (g.has_data ? sci(g.data) : "—") << " | " << answer << " | "
        << (g.wrong == std::numeric_limits<double>::infinity() ? "—" : sci(g.wrong)) << " | " << sci(g.own)
        << " |\n";
  }
  out << "\n";
  return out.str();
}

}  // namespace femc::engines
