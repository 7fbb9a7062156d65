// `femc engines`: the engines under test (engines/), written as a report.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"
#include "femc/engines/campaign.hpp"

namespace femc::cli {

std::function<int()> add_engines_command(CLI::App& app) {
  auto options = std::make_shared<engines::CampaignOptions>();
  auto list = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "engines", "Check the engines this build has adapters for (--list) against exact Gauss on their "
                 "own mechanisms; write OUT/README.md, CSV tables and the extracted systems");
  cmd->add_option("--out", options->out, "Report directory")->default_val("reports/engines");
  cmd->add_option("--engine", options->engines, "An engine to run (repeatable; default: every one built)");
  cmd->add_option("--mujoco-model", options->mujoco_models,
                  "Also check MuJoCo on this MJCF file (repeatable): at its initial state and after --steps");
  cmd->add_option("--steps", options->steps, "mj_step calls before the second check of each --mujoco-model")
      ->capture_default_str();
  cmd->add_flag("--quick", options->quick, "Fewer states (for tests)");
  cmd->add_flag("--list", *list, "Print the engines this build has adapters for");
  return [options, list] {
    return with_exit_status([&] {
      if (*list) {
        for (const std::string& e : engines::available_engines()) std::cout << e << "\n";
        return 0;
      }
      engines::run_engine_campaign(*options, std::cerr);
      return 0;
    });
  };
}

}  // namespace femc::cli
