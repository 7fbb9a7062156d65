// Metamorphic relations a user relies on: coordinates, row order, units.
// (Independence from the factor of M is in tests/test_methods_agree.cpp.)
#include "support/claim_checks.hpp"
#include "support/registration.hpp"

namespace femc::prop::claims {
FEMC_CLAIM_PROPERTY(Meta_CoordinateCovariance, Meta_Covariance, ClaimNeeds())
FEMC_CLAIM_PROPERTY(Meta_RowPermutationInvariance, Meta_RowPermutation, ClaimNeeds())
FEMC_CLAIM_PROPERTY(Meta_UnitScaling, Meta_UnitScaling, ClaimNeeds())
}  // namespace femc::prop::claims
