// `femc report --check DIR` / `--update-baseline DIR`: the regression gate.
// Under `mpirun -n K` (built with MPI) the quick studies' cells are spread
// over the ranks (studies/framework/distribute.hpp); rank 0 alone compares,
// prints and writes.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <filesystem>
#include <iostream>

#include "framework/distribute.hpp"
#include "gate/regression_gate.hpp"
#include "commands.hpp"
#include "femc/errors.hpp"
#include "femc/solvers/registry.hpp"
#include "femc/verify/process_solver.hpp"

namespace femc::cli {
namespace {

struct ReportArgs {
  std::string check, update;
  double factor = studies::kDefaultGateFactor;
  unsigned jobs = 1;
  std::string work;
  std::string solver, name;  // a solver outside femc (verify/PROTOCOL.md), gated against its own baseline
  long timeout_ms = 10000;
};

// A fresh directory under $TMPDIR (or /tmp) for the quick runs, removed after.
struct ScratchDir {
  std::string path;
  bool owned = false;
  explicit ScratchDir(const std::string& given) {
    if (!given.empty()) {
      path = given;
      return;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/femc-gate-XXXXXX";
    if (!mkdtemp(templ.data())) throw InputError("work", "cannot create a directory under " + templ);
    path = templ;
    owned = true;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (owned) std::filesystem::remove_all(path, ec);
  }
};

int run(const ReportArgs& a) {
  if (a.check.empty() == a.update.empty())
    throw InputError("report", "give exactly one of --check DIR and --update-baseline DIR");
  if (!(a.factor >= 1)) throw InputError("factor", "must be ≥ 1, got " + std::to_string(a.factor));
  // Read the baseline before the long run, so that a wrong path fails at once.
  studies::MetricSet baseline;
  if (!a.check.empty()) baseline = studies::read_baseline(a.check);
  // A solver outside femc: registered at double, and the studies that compare
  // solvers run for it alone (a process answers one call at a time: one job).
  std::vector<std::string> only;
  std::shared_ptr<verify::SolverProcess> process;
  unsigned jobs = a.jobs;
  if (!a.solver.empty()) {
    process = std::make_shared<verify::SolverProcess>(a.solver, std::chrono::milliseconds(a.timeout_ms));
    const std::string name = !a.name.empty() ? a.name : !process->handshake().name.empty() ? process->handshake().name : "solver";
    const auto& p = process->handshake().precisions;
    if (std::find(p.begin(), p.end(), "double") == p.end())
      throw InputError("solver", "the gate runs a solver outside femc at double, which '" + name + "' does not declare");
    solvers().add(verify::process_solver<double>(process, name, "double"));
    only = {name};
    jobs = 1;
  } else if (!a.name.empty()) {
    throw InputError("name", "names a --solver, and none is given");
  }
  // In an MPI job the other ranks compute cells and write nothing.
  const bool writes = studies::distributed::rank() == 0;
  std::optional<ScratchDir> work;
  if (writes) work.emplace(a.work);
  const studies::MetricSet now =
      studies::run_quick_studies(work ? work->path : "", jobs, writes && isatty(STDERR_FILENO), only, true);
  if (!writes) return 0;
  if (!a.update.empty()) {
    studies::write_baseline(a.update, now, studies::StudyConfig{}.seed);
    std::size_t count = 0;
    for (const auto& [s, ms] : now) count += ms.size();
    std::cout << "baseline " << a.update << "/metrics.json: " << count << " metrics of " << now.size()
              << " quick studies\n";
    return 0;
  }
  const studies::GateVerdict v = studies::compare(baseline, now, a.factor);
  studies::print_verdict(std::cout, v, a.factor);
  return v.passed() ? 0 : 1;
}

}  // namespace

std::function<int()> add_report_command(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Regression gate: rerun the quick studies and compare their accuracy metrics with a baseline "
                "(exit 1 and a table when any got worse)");
  cmd->add_option("--check", args->check, "Baseline directory to compare with (reports/baseline)");
  cmd->add_option("--update-baseline", args->update, "Rerun the quick studies and write DIR/metrics.json");
  cmd->add_option("--factor", args->factor, "A metric is worse when now > factor × baseline (and above its floor)")
      ->capture_default_str();
  cmd->add_option("--jobs", args->jobs, "Threads")->capture_default_str();
  cmd->add_option("--work", args->work, "Directory for the quick runs (default: a temporary one, removed after)");
  cmd->add_option("--solver", args->solver,
                  "Gate a solver outside femc (a command speaking verify/PROTOCOL.md) against its own baseline");
  cmd->add_option("--name", args->name, "The --solver's name in the metrics (default: the name it declares)");
  cmd->add_option("--timeout-ms", args->timeout_ms, "Per-call timeout of the --solver")->capture_default_str();
  return [args] { return with_exit_status_on_every_rank([&] { return run(*args); }); };
}

}  // namespace femc::cli
