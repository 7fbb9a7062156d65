// Claims E1–E5 (004: the fundamental equation of constrained motion).
#include "femc/verify/claim_checks.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::prop {

void add_fundamental_equation_claims(std::vector<ClaimProperty>& table) {
  using namespace claims;
  namespace o = femc::outputs;
  FEMC_CLAIM_PROPERTY(table, E1_FundamentalEquation, E1, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, E2_GlobalMinimumOfTheGaussian, E2, ClaimNeeds());
  FEMC_FLOATING_CLAIM_PROPERTY(table, E3_MoorePenroseFacts, E3, ClaimNeeds().of_the_decomposition());
  FEMC_CLAIM_PROPERTY(table, E4_ForceOfConstraint, E4, ClaimNeeds().returns(o::constraint_force));
  FEMC_CLAIM_PROPERTY(table, E5_LagrangeMultipliers, E5, ClaimNeeds().returns(o::lambda | o::QN));
}

}  // namespace femc::prop
