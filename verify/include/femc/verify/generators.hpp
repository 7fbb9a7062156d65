#pragma once
// RapidCheck generators of exact test systems (one place for all claims).
//
// Every system is drawn in exact rationals and then rounded, once, to the
// working precision's significand (Spec::bits), so that the solver receives
// exactly the data whose exact solution is the reference; at exact
// precision nothing is rounded. The draws cover the whole range a working
// precision can resolve:
//
//   conditioning  κ(M), κ(W) and κ(A) are drawn log-uniformly under one
//                 budget: log10 of each is a share of a total t drawn
//                 uniformly in [0, Spec::max_log10_kappa], with
//                 log10 κ(A) + ½log10 κ(M) + ½log10 κ(W) = t, so that
//                 κ(B) ≤ κ(A)·√(κ(M)κ(W)) and κ(M) stay below 10^t (halved
//                 for inconsistent constraints, whose error grows with
//                 κ(B)²η). The shares are drawn too: one case puts it all on
//                 M, another all on A.
//   M, W          U diag(λ) Uᵀ, U an exact rational orthogonal matrix (Cayley
//                 transform of an integer skew matrix), λ geometric in [1, κ];
//                 the upper triangle rounded and mirrored (exactly symmetric).
//   A             m×n of rank r, U_r Σ_r V_rᵀ, σ either geometric in [1/κ, 1]
//                 or near rank-deficient (σ₁ … σ_{r−1} in [1/10, 1], σ_r = 1/κ,
//                 with κ ≥ 100). Exactly rank-deficient A is exact at the
//                 working precision: either a product F·G of short factors
//                 (any dependency, κ capped by the bits the product needs) or
//                 rows that are power-of-two multiples of others (any κ).
//   mechanisms    states of real mechanisms close to their singular
//                 configurations, built by the model layer at the working
//                 precision: the change-point four-bar (IFToMM A02 with
//                 N = 1) and A02 with N = 2, their cranks 10⁻ᵗ rad from flat
//                 on the parallelogram branch.
//   aligned       (Spec::aligned) M and W built on A's singular vectors, the
//                 roundings of forming B far above ‖B‖.
//   b             consistent (b = A z₀) or not (b = A z₀ + d, d ∉ Range(A));
//                 Q, C, z₀, d small integers.
//
// Values are drawn with `*gen` inside a property, so RapidCheck shrinks a
// failure towards the smallest sizes, the best conditioning and the
// smallest entries that still fail.
#include <rapidcheck.h>

#include <string>

#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::prop {

struct Spec {
  Index n_min = 2, n_max = 6;
  bool allow_rank_deficient = true;
  bool allow_inconsistent = true;
  bool allow_overdetermined = true;   // m > n
  bool allow_empty = true;            // m = 0
  bool allow_mechanisms = true;       // states of the model layer's mechanisms
  bool with_C = true;                 // C drawn (else 0)
  bool with_W = true;                 // W drawn (else I)
  bool always_W = false;              // with with_W: W drawn in every case, not in half of them
  bool full_row_rank_only = false;
  bool consistent_only = false;
  bool inconsistent_only = false;     // rank-deficient or m > n, b ∉ Range(A)
  bool rank_deficient_only = false;
  bool square_full_row_rank = false;  // full-row-rank draws have m = n (and m = 0 is not drawn)
  // M and W drawn with A's singular vectors (A = U Σ Vᵀ as drawn): M's
  // softest eigenvector in Null(A), and W soft along A's range, stiff across
  // it, so that forming B = W^{1/2}·A L⁻ᵀ rounds far above ‖B‖ (ω_M, ω_W of
  // error_law.hpp up to κ(M)^{1/2}, κ(W)^{1/2}). Drawn at random, M's and W's
  // eigenvectors nearly never align so, and the laws' ω's stay near 1.
  bool aligned = false;
  // The working precision's significand bits: every entry is rounded to
  // them (0: exact, nothing rounded).
  long bits = 53;
  // log10 of the largest condition the draws reach (make_ctx sets it from
  // the working precision and the solver's error law, claims.hpp).
  double max_log10_kappa = 2;
  // The draws of the rank property: A near rank-deficient (or a mechanism
  // near flat) only, its smallest σ/σ₁ (the crank's angle) 10^-e with e
  // uniform in [2, small_sigma_log10] whatever the budget: across a
  // solver's rank tolerance and beyond. 0: not these draws.
  double small_sigma_log10 = 0;
};

struct Case {
  System<rational> sys;
  Index rank = 0;          // exact rank of A
  bool consistent = true;  // exactly: b ∈ Range(A)
  std::string kind;        // how A was drawn ("near rank-deficient", "A02 N = 2, 1e-5 rad from flat", …)
  std::string describe() const;
};

// Draws a case (inside a property).
Case draw_case(const Spec& spec);

// Exact helpers for properties.
// x rounded to `bits` significant bits (to nearest, ties to even); x itself
// when bits = 0.
rational round_dyadic(const rational& x, long bits);
Matrix<rational> cayley_orthogonal(Index k);  // drawn
// Drawn, SPD, λ geometric in [1, κ], rounded to `bits` and exactly symmetric.
Matrix<rational> spd_with_condition(Index k, const rational& kappa, long bits);
Matrix<rational> null_space_basis_exact(const Matrix<rational>& A);  // n × (n − r), exact
Vector<rational> draw_integer_vector(Index k, int lo, int hi);

}  // namespace femc::prop
