#include "exact_pinv.hpp"

#include <Eigen/LU>
#include <stdexcept>

namespace femc::replay {
namespace {

// Zero threshold: a pivot counts as nonzero iff it is nonzero, which is the
// exact rank over the rationals (no rounding ever hides a pivot).
Eigen::FullPivLU<Mat> exact_lu(const Mat& X) {
  Eigen::FullPivLU<Mat> lu;
  lu.setThreshold(rational(0));
  lu.compute(X);
  return lu;
}

}  // namespace

Index exact_rank(const Mat& X) {
  if (X.size() == 0) return 0;
  return exact_lu(X).rank();
}

Mat exact_inverse(const Mat& X) {
  if (X.rows() != X.cols()) throw std::logic_error("exact_inverse: matrix is not square");
  if (X.size() == 0) return Mat(0, 0);
  const Eigen::FullPivLU<Mat> lu = exact_lu(X);
  const Mat I = Mat::Identity(X.rows(), X.cols());
  Mat Y = lu.solve(I);
  if (X * Y != I) throw std::logic_error("exact_inverse: matrix is singular");
  return Y;
}

Mat null_basis(const Mat& X) {
  const Index n = X.cols();
  if (X.rows() == 0) return Mat::Identity(n, n);
  const Eigen::FullPivLU<Mat> lu = exact_lu(X);
  // Eigen returns one zero column when the kernel is {0}; callers want n×0.
  if (lu.rank() == n) return Mat(n, 0);
  Mat K = lu.kernel();
  if (X * K != Mat::Zero(X.rows(), K.cols())) throw std::logic_error("null_basis: not in the null space");
  return K;
}

Mat range_basis(const Mat& X) {
  if (X.size() == 0) return Mat(X.rows(), 0);
  const Eigen::FullPivLU<Mat> lu = exact_lu(X);
  if (lu.rank() == 0) return Mat(X.rows(), 0);
  return lu.image(X);
}

Vec solve_consistent(const Mat& X, const Vec& y) {
  if (X.size() == 0) {
    if (y != Vec::Zero(y.size())) throw std::logic_error("solve_consistent: no solution");
    return Vec::Zero(X.cols());
  }
  const Eigen::FullPivLU<Mat> lu = exact_lu(X);
  Vec x = lu.solve(y);
  if (X * x != y) throw std::logic_error("solve_consistent: no solution");
  return x;
}

Mat pinv(const Mat& X) {
  const Index m = X.rows(), n = X.cols();
  const Mat F = range_basis(X);
  const Index r = F.cols();
  if (r == 0) return Mat::Zero(n, m);  // 0⁺ = 0 (all four Penrose equations hold trivially)
  const Mat FtF_inv = exact_inverse(F.transpose() * F);
  const Mat G = FtF_inv * F.transpose() * X;
  // G solves F G = X exactly only because Range(X) = Range(F); a wrong pivot
  // choice would show here, not as a silently wrong X⁺.
  if (F * G != X) throw std::logic_error("pinv: X is not F·G (pivot columns do not span Range(X))");
  return G.transpose() * exact_inverse(G * G.transpose()) * FtF_inv * F.transpose();
}

}  // namespace femc::replay
