#pragma once
// Runs the claim properties (claim_table.hpp) on one registered solver at
// one precision, outside any test framework, and keeps for each claim what a
// conformance report needs: the verdict, RapidCheck's message, how close the
// passing cases came to the bound (the check's slack) and the systems of the
// minimal failing case, exactly as the solver received them.
#include <cstdint>
#include <string>
#include <vector>

#include "femc/io/json_system.hpp"
#include "femc/solvers/registry.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::verify {

enum class Verdict { Pass, Fail, NotApplicable, GaveUp };
std::string to_string(Verdict v);

struct ClaimOutcome {
  std::string suite, id;
  Verdict verdict = Verdict::NotApplicable;
  std::string detail;  // why not applicable, or the failure as RapidCheck reports it
  int cases = 0;       // cases that passed
  // The largest value ÷ bound over every check of the passing cases; its
  // inverse is the slack: an error that many times larger would still pass.
  double worst_ratio = 0;
  // What the check could detect (claims.hpp, RatioRecord): the smallest
  // relative error (bound over the case's scale ‖x‖ + ‖y‖ in the metric of
  // M) that fails in a well-conditioned case (κ(B), κ(M) ≤ 10; ∞ if none
  // was drawn), and in the worst-conditioned case drawn, with its κ(B)·κ(M).
  double finest_well = 0, ill_kappa = 0, ill_relative = 0;
  std::vector<SystemText> counterexample;  // the minimal failing case's systems, as sent
};

// An outcome as one line of text and back, exactly (the ratio to the last
// bit, the counterexample's numbers as sent): how a claim run by another
// process of an MPI job reaches the one that writes the report.
std::string outcome_text(const ClaimOutcome& outcome);
ClaimOutcome outcome_from_text(const std::string& text);  // throws MethodError

struct ClaimRunOptions {
  int cases = 100;
  std::uint64_t seed = 1;
  // Called before each claim (femc verify forgives a hung process there).
  std::function<void()> before_claim;
};

// Every claim whose id ("E1", "G9", "Meta_UnitScaling") or suite is in
// `wanted` (all when empty), in the table's order.
std::vector<const prop::ClaimProperty*> select_claims(const std::vector<std::string>& wanted);

// Runs them at S (for MPFR, at the precision in force) on `solver`.
template <class S>
std::vector<ClaimOutcome> run_claims(const std::vector<const prop::ClaimProperty*>& claims,
                                     const RegisteredSolver& solver, const ClaimRunOptions& options);

}  // namespace femc::verify
