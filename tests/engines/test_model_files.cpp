// Each engine's mechanisms against femc's own model files at 256 bits (issue
// "Three more engines"; engines/campaign/…/model_files.hpp computes the
// checks, `femc engines` reports them). Per engine of this build, every
// check must hold: the engine's data (and a hard engine's answer) within the
// tolerance of femc's construction, and the same check against a
// deliberately wrong value (a mechanism with a link 1e-6 longer or heavier or
// a centre of mass 1e-6 off; the engine's own force, b or answer off by
// 1e-6) outside it, so that each check is watched fail on every run; and
// femc's own construction (its tree maps, Bricard's 256-bit assembly) exact
// to its tolerances. Each check is printed with its slack (tolerance ÷
// error) and the wrong value's margin (its error ÷ tolerance).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "femc/engines/campaign.hpp"
#include "femc/engines/model_files.hpp"

namespace femc::engines {
namespace {

void expect_all_hold(const std::vector<ModelFileCheck>& checks) {
  for (const ModelFileCheck& c : checks) {
    SCOPED_TRACE(c.engine + ", " + c.mechanism + ", " + c.state + ", " + c.quantity);
    std::cout << c.engine << ", " << c.mechanism << ", " << c.state << ": " << c.quantity << " " << c.error
              << " (tolerance " << c.tolerance << ", slack " << c.tolerance / std::max(c.error, 1e-300);
    if (c.wrong_error) std::cout << "; " << c.wrong << ": " << *c.wrong_error / c.tolerance << " × tolerance";
    std::cout << ")\n";
    EXPECT_LE(c.error, c.tolerance);
    if (c.wrong_error) EXPECT_GT(*c.wrong_error, c.tolerance) << "the wrong value (" << c.wrong << ") passes";
    EXPECT_TRUE(c.pass());
  }
}

TEST(ModelFiles, EachEnginesDataAreFemcsOwnConstructionAt256Bits) {
  const std::vector<std::string> engines = available_engines();
  if (engines.empty()) GTEST_SKIP() << "built without engine adapters";
  for (const std::string& engine : engines) {
    const std::vector<ModelFileCheck> checks = model_file_checks(engine);
    ASSERT_FALSE(checks.empty()) << engine << " has an adapter but no model-file check";
    expect_all_hold(checks);
    // Bricard's mechanism is checked in every engine.
    EXPECT_TRUE(std::any_of(checks.begin(), checks.end(),
                            [](const ModelFileCheck& c) { return c.mechanism == "Bricard"; }))
        << engine;
  }
}

// femc's own Bricard construction, on which the engines' checks rest.
TEST(ModelFiles, FemcAssemblesBricardWithExactRedundancy) {
  const std::vector<ModelFileCheck> checks = femc_model_file_checks();
  ASSERT_FALSE(checks.empty());
  expect_all_hold(checks);
}

}  // namespace
}  // namespace femc::engines
