// A solver added by a program (tests/support/extra_solver.hpp) is property
// tested by the claims as they are: its tests <Claim>.schur.<precision>
// appear, restricted to what it declares, and the rank-deficient A it
// refuses are checked to be refused.
#include <gtest/gtest.h>

#include "support/extra_solver.hpp"
#include "support/registration.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  femc::solvers().add(femc::test::schur_solver());
  femc::prop::register_properties({"schur"});
  return RUN_ALL_TESTS();
}
