#pragma once
// The claim properties as one table: each claim of ../shared/CLAIMS.md with
// algebraic content (and three metamorphic relations), what it needs of a
// solver, and its RapidCheck property at each precision. The ctest
// registration (property_tests/), the self-check and `femc verify` all read
// this table.
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/verify/claim_types.hpp"
#include "femc/verify/claims.hpp"

namespace femc::prop {

// What a claim needs of a solver for its property to mean anything.
struct ClaimNeeds {
  unsigned outputs = femc::outputs::qdd;
  bool rank_deficient = false;  // the claim is about systems with rank A < m
  bool weighted = false;        // … about W
  bool working_forces = false;  // … about C
  // A fact of the complete orthogonal decomposition (E3, G7, G8), not of a
  // solver's result: checked under cod alone, whose decomposition it is.
  bool decomposition_fact = false;
  // The refusal of rank-deficient A: applies exactly to the solvers that
  // declare they refuse them.
  bool refusal = false;

  ClaimNeeds& returns(unsigned o) { return outputs |= o, *this; }
  ClaimNeeds& about_rank_deficient_A() { return rank_deficient = true, *this; }
  ClaimNeeds& about_W() { return weighted = true, *this; }
  ClaimNeeds& about_C() { return working_forces = true, *this; }
  ClaimNeeds& of_the_decomposition() { return decomposition_fact = true, *this; }
  ClaimNeeds& of_refusal() { return refusal = true, *this; }
};

// The scalar types the claims are instantiated at, kClaimsRunAt<S>
// (claim_types.hpp, FEMC_CLAIM_TYPES), are ClaimProperty's four members:
// femc verify runs a solver at one of them, named as in the precision table
// (scalar/precisions.hpp).

// The MPFR precision ctest runs the claims at (property_tests/: the tests
// <Claim>.mpfr256); femc verify runs them at the bits it is given.
inline constexpr long kClaimsMpfrBits = 256;

// "double, float128, MPFR bits, exact": the table's names of those types, for messages.
std::string claim_precision_names();

struct ClaimProperty {
  std::string suite;  // e.g. E1_FundamentalEquation
  ClaimNeeds needs;
  std::function<void(const Solver<double>&)> at_double;
  std::function<void(const Solver<float128>&)> at_float128;
  std::function<void(const Solver<mpfr_real>&)> at_mpfr;  // at the precision in force
  std::function<void(const Solver<rational>&)> at_exact;  // empty: the check takes square roots

  // "E1", "G9", "Rank", …; a metamorphic relation is named by its suite.
  std::string id() const { return suite.rfind("Meta_", 0) == 0 ? suite : suite.substr(0, suite.find('_')); }
  template <class S>
  const std::function<void(const Solver<S>&)>& at() const {
    if constexpr (std::is_same_v<S, double>) return at_double;
    else if constexpr (std::is_same_v<S, float128>) return at_float128;
    else if constexpr (std::is_same_v<S, mpfr_real>) return at_mpfr;
    else {
      static_assert(std::is_same_v<S, rational>, "the claims run at kClaimsRunAt's types only");
      return at_exact;
    }
  }
};

// Every claim property, in the order of CLAIMS.md.
const std::vector<ClaimProperty>& claim_properties();

// Why a claim does not apply to a solver with these capabilities (or is not
// about solvers but about cod's decomposition); empty when it does.
std::string not_applicable(const ClaimNeeds& needs, const Capabilities& caps, bool is_cod);

// The same at scalar type S: a check that takes square roots does not run
// at exact types.
template <class S>
std::string not_applicable_at(const ClaimProperty& p, const Capabilities& caps, bool is_cod) {
  std::string why = not_applicable(p.needs, caps, is_cod);
  if (why.empty() && !p.at<S>()) why = "the check takes square roots, which exact arithmetic has not";
  return why;
}

// The families, one translation unit each (claims_*.cpp).
void add_fundamental_equation_claims(std::vector<ClaimProperty>& table);
void add_working_constraint_claims(std::vector<ClaimProperty>& table);
void add_general_gauss_claims(std::vector<ClaimProperty>& table);
void add_metamorphic_claims(std::vector<ClaimProperty>& table);
void add_rank_claims(std::vector<ClaimProperty>& table);
void add_refusal_claims(std::vector<ClaimProperty>& table);

}  // namespace femc::prop

#define FEMC_CLAIM_ENTRY(table, Suite, check, needs, exact_check)                                            \
  table.push_back({#Suite, needs, [](const ::femc::prop::Solver<double>& s) { check<double>(s); },          \
                   [](const ::femc::prop::Solver<::femc::float128>& s) { check<::femc::float128>(s); },    \
                   [](const ::femc::prop::Solver<::femc::mpfr_real>& s) { check<::femc::mpfr_real>(s); },  \
                   exact_check})
// A claim property at every precision, exact included.
#define FEMC_CLAIM_PROPERTY(table, Suite, check, needs) \
  FEMC_CLAIM_ENTRY(table, Suite, check, needs,          \
                   [](const ::femc::prop::Solver<::femc::rational>& s) { check<::femc::rational>(s); })
// A claim property whose check takes square roots: floating precisions only.
#define FEMC_FLOATING_CLAIM_PROPERTY(table, Suite, check, needs) FEMC_CLAIM_ENTRY(table, Suite, check, needs, nullptr)
