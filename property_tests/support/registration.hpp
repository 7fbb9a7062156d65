#pragma once
// The claim properties as a table, and their registration as ctest tests
// <Claim>.<solver>.<precision>: every claim property of ClaimProperties(),
// for every solver of the registry (femc/solvers/registry.hpp), at every
// precision it runs at (double, float128, MPFR 256 bits, exact). A claim runs
// on the systems and outputs the solver declares (claims.hpp, accepted_by);
// where it needs more it is registered as skipped, with the reason. A solver
// that refuses rank-deficient A is also checked to refuse them cleanly
// (RankDeficientRefused.<solver>.<precision>).
#include <functional>
#include <string>
#include <vector>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "support/claims.hpp"

namespace femc::prop {

// What a claim needs of a solver for its property to mean anything.
struct ClaimNeeds {
  unsigned outputs = femc::outputs::qdd;
  bool rank_deficient = false;  // the claim is about systems with rank A < m
  bool weighted = false;        // … about W
  bool working_forces = false;  // … about C
  // A fact of the complete orthogonal decomposition (E3, G7, G8), not of a
  // solver's result: checked once, under cod, whose decomposition it is.
  bool decomposition_fact = false;

  ClaimNeeds& returns(unsigned o) { return outputs |= o, *this; }
  ClaimNeeds& about_rank_deficient_A() { return rank_deficient = true, *this; }
  ClaimNeeds& about_W() { return weighted = true, *this; }
  ClaimNeeds& about_C() { return working_forces = true, *this; }
  ClaimNeeds& of_the_decomposition() { return decomposition_fact = true, *this; }
};

// Why a claim does not apply to a solver; empty when it does.
std::string not_applicable(const ClaimNeeds& needs, const RegisteredSolver& solver);

struct ClaimProperty {
  std::string suite;  // e.g. E1_FundamentalEquation
  ClaimNeeds needs;
  std::function<void(const Solver<double>&)> at_double;
  std::function<void(const Solver<float128>&)> at_float128;
  std::function<void(const Solver<mpfr_real>&)> at_mpfr;  // run at 256 bits
  std::function<void(const Solver<rational>&)> at_exact;  // empty: the check takes square roots
};

// The claim properties linked into this program, in registration order.
std::vector<ClaimProperty>& claim_properties();
bool add_claim_property(ClaimProperty p);

// Registers the tests; only for the solvers named in `only` when it is not
// empty. Call from main, after InitGoogleTest and after adding solvers.
void register_properties(const std::vector<std::string>& only = {});

}  // namespace femc::prop

#define FEMC_CLAIM_PROPERTY_IMPL(Suite, check, needs, exact_check)                                            \
  static const bool femc_claim_property_##Suite = ::femc::prop::add_claim_property(                          \
      {#Suite, needs, [](const ::femc::prop::Solver<double>& s) { check<double>(s); },                        \
       [](const ::femc::prop::Solver<::femc::float128>& s) { check<::femc::float128>(s); },                  \
       [](const ::femc::prop::Solver<::femc::mpfr_real>& s) { check<::femc::mpfr_real>(s); }, exact_check});

// A claim property at every precision, exact included.
#define FEMC_CLAIM_PROPERTY(Suite, check, needs)                 \
  FEMC_CLAIM_PROPERTY_IMPL(Suite, check, needs,                  \
                           [](const ::femc::prop::Solver<::femc::rational>& s) { check<::femc::rational>(s); })
// A claim property whose check takes square roots: floating precisions only.
#define FEMC_FLOATING_CLAIM_PROPERTY(Suite, check, needs) FEMC_CLAIM_PROPERTY_IMPL(Suite, check, needs, nullptr)
