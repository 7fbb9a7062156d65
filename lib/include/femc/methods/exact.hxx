#pragma once
#include <Eigen/LU>

#include "femc/errors.hpp"
#include "femc/methods/exact.hpp"
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

}  // namespace detail

template <class S>
Solution<S> solve_exact(const System<S>& sys, const Options<S>&) {
  static_assert(ScalarTraits<S>::exact, "solve_exact needs an exact scalar type");
  const Index n = sys.n(), m = sys.m();
  const Matrix<S>& M = sys.M;
  const Matrix<S>& A = sys.A;
  Solution<S> sol;

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

  sol.diagnostics.rank.rank = detail::exact_rank(A);
  sol.diagnostics.rank.tol = S(0);
  (void)m;
  return sol;
}

}  // namespace femc
