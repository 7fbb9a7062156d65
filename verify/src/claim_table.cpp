#include "femc/verify/claim_table.hpp"

#include "femc/scalar/precisions.hpp"
#include "femc/scalar/qd.hpp"  // the table names every type
#include "femc/verify/claim_checks.hpp"

namespace femc::prop {

void add_refusal_claims(std::vector<ClaimProperty>& table) {
  using namespace claims;
  FEMC_CLAIM_PROPERTY(table, RankDeficientRefused, RankDeficientRefused, ClaimNeeds().of_refusal());
}

const std::vector<ClaimProperty>& claim_properties() {
  static const std::vector<ClaimProperty> table = [] {
    std::vector<ClaimProperty> t;
    add_fundamental_equation_claims(t);
    add_working_constraint_claims(t);
    add_general_gauss_claims(t);
    add_metamorphic_claims(t);
    add_rank_claims(t);
    add_refusal_claims(t);
    return t;
  }();
  return table;
}

std::string claim_precision_names() {
  std::string names;
#define FEMC_CLAIM_PRECISION_NAME(Type, tag, header, spelling, kind, models, bits, what)                                     \
  if (kClaimsRunAt<Type>)                                                                             \
    names += std::string(names.empty() ? "" : ", ") + (std::is_same_v<Type, mpfr_real> ? "MPFR bits" : spelling);
  FEMC_PRECISIONS(FEMC_CLAIM_PRECISION_NAME)
#undef FEMC_CLAIM_PRECISION_NAME
  return names;
}

std::string not_applicable(const ClaimNeeds& needs, const Capabilities& c, bool is_cod) {
  if (needs.decomposition_fact && !is_cod) return "a fact of cod's complete orthogonal decomposition, not of a solver";
  if (needs.refusal)
    return c.rank_deficient ? "the solver solves rank-deficient A; nothing to refuse" : "";
  if (!c.returns(needs.outputs))
    return "the claim reads " + describe_outputs(needs.outputs) + "; the solver returns " + describe_outputs(c.outputs);
  if (needs.rank_deficient && !c.rank_deficient) return "the claim is about rank-deficient A, which the solver refuses";
  if (needs.weighted && !c.weighted) return "the claim is about W, which the solver does not take";
  if (needs.working_forces && !c.working_forces) return "the claim is about C, which the solver does not take";
  return "";
}

}  // namespace femc::prop
