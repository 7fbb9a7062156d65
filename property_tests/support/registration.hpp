#pragma once
// The claim properties (femc/verify/claim_table.hpp) as ctest tests
// <Claim>.<solver>.<precision>: every claim, for every solver of the
// registry (femc/solvers/registry.hpp), at every precision it runs at of
// the claims' (kClaimsRunAt: double, float128, MPFR at kClaimsMpfrBits,
// exact; the names are the precision table's, MPFR's "mpfr256"). A claim runs on the systems and
// outputs the solver declares (claims.hpp, accepted_by); where it needs more
// it is not registered, and not_applicable_claims() says why (the test
// ClaimApplicability pins these lists for femc's methods). A solver that
// refuses rank-deficient A is checked to refuse them cleanly
// (RankDeficientRefused.<solver>.<precision>).
#include <string>
#include <vector>

#include "femc/verify/claim_table.hpp"

namespace femc::prop {

// Registers the tests; only for the solvers named in `only` when it is not
// empty. Call from main, after InitGoogleTest and after adding solvers.
void register_properties(const std::vector<std::string>& only = {});

// The claims that do not apply to a solver at some precision it runs at, as
// "<suite> (<why>)", without repeats.
std::vector<std::string> not_applicable_claims(const RegisteredSolver& r);

}  // namespace femc::prop
