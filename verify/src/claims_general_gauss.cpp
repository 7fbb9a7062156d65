// Claims G1–G12 (001: the General Gauss Principle).
#include "femc/verify/claim_checks.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::prop {

void add_general_gauss_claims(std::vector<ClaimProperty>& table) {
  using namespace claims;
  namespace o = femc::outputs;
  FEMC_CLAIM_PROPERTY(table, G1_FirstForm, G1, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, G2_Result1, G2, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, G2_FormingBAligned, G2_FormingB, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, G3_InconsistencyMeasure, G3, ClaimNeeds().returns(o::delta));
  FEMC_CLAIM_PROPERTY(table, G4_SingletonIffFullColumnRank, G4, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, G5_GlobalMinimality, G5, ClaimNeeds().returns(o::Gg_min));
  FEMC_FLOATING_CLAIM_PROPERTY(table, G6_Proof2MinimumNormSolution, G6, ClaimNeeds());
  FEMC_FLOATING_CLAIM_PROPERTY(table, G7_Lemma1, G7, ClaimNeeds().of_the_decomposition());
  FEMC_FLOATING_CLAIM_PROPERTY(table, G8_Lemma2Greville, G8, ClaimNeeds().of_the_decomposition());
  FEMC_CLAIM_PROPERTY(table, G9_WIndependenceFullRowRank, G9, ClaimNeeds().about_W());
  FEMC_CLAIM_PROPERTY(table, G9_WMattersIffAtWrNonzero, G9_WMatters, ClaimNeeds().about_W());
  FEMC_CLAIM_PROPERTY(table, G10_DependentConstraints, G10, ClaimNeeds().returns(o::QN).about_rank_deficient_A());
  FEMC_CLAIM_PROPERTY(table, G11_ExpandedVirtualDisplacement, G11, ClaimNeeds());
  FEMC_CLAIM_PROPERTY(table, G12_IdentityWeightRecoversU1, G12, ClaimNeeds().returns(o::QW));
}

}  // namespace femc::prop
