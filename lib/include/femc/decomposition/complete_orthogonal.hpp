#pragma once
// A complete orthogonal decomposition with femc's rank policy (rank.hpp):
//
//   X Π = Q [R₁₁ R₁₂; 0 R₂₂]        column-pivoted Householder QR
//   [R₁₁ R₁₂]ᵀ = Z T                 Householder QR of the kept r rows
//   X ≈ Q_r Tᵀ Zᵀ Πᵀ,   X⁺ = Π Z T⁻ᵀ Q_rᵀ
//
// where r is decided on |R_ii| and R₂₂ is dropped. Everything is applied as
// Householder reflections and triangular solves: no pseudoinverse is formed.
// Eigen's CompleteOrthogonalDecomposition does the same with an RZ step but
// hides the pivoted-QR diagonal, which the diagnostics report.
#include <Eigen/Householder>
#include <Eigen/QR>

#include "femc/rank.hpp"

namespace femc {

template <class S>
class CompleteOrthogonal {
 public:
  CompleteOrthogonal() = default;
  CompleteOrthogonal(const Matrix<S>& X, const S& tol) { compute(X, tol); }

  void compute(const Matrix<S>& X, const S& tol) {
    compute_with(X, tol, [&](const Vector<S>& d) { return decide_rank(d, tol); });
  }

  // The same with the rank decided by decide(d) from the magnitudes |R_ii|
  // (e.g. decide_formed_rank); tol is recorded when X is empty.
  template <class Decide>
  void compute_with(const Matrix<S>& X, const S& tol, Decide&& decide) {
    using std::abs;
    m_ = X.rows();
    n_ = X.cols();
    const Index k = std::min(m_, n_);
    if (k == 0) {
      rank_ = RankDecision<S>{};
      rank_.tol = tol;
      return;
    }
    qr_.compute(X);
    Vector<S> d(k);
    for (Index i = 0; i < k; ++i) d(i) = abs(qr_.matrixQR()(i, i));
    rank_ = decide(d);
    const Index r = rank_.rank;
    if (r > 0) {
      const Matrix<S> R1 = qr_.matrixQR().topRows(r).template triangularView<Eigen::Upper>();
      rz_.compute(R1.transpose());
    }
  }

  const RankDecision<S>& rank() const { return rank_; }
  Index rows() const { return m_; }
  Index cols() const { return n_; }

  // X⁺·rhs: the minimum-norm least-squares solution of X x ≃ rhs, per column.
  Matrix<S> solve(const Matrix<S>& rhs) const {
    const Index r = rank_.rank;
    Matrix<S> x = Matrix<S>::Zero(n_, rhs.cols());
    if (r == 0) return x;
    Matrix<S> t = rhs;
    t.applyOnTheLeft(qr_.householderQ().adjoint());  // Qᵀ rhs
    x.topRows(r) = Tt().solve(t.topRows(r));              // T⁻ᵀ Q_rᵀ rhs
    x.applyOnTheLeft(rz_.householderQ());             // Z ·
    return qr_.colsPermutation() * x;                 // Π ·
  }

  // (Xᵀ)⁺·rhs = (X⁺)ᵀ·rhs: the minimum-norm least-squares solution of Xᵀy ≃ rhs.
  Matrix<S> solve_transposed(const Matrix<S>& rhs) const {
    const Index r = rank_.rank;
    Matrix<S> y = Matrix<S>::Zero(m_, rhs.cols());
    if (r == 0) return y;
    Matrix<S> v = qr_.colsPermutation().transpose() * rhs;  // Πᵀ rhs
    v.applyOnTheLeft(rz_.householderQ().adjoint());          // Zᵀ ·
    y.topRows(r) = T().solve(v.topRows(r));                  // T⁻¹ ·
    y.applyOnTheLeft(qr_.householderQ());                    // Q_r ·
    return y;
  }

  // ‖(I − X X⁺) rhs‖²: the squared least-squares residual, read off Qᵀrhs
  // (backward stable; no product X·x is formed).
  S residual_norm_sq(const Vector<S>& rhs) const {
    if (rank_.rank == 0) return rhs.squaredNorm();
    Vector<S> t = rhs;
    t.applyOnTheLeft(qr_.householderQ().adjoint());
    return t.tail(m_ - rank_.rank).squaredNorm();
  }

  // An orthonormal basis of Null(X) (n × (n − r)): Π times the trailing
  // columns of the second QR's Q.
  Matrix<S> null_space_basis() const {
    const Index r = rank_.rank;
    if (r == n_) return Matrix<S>(n_, 0);  // no block of an empty matrix (UBSan: offset on null data)
    Matrix<S> E = Matrix<S>::Zero(n_, n_ - r);
    E.bottomRows(n_ - r).setIdentity();
    if (r == 0) return E;
    E.applyOnTheLeft(rz_.householderQ());
    return qr_.colsPermutation() * E;
  }

  // d₁/d_r: an estimate of the condition number of the rank-r part of X
  // (within a factor depending only on the size; 1 when r = 0).
  S kappa_estimate() const {
    return rank_.rank == 0 ? S(1) : S(rank_.largest / rank_.smallest_kept);
  }

 private:
  auto T() const {
    const Index r = rank_.rank;
    return rz_.matrixQR().topLeftCorner(r, r).template triangularView<Eigen::Upper>();
  }
  auto Tt() const {  // Tᵀ, lower triangular
    const Index r = rank_.rank;
    return rz_.matrixQR().topLeftCorner(r, r).transpose().template triangularView<Eigen::Lower>();
  }

  Index m_ = 0, n_ = 0;
  Eigen::ColPivHouseholderQR<Matrix<S>> qr_;
  Eigen::HouseholderQR<Matrix<S>> rz_;
  RankDecision<S> rank_;
};

}  // namespace femc
