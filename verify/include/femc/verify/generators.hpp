#pragma once
// RapidCheck generators of exact test systems (one place for all claims).
//
// Every matrix is drawn in exact rationals and then rounded, once, to a
// dyadic number of at most kDyadicBits significant bits, so that the same
// data are held exactly by every scalar type (double included) and by the
// exact oracle. Rank deficiency is made exact: A = F·G with dyadic factors
// of rank r, whose product needs ≤ 2·kDyadicBits + 3 bits (< 53).
//
//   M, W  SPD with prescribed condition number κ: U diag(λ) Uᵀ with U an exact
//         rational orthogonal matrix (Cayley transform of an integer skew
//         matrix) and λ equally spaced in [1, κ].
//   A     m×n of rank r with prescribed singular values: (U_r Σ_r)(V_rᵀ),
//         σ equally spaced in [1/κ_A, 1].
//   b     consistent (b = A z₀) or not (b = A z₀ + d, d generic).
//
// Values are drawn with `*gen` inside a property, so RapidCheck shrinks a
// failure to the smallest sizes, ranks and entries that still fail.
#include <rapidcheck.h>

#include <string>

#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::prop {

inline constexpr long kDyadicBits = 20;

struct Spec {
  Index n_min = 2, n_max = 6;
  bool allow_rank_deficient = true;
  bool allow_inconsistent = true;
  bool allow_overdetermined = true;   // m > n
  bool allow_empty = true;            // m = 0
  bool with_C = true;                 // C drawn (else 0)
  bool with_W = true;                 // W drawn (else I)
  bool full_row_rank_only = false;
  bool consistent_only = false;
  bool inconsistent_only = false;     // rank-deficient or m > n, b ∉ Range(A)
  bool rank_deficient_only = false;
  bool square_full_row_rank = false;  // full-row-rank draws have m = n (and m = 0 is not drawn)
  double max_kappa = 100;             // of M, W and A (exact bound below 1/u of double)
};

struct Case {
  System<rational> sys;
  Index rank = 0;
  bool consistent = true;
  std::string describe() const;
};

// Draws a case (inside a property).
Case draw_case(const Spec& spec);

// Exact helpers for properties.
rational round_dyadic(const rational& x, long bits = kDyadicBits);
Matrix<rational> cayley_orthogonal(Index k);               // drawn
Matrix<rational> spd_with_condition(Index k, const rational& kappa);  // drawn, dyadic, exactly symmetric
Matrix<rational> null_space_basis_exact(const Matrix<rational>& A);  // n × (n − r), exact
Vector<rational> draw_integer_vector(Index k, int lo, int hi);

}  // namespace femc::prop
