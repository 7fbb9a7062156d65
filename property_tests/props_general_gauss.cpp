// Claims G1–G12 (001: the General Gauss Principle).
#include "support/claim_checks.hpp"
#include "support/registration.hpp"

namespace femc::prop::claims {
namespace o = femc::outputs;
FEMC_CLAIM_PROPERTY(G1_FirstForm, G1, ClaimNeeds())
FEMC_CLAIM_PROPERTY(G2_Result1, G2, ClaimNeeds())
FEMC_CLAIM_PROPERTY(G3_InconsistencyMeasure, G3, ClaimNeeds().returns(o::delta))
FEMC_CLAIM_PROPERTY(G4_SingletonIffFullColumnRank, G4, ClaimNeeds())
FEMC_CLAIM_PROPERTY(G5_GlobalMinimality, G5, ClaimNeeds().returns(o::Gg_min))
FEMC_FLOATING_CLAIM_PROPERTY(G6_Proof2MinimumNormSolution, G6, ClaimNeeds())
FEMC_FLOATING_CLAIM_PROPERTY(G7_Lemma1, G7, ClaimNeeds().of_the_decomposition())
FEMC_FLOATING_CLAIM_PROPERTY(G8_Lemma2Greville, G8, ClaimNeeds().of_the_decomposition())
FEMC_CLAIM_PROPERTY(G9_WIndependenceFullRowRank, G9, ClaimNeeds().about_W())
FEMC_CLAIM_PROPERTY(G9_WMattersIffAtWrNonzero, G9_WMatters, ClaimNeeds().about_W())
FEMC_CLAIM_PROPERTY(G10_DependentConstraints, G10, ClaimNeeds().returns(o::QN).about_rank_deficient_A())
FEMC_CLAIM_PROPERTY(G11_ExpandedVirtualDisplacement, G11, ClaimNeeds())
FEMC_CLAIM_PROPERTY(G12_IdentityWeightRecoversU1, G12, ClaimNeeds().returns(o::QW))
}  // namespace femc::prop::claims
