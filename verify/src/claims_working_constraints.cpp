// Claims U1–U5 (002, 000: constraint forces that do work).
#include "femc/verify/claim_checks.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::prop {

void add_working_constraint_claims(std::vector<ClaimProperty>& table) {
  using namespace claims;
  namespace o = femc::outputs;
  FEMC_CLAIM_PROPERTY(table, U1_EquationWithWorkingConstraints, U1, ClaimNeeds().returns(o::QN | o::QW).about_C());
  FEMC_CLAIM_PROPERTY(table, U2_VirtualWork, U2, ClaimNeeds().returns(o::constraint_force | o::QN).about_C());
  FEMC_CLAIM_PROPERTY(table, U3_OrthogonalInMInverse, U3, ClaimNeeds().returns(o::QN | o::QW).about_C());
  FEMC_CLAIM_PROPERTY(table, U4_WorkingForceLimits, U4, ClaimNeeds().returns(o::QW).about_C());
  FEMC_CLAIM_PROPERTY(table, U5_ExtendedGaussPrinciple, U5, ClaimNeeds().about_C());
}

}  // namespace femc::prop
