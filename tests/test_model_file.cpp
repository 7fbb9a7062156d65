// Model files (models/README.md): the reader names the item of every bad
// model, reads decimals exactly at the working precision, and `femc solve` /
// `femc simulate` evaluate a model file through the library's own model
// layer (the CLI's numbers are the library's, at double bit for bit and at
// 256 bits to the printed digits).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "femc/dynamics/mechanism.hpp"
#include "femc/dynamics/simulate.hpp"
#include "femc/io/json_model.hpp"
#include "femc/io/model_file.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "femc/systems/double_parallelogram.hpp"
#include "support/cli_run.hpp"

namespace femc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSliderCrank = std::string(FEMC_MODELS) + "/examples/slider_crank.json";
const std::string kHingedRod = std::string(FEMC_MODELS) + "/examples/hinged_rod.json";

test::CliRun femc(const std::string& args) { return test::run_cli(FEMC_CLI, args, "femc_model_file"); }

json slider_crank() { return json::parse(test::slurp(kSliderCrank)); }

// The reader's and the validator's message for a document, or "(accepted)".
std::string message(const std::string& document) {
  try {
    (void)to_planar_model<double>(read_planar_model_text(document));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ModelFile, TheExampleIsAccepted) { EXPECT_EQ(message(slider_crank().dump()), "(accepted)"); }

TEST(ModelFile, BadModelsNameTheItemAndTheValue) {
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& m) { m["joints"][1]["body2"] = "rockr"; }, "joints[1] (A).body2: 'rockr' is not a body (nor the ground)"},
      {[](json& m) { m["bodies"][0]["mass"] = "0"; }, "bodies[0] (crank).mass: must be positive, got 0"},
      {[](json& m) { m["bodies"][2]["inertia"] = "-1/2"; }, "bodies[2] (slider).inertia: must be positive, got -0.5"},
      {[](json& m) { m["bodies"][1]["mass"] = "two"; }, "bodies[1] (rod).mass"},
      {[](json& m) { m["bodies"][1].erase("mass"); }, "bodies[1] (rod).mass: missing"},
      {[](json& m) { m["bodies"][2]["name"] = "crank"; }, "bodies[2] (crank).name: 'crank' names two bodies"},
      {[](json& m) { m["bodies"][0]["name"] = "ground"; }, "bodies[0] (ground).name: 'ground' names the fixed frame"},
      {[](json& m) { m["joints"][0]["pivot"] = 1; }, "joints[0] (O).pivot: unknown key"},
      {[](json& m) { m["joints"][2]["type"] = "hinge"; }, "joints[2] (B).type: 'hinge' is not revolute, prismatic"},
      {[](json& m) { m["joints"][3]["axis"] = {0, 0}; }, "joints[3] (guide).axis: is zero"},
      {[](json& m) { m["joints"][1]["body2"] = "crank"; }, "joints[1] (A): joins body 0 to itself"},
      {[](json& m) { m["forces"][0]["body"] = "ground"; }, "forces[0] (motor): body -1 does not exist"},
      {[](json& m) { m["forces"][0]["type"] = "pressure"; }, "forces[0] (motor).type: 'pressure' is not torque"},
      {[](json& m) { m["kind"] = "fluid"; }, "kind: 'fluid' is not a kind of model"},
      {[](json& m) { m["bodies"] = json::array(); }, "bodies: a model needs at least one body"},
      {[](json& m) { m["gravity"] = {0}; }, "model.gravity: expected [x, y]"},
      {[](json& m) { m["contacts"] = {{{"name", "foot"}, {"body", "ground"}}}; },
       "contacts[0] (foot).body: is the ground (a contact is a point of a body)"},
      {[](json& m) { m["contacts"] = {{{"name", "foot"}, {"body", "slidr"}}}; },
       "contacts[0] (foot).body: 'slidr' is not a body"},
      {[](json& m) { m["contacts"] = {{{"name", "foot"}, {"body", "slider"}, {"friction", "-0.1"}}}; },
       "contacts[0] (foot).friction: is negative: -0.1"},
      {[](json& m) { m["contacts"] = {{{"name", "foot"}, {"body", "slider"}, {"normal", {"0", "0"}}}}; },
       "contacts[0] (foot).normal: is zero"},
      {[](json& m) { m["contacts"] = {{{"name", "foot"}, {"body", "slider"}, {"restitution", "1"}}}; },
       "contacts[0] (foot).restitution: unknown key"},
  };
  for (const Case& c : cases) {
    json m = slider_crank();
    c.edit(m);
    const std::string got = message(m.dump());
    EXPECT_EQ(got.rfind(c.expected, 0), 0u) << "expected: " << c.expected << "\n     got: " << got;
  }
}

// "0.1" read at 256 bits is 0.1 rounded once to 256 bits, not the double
// nearest 0.1 (which differs from it by 5.5e-18).
TEST(ModelFile, DecimalsAreReadAtTheWorkingPrecision) {
  MpfrPrecision bits(256);
  json m = slider_crank();
  m["bodies"][0]["mass"] = "0.1";
  const auto model = to_planar_model<mpfr_real>(read_planar_model_text(m.dump()));
  EXPECT_EQ(models::mass_matrix(model)(0, 0), mpfr_real("0.1"));
  EXPECT_NE(models::mass_matrix(model)(0, 0), mpfr_real(0.1));
}

// The CLI's 256-bit numbers are `expected` to the 80 printed digits
// (|Δ| ≤ 10⁻⁷⁸ relative, the printing's rounding).
void expect_printed(const json& printed, const Vector<mpfr_real>& expected) {
  ASSERT_EQ(printed.size(), std::size_t(expected.size()));
  for (Index i = 0; i < expected.size(); ++i) {
    const mpfr_real x = ScalarTraits<mpfr_real>::parse(printed[std::size_t(i)].get<std::string>());
    EXPECT_LE(abs(x - expected(i)), mpfr_real("1e-78") * (1 + abs(expected(i)))) << i;
  }
}

// The CLI's answer is the library's: at double, the same doubles; at 256
// bits, the same numbers to the printed digits.
TEST(ModelFile, SolveIsTheLibrarysSolutionAtTheAssembledInitialState) {
  const PlanarModelText text = read_planar_model_text(test::slurp(kSliderCrank));
  {
    const auto model = to_planar_model<double>(text);
    Vector<double> q, qd;
    dynamics::assembled_initial_state(model, text, q, qd);
    const Solution<double> s = solve(models::system_at(model, q, qd));
    test::CliRun r = femc("solve " + kSliderCrank);
    ASSERT_EQ(r.status, 0) << r.err;
    const json got = json::parse(r.out);
    ASSERT_EQ(got["qdd"].size(), std::size_t(s.qdd.size()));
    for (Index i = 0; i < s.qdd.size(); ++i)
      EXPECT_EQ(std::stod(got["qdd"][i].get<std::string>()), s.qdd(i)) << i;
    EXPECT_EQ(got["rank"], 8);
  }
  MpfrPrecision bits(256);
  const auto model = to_planar_model<mpfr_real>(text);
  Vector<mpfr_real> q, qd;
  dynamics::assembled_initial_state(model, text, q, qd);
  const Solution<mpfr_real> s = solve(models::system_at(model, q, qd));
  test::CliRun r = femc("solve --precision 256 " + kSliderCrank);
  ASSERT_EQ(r.status, 0) << r.err;
  const json got = json::parse(r.out);
  expect_printed(got["qdd"], s.qdd);
}

// --state is used as given (not assembled): the system of those coordinates.
TEST(ModelFile, SolveAtAGivenState) {
  MpfrPrecision bits(256);
  const PlanarModelText text = read_planar_model_text(test::slurp(kSliderCrank));
  const auto model = to_planar_model<mpfr_real>(text);
  const std::vector<std::string> q_text = {"0.05", "0.0866", "1.047", "0.3872", "0.0866", "-0.2926", "0.6745", "0", "0"};
  const std::vector<std::string> qd_text = {"0", "0", "1", "0", "0.2", "0", "-0.1", "0", "0"};
  const fs::path path = fs::temp_directory_path() / ("femc_state_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << json{{"q", q_text}, {"qd", qd_text}}.dump();
  Vector<mpfr_real> q, qd;
  state_from_text<mpfr_real>({q_text, qd_text}, model, q, qd);
  const Solution<mpfr_real> s = solve(models::system_at(model, q, qd));
  test::CliRun r = femc("solve --precision 256 " + kSliderCrank + " --state " + path.string());
  fs::remove(path);
  ASSERT_EQ(r.status, 0) << r.err;
  const json got = json::parse(r.out);
  expect_printed(got["qdd"], s.qdd);
}

TEST(ModelFile, BadModelsAndStatesExitTwoWithOneLine) {
  const fs::path dir = fs::temp_directory_path() / ("femc_bad_model_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const json& doc) {
    std::ofstream(dir / name) << doc.dump();
    return (dir / name).string();
  };
  json missing_body = slider_crank();
  missing_body["joints"][1]["body2"] = "rockr";
  json apart = slider_crank();  // the rod cannot reach the slider's guide
  apart["joints"][2]["point1"] = {"30", "0"};
  apart["joints"][3]["axis"] = {"0", "1"};
  apart["joints"][3]["point1"] = {"-40", "0"};
  struct Case { std::string command, field; };
  const std::vector<Case> cases = {
      {"solve " + write("missing_body.json", missing_body), "joints[1] (A).body2"},
      {"simulate " + write("missing_body.json", missing_body), "joints[1] (A).body2"},
      {"solve " + write("apart.json", apart), "slider-crank: the initial positions do not assemble"},
      {"solve --precision exact --method exact " + kSliderCrank, "precision"},
      {"solve --precision dd " + kSliderCrank, "precision"},
      {"solve " + kSliderCrank + " --state " + write("short.json", json{{"q", {1}}, {"qd", {1}}}), "state.q"},
      {"solve " + kSliderCrank + " --state " + (dir / "none.json").string(), "state"},
      {"solve " + kSliderCrank + " --state " + write("bad.json", json{{"q", json::array()}}), "state.qd: missing"},
      {"solve " + std::string(FEMC_EXAMPLES) + "/particle_on_plane.json --state " + write("s.json", json::object()),
       "state"},
      // Contacts are the library's (tests/test_contact_models.cpp); the
      // commands refuse them rather than solve without them.
      {"solve " + std::string(FEMC_MODELS) + "/examples/two_bars.json", "contacts: 2 contact(s)"},
      {"simulate " + std::string(FEMC_MODELS) + "/examples/sliding_bar.json", "contacts: 1 contact(s)"},
  };
  for (const Case& c : cases) {
    test::CliRun r = femc(c.command);
    EXPECT_EQ(r.status, 2) << c.command << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.command;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(c.field), std::string::npos) << c.field << " not named in: " << r.err;
  }
  fs::remove_all(dir);
}

// femc simulate MODEL.json integrates the model: the CSV's columns are the
// model's coordinates, it ends at --t-end, and the joints stay closed.
TEST(ModelFile, SimulateIntegratesTheModel) {
  test::CliRun r = femc("simulate " + kSliderCrank + " --t-end 0.05");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream csv(r.out);
  std::string header, line, last;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("t,x_crank,y_crank,θ_crank,x_rod", 0), 0u) << header;
  int rows = 0;
  while (std::getline(csv, line) && line.find(',') != std::string::npos && line[0] != '{') last = line, ++rows;
  EXPECT_EQ(rows, 6);
  EXPECT_EQ(last.substr(0, last.find(',')), "0.05");
}

// A spatial document's message, or "(accepted)": read as the commands read
// it (read_model_text dispatches on "kind"), then validated.
std::string spatial_message(const std::string& document) {
  try {
    (void)to_spatial_model<double>(std::get<SpatialModelText>(read_model_text(document)));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

json hinged_rod() { return json::parse(test::slurp(kHingedRod)); }

TEST(ModelFile, SpatialBadModelsNameTheItemAndTheValue) {
  EXPECT_EQ(spatial_message(hinged_rod().dump()), "(accepted)");
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& m) { m["bodies"][0]["inertia"] = {"1", "2", "3", "4"}; },
       "bodies[0] (rod).inertia: expected an array of 3 numbers, got 4 entries"},
      {[](json& m) { m["bodies"][0]["inertia"] = {"1", "1", "1", "2", "0", "0"}; },
       "bodies[0] (rod).inertia: is not positive definite"},
      {[](json& m) { m["bodies"][0]["inertia"] = {"1", "-1", "1"}; }, "bodies[0] (rod).inertia: is not positive definite"},
      {[](json& m) { m["bodies"][0]["orientation"]["quaternion"] = {"1", "0", "0", "0"}; },
       "bodies[0] (rod).orientation: give a quaternion or an axis and degrees, not both"},
      {[](json& m) { m["bodies"][0]["orientation"] = {{"quaternion", {"0", "0", "0", "0"}}}; },
       "bodies[0].orientation.quaternion: is zero"},
      {[](json& m) { m["bodies"][0]["position"] = {"0", "0"}; },
       "bodies[0] (rod).position: expected an array of 3 numbers, got 2 entries"},
      {[](json& m) { m["joints"][0]["type"] = "hinge"; }, "joints[0] (hinge).type: 'hinge' is not spherical, revolute"},
      {[](json& m) { m["joints"][0].erase("axis2"); }, "joints[0] (hinge).axis2: missing"},
      {[](json& m) { m["joints"][0]["type"] = "spherical"; }, "joints[0] (hinge).axis1: a spherical joint has no axis1"},
      {[](json& m) { m["joints"][0]["axis1"] = {"0", "0", "0"}; }, "joints[0] (hinge).axis1: is zero"},
      {[](json& m) { m["joints"][0]["body2"] = "ground"; }, "joints[0] (hinge): joins the ground to itself"},
      {[](json& m) { m["forces"][0]["damping"] = "-2"; }, "forces[0] (strut).damping: is negative: -2"},
      {[](json& m) { m["forces"][0]["type"] = "spring"; }, "forces[0] (strut).type: 'spring' is not force or spring-damper"},
      {[](json& m) { m["kind"] = "spacial"; }, "kind: 'spacial' is not a kind of model femc reads (planar, spatial)"},
  };
  for (const Case& c : cases) {
    json m = hinged_rod();
    c.edit(m);
    const std::string got = spatial_message(m.dump());
    EXPECT_EQ(got.rfind(c.expected, 0), 0u) << "expected: " << c.expected << "\n     got: " << got;
  }
}

// femc solve of a spatial file is the library's solution at the assembled
// initial state, at 256 bits to the printed digits.
TEST(ModelFile, SpatialSolveIsTheLibrarysSolution) {
  MpfrPrecision bits(256);
  const ModelText text = read_model_text(test::slurp(kHingedRod));
  const System<mpfr_real> sys = dynamics::model_system<mpfr_real>(text, nullptr);
  const Solution<mpfr_real> s = solve(sys);
  test::CliRun r = femc("solve --precision 256 " + kHingedRod);
  ASSERT_EQ(r.status, 0) << r.err;
  const json got = json::parse(r.out);
  expect_printed(got["qdd"], s.qdd);
  EXPECT_EQ(got["rank"], 6);  // the unit-norm row and the hinge's five
}

// The double parallelogram rebuilt from a model file
// (models/examples/double_parallelogram.json) moves as the hand-derived one
// (systems/double_parallelogram.hpp). The coordinates differ (a crank's body
// coordinates are its centre and angle, the hand model's its angle alone), so
// the check is the motion, as in test_planar_model's
// DoubleParallelogramFromBodiesMovesAsTheHandDerivedOne: at the file's
// initial state, assembled at 256 bits (the parallelogram state θ = 0.7,
// θ̇ = −1.3, given to 90 digits), the cranks' θ̈, the coupler's (ẍ, ÿ, φ̈)
// and the ideal force on the coupler agree within 1000u ≈ 8.6·10⁻⁷⁵: the
// assembly leaves |φ| ≤ 64u (the data's 90 digits are below u), which the
// two solves, of condition about 10 here, carry to the accelerations and
// forces (measured 3.8·10⁻⁷⁶ = 44u; a crank inertia of 3/7 instead of 3/8
// in the file fails it). Both find one redundant row.
TEST(ModelFile, DoubleParallelogramFileMovesAsTheHandDerivedOne) {
  MpfrPrecision bits(256);
  using R = mpfr_real;
  const ModelText text = read_model_text(test::slurp(std::string(FEMC_MODELS) + "/examples/double_parallelogram.json"));
  const Solution<R> sm = solve(dynamics::model_system<R>(text, nullptr));
  const systems::DoubleParallelogram<R> hand{R("1.5"), R("0.8"), R("2"), R("3"), R("9.81")};
  Vector<R> qh, qdh;
  hand.parallelogram_state(R("0.7"), R("-1.3"), qh, qdh);
  const Solution<R> sh = solve(hand.at(qh, qdh));
  R worst(0);
  for (int i = 0; i < 3; ++i) worst = max(worst, abs(R(sm.qdd(3 * i + 2) - sh.qdd(i))));  // the cranks' θ̈
  for (int k = 0; k < 3; ++k) {
    worst = max(worst, abs(R(sm.qdd(9 + k) - sh.qdd(3 + k))));  // the coupler's (ẍ, ÿ, φ̈)
    worst = max(worst, abs(R(sm.QN(9 + k) - sh.QN(3 + k))));    // the ideal force on it
  }
  const R bound = R(1000) * unit_roundoff<R>();
  std::cout << "double parallelogram, file against hand: worst difference " << static_cast<double>(worst)
            << " (bound 1000u = " << static_cast<double>(bound) << ")\n";
  EXPECT_LE(worst, bound);
  EXPECT_GT(sh.QN.cwiseAbs().maxCoeff(), R(1)) << "the pins carry force";
  EXPECT_EQ(sh.diagnostics.rank.rank, 5);
  EXPECT_EQ(sm.diagnostics.rank.rank, 11);
}

// The damper's work enters the energy balance: at 128 bits with a tight
// tolerance (Bulirsch–Stoer at 10⁻²⁴ over 0.1 s, 2 s) the balance is at the integrator's level, while the energy itself
// falls by the damper's work (O(1) J here). Without the damper in Qᵂ the
// balance would be that loss.
TEST(ModelFile, SpatialSimulateBalancesTheDampersWork) {
  test::CliRun r = femc("simulate " + kHingedRod + " --precision 128 --stepper bulirsch-stoer --tol 1e-24 --t-end 0.1 --dt 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream csv(r.out);
  std::string header, line;
  std::getline(csv, header);
  std::vector<std::string> names, last;
  for (std::istringstream h(header); std::getline(h, line, ',');) names.push_back(line);
  std::string row, final_row;
  while (std::getline(csv, row) && row.find(',') != std::string::npos && row[0] != '{') final_row = row;
  for (std::istringstream f(final_row); std::getline(f, line, ',');) last.push_back(line);
  ASSERT_EQ(names.size(), last.size()) << header;
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return std::stod(last[i]);
    ADD_FAILURE() << name << " not in " << header;
    return 0.0;
  };
  EXPECT_LT(column("work_nonideal"), -0.01) << "the damper takes energy out";
  // 10³·tol·E-scale, E ≈ 8.6 J, as for A01 (test_benchmarks.cpp); measured
  // 7.8·10⁻²⁶, so loose by 10⁵ here. A damper missing from Qᵂ would show as
  // the O(1) J it removes, caught by the check above too.
  EXPECT_LT(std::abs(column("balance")), 1e3 * 1e-24 * 8.6);
  std::cout << "balance " << column("balance") << " (bound 8.6e-21)\n";
}

// A state whose system cannot be built (here a spring of zero length: its
// force has no direction) ends a run with the reason and the records kept,
// as a refused solve does; it is neither a crash nor a bad input file.
TEST(ModelFile, AStateWhoseSystemCannotBeBuiltEndsTheRun) {
  const std::string doc = R"({"kind": "planar", "name": "coincident",
    "bodies": [{"name": "m", "mass": "1", "inertia": "1", "position": ["0", "0"]}],
    "forces": [{"name": "s", "type": "spring", "body1": "ground", "point1": ["0", "0"], "body2": "m",
                "stiffness": "1", "length": "1"}]})";
  auto b = dynamics::make_mechanism_model<double>(read_model_text(doc));
  dynamics::SimulationOptions<double> opt;
  opt.t_end = 1;
  opt.dt = 0.1;
  const auto traj = dynamics::simulate(*b.model, b.q0, b.qd0, opt);
  EXPECT_FALSE(traj.completed);
  EXPECT_EQ(traj.stop_reason, "system: forces[0] (s): the spring's points coincide: no direction");
}

}  // namespace
}  // namespace femc
