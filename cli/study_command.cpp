// `femc study NAME|all`: run the studies of studies/ into OUT/<study>/.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <iostream>

#include "framework/distribute.hpp"
#include "framework/runner.hpp"
#include "commands.hpp"
#include "femc/errors.hpp"

namespace femc::cli {
namespace {

struct StudyArgs {
  std::string name;
  std::string size = "quick";
  std::string out = "reports";
  unsigned jobs = 1;
  std::string shard = "1/1";
  unsigned long seed = 20261121;
  bool merge = false, fresh = false, keep_cells = false, list = false;
};

void parse_shard(const std::string& text, studies::RunOptions& opt) {
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used = 0;
    const long k = std::stol(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("k");
    const std::string rest = text.substr(slash + 1);
    const long n = std::stol(rest, &used);
    if (used != rest.size() || k < 1 || n < 1 || k > n || n > 100000) throw std::invalid_argument("range");
    opt.shard_index = static_cast<unsigned>(k);
    opt.shard_count = static_cast<unsigned>(n);
  } catch (const std::exception&) {
    throw InputError("shard", "'" + text.substr(0, 40) + "' is not K/N with 1 ≤ K ≤ N");
  }
}

int run(const StudyArgs& a) {
  // Under mpirun with several ranks: rank 0 coordinates and writes, the
  // others compute (framework/distribute.hpp); only rank 0 prints.
  const bool speaks = !studies::distributed::active() || studies::distributed::rank() == 0;
  if (a.list) {
    if (!speaks) return 0;
    for (const auto& s : studies::all_studies()) std::cout << s->name() << ": " << s->summary() << "\n";
    return 0;
  }
  studies::StudyConfig config;
  if (a.size == "quick") config.size = studies::Size::Quick;
  else if (a.size == "full") config.size = studies::Size::Full;
  else throw InputError("size", "'" + a.size.substr(0, 40) + "' is not quick or full");
  config.seed = a.seed;
  studies::RunOptions opt;
  opt.out_dir = a.out;
  opt.jobs = a.jobs;
  parse_shard(a.shard, opt);
  opt.merge_only = a.merge;
  opt.fresh = a.fresh;
  opt.keep_cells = a.keep_cells || opt.shard_count > 1;
  opt.progress = speaks && isatty(STDERR_FILENO);
  opt.distribute = true;
  if (a.merge && a.fresh) throw InputError("fresh", "--fresh discards finished cells; it cannot go with --merge");
  if (a.name.empty()) throw InputError("study", "name a study or all (femc study --list)");
  std::vector<const studies::Study*> chosen;
  if (a.name == "all") {
    for (const auto& s : studies::all_studies()) chosen.push_back(s.get());
  } else {
    chosen.push_back(&studies::find_study(a.name));
  }
  bool all_assembled = true;
  for (const studies::Study* s : chosen) {
    const studies::RunResult r = studies::run_study(*s, config, opt);
    if (!speaks) continue;
    std::cout << s->name() << ": " << r.cells_computed << " cells computed, " << r.cells_reused << " reused";
    if (r.assembled) {
      std::cout << ", report " << a.out << "/" << s->name() << "/ (" << r.wall_seconds << " s)\n";
    } else {
      all_assembled = false;
      std::cout << ", " << r.cells_missing << " of " << r.cells_total
                << " cells still missing (other shards); then: femc study " << s->name() << " --merge\n";
    }
  }
  // A shard that leaves cells to others succeeded; a merge that lacks cells did not.
  return (a.merge && !all_assembled) ? kExitMethod : 0;
}

}  // namespace

std::function<int()> add_study_command(CLI::App& app) {
  auto args = std::make_shared<StudyArgs>();
  CLI::App* cmd = app.add_subcommand("study", "Run a numerical study (or all) and write its report under OUT/<study>/");
  cmd->add_option("name", args->name, "conditioning | rank | perturbed-constraints | precision | trajectories | painleve | two-bars | all");
  cmd->add_flag("--list", args->list, "List the studies");
  cmd->add_option("--size", args->size, "quick (the report and the regression gate) or full")->capture_default_str();
  cmd->add_option("--out", args->out, "Directory that receives <study>/")->capture_default_str();
  cmd->add_option("--jobs", args->jobs, "Threads")->capture_default_str();
  cmd->add_option("--shard", args->shard, "Compute only the cells i with i mod N = K − 1 (K/N)")->capture_default_str();
  cmd->add_flag("--merge", args->merge, "Assemble the report from the cells of all shards; compute nothing");
  cmd->add_flag("--fresh", args->fresh, "Discard finished cells instead of resuming");
  cmd->add_flag("--keep-cells", args->keep_cells, "Keep OUT/<study>/cells/ after assembling");
  cmd->add_option("--seed", args->seed, "Base seed of the sweep")->capture_default_str();
  return [args] { return with_exit_status_on_every_rank([&] { return run(*args); }); };
}

}  // namespace femc::cli
