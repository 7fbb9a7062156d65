// Metamorphic relations a user relies on: coordinates, row order, units.
// (Independence from the factor of M is in tests/test_methods_agree.cpp.)
#include "support/precisions.hpp"

namespace femc::prop::claims {
FEMC_CLAIM_PROPERTY(Meta_CoordinateCovariance, Meta_Covariance)
FEMC_CLAIM_PROPERTY(Meta_RowPermutationInvariance, Meta_RowPermutation)
FEMC_CLAIM_PROPERTY(Meta_UnitScaling, Meta_UnitScaling)
}  // namespace femc::prop::claims
