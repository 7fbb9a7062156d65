// Beyond the papers: the rank decisions every solver makes, judged against
// the tolerance it declares (rank_policy.hpp).
#include "femc/verify/claim_checks.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::prop {

void add_rank_claims(std::vector<ClaimProperty>& table) {
  using namespace claims;
  FEMC_CLAIM_PROPERTY(table, Rank_DeclaredPolicy, Rank_DeclaredPolicy, ClaimNeeds());
}

}  // namespace femc::prop
