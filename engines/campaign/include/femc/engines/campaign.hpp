#pragma once
// `femc engines`: every engine adapter of this build on its conformance
// campaign (issue "Real engines"), written as a report directory:
//
//   OUT/README.md            per engine, a conformance table (mechanism ×
//                            state class → error, bound, pass, rank agreement)
//                            and what was found
//   OUT/<engine>.csv         one row per mechanism and state
//   OUT/mujoco_softness.csv  MuJoCo's distance from hard Gauss against solimp,
//                            solref and the timestep (plotted by
//                            engines/plots/plot_engines.py)
//   OUT/ode_softness.csv     ODE's likewise, against ERP, CFM and the step;
//   OUT/ode_quickstep.csv    dWorldStep against dWorldQuickStep
//   OUT/bullet_solvers.csv   every Bullet solver at every state of bullet.csv
//   OUT/model_files.csv      each engine's data against femc's own model files
//                            of its mechanisms at 256 bits (model_files.hpp)
//   OUT/systems/*.json       the extracted systems that show each finding, as
//                            `femc solve` inputs (every double exactly)
//
// Every file is built in memory and written atomically at the end: a failed
// run leaves no partial report.
#include <iosfwd>
#include <string>
#include <vector>

namespace femc::engines {

// The engines whose adapters this build has, of "simbody", "mujoco", "ode",
// "bullet" (campaign.cpp's table), in the report's order.
std::vector<std::string> available_engines();

struct CampaignOptions {
  std::string out;                    // the report directory
  std::vector<std::string> engines;   // empty: every available engine
  bool quick = false;                 // fewer states (the tests)
  // A user's MJCF files: each is checked at its initial state and after
  // `steps` of mj_step, as the four-bars are in (i), and its data written
  // under systems/. A file MuJoCo cannot compile, or one with constraint rows
  // other than equalities at those states, is an InputError naming it.
  std::vector<std::string> mujoco_models;
  int steps = 0;
};

// Runs the campaign; progress lines on `log`. Throws InputError("engine", …)
// for an engine that is unknown or not built.
void run_engine_campaign(const CampaignOptions& options, std::ostream& log);

}  // namespace femc::engines
