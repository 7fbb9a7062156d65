// femc: Gauss's principle of least constraint, verified at any precision.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"
#include "femc/scalar/mpfr_pool.hpp"

int main(int argc, char** argv) {
  femc::install_mpfr_limb_pool();  // MPFR temporaries reuse their limbs (scalar/mpfr_pool.hpp)
  CLI::App app{"femc: constrained motion by the General Gauss Principle, at any precision"};
  app.require_subcommand(1);
  auto run_solve = femc::cli::add_solve_command(app);
  auto run_simulate = femc::cli::add_simulate_command(app);
  auto run_study = femc::cli::add_study_command(app);
  auto run_report = femc::cli::add_report_command(app);
  auto run_verify = femc::cli::add_verify_command(app);
  auto run_engines = femc::cli::add_engines_command(app);
  auto run_describe = femc::cli::add_describe_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "femc: " << e.what() << "\n";
    return femc::cli::kExitBadInput;
  }
  if (app.got_subcommand("solve")) return run_solve();
  if (app.got_subcommand("simulate")) return run_simulate();
  if (app.got_subcommand("study")) return run_study();
  if (app.got_subcommand("report")) return run_report();
  if (app.got_subcommand("verify")) return run_verify();
  if (app.got_subcommand("engines")) return run_engines();
  if (app.got_subcommand("describe")) return run_describe();
  return 0;
}
