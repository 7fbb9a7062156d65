#pragma once
// The two Householder QR kernels of a complete orthogonal decomposition
// (complete_orthogonal.hpp), in LAPACK's compact form: R on and above the
// diagonal, the reflectors Hᵢ = I − τᵢvᵢvᵢᵀ (vᵢ(i) = 1) below it.
//
//   PivotedHouseholderQR:  X Π = Q R, the column with the largest remaining
//                          norm first (Businger and Golub)
//   householder_qr_in_place:  X = Q R
//
// double runs LAPACK's blocked dgeqp3 and dgeqrf (lapack.hpp); the other
// types run Eigen's ColPivHouseholderQR and its unblocked Householder QR.
// Storage is reused: a factorization of the shape of the previous one
// allocates nothing.
#include <Eigen/QR>
#include <type_traits>
#include <vector>

#include "femc/decomposition/lapack.hpp"

namespace femc {

template <class S>
class PivotedHouseholderQR {
 public:
  void compute(const Matrix<S>& X) {
    if constexpr (std::is_same_v<S, double>) {
      qr_ = X;
      lapack::pivoted_qr_in_place(qr_, tau_, perm_, jpvt_, work_);
    } else {
      eigen_.compute(X);
    }
  }
  const Matrix<S>& matrixQR() const {
    if constexpr (std::is_same_v<S, double>) return qr_;
    else return eigen_.matrixQR();
  }
  const Vector<S>& hCoeffs() const {
    if constexpr (std::is_same_v<S, double>) return tau_;
    else return eigen_.hCoeffs();
  }
  // Column i of XΠ is column permutation()(i) of X.
  const Eigen::VectorXi& permutation() const {
    if constexpr (std::is_same_v<S, double>) return perm_;
    else return eigen_.colsPermutation().indices();
  }

 private:
  Eigen::ColPivHouseholderQR<Matrix<S>> eigen_;  // all types but double
  Matrix<S> qr_;                                 // double: dgeqp3's
  Vector<S> tau_;
  Eigen::VectorXi perm_;
  std::vector<int> jpvt_;
  std::vector<double> work_;
};

// X = Q R in place; tau receives the min(rows, cols) coefficients.
template <class S>
class HouseholderQRInPlace {
 public:
  void compute(Matrix<S>& X, Vector<S>& tau) {
    if constexpr (std::is_same_v<S, double>) {
      lapack::qr_in_place(X, tau, work_);
    } else {
      tau.resize(std::min(X.rows(), X.cols()));
      temp_.resize(X.cols());
      Eigen::internal::householder_qr_inplace_unblocked(X, tau, temp_.data());
    }
  }

 private:
  Vector<S> temp_;            // Eigen's scratch
  std::vector<double> work_;  // LAPACK's
};

}  // namespace femc
