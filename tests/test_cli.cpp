// `femc solve` end to end: the answer at double and at 256 bits reproduces
// the exact method on a rank-deficient, inconsistent, weighted system; bad
// input exits 2 with one stderr line, nothing on stdout and no output file.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "femc/dynamics/simulation/radau_tableau.hpp"
#include "femc/io/json_system.hpp"
#include "femc/options.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "support/cli_run.hpp"
#include "support/rank_deciding_methods.hpp"

namespace femc {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::slurp;

CliRun femc(const std::string& args) { return test::run_cli(FEMC_CLI, args, "femc_cli"); }

std::string example(const std::string& name) { return std::string(FEMC_EXAMPLES) + "/" + name; }

// Reads a decimal string of the output at 1024 bits and the exact rational
// reference, and returns |x − ref| / (1 + |ref|) at 1024 bits, as a double.
double rel_diff(const std::string& x, const std::string& ref) {
  MpfrPrecision p(1024);
  mpfr_real a = ScalarTraits<mpfr_real>::parse(x);
  rational r = ScalarTraits<rational>::parse(ref);
  mpfr_real b;
  mpfr_set_q(b.mpfr_ptr(), r.backend().data(), MPFR_RNDN);
  return static_cast<double>(abs(a - b) / (1 + abs(b)));
}

TEST(Cli, ReproducesExactOnARankDeficientInconsistentWeightedSystem) {
  CliRun exact = femc("solve --precision exact " + example("weighted_inconsistent.json"));
  ASSERT_EQ(exact.status, 0) << exact.err;
  auto ref = nlohmann::json::parse(exact.out);
  EXPECT_EQ(ref["rank"], 2);
  EXPECT_EQ(ref["method"], "exact");
  EXPECT_NE(ref["delta_norm_sq"], "0");  // inconsistent
  // Bound: c·u·K with K = κ(M)κ(P)²κ(A) ≈ 5e3 for this system and c = 16(n+m)² = 576
  // (tests/test_methods_agree.cpp): 3e6·u.
  // Every method that decides a rank in floating point, at double and 256 bits.
  struct Case { std::string precision, method; double u; };
  std::vector<Case> cases;
  for (const Method m : test::rank_deciding_methods())
    for (const Case& c : {Case{"double", to_string(m), 0x1p-53}, Case{"256", to_string(m), 0x1p-256}}) cases.push_back(c);
  for (const Case& c : cases) {
    CliRun r = femc("solve --precision " + c.precision + " --method " + c.method + " " + example("weighted_inconsistent.json"));
    ASSERT_EQ(r.status, 0) << r.err;
    auto got = nlohmann::json::parse(r.out);
    EXPECT_EQ(got["rank"], 2);
    const double bound = 3e6 * c.u;
    for (const char* key : {"qdd", "QN", "QW", "Qc", "lambda"})
      for (std::size_t i = 0; i < ref[key].size(); ++i)
        EXPECT_LE(rel_diff(got[key][i], ref[key][i]), bound) << c.precision << " " << c.method << " " << key << i;
    EXPECT_LE(rel_diff(got["Gg_min"], ref["Gg_min"]), bound);
    EXPECT_LE(rel_diff(got["delta_norm_sq"], ref["delta_norm_sq"]), bound);
  }
}

TEST(Cli, WritesTheOutputFileAtomically) {
  fs::path out = fs::temp_directory_path() / ("femc_out_" + std::to_string(::getpid()) + ".json");
  CliRun r = femc("solve " + example("particle_on_plane.json") + " -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  auto j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j["precision"], "double");
  EXPECT_EQ(j["lambda"].size(), 1u);
  fs::remove(out);
}

TEST(Cli, BadInputExitsTwoWithOneLineAndNoOutput) {
  fs::path dir = fs::temp_directory_path() / ("femc_bad_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string good = example("particle_on_plane.json");
  struct Case { std::string args, field; };
  const std::vector<Case> cases = {
      {write("malformed.json", "{\"M\": ["), "document"},
      {write("asym.json", R"({"M": [[1, 2], [0, 1]], "A": [], "b": [], "Q": [1, 1]})"), "M"},
      {write("notpd.json", R"({"M": [[1, 2], [2, 1]], "A": [], "b": [], "Q": [1, 1]})"), "M"},
      {write("shape.json", R"({"M": [[1]], "A": [[1]], "b": [1, 2], "Q": [1]})"), "b"},
      {good + " --precision 7", "precision"},
      {good + " --precision quad", "precision"},
      {good + " --method magic", "method"},
      {good + " --precision exact --method cod", "method"},
      {good + " --rank-tol -1", "rank-tol"},
      {good + " --data-precision half", "data-precision"},
      {write("dataprec.json", R"({"M": [[1]], "A": [], "b": [], "Q": [1], "data_precision": "7bits"})"),
       "data_precision"},
      {(dir / "missing.json").string(), "input"},
      {good + " -o /nonexistent-dir/x.json", "output"},
  };
  for (const Case& c : cases) {
    fs::path out = dir / "result.json";
    CliRun r = femc("solve " + c.args + (c.args.find(" -o ") == std::string::npos ? " -o " + out.string() : ""));
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
    EXPECT_FALSE(fs::exists(out)) << c.args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(c.field), std::string::npos) << c.field << " not named in: " << r.err;
  }
  fs::remove_all(dir);
}

// The example of the two precisions (docs/rank.md): Simbody 3.7's Bricard mechanism
// (6 constraint rows of true rank 5, extracted in double). At 256 bits and
// exactly, given the data's precision (option or input key), rank 5 and
// Simbody's u̇; without it, M is refused at 256 bits (asymmetric by double's
// rounding) and the exact answer keeps rank 6 with a warning. Agreement with
// Simbody's u̇: within the bound of tests/test_rounded_data.cpp for this
// state, 2·16(n + m)²·κ(M)κ_r(P)·(data + |u̇|)·u = 1.9e-8 (printed there).
TEST(Cli, DataPrecisionDecidesTheRankOfRoundedData) {
  const std::string dir = std::string(FEMC_TEST_DATA) + "/simbody_bricard/";
  const auto sim = nlohmann::json::parse(slurp(dir + "bricard_0_simbody.json"));
  for (const std::string precision : {"256", "exact"}) {
    CliRun r = femc("solve --precision " + precision + " --data-precision double " + dir + "bricard_0.json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto got = nlohmann::json::parse(r.out);
    EXPECT_EQ(got["rank"], 5) << precision;
    EXPECT_EQ(got["data_precision"], "double");
    EXPECT_FALSE(got["diagnostics"]["rank_tol_data"].is_null());
    EXPECT_NE(got["diagnostics"]["data_precision_rule"].get<std::string>().find("--data-precision"), std::string::npos);
    for (std::size_t i = 0; i < 6; ++i) {
      MpfrPrecision p(256);
      const double x = static_cast<double>(ScalarTraits<mpfr_real>::parse(got["qdd"][i].get<std::string>()));
      EXPECT_NEAR(x, sim["udot"][i].get<double>(), 1.9e-8) << precision << " q̈[" << i << "]";
    }
  }
  for (const std::string precision : {"256", "exact"}) {
    CliRun refused = femc("solve --precision " + precision + " " + dir + "bricard_0.json");
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("M: not symmetric"), std::string::npos) << refused.err;
  }
  // M made symmetric by copying its lower triangle (the doubles written back
  // to round-trip): exact data now, and the noise row is kept with a warning.
  auto doc = nlohmann::json::parse(slurp(dir + "bricard_0.json"));
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = i + 1; j < 6; ++j) doc["M"][i][j] = doc["M"][j][i];
  const fs::path sym = fs::temp_directory_path() / ("femc_bricard_sym_" + std::to_string(::getpid()) + ".json");
  std::ofstream(sym) << doc.dump();
  CliRun face = femc("solve --precision exact " + sym.string());
  fs::remove(sym);
  ASSERT_EQ(face.status, 0) << face.err;
  const auto got = nlohmann::json::parse(face.out);
  EXPECT_EQ(got["rank"], 6);
  EXPECT_EQ(got["data_precision"], "exact");
  EXPECT_NE(got["diagnostics"]["data_precision_rule"].get<std::string>().find("precision was not stated"),
            std::string::npos);
  ASSERT_EQ(got["diagnostics"]["warnings"].size(), 1u);
  EXPECT_NE(got["diagnostics"]["warnings"][0].get<std::string>().find("rounding noise"), std::string::npos);
  // M made symmetric by averaging, (M + Mᵀ)/2 written exactly as p/q: numbers
  // no double writes, still data rounded to double. Its precision unstated,
  // the noise row kept at 256 bits is warned about all the same; stated
  // exact, it is not.
  auto averaged = nlohmann::json::parse(slurp(dir + "bricard_0.json"));
  const System<rational> data = to_system<rational>(read_system_text(slurp(dir + "bricard_0.json")));
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j)
      averaged["M"][i][j] = rational((data.M(Index(i), Index(j)) + data.M(Index(j), Index(i))) / 2).str();
  const fs::path avg = fs::temp_directory_path() / ("femc_bricard_avg_" + std::to_string(::getpid()) + ".json");
  std::ofstream(avg) << averaged.dump();
  CliRun unstated = femc("solve --precision 256 " + avg.string());
  CliRun stated = femc("solve --precision 256 --data-precision exact " + avg.string());
  fs::remove(avg);
  ASSERT_EQ(unstated.status, 0) << unstated.err;
  ASSERT_EQ(stated.status, 0) << stated.err;
  const auto u = nlohmann::json::parse(unstated.out), e = nlohmann::json::parse(stated.out);
  EXPECT_EQ(u["rank"], 6);
  EXPECT_EQ(e["rank"], 6);
  ASSERT_EQ(u["diagnostics"]["warnings"].size(), 1u) << unstated.out;
  EXPECT_NE(u["diagnostics"]["warnings"][0].get<std::string>().find("rounding noise"), std::string::npos);
  EXPECT_EQ(e["diagnostics"]["warnings"].size(), 0u) << stated.out;
}

// A system with sparse matrices is solved by method sparse (the default for
// it) without a dense matrix; its q̈ is cod's on the same system to the
// bound of tests/test_sparse.cpp, 2·u·4√(n + m)·(κ(B) + κ(M))·‖q̈‖∞ with
// cod's estimates of κ; --method cod solves its dense copy.
TEST(Cli, ASparseSystemFileIsSolvedSparse) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("femc_sparse_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "sparse.json").string();
  std::ofstream(path) << R"({"M": {"rows": 3, "cols": 3, "entries": [[0, 0, 2], [1, 1, 3], [2, 2, 4]]},
    "A": {"rows": 2, "cols": 3, "entries": [[0, 0, 1], [0, 1, -1], [1, 1, 1], [1, 2, 1], [0, 2, "1/2"]]},
    "b": [1, 2], "Q": [0, -9.81, 1]})";
  const CliRun sparse = femc("solve " + path);
  const CliRun cod = femc("solve " + path + " --method cod");
  fs::remove_all(dir);
  ASSERT_EQ(sparse.status, 0) << sparse.err;
  ASSERT_EQ(cod.status, 0) << cod.err;
  const auto a = nlohmann::json::parse(sparse.out), c = nlohmann::json::parse(cod.out);
  EXPECT_EQ(a["method"], "sparse");
  EXPECT_EQ(c["method"], "cod");
  EXPECT_EQ(a["rank"], 2);
  const double kB = std::stod(c["diagnostics"]["kappa_B"].get<std::string>());
  const double kM = std::stod(c["diagnostics"]["kappa_M"].get<std::string>());
  double scale = 0;
  for (int i = 0; i < 3; ++i) scale = std::max(scale, std::abs(std::stod(c["qdd"][i].get<std::string>())));
  const double bound = 2 * 0x1p-53 * 4 * std::sqrt(5.0) * (kB + kM) * scale;
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(std::stod(a["qdd"][i].get<std::string>()), std::stod(c["qdd"][i].get<std::string>()), bound) << i;
}

TEST(Cli, KktOnRankDeficientConstraintsIsAnErrorNotAWrongAnswer) {
  CliRun r = femc("solve --method kkt " + example("weighted_inconsistent.json"));
  EXPECT_EQ(r.status, 3);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("full row rank"), std::string::npos) << r.err;
}

// `femc describe --json` (issue 43): the scripts' source for the methods and
// precisions. Every method of the list is there with the capabilities the
// registry holds (a method dropped or a law mistyped fails), the default is
// Options' default, and every method runs at every precision of its
// arithmetic (seven precisions: six floating, exact).
TEST(Cli, DescribeGivesEveryMethodAndPrecisionAsData) {
  const CliRun r = femc("describe --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto d = nlohmann::json::parse(r.out);
  EXPECT_EQ(d["default_method"], to_string(Options<double>{}.method));
  ASSERT_EQ(d["precisions"].size(), 7u);
  std::size_t floating = 0;
  for (const auto& p : d["precisions"]) floating += p["arithmetic"] == "floating";
  ASSERT_EQ(d["methods"].size(), methods().size());
  for (std::size_t i = 0; i < methods().size(); ++i) {
    const MethodInfo& info = methods()[i];
    const auto& m = d["methods"][i];
    EXPECT_EQ(m["name"], info.name);
    EXPECT_EQ(m["error_growth"], info.capabilities.error_growth) << info.name;
    EXPECT_EQ(m["residual_mass_power"], info.capabilities.residual_mass_power) << info.name;
    EXPECT_EQ(m["rank_deficient"], info.capabilities.rank_deficient) << info.name;
    EXPECT_EQ(m["precisions"].size(), info.capabilities.arithmetic == Arithmetic::Exact ? 1u : floating) << info.name;
  }
  // "models": femc simulate runs at exactly the precisions that say so, and
  // refuses the others naming the field.
  for (const auto& p : d["precisions"]) {
    const std::string name = p["name"] == "BITS" ? "128" : p["name"].get<std::string>();
    const CliRun s = femc("simulate spherical-pendulum --stepper rk4 --dt 0.01 --t-end 0.02 --precision " + name);
    EXPECT_EQ(s.status == 0, p["models"].get<bool>()) << name << ": " << s.err;
    if (!p["models"].get<bool>()) EXPECT_NE(s.err.find("precision"), std::string::npos) << name << ": " << s.err;
  }
  EXPECT_EQ(femc("describe").status, 0);
}

// `femc simulate` (issue: trajectories). Y4 with 003's data: a CSV with one
// row per record (0, 0.01, …, 0.7: 71 rows) and a JSON summary; the bars fly,
// land (the first impact, both feet at once by symmetry) and slide.
TEST(CliSimulate, TwoBarsWritesCsvAndSummary) {
  const fs::path csv = fs::temp_directory_path() / ("femc_y4_" + std::to_string(::getpid()) + ".csv");
  CliRun r = femc("simulate two-bars -o " + csv.string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["completed"], true);
  EXPECT_EQ(summary["precision"], "double");
  ASSERT_GE(summary["events"].size(), 1u);
  EXPECT_EQ(summary["events"][0]["what"], "impact");
  EXPECT_NEAR(summary["events"][0]["t"].get<double>(), 0.505, 0.01);
  EXPECT_LT(summary["max_abs_balance"].get<double>(), 1e-6);
  std::istringstream lines(slurp(csv));
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("t,x,y,theta1,theta2,dx,dy,dtheta1,dtheta2,energy,", 0), 0u) << header;
  EXPECT_NE(header.find("normal_force_A,normal_force_C"), std::string::npos);
  int rows = 0;
  while (std::getline(lines, line)) ++rows;
  EXPECT_EQ(rows, 71);
  fs::remove(csv);
}

// The same run at double and at 128 bits agrees to the integrator tolerance
// (10⁻¹⁰ per step; 10⁻⁷ on the final state leaves room for ≈ 200 steps).
TEST(CliSimulate, PrecisionsAgreeToTheTolerance) {
  CliRun d = femc("simulate sliding-bar");
  CliRun m = femc("simulate sliding-bar --precision 128");
  ASSERT_EQ(d.status, 0) << d.err;
  ASSERT_EQ(m.status, 0) << m.err;
  auto last = [](const std::string& csv) {
    std::istringstream in(csv);
    std::string line, prev;
    while (std::getline(in, line)) prev = line;
    std::vector<double> v;
    std::istringstream row(prev);
    std::string cell;
    while (std::getline(row, cell, ',')) v.push_back(std::stod(cell));
    return v;
  };
  const auto a = last(d.out), b = last(m.out);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < 7; ++i) EXPECT_NEAR(a[i], b[i], 1e-7) << "column " << i;
}

// A run the model ends early (the hinge of Y4 reaches the ground at ≈ 0.74 s)
// exits 3, with the reason in the summary and the CSV up to there.
TEST(CliSimulate, EarlyStopExitsThreeWithTheReason) {
  CliRun r = femc("simulate two-bars --t-end 2");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("hinge B reached the ground"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\n0.7"), std::string::npos) << "records up to the stop";
}

// --record-every K keeps the records at K·dt, 2K·dt, … and the last, the
// same rows as the full run's at those times (the steps are the same).
TEST(CliSimulate, RecordEveryKeepsEveryKthRecordAndTheLast) {
  const std::string args = "simulate spherical-pendulum --stepper rk4 --dt 0.01 --t-end 0.1";
  const CliRun all = femc(args), some = femc(args + " --record-every 3");
  ASSERT_EQ(all.status, 0) << all.err;
  ASSERT_EQ(some.status, 0) << some.err;
  auto rows = [](const std::string& csv) {
    std::vector<std::string> out;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  };
  const auto a = rows(all.out), b = rows(some.out);
  ASSERT_EQ(a.size(), 12u);  // the header and t = 0, 0.01, …, 0.1
  ASSERT_EQ(b.size(), 6u);   // the header and t = 0, 0.03, 0.06, 0.09, 0.1
  for (std::size_t i : {0, 1, 4, 7, 10, 11}) EXPECT_NE(std::find(b.begin(), b.end(), a[i]), b.end()) << "row " << i;
  EXPECT_EQ(nlohmann::json::parse(some.err)["record_every"], 3);
  // A run that stops early (Y4's hinge reaches the ground at ≈ 0.74 s) keeps
  // the last state it reached, whatever K, and stamps its stop there.
  const CliRun full = femc("simulate two-bars --t-end 2"), thin = femc("simulate two-bars --t-end 2 --record-every 7");
  ASSERT_EQ(full.status, 3) << full.err;
  ASSERT_EQ(thin.status, 3) << thin.err;
  EXPECT_EQ(rows(thin.out).back(), rows(full.out).back());
  EXPECT_LT(rows(thin.out).size(), rows(full.out).size() / 5);
  EXPECT_EQ(nlohmann::json::parse(thin.err)["events"].back(), nlohmann::json::parse(full.err)["events"].back());
}

TEST(CliSimulate, BadOptionsExitTwoWithOneLineAndNoOutput) {
  const fs::path csv = fs::temp_directory_path() / ("femc_bad_" + std::to_string(::getpid()) + ".csv");
  for (const char* args : {"nosuch", "two-bars --t-end -1", "two-bars --dt 0", "two-bars --dt 5",
                           "two-bars --tol abc", "two-bars --tol 1e-30", "two-bars --precision 7",
                           "two-bars --precision dd", "two-bars --stepper euler", "two-bars --baumgarte 1",
                           "two-bars --baumgarte -1,2", "two-bars --contact-model xyz", "two-bars --contact-tol 0",
                           "two-bars --t-end 1e9 --dt 1e-9", "two-bars --record-every 0",
                           "two-bars --record-every 1.5", "two-bars --record-every 99999999999",
                           "two-bars --stepper radau-iia --stages 0", "two-bars --stepper radau-iia --stages 13",
                           "two-bars --stepper radau-iia --stages 2.5", "two-bars --stepper radau-iia --stages 100",
                           "two-bars --stepper radau-iia --stages 9999999999", "two-bars --stages 3", ""}) {
    CliRun r = femc(std::string("simulate ") + args + " -o " + csv.string());
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_FALSE(fs::exists(csv)) << args;
  }
}

// An integer option out of range is told its range, not that it is no
// integer: the CLI reads the text (decimal_integer), simulate() checks the
// range.
TEST(CliSimulate, AnOutOfRangeIntegerIsToldItsRange) {
  for (const char* stages : {"13", "100", "999999999"}) {
    const CliRun r = femc(std::string("simulate two-bars --stepper radau-iia --t-end 0.01 --stages ") + stages);
    EXPECT_EQ(r.status, 2) << stages;
    const std::string range = "[" + std::to_string(femc::dynamics::simulation::kMinRadauStages) + ", " +
                              std::to_string(femc::dynamics::simulation::kMaxRadauStages) + "]";
    EXPECT_NE(r.err.find("stages: must be in " + range + ", got " + stages), std::string::npos) << r.err;
  }
  const CliRun r = femc("simulate two-bars --stepper radau-iia --t-end 0.01 --stages 1e2");
  EXPECT_NE(r.err.find("stages: must be an integer"), std::string::npos) << r.err;
}

// femc study / femc report: bad options exit 2 with one line naming the
// field, and write nothing.
TEST(CliStudy, BadOptionsExitTwoWithOneLineAndNoOutput) {
  const fs::path out = fs::temp_directory_path() / ("femc_study_" + std::to_string(::getpid()));
  fs::create_directories(out);
  for (const char* args : {"study nosuch", "study rank --size huge", "study rank --shard 3/2", "study rank --shard x",
                           "study rank --shard 0/2", "study rank --jobs 0", "study rank --merge --fresh", "study",
                           "report", "report --check /nonexistent/baseline", "report --check a --update-baseline b",
                           "report --check /nonexistent --factor 0.5", "report --update-baseline x --degrade normal-equations",
                           "report --check x --degrade worse"}) {
    CliRun r = femc(std::string(args) + " --out " + out.string());
    if (std::string(args).rfind("report", 0) == 0) r = femc(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_TRUE(fs::is_empty(out)) << args;
  }
  // --out is created when missing (as femc verify's -o); one under a file
  // cannot be.
  std::ofstream(out / "a-file") << "x";
  CliRun r = femc("study painleve --out " + (out / "a-file" / "reports").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("out"), std::string::npos) << r.err;
  r = femc("study painleve --out " + (out / "new" / "reports").string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "new" / "reports" / "painleve" / "painleve.csv"));
  fs::remove_all(out);
}

// A study run writes the table and the record, and a second run with the
// same seed writes the same table.
TEST(CliStudy, PainleveRunIsDeterministic) {
  const fs::path out = fs::temp_directory_path() / ("femc_study_run_" + std::to_string(::getpid()));
  fs::create_directories(out);
  ASSERT_EQ(femc("study painleve --jobs 2 --out " + out.string()).status, 0);
  const std::string first = slurp(out / "painleve" / "painleve.csv");
  auto record = nlohmann::json::parse(slurp(out / "painleve" / "painleve.json"));
  EXPECT_EQ(record["study"], "painleve");
  EXPECT_EQ(record["size"], "quick");
  EXPECT_FALSE(record["commit"].get<std::string>().empty());
  EXPECT_FALSE(fs::exists(out / "painleve" / "cells"));
  ASSERT_EQ(femc("study painleve --jobs 1 --fresh --out " + out.string()).status, 0);
  EXPECT_EQ(slurp(out / "painleve" / "painleve.csv"), first);
  fs::remove_all(out);
}

}  // namespace
}  // namespace femc
