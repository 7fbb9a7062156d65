#pragma once
// The thin singular value decomposition X = U Σ Vᵀ of an m × n matrix,
// k = min(m, n): U (m × k) and V (n × k) with orthonormal columns,
// σ₁ ≥ … ≥ σ_k ≥ 0. Two-sided Jacobi on a QR-preconditioned square factor,
// as Eigen's JacobiSVD with its column-pivoted QR preconditioner does:
//
//   Y Π = Q R        Y the tall one of X and Xᵀ (p × k, p ≥ k), Householder
//                    QR with column pivoting (householder_qr.hpp)
//   R = Ũ Σ Ṽᵀ       the k × k triangle, by JacobiSVD without preconditioner
//   Y = (Q Ũ) Σ (Π Ṽ)ᵀ
//
// so for a tall X, U = Q Ũ and V = Π Ṽ, and for a wide one the roles swap.
// Householder QR and Jacobi rotations are each backward stable, and so is
// the whole (normwise; tests/test_spectral_kernels.cpp measures it).
//
// Eigen's JacobiSVD applies Q in blocks of 48 reflectors, allocating a
// triangular factor and a product at each call; here each reflector is
// applied to the kept [Ũ; 0] alone, and a decomposition of the shape and
// `vectors` of the previous one allocates nothing (under MPFR, with the
// limb pool). In double the QR is LAPACK's dgeqp3 (lapack.hpp).
#include <Eigen/SVD>
#include <algorithm>

#include "femc/decomposition/householder_qr.hpp"

namespace femc {

template <class S>
class ThinSvd {
 public:
  // With vectors = false only the singular values are computed. Returns
  // false when X has an entry that is not finite, or when the triangle does
  // (an overflow of the QR): then nothing is to be used.
  bool compute(const Matrix<S>& X, bool vectors) {
    const Index m = X.rows(), n = X.cols(), k = std::min(m, n);
    for (Index j = 0; j < n; ++j)
      for (Index i = 0; i < m; ++i)
        if (!Eigen::numext::isfinite(X(i, j))) return false;
    if (k == 0) {
      sigma_.resize(0);
      U_.resize(m, 0);
      V_.resize(n, 0);
      return true;
    }
    const bool wide = m < n;
    if (wide) {
      Y_ = X.transpose();
      qr_.compute(Y_);
    } else {
      qr_.compute(X);
    }
    const Matrix<S>& qr = qr_.matrixQR();
    const Index p = qr.rows();
    R_ = qr.topRows(k).template triangularView<Eigen::Upper>();
    svd_.compute(R_, vectors ? (Eigen::ComputeFullU | Eigen::ComputeFullV) : 0);
    if (svd_.info() != Eigen::Success) return false;
    sigma_ = svd_.singularValues();
    if (!vectors) return true;

    QU_.resize(p, k);  // Q [Ũ; 0]: Q = H₀H₁…H_{k−1}, H_{k−1} applied first
    QU_.topRows(k) = svd_.matrixU();
    QU_.bottomRows(p - k).setZero();
    work_.resize(k);
    for (Index i = k - 1; i >= 0; --i)
      apply_householder_on_the_left(QU_.bottomRows(p - i), qr.col(i).tail(p - i - 1), qr_.hCoeffs()(i),
                                    work_.data(), scratch_);
    PV_.resize(k, k);  // Π Ṽ: row i of Ṽ is row π(i)
    const auto& perm = qr_.permutation();
    for (Index i = 0; i < k; ++i) PV_.row(perm(i)) = svd_.matrixV().row(i);
    if (wide) {
      U_ = PV_;
      V_ = QU_;
    } else {
      U_ = QU_;
      V_ = PV_;
    }
    return true;
  }

  const Vector<S>& singularValues() const { return sigma_; }  // descending
  const Matrix<S>& matrixU() const { return U_; }              // m × k (compute(X, true) only)
  const Matrix<S>& matrixV() const { return V_; }              // n × k (compute(X, true) only)

 private:
  PivotedHouseholderQR<S> qr_;
  Eigen::JacobiSVD<Matrix<S>, Eigen::NoQRPreconditioner> svd_;
  Matrix<S> Y_, R_, QU_, PV_, U_, V_;
  Vector<S> sigma_, work_;
  mpfr_kernels::ScratchFor<S> scratch_;  // the reflectors' under MPFR
};

}  // namespace femc
