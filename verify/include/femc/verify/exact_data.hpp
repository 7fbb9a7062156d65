#pragma once
// Exact data at any working precision: exact → S through the same text path
// as user input, the condition numbers the claims' error bounds are stated
// in, and the exact rank.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <optional>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"

namespace femc::prop {

template <class S>
S convert(const rational& x) {
  return ScalarTraits<S>::parse(x.str());
}

template <class S>
Matrix<S> convert(const Matrix<rational>& X) {
  Matrix<S> Y(X.rows(), X.cols());
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j) Y(i, j) = convert<S>(X(i, j));
  return Y;
}

template <class S>
Vector<S> convert(const Vector<rational>& x) {
  return convert<S>(Matrix<rational>(x)).col(0);
}

template <class S>
System<S> convert(const System<rational>& s) {
  return System<S>{convert<S>(s.M), convert<S>(s.A), convert<S>(s.b),
                   convert<S>(s.Q), convert<S>(s.C), convert<S>(s.W)};
}

inline double to_double(const rational& x) { return x.convert_to<double>(); }

// Any scalar of femc as a double, for reporting and for bounds (which need
// one or two digits); every type has an explicit conversion.
template <class S>
double as_double(const S& x) {
  return static_cast<double>(x);
}

// κ₂ of the data, to one or two digits (computed in double; enough for a bound).
struct Conditioning {
  double kappa_M = 1, kappa_P = 1, kappa_A = 1;
  // K = κ(M)·κ(P)²·κ(A): κ(P)² for the least-squares residual term, κ(M) for
  // the transformation by a factor of M, κ(A) for λ = (Aᵀ)⁺Qᴺ.
  double K() const { return kappa_M * kappa_P * kappa_P * kappa_A; }
};

inline double kappa_of_rank(const Eigen::MatrixXd& X, Index r) {
  if (r == 0 || X.size() == 0) return 1;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(X);
  return svd.singularValues()(0) / svd.singularValues()(r - 1);
}

inline Conditioning conditioning(const System<rational>& s, Index rank) {
  Eigen::MatrixXd M = s.M.unaryExpr([](const rational& x) { return to_double(x); });
  Eigen::MatrixXd A = s.A.unaryExpr([](const rational& x) { return to_double(x); });
  Eigen::MatrixXd W = s.W.unaryExpr([](const rational& x) { return to_double(x); });
  Conditioning c;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
  c.kappa_M = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  Eigen::LLT<Eigen::MatrixXd> L(M);
  Eigen::MatrixXd P = L.matrixL().solve(A.transpose()).transpose();
  if (W.size() > 0) P = Eigen::LLT<Eigen::MatrixXd>(W).matrixU() * P;
  c.kappa_P = kappa_of_rank(P, rank);
  c.kappa_A = kappa_of_rank(A, rank);
  return c;
}

// The exact rank of a rational matrix (full-pivoting LU, zero threshold).
inline Index exact_rank(const Matrix<rational>& X) {
  if (X.size() == 0) return 0;
  Eigen::FullPivLU<Matrix<rational>> lu;
  lu.setThreshold(rational(0));  // every nonzero pivot counts: the exact rank
  lu.compute(X);
  return lu.rank();
}

// |x|∞ of a rational vector, as a double.
inline double inf_norm(const Vector<rational>& x) {
  double m = 0;
  for (Index i = 0; i < x.size(); ++i) m = std::max(m, std::abs(to_double(x(i))));
  return m;
}

// The forward-error bound for data rounded to a precision of unit roundoff
// u_d (tests/test_rounded_data.cpp states and tests it): rounding the data is
// a backward error of u_d per entry, so
//   |q̂ − q*|∞ ≤ c·u_d·K·(data + |q*|∞),  c = 16(n + m)²,
//   data = 1 + ‖Q‖∞ + ‖C‖∞ + ‖b‖∞,  K = κ(M)·κ_r(P)
// for consistent constraints at rank r. This returns the bound per u_d. An
// engine's data are rounded to double: its answer, if its solve is backward
// stable, is within this bound of the Gauss solution of the data.
inline double rounded_data_bound_per_u(const System<rational>& sys, Index r, double qdd_inf) {
  const Conditioning k = conditioning(sys, r);
  const double nm = double(sys.n() + sys.m());
  const double data = 1 + inf_norm(sys.Q) + inf_norm(sys.C) + inf_norm(sys.b);
  return 16 * nm * nm * k.kappa_M * k.kappa_P * (data + qdd_inf);
}

}  // namespace femc::prop
