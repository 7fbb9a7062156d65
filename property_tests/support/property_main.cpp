// The main of the claim properties: femc's solvers (the registry) × the
// claims linked in × the precisions (support/registration.hpp).
#include <gtest/gtest.h>

#include "support/registration.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  femc::prop::register_properties();
  return RUN_ALL_TESTS();
}
