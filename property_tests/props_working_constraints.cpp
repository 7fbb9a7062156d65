// Claims U1–U5 (002, 000: constraint forces that do work).
#include "support/claim_checks.hpp"
#include "support/registration.hpp"

namespace femc::prop::claims {
namespace o = femc::outputs;
FEMC_CLAIM_PROPERTY(U1_EquationWithWorkingConstraints, U1, ClaimNeeds().returns(o::QN | o::QW).about_C())
FEMC_CLAIM_PROPERTY(U2_VirtualWork, U2, ClaimNeeds().returns(o::constraint_force | o::QN).about_C())
FEMC_CLAIM_PROPERTY(U3_OrthogonalInMInverse, U3, ClaimNeeds().returns(o::QN | o::QW).about_C())
FEMC_CLAIM_PROPERTY(U4_WorkingForceLimits, U4, ClaimNeeds().returns(o::QW).about_C())
FEMC_CLAIM_PROPERTY(U5_ExtendedGaussPrinciple, U5, ClaimNeeds().about_C())
}  // namespace femc::prop::claims
