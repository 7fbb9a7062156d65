// Metamorphic relations a user relies on: coordinates, row order, units.
// (Independence from the factor of M is in tests/test_methods_agree.cpp.)
#include "femc/verify/claim_checks.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::prop {

void add_metamorphic_claims(std::vector<ClaimProperty>& table) {
  using namespace claims;
  FEMC_CLAIM_PROPERTY(table, Meta_CoordinateCovariance, Meta_Covariance, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, Meta_RowPermutationInvariance, Meta_RowPermutation, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, Meta_UnitScaling, Meta_UnitScaling, ClaimNeeds());
}

}  // namespace femc::prop
