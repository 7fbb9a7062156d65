// Claims E1–E5 (004: the fundamental equation of constrained motion).
#include "support/precisions.hpp"

namespace femc::prop::claims {
FEMC_CLAIM_PROPERTY(E1_FundamentalEquation, E1)
FEMC_CLAIM_PROPERTY(E2_GlobalMinimumOfTheGaussian, E2)
FEMC_CLAIM_PROPERTY(E3_MoorePenroseFacts, E3)
FEMC_CLAIM_PROPERTY(E4_ForceOfConstraint, E4)
FEMC_CLAIM_PROPERTY(E5_LagrangeMultipliers, E5)
}  // namespace femc::prop::claims
