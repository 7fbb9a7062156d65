#pragma once
#include <Eigen/LU>

#include <algorithm>
#include <vector>

#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/errors.hpp"
#include "femc/methods/exact.hpp"
#include "femc/rank.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/scalar/traits.hpp"

namespace femc {
namespace detail {

// One exact solution of the consistent system K x = rhs; throws if there is
// none (which would mean a bug: every system solved here is consistent).
template <class S>
Matrix<S> exact_solve(const Matrix<S>& K, const Matrix<S>& rhs, const char* what) {
  if (K.rows() == 0 || K.cols() == 0) return Matrix<S>::Zero(K.cols(), rhs.cols());
  Eigen::FullPivLU<Matrix<S>> lu;
  lu.setThreshold(S(0));
  lu.compute(K);
  Matrix<S> x = lu.solve(rhs);
  if (K * x != rhs) throw MethodError(std::string("exact: inconsistent system for ") + what);
  return x;
}

template <class S>
Index exact_rank(const Matrix<S>& A) {
  if (A.rows() == 0 || A.cols() == 0) return 0;
  Eigen::FullPivLU<Matrix<S>> lu;
  lu.setThreshold(S(0));
  lu.compute(A);
  return lu.rank();
}

// W = L D Lᵀ, L unit lower triangular, without pivoting (W is symmetric
// positive definite: every pivot is > 0).
template <class S>
void exact_ldlt(const Matrix<S>& W, Matrix<S>& L, Vector<S>& D) {
  const Index m = W.rows();
  L = Matrix<S>::Identity(m, m);
  D.resize(m);
  for (Index j = 0; j < m; ++j) {
    S d = W(j, j);
    for (Index k = 0; k < j; ++k) d -= L(j, k) * L(j, k) * D(k);
    D(j) = d;
    for (Index i = j + 1; i < m; ++i) {
      S x = W(i, j);
      for (Index k = 0; k < j; ++k) x -= L(i, k) * L(j, k) * D(k);
      L(i, j) = x / d;
    }
  }
}

// The constraint matrix with its rank decided at a tolerance (a user's τ, or
// the level of rounded data), in exact arithmetic.
template <class S>
struct ExactTruncation {
  RankDecision<S> rank;
  Matrix<S> A;             // A, or A truncated to the decided rank
  Index exact_rank = 0;    // the rank of the A given
};

// With W = L D Lᵀ and Ã = Lᵀ A, the rows of P' = D^{1/2} Ã M^{-1/2} have
// the Gram matrix K = D^{1/2} H D^{1/2}, H = Ã M⁻¹ Ãᵀ (rational), and P'
// has the singular values of rank.hpp's P = L_Wᵀ A L⁻ᵀ (the two differ by
// an orthogonal factor on the right). Gram–Schmidt on the rows of P' with
// pivoting (the column-pivoted QR of P'ᵀ) is diagonal-pivoted elimination on
// K: the squared magnitudes |R_kk|² are the Schur-complement diagonals
// D_i·h_ii⁽ᵏ⁾, rational and non-increasing, so every decision is made on
// squares, exactly. Kept: the leading magnitudes above τ·d₁ (a user's τ) and
// above c_data (rank.hpp, rounded data; c_data² = e²‖A‖²_F‖W‖₁‖M⁻¹‖₁).
// Truncation, as the pivoted QR truncates: each row i not kept is replaced
// by its orthogonal projection on the kept rows K, ã_i ← H_iK H_KK⁻¹ Ã_K (the
// scaling D^{1/2} cancels). Then Â = L⁻ᵀ Ã_trunc has the decided rank
// exactly, and (Â z − b)ᵀW(Â z − b) = (Ã_trunc z − Lᵀb)ᵀD(Ã_trunc z − Lᵀb).
template <class S>
ExactTruncation<S> exact_rank_truncation(const System<S>& sys, const Options<S>& opt) {
  const Index n = sys.n(), m = sys.m();
  ExactTruncation<S> out;
  out.A = sys.A;
  out.rank.tol = opt.rank_tol ? *opt.rank_tol : S(0);
  if (m == 0) return out;
  Matrix<S> L = Matrix<S>::Identity(m, m);
  Vector<S> D = Vector<S>::Ones(m);
  const bool weighted = !is_identity(sys.W);
  if (weighted) exact_ldlt(sys.W, L, D);
  const Matrix<S> At = L.transpose() * sys.A;
  const Matrix<S> Minv = exact_solve<S>(sys.M, Matrix<S>::Identity(n, n), "M X = I");
  const Matrix<S> H = At * Minv * At.transpose();

  DataLevel level;
  const S e = data_rank_error(opt, sys.A, level);
  const bool applied = level.applied;
  // rank.hpp's c_data = e·‖A‖_F·√(‖W‖₁·‖M⁻¹‖₁), squared: free of square roots.
  const S cut2 = e * e * sys.A.squaredNorm() * (weighted ? symmetric_l1_norm(sys.W) : S(1)) * symmetric_l1_norm(Minv);
  const S tau2 = out.rank.tol * out.rank.tol;

  Matrix<S> R = H;  // Schur complements
  std::vector<bool> taken(std::size_t(m), false);
  std::vector<Index> kept;
  std::vector<S> mag2;  // squared magnitudes, in the order taken
  bool cut = false;
  for (Index k = 0; k < m; ++k) {
    Index p = -1;
    S best(0);
    for (Index i = 0; i < m; ++i)
      if (!taken[std::size_t(i)] && D(i) * R(i, i) > best) best = D(i) * R(i, i), p = i;
    if (p < 0) break;  // the rest is exactly zero: the exact rank is reached
    mag2.push_back(best);
    if (!cut && (best <= tau2 * mag2.front() || (applied && best <= cut2))) cut = true;
    if (!cut) kept.push_back(p);
    taken[std::size_t(p)] = true;
    for (Index j = 0; j < m; ++j)
      for (Index i = 0; i < m; ++i)
        if (!taken[std::size_t(i)] && !taken[std::size_t(j)]) R(i, j) -= R(i, p) * R(p, j) / R(p, p);
  }
  out.exact_rank = Index(mag2.size());
  const Index r = Index(kept.size());
  RankDecision<S>& d = out.rank;
  d.rank = r;
  if (!mag2.empty()) {
    d.largest = sqrt_approximation(mag2.front());
    if (r > 0) d.smallest_kept = sqrt_approximation(mag2[std::size_t(r - 1)]);
    if (r < Index(mag2.size())) d.largest_dropped = sqrt_approximation(mag2[std::size_t(r)]);
    if (cut2 > S(0)) {
      d.data_tol = sqrt_approximation(cut2) / d.largest;
      d.data_tol_applied = applied;
    }
  }
  if (r == out.exact_rank) return out;

  std::vector<Index> dropped;
  for (Index i = 0; i < m; ++i)
    if (std::find(kept.begin(), kept.end(), i) == kept.end()) dropped.push_back(i);
  Matrix<S> H_KK(r, r), H_KD(r, Index(dropped.size())), A_K(r, n);
  for (Index a = 0; a < r; ++a) {
    A_K.row(a) = At.row(kept[std::size_t(a)]);
    for (Index b = 0; b < r; ++b) H_KK(a, b) = H(kept[std::size_t(a)], kept[std::size_t(b)]);
    for (std::size_t b = 0; b < dropped.size(); ++b) H_KD(a, Index(b)) = H(kept[std::size_t(a)], dropped[b]);
  }
  Matrix<S> A_trunc = At;
  if (r == 0) {
    A_trunc.setZero();
  } else {
    const Matrix<S> T = exact_solve<S>(H_KK, H_KD, "H_KK T = H_KD");  // column b: row dropped[b] in the kept rows
    for (std::size_t b = 0; b < dropped.size(); ++b) A_trunc.row(dropped[b]) = T.col(Index(b)).transpose() * A_K;
  }
  out.A = exact_solve<S>(Matrix<S>(L.transpose()), A_trunc, "Lᵀ Â = Ã_trunc");
  return out;
}

}  // namespace detail

template <class S>
Solution<S> solve_exact(const System<S>& sys, const Options<S>& opt) {
  static_assert(ScalarTraits<S>::exact, "solve_exact needs an exact scalar type");
  const Index n = sys.n(), m = sys.m();
  const Matrix<S>& M = sys.M;
  Solution<S> sol;
  // A rank tolerance (a user's τ, rounded data, or data that may be rounded)
  // needs the magnitudes; otherwise the rank is exact and A is taken as it is.
  // The magnitudes cost an exact M⁻¹ and an m×m elimination more, of the
  // order of the solves below; `femc solve` pays it for every input whose
  // numbers could be doubles, to warn when rounding noise is kept.
  const bool decide = opt.rank_tol || !opt.data_precision.exact() || !opt.suspected_data_precision.exact();
  detail::ExactTruncation<S> truncation;
  if (decide) truncation = detail::exact_rank_truncation(sys, opt);
  const Matrix<S>& A = decide ? truncation.A : sys.A;

  const Matrix<S> N = A.transpose() * sys.W * A;  // AᵀWA
  Matrix<S> K = Matrix<S>::Zero(2 * n, 2 * n);
  K.topLeftCorner(n, n) = M;
  K.topRightCorner(n, n) = N;
  K.bottomLeftCorner(n, n) = N;
  Vector<S> rhs(2 * n);
  rhs.head(n) = sys.Q + sys.C;
  rhs.tail(n) = A.transpose() * (sys.W * sys.b);
  sol.qdd = detail::exact_solve<S>(K, rhs, "the Gauss KKT system").topRows(n).col(0);

  sol.Qc = M * sol.qdd - sys.Q;
  const Matrix<S> Minv_At = detail::exact_solve<S>(M, A.transpose(), "M X = Aᵀ");
  const Vector<S> Minv_C = detail::exact_solve<S>(M, sys.C, "M x = C").col(0);
  const Vector<S> nu = detail::exact_solve<S>(Matrix<S>(A * Minv_At), Matrix<S>(A * Minv_C), "A M⁻¹Aᵀ ν = A M⁻¹C").col(0);
  sol.QW = sys.C - A.transpose() * nu;
  sol.QN = sol.Qc - sol.QW;
  const Vector<S> y = detail::exact_solve<S>(Matrix<S>(A.transpose() * A), sol.QN, "AᵀA y = Qᴺ").col(0);
  sol.lambda = A * y;

  const Vector<S> ac = detail::exact_solve<S>(M, Vector<S>(sys.Q + sys.C), "M a_c = Q + C").col(0);
  const Vector<S> dz = sol.qdd - ac;
  sol.Gg_min = dz.dot(M * dz);
  const Vector<S> r = A * sol.qdd - sys.b;
  sol.delta_norm_sq = r.dot(sys.W * r);

  if (decide) {
    sol.diagnostics.rank = truncation.rank;
    if (truncation.rank.rank < truncation.exact_rank)
      sol.diagnostics.notes.push_back(
          "A truncated from its exact rank " + std::to_string(truncation.exact_rank) + " to rank " +
          std::to_string(truncation.rank.rank) +
          ": each row outside the kept directions replaced by its projection on them (the magnitudes dropped are at "
          "or below the rank tolerance)");
  } else {
    sol.diagnostics.rank.rank = detail::exact_rank(A);
    sol.diagnostics.rank.tol = S(0);
  }
  (void)m;
  return sol;
}

}  // namespace femc
