#pragma once
// κ₁(M) = ‖M‖₁‖M⁻¹‖₁ estimated from a Cholesky factorization M = L Lᵀ in
// O(n²), by Hager's method with Higham's safeguard: the algorithm of Eigen's
// LLT::rcond() (Eigen/src/Core/ConditionEstimator.h), step for step and
// operation for operation, so the two give the same number on the same
// factor (tested), but with caller-owned vectors: the workspace of the fast
// path allocates nothing (methods/cod.hpp). The dense factor's estimate is
// DenseCholesky::rcond (dense_cholesky.hpp).
#include <Eigen/Cholesky>

#include "femc/linalg.hpp"

namespace femc {

// κ = 1/rcond; an rcond that underflowed to 0 means κ beyond the range of S,
// reported as +∞ (the diagnostics turn it into a warning).
template <class S>
S kappa_from_rcond(const S& rcond) {
  return rcond > S(0) ? S(S(1) / rcond) : Eigen::NumTraits<S>::infinity();
}

// ‖M⁻¹‖₁ ≈ κ₁(M)/‖M‖₁: the estimate behind κ₁ (a lower bound within the
// estimator's small factor), for bounds that need ‖M⁻¹‖ (rank.hpp, c_data).
template <class S>
S inverse_l1_norm(const S& kappa1, const S& norm1) {
  return kappa1 / norm1;
}

template <class S>
struct CholeskyConditionScratch {
  Vector<S> v, sign, old_sign;
};

// ‖M‖₁ from M's lower triangle, as LLT computes it.
template <class S>
S symmetric_l1_norm(const Matrix<S>& M) {
  const Index n = M.rows();
  S norm(0);
  for (Index col = 0; col < n; ++col) {
    const S abs_col_sum = M.col(col).tail(n - col).template lpNorm<1>() + M.row(col).head(col).template lpNorm<1>();
    if (abs_col_sum > norm) norm = abs_col_sum;
  }
  return norm;
}

// The reciprocal condition estimate 1/(‖M‖₁ · est ‖M⁻¹‖₁) of a symmetric
// positive definite M of order n from any solver of M (solve_in_place(v):
// v ← M⁻¹v), dense or sparse; 0 means κ is beyond the range of S.
template <class S, class SolveInPlace>
S spd_rcond(Index n, const S& l1_norm, SolveInPlace&& solve_in_place, CholeskyConditionScratch<S>& w) {
  if (n == 0) return Eigen::NumTraits<S>::infinity();
  if (l1_norm == S(0)) return S(0);
  if (n == 1) return S(1);
  auto one_norm = [](const Vector<S>& x) { return S(x.template lpNorm<1>()); };
  w.v.resize(n);
  w.v.setConstant(S(S(1) / S(n)));
  solve_in_place(w.v);
  S lower_bound = one_norm(w.v);
  S old_lower_bound = lower_bound;
  w.sign.resize(n);
  w.old_sign.resize(n);
  Index v_max_abs_index = -1, old_v_max_abs_index = -1;
  for (int k = 0; k < 4; ++k) {
    for (Index i = 0; i < n; ++i) w.sign(i) = w.v(i) < S(0) ? S(-1) : S(1);
    if (k > 0 && w.sign == w.old_sign) break;  // stagnated
    w.v = w.sign;
    solve_in_place(w.v);  // M is symmetric: its adjoint solve is the same
    S largest(-1);
    for (Index i = 0; i < n; ++i) {
      using std::abs;
      const S a = abs(w.v(i));
      if (a > largest) {
        largest = a;
        v_max_abs_index = i;
      }
    }
    if (v_max_abs_index == old_v_max_abs_index) break;
    w.v.setZero();
    w.v(v_max_abs_index) = S(1);
    solve_in_place(w.v);
    lower_bound = one_norm(w.v);
    if (lower_bound <= old_lower_bound) break;
    w.old_sign = w.sign;
    old_v_max_abs_index = v_max_abs_index;
    old_lower_bound = lower_bound;
  }
  // Higham's alternating vector v_i = (−1)^i (1 + i/(n − 1)).
  S alternating_sign(1);
  for (Index i = 0; i < n; ++i) {
    w.v(i) = alternating_sign * S(S(1) + S(S(i) / S(n - 1)));
    alternating_sign = -alternating_sign;
  }
  solve_in_place(w.v);
  const S alternate_lower_bound = S(S(2) * one_norm(w.v)) / S(S(3) * S(n));
  const S inverse_norm = lower_bound > alternate_lower_bound ? lower_bound : alternate_lower_bound;
  return inverse_norm == S(0) ? S(0) : S(S(S(1) / inverse_norm) / l1_norm);
}

}  // namespace femc
