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
#include <limits>
#include <optional>
#include <sstream>

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

#ifdef FEMC_TEST_ENGINES
TEST(ModelFiles, EachEnginesDataAreFemcsOwnConstructionAt256Bits) {
  const std::vector<std::string> engines = available_engines();
  ASSERT_FALSE(engines.empty()) << "the campaign was built with an adapter but lists none";
  for (const std::string& engine : engines) {
    const std::vector<ModelFileCheck> checks = model_file_checks(engine);
    ASSERT_FALSE(checks.empty()) << engine << " has an adapter but no model-file check";
    expect_all_hold(checks);
    // Bricard's mechanism is checked in every engine, moving too; where the
    // engine's hard rows have a b (Simbody's own, MuJoCo's −J̇v), through A⁺b.
    auto has = [&](const std::string& state, const std::string& quantity) {
      return std::any_of(checks.begin(), checks.end(), [&](const ModelFileCheck& c) {
        return c.mechanism == "Bricard" && c.state.rfind(state, 0) == 0 &&
               (quantity.empty() || c.quantity == quantity);
      });
    };
    EXPECT_TRUE(has("at rest", "")) << engine;
    EXPECT_TRUE(has("moving", "")) << engine;
    if (engine == "simbody" || engine == "mujoco") EXPECT_TRUE(has("moving", "A⁺b")) << engine;
  }
}
#endif

// A check's verdict: within its tolerance and its wrong value outside it; a
// NaN anywhere fails (a wrong value that came out NaN must not pass as
// "none"); an exact check (tolerance 0) holds only at 0.
TEST(ModelFiles, AChecksVerdictFailsOnAnyNaNAndOnAWrongValueThatPasses) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto check = [](double error, double tolerance, std::optional<double> wrong) {
    ModelFileCheck c;
    c.error = error;
    c.tolerance = tolerance;
    c.wrong_error = wrong;
    return c;
  };
  EXPECT_TRUE(check(1, 2, 3).pass());
  EXPECT_TRUE(check(1, 2, std::nullopt).pass());
  EXPECT_TRUE(check(0, 0, std::nullopt).pass());
  EXPECT_FALSE(check(3, 2, 3).pass());
  EXPECT_FALSE(check(1, 2, 1.5).pass()) << "a wrong value inside the tolerance";
  EXPECT_FALSE(check(nan, 2, 3).pass());
  EXPECT_FALSE(check(1, 2, nan).pass());
  EXPECT_FALSE(check(1e-300, 0, std::nullopt).pass());
}

// model_files.csv: one line per check and nine fields on each, a field with
// a comma quoted (the assembly's states have one); the README's table shows
// a NaN rather than hiding it behind the other checks' ratios.
TEST(ModelFiles, TheReportKeepsItsColumnsAndShowsANaN) {
  ModelFileCheck a{"femc", "Bricard", "femc's assembly: moving (1, 2)", "tree map", 1e-50, 1e-40, std::nullopt, ""};
  ModelFileCheck b{"E", "M", "at rest", "M", 1, 2, std::numeric_limits<double>::quiet_NaN(), "wrong, by 1e-6"};
  const std::string csv = model_files_csv({a, b});
  std::istringstream lines(csv);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    int fields = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++fields;
    }
    EXPECT_EQ(fields, 9) << line;
  }
  EXPECT_EQ(count, 3);
  EXPECT_NE(csv.find("\"femc's assembly: moving (1, 2)\""), std::string::npos) << csv;
  EXPECT_NE(model_files_section({b}).find("nan"), std::string::npos) << "the wrong value's NaN is hidden";
}

// femc's own Bricard construction, on which the engines' checks rest.
TEST(ModelFiles, FemcAssemblesBricardWithExactRedundancy) {
  const std::vector<ModelFileCheck> checks = femc_model_file_checks();
  ASSERT_FALSE(checks.empty());
  expect_all_hold(checks);
}

}  // namespace
}  // namespace femc::engines
