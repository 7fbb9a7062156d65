// `femc verify`: the claims of the papers, checked on a solver outside femc
// or on one of femc's methods.
//
//   femc verify --solver "python3 examples/solvers/numpy_pinv.py" [--name N] [--precision P]
//               [--claims E1,G9,…] [--cases K] [--seed S] [--timeout-ms T] [--studies …] [-o DIR]
//   femc verify --method cod [--precision P] …
//
// A process solver runs as one process speaking the protocol of
// verify/PROTOCOL.md. Every claim property (femc/verify/claim_table.hpp)
// that its declared capabilities make meaningful runs on it, with femc's
// exact solution of the same data as the reference and the solver's
// declared error law at the working precision's u as the bound
// (femc/verify/error_law.hpp); then the studies that compare solvers run,
// each ending in a verdict (study.hpp, failures). The conformance report
// (femc/verify/report.hpp) goes to DIR/<name>/. Exit 0 when every
// applicable claim and every study passes, 1 when one fails, 2 for bad
// input (nothing written).
//
// Under `mpirun -n K` (built with MPI) the claims and the studies' cells are
// spread over K ranks, each with its own solver process; see run_claims_at.
#include <CLI/CLI.hpp>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "femc/scalar/visit_precision.hpp"
#include "femc/io/output_file.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/verify/process_solver.hpp"
#include "femc/verify/report.hpp"
#include "femc/verify/run_claims.hpp"
#include "femc/verify/system_json.hpp"
#include "framework/distribute.hpp"
#include "framework/runner.hpp"
#include "framework/study.hpp"
#include "gate/regression_gate.hpp"

namespace femc::cli {
namespace {

namespace fs = std::filesystem;
using verify::ClaimOutcome;
using verify::Verdict;

struct VerifyArgs {
  std::string solver, method, name, precision = "double", claims, out = "verify-report",
                                    studies = "conditioning,rank,perturbed-constraints";
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
// In an MPI job every rank calls it and computes cells with its own solver
// process; rank 0 writes and returns the lines, the others nothing.
struct StudiesDone {
  std::vector<std::string> lines;
  std::vector<verify::StudyVerdict> verdicts;
};

// Each study's verdict on the solver (study.hpp, failures), with the
// systems of its failing cells as the solver received them.
std::vector<verify::StudyVerdict> study_verdicts(const std::vector<const studies::Study*>& list,
                                                 const studies::StudyConfig& config, const std::string& solver,
                                                 const fs::path& sdir) {
  std::vector<verify::StudyVerdict> out;
  for (const studies::Study* study : list) {
    const std::string rule = study->verdict_rule();
    if (rule.empty()) continue;
    verify::StudyVerdict v;
    v.study = study->name();
    v.rule = rule;
    const studies::Table table = studies::read_table((sdir / v.study / (v.study + ".csv")).string());
    const std::vector<studies::Cell> cells = study->cells(config);
    for (const studies::CellFailure& f : study->failures(table, solver)) {
      verify::StudyVerdict::Failure failure{f.cell, f.precision, f.why, {}};
      for (const studies::Cell& c : cells)
        if (c.key == f.cell)
          for (const System<rational>& sys : study->cell_systems(c, config, f.precision))
            failure.systems.push_back(verify::to_system_text(sys));
      v.failures.push_back(failure);
    }
    out.push_back(v);
  }
  return out;
}

StudiesDone run_studies(const std::vector<std::string>& names, const std::string& solver, const fs::path& dir) {
  StudiesDone done;
  std::vector<std::string>& lines = done.lines;
  if (names.empty()) return done;
  studies::StudyConfig config;
  config.solvers = {solver, "cod"};
  std::vector<const studies::Study*> list;
  for (const std::string& n : names) list.push_back(&studies::find_study(n));
  const fs::path sdir = dir / "studies";
  if (studies::distributed::rank() == 0) fs::create_directories(sdir);
  const studies::MetricSet all = studies::run_studies(list, config, sdir.string(), 1, false, true);
  if (studies::distributed::rank() != 0) return done;
  done.verdicts = study_verdicts(list, config, solver, sdir);
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
    return done;
  }
  std::string cmd = "/usr/bin/python3 '" + script + "' '" + sdir.string() + "'";
  for (const std::string& n : names) cmd += " " + n;
  cmd += " > '" + (sdir / "plots.log").string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    lines.push_back("- plots: not drawn (plot_studies.py failed, see studies/plots.log)");
    return done;
  }
  lines.push_back("- plots: drawn by `" + script + "`");
  for (const std::string& n : names)
    for (const auto& e : fs::directory_iterator(sdir / n))
      if (e.path().extension() == ".png") {
        const std::string rel = "studies/" + n + "/" + e.path().filename().string();
        lines.push_back("\n![" + rel + "](" + rel + ")");
      }
  return done;
}

// What the solver processes did: the one process's counts, or in an MPI job
// the sum over the ranks' processes (on rank 0), with their stderr.
struct ProcessRecord {
  verify::SolverProcess::Counts counts;
  std::string stderr_text;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

ProcessRecord gather_process_record(const verify::SolverProcess& process) {
  const auto& c = process.counts();
  std::ostringstream mine;
  mine << c.calls << " " << c.refusals << " " << c.crashes << " " << c.timeouts << " " << c.protocol_errors << " "
       << c.starts << "\n"
       << read_file(stderr_file);
  const std::vector<std::string> all = studies::distributed::gather(mine.str());
  ProcessRecord r;
  for (std::size_t k = 0; k < all.size(); ++k) {
    std::istringstream in(all[k]);
    verify::SolverProcess::Counts n;
    in >> n.calls >> n.refusals >> n.crashes >> n.timeouts >> n.protocol_errors >> n.starts;
    in.ignore(1);
    r.counts.calls += n.calls, r.counts.refusals += n.refusals, r.counts.crashes += n.crashes;
    r.counts.timeouts += n.timeouts, r.counts.protocol_errors += n.protocol_errors, r.counts.starts += n.starts;
    const std::string text(std::istreambuf_iterator<char>(in), {});
    if (all.size() == 1) r.stderr_text = text;
    else if (!text.empty()) r.stderr_text += "--- the solver of rank " + std::to_string(k) + " ---\n" + text;
  }
  return r;
}

// The report's directory while it is written: DIR/.<name>.tmp-<pid>, renamed
// to DIR/<name> at the end. One left by a femc that was killed (its process
// is gone) is removed by the next run into DIR.
fs::path report_tmp_dir(const VerifyArgs& a, const std::string& name) {
  const std::string prefix = "." + name + ".tmp-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(a.out, ec)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(f.c_str() + prefix.size(), &end, 10);
    if (*end == '\0' && pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
  }
  return fs::path(a.out) / (prefix + std::to_string(::getpid()));
}

// The claims on a registered solver at S, every rank of an MPI job each
// with its own solver process (`mpirun -n K femc verify …`): the claims are
// cells handed out by rank 0 (studies/framework/distribute.hpp) in the
// table's order, and so are the studies' cells.
template <class S>
std::vector<ClaimOutcome> run_claims_at(const RegisteredSolver& solver, const VerifyArgs& a,
                                        const std::vector<const prop::ClaimProperty*>& claims,
                                        const std::shared_ptr<verify::SolverProcess>& process, std::optional<long> bits) {
  namespace distributed = studies::distributed;
  verify::ClaimRunOptions o;
  o.cases = a.cases;
  o.seed = a.seed;
  if (process) o.before_claim = [&] { process->forgive_hang(); };
  if (!distributed::active()) return verify::run_claims<S>(claims, solver, o);
  std::vector<ClaimOutcome> outcomes(claims.size());
  std::vector<std::size_t> order(claims.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // One claim, on rank 0's computing thread or another rank's main thread:
  // MPFR's precision is the thread's own.
  auto compute = [&](std::size_t i) {
    std::optional<MpfrPrecision> guard;
    if (bits) guard.emplace(*bits);
    return verify::outcome_text(verify::run_claims<S>({claims[i]}, solver, o).front());
  };
  auto store = [&](std::size_t i, const std::string& text) { outcomes[i] = verify::outcome_from_text(text); };
  distributed::run_cells(order, 1, compute, store);
  return outcomes;
}

// Runs the claims and the studies on `solver` (a process's, when process is
// set, or one of femc's methods) and writes the report; rank 0 of an MPI job
// alone writes, the same report as one process's apart from the process
// counts' `starts`. Exit 0 when every claim and study passes, 1 otherwise.
template <class S>
int run_at(const VerifyArgs& a, const RegisteredSolver& solver, const std::shared_ptr<verify::SolverProcess>& process,
           const std::string& label, const std::vector<const prop::ClaimProperty*>& claims, std::optional<long> bits) {
  const std::string& name = solver.name();
  verify::ConformanceReport report;
  report.claims = run_claims_at<S>(solver, a, claims, process, bits);
  const bool writes = studies::distributed::rank() == 0;
  const fs::path tmp = writes ? report_tmp_dir(a, name) : fs::path();
  // Removed unless renamed into the report (a failure leaves nothing).
  struct RemoveAtExit {
    fs::path dir;
    ~RemoveAtExit() {
      std::error_code ec;
      if (!dir.empty()) fs::remove_all(dir, ec);
    }
  } remove_tmp{tmp};
  if (writes) fs::remove_all(tmp), fs::create_directories(tmp);
  StudiesDone studies_done = run_studies(split_list(a.studies), name, tmp);
  std::optional<ProcessRecord> record;
  if (process) record = gather_process_record(*process);
  if (!writes) return 0;
  report.name = name;
  report.precision = label;
  report.unit_roundoff = static_cast<double>(unit_roundoff<S>());
  report.cases_per_claim = a.cases;
  report.seed = a.seed;
  report.capabilities = solver.capabilities();
  report.study_lines = std::move(studies_done.lines);
  report.studies = std::move(studies_done.verdicts);
  if (process) {
    report.declared_name = process->handshake().name;
    report.command = a.solver;
    report.precisions = process->handshake().precisions;
    const auto& n = record->counts;
    report.process = verify::ConformanceReport::Process{n.calls,    n.refusals,        n.crashes,
                                                        n.timeouts, n.protocol_errors, n.starts,
                                                        record->stderr_text};
  } else {
    report.command = "femc's method " + name;
    report.precisions = {label};
  }
  verify::write_conformance_report(tmp, report);
  const fs::path final_dir = fs::path(a.out) / name;
  fs::remove_all(final_dir);
  fs::rename(tmp, final_dir);
  for (const ClaimOutcome& c : report.claims) std::cout << c.suite << ": " << verify::to_string(c.verdict) << "\n";
  for (const verify::StudyVerdict& v : report.studies)
    std::cout << "study " << v.study << ": " << (v.passed() ? "pass" : "fail") << "\n";
  std::cout << "femc verify: report in " << final_dir.string() << "\n";
  return report.passed() ? 0 : kExitRegression;
}

// The claims' precision named p, as the precision table names it (MPFR as
// "256" or "mpfr-256"; an unknown name gets visit_precision's message):
// f(tag, label, bits), label the protocol's spelling (MPFR by its bits
// alone, PROTOCOL.md), bits MPFR's (nullopt for the others), with MPFR's
// precision set for the call. InputError naming the claims' precisions for
// a type the claims do not run at.
template <class F>
int at_claim_precision(const std::string& p, F&& f) {
  return visit_precision(p, [&](auto tag) -> int {
    using S = typename decltype(tag)::type;
    if constexpr (!prop::kClaimsRunAt<S>) {
      throw InputError("precision", "'" + p.substr(0, 40) + "' (the claims run at " + prop::claim_precision_names() + ")");
    } else {
      std::optional<long> bits;
      std::string label = p;
      if constexpr (std::is_same_v<S, mpfr_real>) {
        bits = mpfr_real::get_default_prec();
        label = std::to_string(*bits);
      }
      return f(S{}, label, bits);
    }
  });
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
  std::string p;  // the protocol's spelling of the precision
  at_claim_precision(a.precision, [&](auto, const std::string& label, std::optional<long>) { return p = label, 0; });
  if (studies::distributed::rank() == 0) {  // in an MPI job, rank 0 alone writes
    if (!fs::is_directory(a.out) && !fs::create_directories(a.out))
      throw InputError("out", "cannot create directory '" + a.out + "'");
    io::check_output_path((fs::path(a.out) / "probe").string());
  }
  if (!a.method.empty()) {
    // One of femc's own methods, held to the same claims, laws and studies.
    if (!a.solver.empty()) throw InputError("method", "give --solver or --method, not both");
    const RegisteredSolver& solver = solvers().get(a.method);
    return at_claim_precision(p, [&](auto tag, const std::string& label, std::optional<long> b) {
      using S = decltype(tag);
      if (!solver.runs_at<S>()) throw InputError("precision", "method " + a.method + " does not run at " + label);
      return run_at<S>(a, solver, nullptr, label, claims, b);
    });
  }
  if (a.solver.empty()) throw InputError("solver", "missing: give --solver COMMAND (or --method NAME)");
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
  return at_claim_precision(p, [&](auto tag, const std::string& label, std::optional<long> b) {
    using S = decltype(tag);
    const RegisteredSolver& solver = solvers().add(verify::process_solver<S>(process, name, label));
    return run_at<S>(a, solver, process, label, claims, b);
  });
}

}  // namespace

std::function<int()> add_verify_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand("verify", "Check the papers' claims on a solver outside femc (a process), or on one of femc's methods");
  cmd->add_option("--solver", args->solver, "the solver's command line (run by /bin/sh), speaking verify/PROTOCOL.md");
  cmd->add_option("--method", args->method,
                  "one of femc's own methods instead (cod, literal, …): the same claims, laws and studies");
  cmd->add_option("--name", args->name, "the report's name (default: the name the solver declares)");
  cmd->add_option("--precision", args->precision, prop::claim_precision_names() + " (default double)");
  cmd->add_option("--claims", args->claims, "claim IDs or property names, comma-separated (default: all)");
  cmd->add_option("--cases", args->cases, "cases per claim (default 100)");
  cmd->add_option("--studies", args->studies,
                  "studies that compare solvers, comma-separated (default conditioning,rank,perturbed-constraints; \"\" for none)");
  cmd->add_option("--seed", args->seed, "RapidCheck's seed (default 20261123)");
  cmd->add_option("--timeout-ms", args->timeout_ms, "per-call timeout of the solver (default 10000)");
  cmd->add_option("-o,--out", args->out, "the report's parent directory (default verify-report)");
  return [args] { return with_exit_status_on_every_rank([&] { return run(*args); }); };
}

}  // namespace femc::cli
