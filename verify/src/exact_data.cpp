// The functions of exact_data.hpp at fixed types (double and rational).
#include "femc/verify/exact_data.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>

namespace femc::prop {

double kappa_of_rank(const Eigen::MatrixXd& X, Index r) {
  if (r == 0 || X.size() == 0) return 1;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(X);
  return svd.singularValues()(0) / svd.singularValues()(r - 1);
}

Conditioning conditioning(const System<rational>& s, Index rank) {
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
Index exact_rank(const Matrix<rational>& X) {
  if (X.size() == 0) return 0;
  Eigen::FullPivLU<Matrix<rational>> lu;
  lu.setThreshold(rational(0));  // every nonzero pivot counts: the exact rank
  lu.compute(X);
  return lu.rank();
}

double rounded_data_bound_per_u(const System<rational>& sys, Index r, double qdd_inf) {
  const Conditioning k = conditioning(sys, r);
  const double nm = double(sys.n() + sys.m());
  const double data = 1 + inf_norm(sys.Q) + inf_norm(sys.C) + inf_norm(sys.b);
  return 16 * nm * nm * k.kappa_M * k.kappa_P * (data + qdd_inf);
}

}  // namespace femc::prop
