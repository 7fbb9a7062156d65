#pragma once
// The engines' mechanisms against femc's own model files at 256 bits (issue
// "Three more engines"): each engine's extracted data (M, Q, the constraint
// rows' null space, b) and, for an engine that solves the hard problem, its
// answer, against femc's construction of the same mechanism from a model
// file (engines/common: planar_loop_model.hpp, bricard_model.hpp) evaluated
// at MPFR 256 bits at the engine's state.
//
// Each check has an error and a tolerance from error analysis (stated where
// it is computed: model_files_planar.cpp, model_files_bricard.cpp). Each
// check of an engine's data or answer also has the same error against a
// deliberately wrong value, which must exceed the tolerance, so that the
// check is watched fail every time it runs: a wrong mechanism (a link 1e-6
// longer or heavier, a centre of mass 1e-6 off) where the quantity depends
// on it, else the engine's own value off by 1e-6 (a force, b, an answer:
// that shows the tolerance below 1e-6, not more). The checks of femc's own
// construction (the tree map, the assembly) are exact-to-256-bits facts and
// have no wrong value. `femc engines` writes them as model_files.csv and a
// section of its README; tests/engines/test_model_files asserts them.
#include <optional>
#include <string>
#include <vector>

namespace femc::engines {

struct ModelFileCheck {
  std::string engine;     // "Simbody", "Bullet (two multibodies)", …
  std::string mechanism;  // "crank-rocker", "Bricard", …
  std::string state;      // "θ = 1", "at rest", …
  std::string quantity;   // "M", "Q", "M⁻¹", "M⁻¹Q", "null space", "A⁺b", "u̇", "tree map", …
  double error = 0, tolerance = 0;
  // The error against the deliberately wrong value (`wrong` says which),
  // where the check has one. A NaN anywhere fails the check.
  std::optional<double> wrong_error;
  std::string wrong;
  bool pass() const { return error <= tolerance && (!wrong_error || *wrong_error > tolerance); }
};

// The checks of one engine of this build ("simbody", "mujoco", "ode",
// "bullet": campaign.cpp's table) on the planar loops and on Bricard's
// mechanism where the engine builds it. Empty for an engine this build has
// no adapter for.
std::vector<ModelFileCheck> model_file_checks(const std::string& engine);
// The checks of femc's own construction that every engine's rest on
// (Bricard's assembly at 256 bits: engine "femc").
std::vector<ModelFileCheck> femc_model_file_checks();

// One line per check (model_files.csv), and the README's section: per
// engine and mechanism, each quantity's largest error ÷ tolerance, the
// smallest wrong-model error ÷ tolerance, and the passes.
std::string model_files_csv(const std::vector<ModelFileCheck>& checks);
std::string model_files_section(const std::vector<ModelFileCheck>& checks);

}  // namespace femc::engines
