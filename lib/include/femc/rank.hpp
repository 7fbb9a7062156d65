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

#include "femc/data_precision.hpp"
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

// The record of keeping the leading k of the non-increasing magnitudes d
// (k ≤ d.size()), tol the tolerance it stands for. decide_rank's tail; also
// a reference whose exact rank k is known (femc::verify's claims).
template <class S, class Vec>
RankDecision<S> keep_leading(const Vec& d, Index k, const S& tol) {
  RankDecision<S> r;
  r.tol = tol;
  if (d.size() == 0) return r;
  r.largest = d(0);
  r.rank = k;
  if (k > 0) r.smallest_kept = d(k - 1);
  if (k < d.size()) r.largest_dropped = d(k);
  return r;
}

// d holds the magnitudes, non-increasing. Counts the leading d_i > tol·d₁.
template <class S, class Vec>
RankDecision<S> decide_rank(const Vec& d, const S& tol) {
  if (d.size() == 0) return keep_leading(d, 0, tol);
  const S cut = tol * d(0);
  Index k = 0;
  while (k < d.size() && d(k) > cut && d(k) > S(0)) ++k;
  return keep_leading(d, k, tol);
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

// Rounded data (Options::data_precision, data_precision.hpp). Data of
// precision u_d carry |δA_ij| ≤ e·|A_ij| with e = max(m, n)·u_d (the model of
// data_precision.hpp, data_entry_error), so in the 2-norm
//   ‖δA‖₂ ≤ ‖|δA|‖_F ≤ e·‖A‖_F.
// A method decides rank on X = F A G with F = W^{1/2} (or L_Wᵀ) or I and
// G = M^{-1/2} (or L⁻ᵀ) or I; the rounding of A moves X by at most
//   ‖F‖₂‖G‖₂·e·‖A‖_F = e·‖A‖_F·√(‖W‖₂·‖M⁻¹‖₂) =: c_data
// (pass ‖W‖ = 1 or ‖M⁻¹‖ = 1 for a factor the method leaves out). By Weyl's
// inequality, σ_i(X) ≤ c_data may be the rounding's own creation: a
// constraint direction the unrounded A does not have (a redundant row made
// independent by rounding, σ/σ₁ ≈ 10⁻¹⁶ in double). No such magnitude is
// counted in the rank. This is the working tolerance's argument with the
// data's rounding in place of the factorization's, and it binds at any
// working precision, exact included. The rounding of M and W (nonsingular)
// moves no singular value to or from zero, and that of b and Q decides no
// rank: only A's counts. Upper bounds may stand in for ‖W‖₂ and ‖M⁻¹‖₂ (the
// 1-norms of these symmetric matrices); |R_ii| of a column-pivoted QR stand
// in for singular values as for τ. Data whose errors exceed the model show
// it in the 100× warning of solve().
template <class S>
struct DataCut {
  S cut = S(0);          // c_data, absolute; 0 for exact data
  bool applied = false;  // Options::data_precision given: decides; else (suspected precision) only warns
};

// e = max(m, n)·u_d of the data's (or the suspected) precision, for A m×n.
template <class S>
S data_rank_error(const Options<S>& opt, Index m, Index n, DataLevel& level) {
  level = data_level(opt.data_precision, opt.suspected_data_precision);
  return data_entry_error<S>(level.precision, std::max(m, n));
}
template <class S>
S data_rank_error(const Options<S>& opt, const Matrix<S>& A, DataLevel& level) {
  return data_rank_error(opt, A.rows(), A.cols(), level);
}

// c_data for A m×n with ‖A‖_F = norm_F_A (any storage of A).
template <class S>
DataCut<S> data_rank_cut(const Options<S>& opt, Index m, Index n, const S& norm_F_A, const S& norm_W,
                         const S& norm_Minv) {
  DataCut<S> c;
  DataLevel level;
  const S e = data_rank_error(opt, m, n, level);
  c.applied = level.applied;
  if (e == S(0) || m == 0 || n == 0) return c;
  using std::sqrt;
  c.cut = e * norm_F_A * sqrt(norm_W) * sqrt(norm_Minv);  // e·‖A‖_F·√(‖W‖·‖M⁻¹‖)
  return c;
}
template <class S>
DataCut<S> data_rank_cut(const Options<S>& opt, const Matrix<S>& A, const S& norm_W, const S& norm_Minv) {
  if (A.size() == 0) return data_rank_cut(opt, A.rows(), A.cols(), S(0), norm_W, norm_Minv);
  DataLevel level;
  if (data_rank_error(opt, A, level) == S(0)) return data_rank_cut(opt, A.rows(), A.cols(), S(0), norm_W, norm_Minv);
  return data_rank_cut(opt, A.rows(), A.cols(), scaled_frobenius_norm<S>(A), norm_W, norm_Minv);
}

// Records the data's level on r (relative to d₁) and, when it applies,
// keeps only the leading magnitudes d_i > c_data.
template <class S, class Vec>
void apply_data_cut(RankDecision<S>& r, const Vec& d, const DataCut<S>& c) {
  if (!(c.cut > S(0)) || !(r.largest > S(0))) return;
  r.data_tol = c.cut / r.largest;
  r.data_tol_applied = c.applied;
  if (!c.applied) return;
  Index k = r.rank;
  while (k > 0 && !(d(k - 1) > c.cut)) --k;
  if (k == r.rank) return;
  r.rank = k;
  r.smallest_kept = k > 0 ? S(d(k - 1)) : S(0);
  r.largest_dropped = d(k);
}

}  // namespace femc
