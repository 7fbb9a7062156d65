// `femc verify`: the claims of the papers, checked on a solver outside femc.
//
//   femc verify --solver "python3 examples/solvers/numpy_pinv.py" [--name N] [--precision P]
//               [--claims E1,G9,…] [--cases K] [--seed S] [--timeout-ms T] [-o DIR]
//
// The solver runs as one process speaking the protocol of
// verify/PROTOCOL.md. Every claim property (femc/verify/claim_table.hpp)
// that its declared capabilities make meaningful runs on it, with femc's
// exact solution of the same data as the reference and the bounds of the
// claims at the working precision's u. The conformance report goes to
// DIR/<name>/: README.md (a table of claims: pass, fail or not applicable,
// each with its slack), conformance.json, and for each failing claim its
// minimal counterexample as `femc solve` input files
// (counterexamples/<claim>.json). Exit 0 when every applicable claim
// passes, 1 when one fails, 2 for bad input (nothing written).
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "commands.hpp"
#include "femc/io/output_file.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/verify/process_solver.hpp"
#include "femc/verify/run_claims.hpp"
#include "femc/verify/system_json.hpp"
#include "framework/study.hpp"
#include "gate/regression_gate.hpp"

namespace femc::cli {
namespace {

namespace fs = std::filesystem;
using verify::ClaimOutcome;
using verify::Verdict;

struct VerifyArgs {
  std::string solver, name, precision = "double", claims, out = "verify-report", studies = "conditioning,rank,perturbed-constraints";
  int cases = 100;
  unsigned long seed = 20261123;
  long timeout_ms = 10000;
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string sci(double x) {
  if (std::isinf(x)) return "∞";
  std::ostringstream s;
  s.precision(2);
  s << x;
  return s.str();
}

// Where the solver's stderr goes while it runs (removed at exit).
fs::path stderr_file;
struct RemoveStderr {
  ~RemoveStderr() {
    std::error_code ec;
    if (!stderr_file.empty()) fs::remove(stderr_file, ec);
  }
} remove_stderr_at_exit;

// The plotting script: $FEMC_PLOT_SCRIPT; else the one installed beside this
// executable (<prefix>/share/femc/, cmake/FemcInstall.cmake); else the
// source tree's, when femc runs from its build directory.
std::string plot_script() {
  if (const char* env = std::getenv("FEMC_PLOT_SCRIPT"); env && *env) return env;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path().parent_path() / "share" / "femc" / "plot_studies.py";
    if (fs::exists(installed, ec)) return installed.string();
  }
  return FEMC_PLOT_SCRIPT;
}

// The studies that compare solvers, for the solver beside cod on the same
// data, run into dir/studies: their CSV, their plots (the theory lines drawn
// by studies/plots/plot_studies.py, when it and matplotlib are found) and
// the solver's own gate metrics (dir/studies/metrics.json, a baseline for
// `femc report --check DIR --solver CMD`). Returns the report's lines.
std::vector<std::string> run_studies(const std::vector<std::string>& names, const std::string& solver,
                                     const fs::path& dir) {
  std::vector<std::string> lines;
  if (names.empty()) return lines;
  studies::StudyConfig config;
  config.solvers = {solver, "cod"};
  std::vector<const studies::Study*> list;
  for (const std::string& n : names) list.push_back(&studies::find_study(n));
  const fs::path sdir = dir / "studies";
  fs::create_directories(sdir);
  const studies::MetricSet all = studies::run_studies(list, config, sdir.string(), 1, false);
  studies::MetricSet own;  // the solver's metrics alone
  std::size_t count = 0;
  for (const auto& [study, metrics] : all)
    for (const studies::Metric& m : metrics)
      if (m.name.find("/" + solver + "/") != std::string::npos) own[study].push_back(m), ++count;
  studies::write_baseline(sdir.string(), own, config.seed);
  for (const std::string& n : names) {
    const std::size_t k = own.count(n) ? own.at(n).size() : 0;
    lines.push_back("- `" + n + "` (quick): `studies/" + n + "/" + n + ".csv`, " + std::to_string(k) +
                    " metrics of the solver" + (k ? "" : " (it has no rows here: the study needs what it does not declare)"));
  }
  lines.push_back("- the solver's gate metrics: `studies/metrics.json` (" + std::to_string(count) +
                  "), a baseline for `femc report --check <this report>/studies --solver …`");
  const std::string script = plot_script();
  if (script.empty() || !fs::exists(script)) {
    lines.push_back("- plots: not drawn (no plot_studies.py at " + script + "; set FEMC_PLOT_SCRIPT)");
    return lines;
  }
  std::string cmd = "/usr/bin/python3 '" + script + "' '" + sdir.string() + "'";
  for (const std::string& n : names) cmd += " " + n;
  cmd += " > '" + (sdir / "plots.log").string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    lines.push_back("- plots: not drawn (plot_studies.py failed, see studies/plots.log)");
    return lines;
  }
  lines.push_back("- plots: drawn by `" + script + "`");
  for (const std::string& n : names)
    for (const auto& e : fs::directory_iterator(sdir / n))
      if (e.path().extension() == ".png") {
        const std::string rel = "studies/" + n + "/" + e.path().filename().string();
        lines.push_back("\n![" + rel + "](" + rel + ")");
      }
  return lines;
}

// The report, written to a fresh directory that replaces DIR/<name> at the end.
void write_report(const VerifyArgs& a, const std::string& name, const verify::SolverProcess& process,
                  const std::string& precision_label, double u, const std::vector<ClaimOutcome>& outcomes) {
  const fs::path final_dir = fs::path(a.out) / name;
  const fs::path tmp = fs::path(a.out) / ("." + name + ".tmp-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp / "counterexamples");
  const std::vector<std::string> study_lines = run_studies(split_list(a.studies), name, tmp);
  const verify::Handshake& h = process.handshake();
  const Capabilities& caps = h.capabilities;
  nlohmann::ordered_json doc;
  doc["solver"] = {{"name", name},
                   {"declared_name", h.name},
                   {"command", a.solver},
                   {"outputs", describe_outputs(caps.outputs)},
                   {"systems", describe_systems(caps)},
                   {"error_model", describe_error_model(caps)},
                   {"precisions", h.precisions}};
  doc["precision"] = precision_label;
  doc["unit_roundoff"] = u;
  doc["cases_per_claim"] = a.cases;
  doc["seed"] = a.seed;
  int pass = 0, fail = 0, na = 0;
  std::ostringstream table;
  table << "| claim | verdict | cases | worst error ÷ bound | slack | counterexample, or why not applicable |\n"
        << "|---|---|---|---|---|---|\n";
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const ClaimOutcome& o : outcomes) {
    nlohmann::ordered_json c = {{"claim", o.id}, {"property", o.suite}, {"verdict", verify::to_string(o.verdict)},
                                {"cases", o.cases}};
    std::string where;
    if (o.verdict == Verdict::Pass) {
      ++pass;
      c["worst_ratio"] = o.worst_ratio;
      c["slack"] = o.worst_ratio > 0 ? 1 / o.worst_ratio : std::numeric_limits<double>::infinity();
    } else if (o.verdict == Verdict::NotApplicable) {
      ++na;
      c["reason"] = o.detail;
      where = o.detail;
    } else {
      ++fail;
      c["failure"] = o.detail;
      nlohmann::ordered_json files = nlohmann::ordered_json::array();
      const std::string first_line = o.detail.substr(0, o.detail.find('\n'));
      for (std::size_t k = 0; k < o.counterexample.size(); ++k) {
        const std::string file = "counterexamples/" + o.suite + (k ? "-" + std::to_string(k + 1) : "") + ".json";
        std::ofstream(tmp / file) << verify::system_json(o.counterexample[k], o.suite,
                                                         "femc verify: minimal counterexample of " + o.id + " for '" +
                                                             name + "' at " + precision_label + " (system " +
                                                             std::to_string(k + 1) + " of " +
                                                             std::to_string(o.counterexample.size()) + ")")
                                  << "\n";
        files.push_back(file);
        where += (where.empty() ? "" : ", ") + ("[" + file + "](" + file + ")");
      }
      c["counterexample"] = files;
      if (where.empty()) where = first_line;
    }
    claims.push_back(c);
    const bool passed = o.verdict == Verdict::Pass;
    table << "| " << o.suite << " | " << verify::to_string(o.verdict) << " | " << o.cases << " | "
          << (passed ? sci(o.worst_ratio) : "") << " | "
          << (passed ? (o.worst_ratio > 0 ? sci(1 / o.worst_ratio) : "∞") : "") << " | " << where << " |\n";
  }
  doc["claims"] = claims;
  const auto& n = process.counts();
  doc["process"] = {{"calls", n.calls},     {"refusals", n.refusals},           {"crashes", n.crashes},
                    {"timeouts", n.timeouts}, {"protocol_errors", n.protocol_errors}, {"starts", n.starts}};
  doc["summary"] = {{"pass", pass}, {"fail", fail}, {"not_applicable", na}};
  std::ofstream(tmp / "conformance.json") << doc.dump(2) << "\n";

  std::ofstream md(tmp / "README.md");
  md << "# Conformance of `" << name << "`\n\n"
     << "`femc verify` ran the claim properties of femc (`../shared/CLAIMS.md`) on this solver at " << precision_label
     << " (u = " << sci(u) << "), " << a.cases << " cases per claim, seed " << a.seed
     << ". Each case is drawn exactly, given to the solver rounded to the working precision, and checked against "
        "femc's exact solution of the same data within the claim's bound c·u·K, K = κ(M)·κ(P)²·κ(A), "
        "c = 16(n + m)² (verify/include/femc/verify/claims.hpp).\n\n"
     << "- Command: `" << a.solver << "`\n"
     << "- Declared: returns " << describe_outputs(caps.outputs) << "; takes " << describe_systems(caps)
     << "; " << describe_error_model(caps) << " (the studies' theory lines)\n"
     << "- Result: " << pass << " pass, " << fail << " fail, " << na << " not applicable\n"
     << "- Process: " << n.calls << " calls, " << n.refusals << " refusals, " << n.crashes << " crashes, "
     << n.timeouts << " timeouts, " << n.protocol_errors << " protocol errors, " << n.starts << " starts\n\n"
     << "The worst error ÷ bound is the largest ratio over every check of the passing cases; the slack, its "
        "inverse, is how many times larger an error could have been and still passed.\n\n"
     << table.str();
  if (fail) {
    md << "\n## Failures\n";
    for (const ClaimOutcome& o : outcomes)
      if (o.verdict == Verdict::Fail || o.verdict == Verdict::GaveUp)
        md << "\n### " << o.suite << "\n\n```\n" << o.detail << "\n```\n";
    md << "\nEach counterexample reproduces with `femc solve counterexamples/<claim>.json --precision "
       << precision_label << "` beside the solver's own answer.\n";
  }
  if (!study_lines.empty()) {
    md << "\n## Studies\n\nThe solver beside femc's cod on the same data (cod at every precision of the study, the "
          "solver at " << precision_label << "), with the theory lines of the study:\n\n";
    for (const std::string& l : study_lines) md << l << "\n";
  }
  md.close();
  fs::remove_all(final_dir);
  fs::rename(tmp, final_dir);
}

template <class S>
int run_at(const VerifyArgs& a, const std::shared_ptr<verify::SolverProcess>& process, const std::string& name,
           const std::string& label, const std::vector<const prop::ClaimProperty*>& claims) {
  const RegisteredSolver& solver = solvers().add(verify::process_solver<S>(process, name, label));
  verify::ClaimRunOptions o;
  o.cases = a.cases;
  o.seed = a.seed;
  o.before_claim = [&] { process->forgive_hang(); };
  const std::vector<ClaimOutcome> outcomes = verify::run_claims<S>(claims, solver, o);
  write_report(a, name, *process, label, static_cast<double>(unit_roundoff<S>()), outcomes);
  std::error_code ec;
  fs::copy_file(stderr_file, fs::path(a.out) / name / "solver-stderr.txt", fs::copy_options::overwrite_existing, ec);
  int failed = 0;
  for (const ClaimOutcome& c : outcomes) {
    if (c.verdict == Verdict::Fail || c.verdict == Verdict::GaveUp) ++failed;
    std::cout << c.suite << ": " << verify::to_string(c.verdict) << "\n";
  }
  std::cout << "femc verify: report in " << (fs::path(a.out) / name).string() << "\n";
  return failed ? kExitRegression : 0;
}

int run(const VerifyArgs& a) {
  // Everything that can be judged before the solver runs.
  const std::vector<const prop::ClaimProperty*> claims = verify::select_claims(split_list(a.claims));
  if (a.cases < 1 || a.cases > 100000) throw InputError("cases", "must be 1 to 100000, not " + std::to_string(a.cases));
  if (a.timeout_ms < 1) throw InputError("timeout-ms", "must be positive, not " + std::to_string(a.timeout_ms));
  for (const std::string& s : split_list(a.studies)) {
    std::string choices;
    bool known = false;
    for (const auto& study : studies::all_studies())
      if (study->compares_solvers()) {
        choices += (choices.empty() ? "" : ", ") + study->name();
        known = known || study->name() == s;
      }
    if (!known) throw InputError("studies", "'" + s.substr(0, 40) + "' is not a study that compares solvers (" + choices + ")");
  }
  const std::string& p = a.precision;
  std::optional<long> bits = mpfr_bits(p);
  if (p != "double" && p != "float128" && p != "exact" && !bits)
    throw InputError("precision", "'" + p.substr(0, 40) + "' (the claims run at double, float128, exact, or MPFR bits)");
  if (!fs::is_directory(a.out) && !fs::create_directories(a.out))
    throw InputError("out", "cannot create directory '" + a.out + "'");
  io::check_output_path((fs::path(a.out) / "probe").string());
  // The solver's stderr: beside the report in the end; quoted when it fails to start.
  const fs::path err = fs::temp_directory_path() / ("femc-verify-" + std::to_string(::getpid()) + ".stderr");
  std::shared_ptr<verify::SolverProcess> process;
  try {
    process = std::make_shared<verify::SolverProcess>(a.solver, std::chrono::milliseconds(a.timeout_ms), err.string());
  } catch (const InputError& e) {
    std::ifstream in(err);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    fs::remove(err);
    throw InputError(e.field(), std::string(e.what()).substr(e.field().size() + 2) +
                                    (last.empty() ? "" : "; its stderr: " + last.substr(0, 200)));
  }
  stderr_file = err;
  const verify::Handshake& h = process->handshake();
  const std::string name = !a.name.empty() ? a.name : !h.name.empty() ? h.name : "solver";
  if (std::find(h.precisions.begin(), h.precisions.end(), p) == h.precisions.end())
    throw InputError("precision", "the solver declares " + nlohmann::json(h.precisions).dump() + ", not '" + p + "'");
  if (p == "double") return run_at<double>(a, process, name, p, claims);
  if (p == "float128") return run_at<float128>(a, process, name, p, claims);
  if (p == "exact") return run_at<rational>(a, process, name, p, claims);
  MpfrPrecision guard(*bits);
  return run_at<mpfr_real>(a, process, name, p, claims);
}

}  // namespace

std::function<int()> add_verify_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand("verify", "Check the papers' claims on a solver outside femc (a process)");
  cmd->add_option("--solver", args->solver, "the solver's command line (run by /bin/sh), speaking verify/PROTOCOL.md")
      ->required();
  cmd->add_option("--name", args->name, "the report's name (default: the name the solver declares)");
  cmd->add_option("--precision", args->precision, "double (default), float128, exact, or MPFR bits");
  cmd->add_option("--claims", args->claims, "claim IDs or property names, comma-separated (default: all)");
  cmd->add_option("--cases", args->cases, "cases per claim (default 100)");
  cmd->add_option("--studies", args->studies,
                  "studies that compare solvers, comma-separated (default conditioning,rank,perturbed-constraints; \"\" for none)");
  cmd->add_option("--seed", args->seed, "RapidCheck's seed (default 20261123)");
  cmd->add_option("--timeout-ms", args->timeout_ms, "per-call timeout of the solver (default 10000)");
  cmd->add_option("-o,--out", args->out, "the report's parent directory (default verify-report)");
  return [args] { return with_exit_status([&] { return run(*args); }); };
}

}  // namespace femc::cli
