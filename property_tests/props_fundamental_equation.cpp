// Claims E1–E5 (004: the fundamental equation of constrained motion).
#include "support/claim_checks.hpp"
#include "support/registration.hpp"

namespace femc::prop::claims {
namespace o = femc::outputs;
FEMC_CLAIM_PROPERTY(E1_FundamentalEquation, E1, ClaimNeeds())
FEMC_CLAIM_PROPERTY(E2_GlobalMinimumOfTheGaussian, E2, ClaimNeeds())
FEMC_FLOATING_CLAIM_PROPERTY(E3_MoorePenroseFacts, E3, ClaimNeeds().of_the_decomposition())
FEMC_CLAIM_PROPERTY(E4_ForceOfConstraint, E4, ClaimNeeds().returns(o::constraint_force))
FEMC_CLAIM_PROPERTY(E5_LagrangeMultipliers, E5, ClaimNeeds().returns(o::lambda | o::QN))
}  // namespace femc::prop::claims
