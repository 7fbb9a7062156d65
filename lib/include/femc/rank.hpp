#pragma once
// The one rank policy of femc.
//
// Given rank-revealing magnitudes d₁ ≥ d₂ ≥ … ≥ 0 of a matrix X (its
// singular values, or the |R_ii| of a column-pivoted QR, which bracket them
// within a factor that depends only on the size), the numerical rank is the
// number of leading d_i with d_i > τ·d₁. The default τ = max(m, n)·ε is the
// one of LAPACK's xGELSS/xGELSD documentation and of MATLAB's rank(): below
// it a singular value is indistinguishable from the rounding errors of the
// backward-stable factorization, of size O(max(m, n)·ε·d₁). For exact types
// ε = 0 and the rank is exact.
#include <algorithm>

#include "femc/options.hpp"
#include "femc/solution.hpp"

namespace femc {

template <class S>
S default_rank_tolerance(Index m, Index n) {
  return S(std::max<Index>({m, n, Index(1)})) * Eigen::NumTraits<S>::epsilon();
}

template <class S>
S rank_tolerance(const Options<S>& opt, Index m, Index n) {
  return opt.rank_tol ? *opt.rank_tol : default_rank_tolerance<S>(m, n);
}

// The default τ for P = W^{1/2} A M^{-1/2} as cod and literal form it, in
// floating point, before deciding its rank. Forming P by triangular solves
// with L (M = LLᵀ) and a product with L_Wᵀ perturbs it by up to about
// c·u·κ(L)·κ(L_W)·‖P‖ (triangular solves are backward stable row by row, so
// their forward error carries κ(L); Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., §8.2), and κ(L) = √κ(M). A singular value
// of P below τ·√(κ(M)·κ(W))·d₁ cannot be told from that rounding by its size
// alone. decide_formed_rank below says what decides it then. A user's
// rank_tol is taken as given.
template <class S>
S formed_rank_tolerance(const Options<S>& opt, Index m, Index n, const S& kappa_M, const S& kappa_W) {
  if (opt.rank_tol) return *opt.rank_tol;
  using std::sqrt;
  const S amplification = sqrt(kappa_M) * sqrt(kappa_W);
  const S tol = default_rank_tolerance<S>(m, n);
  if (!(amplification >= S(1)) || !(amplification < S(1) / tol)) return tol;  // not finite or meaningless
  return tol * amplification;
}

// d holds the magnitudes, non-increasing. Counts the leading d_i > tol·d₁.
template <class S, class Vec>
RankDecision<S> decide_rank(const Vec& d, const S& tol) {
  RankDecision<S> r;
  r.tol = tol;
  if (d.size() == 0) return r;
  r.largest = d(0);
  const S cut = tol * d(0);
  Index k = 0;
  while (k < d.size() && d(k) > cut && d(k) > S(0)) ++k;
  r.rank = k;
  if (k > 0) r.smallest_kept = d(k - 1);
  if (k < d.size()) r.largest_dropped = d(k);
  return r;
}

// The rank of a formed P = W^{1/2} A M^{-1/2} from its magnitudes d. Since
// W^{1/2} and M^{-1/2} are nonsingular, rank P = rank A exactly; only the
// rounding of forming P blurs it. So P's magnitudes bound the rank:
//   r_formed = #{d_i > τ_formed·d₁}  ≤  rank  ≤  r_plain = #{d_i > τ·d₁},
// below τ·d₁ nothing is distinguishable from rounding, above τ_formed·d₁
// (formed_rank_tolerance) not even the formation noise reaches. Inside the
// band the rank of A itself, decided at τ and free of the formation noise,
// settles it, clamped to [r_formed, r_plain]. Both extremes went wrong
// before this rule: with τ alone, an exactly rank-1 P formed with κ(W) ≈ 100
// kept a noise singular value and q̈ came out 10¹⁶ wrong (property
// Meta_RowPermutationInvariance, random seed); with τ_formed alone, at
// κ(M) = 10⁸ constraints that A determines were dropped and q̈ lost every
// digit where nullspace kept 8 (the conditioning study, reports/conditioning).
// rank_of_A() is called only inside the band.
template <class S, class Vec, class RankOfA>
RankDecision<S> decide_formed_rank(const Vec& d, const S& tol, const S& tol_formed, RankOfA&& rank_of_A) {
  RankDecision<S> plain = decide_rank(d, tol);
  if (!(tol_formed > tol)) return plain;
  const RankDecision<S> formed = decide_rank(d, tol_formed);
  if (formed.rank == plain.rank) return plain;
  const Index r = std::clamp<Index>(rank_of_A(), formed.rank, plain.rank);
  if (r == formed.rank) return formed;
  if (r == plain.rank) return plain;
  RankDecision<S> out = plain;
  out.rank = r;
  out.smallest_kept = d(r - 1);
  out.largest_dropped = r < d.size() ? d(r) : S(0);
  out.tol = out.largest_dropped / out.largest;  // the cut that reproduces r
  return out;
}

}  // namespace femc
