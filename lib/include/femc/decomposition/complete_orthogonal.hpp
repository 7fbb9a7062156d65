#pragma once
// A complete orthogonal decomposition with femc's rank policy (rank.hpp):
//
//   X Π = Q [R₁₁ R₁₂; 0 R₂₂]        column-pivoted Householder QR
//   [R₁₁ R₁₂]ᵀ = Z T                 Householder QR of the kept r rows
//   X ≈ Q_r Tᵀ Zᵀ Πᵀ,   X⁺ = Π Z T⁻ᵀ Q_rᵀ
//
// where r is decided on |R_ii| and R₂₂ is dropped. Everything is applied as
// Householder reflections and triangular solves: no pseudoinverse is formed.
// When r equals the number of columns, R₁₁ is all of the kept rows: then
// Z = I and T = R₁₁ᵀ, and the second QR is skipped (it would factor a square
// triangular matrix for nothing).
// Eigen's CompleteOrthogonalDecomposition does the same with an RZ step but
// hides the pivoted-QR diagonal, which the diagnostics report. The two QRs
// are householder_qr.hpp's: LAPACK's blocked ones in double.
//
// Under MPFR the reflectors are applied by mpfr_kernels.hpp's kernel.
// Storage is reused: computing a decomposition of the shape of the previous
// one, and the *_into solves, allocate nothing (the workspace of the fast
// path, methods/cod.hpp). The scratch vectors are members, so one
// object must not solve from two threads at once.
#include <Eigen/Householder>

#include "femc/decomposition/householder_qr.hpp"
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

  // The same, for rounded data: no magnitude at or below the data's level
  // counts in the rank (rank.hpp, apply_data_cut).
  CompleteOrthogonal(const Matrix<S>& X, const S& tol, const DataCut<S>& data) { compute(X, tol, data); }
  void compute(const Matrix<S>& X, const S& tol, const DataCut<S>& data) {
    compute_with(X, tol, [&](const Vector<S>& d) {
      RankDecision<S> r = decide_rank(d, tol);
      apply_data_cut(r, d, data);
      return r;
    });
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
    k_ = k;
    d_.resize(k);
    for (Index i = 0; i < k; ++i) d_(i) = abs(qr_.matrixQR()(i, i));
    rank_ = decide(d_);
    const Index r = rank_.rank;
    if (r > 0 && r < n_) {  // [R₁₁ R₁₂]ᵀ = Z T
      rz_.resize(n_, r);
      rz_ = qr_.matrixQR().topRows(r).transpose();
      rz_.template triangularView<Eigen::StrictlyUpper>().setZero();
      rz_qr_.compute(rz_, rz_h_);
    }
  }

  const RankDecision<S>& rank() const { return rank_; }
  Index rows() const { return m_; }
  Index cols() const { return n_; }

  // x = X⁺·rhs: the minimum-norm least-squares solution of X x ≃ rhs
  // (rhs of size rows(), x of size cols()).
  template <class Rhs, class Out>
  void solve_into(const Eigen::MatrixBase<Rhs>& rhs, Eigen::MatrixBase<Out>& x) const {
    const Index r = rank_.rank;
    if (r == 0) {
      x.setZero();
      return;
    }
    t_m_ = rhs;
    apply_reflectors(qr_.matrixQR(), qr_.hCoeffs(), k_, t_m_, true);  // Qᵀ rhs
    t_n_.resize(n_);
    t_n_.setZero();
    t_n_.head(r) = t_m_.head(r);
    solve_Tt(t_n_.head(r));                 // T⁻ᵀ Q_rᵀ rhs
    if (r < n_) apply_reflectors(rz_, rz_h_, r, t_n_, false);  // Z ·
    permute(t_n_, x);                       // Π ·
  }

  // y = (Xᵀ)⁺·rhs = (X⁺)ᵀ·rhs: the minimum-norm least-squares solution of
  // Xᵀy ≃ rhs (rhs of size cols(), y of size rows()).
  template <class Rhs, class Out>
  void solve_transposed_into(const Eigen::MatrixBase<Rhs>& rhs, Eigen::MatrixBase<Out>& y) const {
    const Index r = rank_.rank;
    if (r == 0) {
      y.setZero();
      return;
    }
    permute_transposed(rhs, t_n_);               // Πᵀ rhs
    if (r < n_) apply_reflectors(rz_, rz_h_, r, t_n_, true);  // Zᵀ ·
    t_m_.resize(m_);
    t_m_.setZero();
    t_m_.head(r) = t_n_.head(r);
    solve_T(t_m_.head(r));                       // T⁻¹ ·
    apply_reflectors(qr_.matrixQR(), qr_.hCoeffs(), k_, t_m_, false);  // Q_r ·
    y = t_m_;
  }

  // ‖(I − X X⁺) rhs‖²: the squared least-squares residual, read off Qᵀrhs
  // (backward stable; no product X·x is formed).
  template <class Rhs>
  S residual_norm_sq(const Eigen::MatrixBase<Rhs>& rhs) const {
    if (rank_.rank == 0) return rhs.squaredNorm();
    t_m_ = rhs;
    apply_reflectors(qr_.matrixQR(), qr_.hCoeffs(), k_, t_m_, true);
    return t_m_.tail(m_ - rank_.rank).squaredNorm();
  }

  // Column by column versions that return their result.
  Matrix<S> solve(const Matrix<S>& rhs) const {
    Matrix<S> x(n_, rhs.cols());
    for (Index j = 0; j < rhs.cols(); ++j) {
      auto col = x.col(j);
      solve_into(rhs.col(j), col);
    }
    return x;
  }
  Matrix<S> solve_transposed(const Matrix<S>& rhs) const {
    Matrix<S> y(m_, rhs.cols());
    for (Index j = 0; j < rhs.cols(); ++j) {
      auto col = y.col(j);
      solve_transposed_into(rhs.col(j), col);
    }
    return y;
  }

  // N = an orthonormal basis of Null(X) (n × (n − r)): Π times the trailing
  // columns of Z, i.e. Π Z [0; I]. Z's reflectors are applied one at a time
  // to the kept [0; I] (a matrix–vector product and a rank-1 update each,
  // fma under MPFR); Eigen's blocked application to a matrix allocates.
  void null_space_basis_into(Matrix<S>& N) const {
    const Index r = rank_.rank;
    N.resize(n_, n_ - r);
    if (r == n_) return;
    if (r == 0) {  // all of Rⁿ (and no QR was computed when X is empty)
      N.setIdentity();
      return;
    }
    basis_.resize(n_, n_ - r);
    basis_.setZero();
    basis_.bottomRows(n_ - r).setIdentity();
    basis_work_.resize(n_ - r);
    for (Index i = r - 1; i >= 0; --i)  // Z = H₀H₁…H_{r−1}: H_{r−1} first
      apply_householder_on_the_left(basis_.bottomRows(n_ - i), rz_.col(i).tail(n_ - i - 1), rz_h_(i),
                                    basis_work_.data(), reflector_scratch_);
    const auto& ind = qr_.permutation();
    for (Index i = 0; i < n_; ++i) N.row(ind(i)) = basis_.row(i);
  }

  // d₁/d_r: an estimate of the condition number of the rank-r part of X
  // (within a factor depending only on the size; 1 when r = 0).
  S kappa_estimate() const {
    return rank_.rank == 0 ? S(1) : S(rank_.largest / rank_.smallest_kept);
  }

 private:
  // y ← T⁻ᵀy and y ← T⁻¹y, T (r × r, upper) from the second QR; when
  // r = n there is none: Z = I and Tᵀ = R₁₁, so the roles of the two
  // triangles swap.
  template <class Y>
  void solve_Tt(Y&& y) const {
    const Index r = rank_.rank;
    if (r < n_)
      rz_.topLeftCorner(r, r).transpose().template triangularView<Eigen::Lower>().solveInPlace(y);
    else
      qr_.matrixQR().topLeftCorner(r, r).template triangularView<Eigen::Upper>().solveInPlace(y);
  }
  template <class Y>
  void solve_T(Y&& y) const {
    const Index r = rank_.rank;
    if (r < n_)
      rz_.topLeftCorner(r, r).template triangularView<Eigen::Upper>().solveInPlace(y);
    else
      qr_.matrixQR().topLeftCorner(r, r).transpose().template triangularView<Eigen::Lower>().solveInPlace(y);
  }
  // x ← H₀H₁…H_{k−1}x (Q·x) or x ← H_{k−1}…H₀x (Qᵀ·x) for the k reflectors
  // Hᵢ = I − τᵢvᵢvᵢᵀ, vᵢ = [0…0 1 V(i+1:, i)], stored below V's diagonal as
  // Eigen's QR stores them. Eigen's HouseholderSequence does the same but
  // makes a temporary vector per reflector when it is applied to a vector.
  template <class V, class H>
  void apply_reflectors(const V& vectors, const H& tau, Index k, Vector<S>& x, bool transposed) const {
    const Index rows = vectors.rows();
    for (Index step = 0; step < k; ++step) {
      const Index i = transposed ? step : k - 1 - step;
      apply_householder_to_vector(x.segment(i, rows - i), vectors.col(i).tail(rows - i - 1), tau(i),
                                  reflector_scratch_);
    }
  }

  // out = Π v: out(π(i)) = v(i).
  template <class V, class Out>
  void permute(const V& v, Out& out) const {
    const auto& ind = qr_.permutation();
    for (Index i = 0; i < n_; ++i) out(ind(i)) = v(i);
  }
  // out = Πᵀ v: out(i) = v(π(i)).
  template <class V>
  void permute_transposed(const V& v, Vector<S>& out) const {
    const auto& ind = qr_.permutation();
    out.resize(n_);
    for (Index i = 0; i < n_; ++i) out(i) = v(ind(i));
  }

  Index m_ = 0, n_ = 0;
  // All min(m, n) reflectors of the pivoted QR make up Q. (Eigen's
  // householderQ() stops at its own count of nonzero pivots, which a rank
  // kept under a user's rank_tol below ε could exceed.)
  Index k_ = 0;
  PivotedHouseholderQR<S> qr_;
  Matrix<S> rz_;         // second QR, Householder vectors below its diagonal, T on and above
  Vector<S> rz_h_;       // its Householder coefficients
  HouseholderQRInPlace<S> rz_qr_;
  Vector<S> d_;          // |R_ii|
  RankDecision<S> rank_;
  mutable Vector<S> t_m_, t_n_;  // solve scratch
  mutable Matrix<S> basis_;       // null_space_basis_into's Z [0; I]
  mutable Vector<S> basis_work_;  // and its reflectors' scratch
  mutable mpfr_kernels::ScratchFor<S> reflector_scratch_;  // the reflectors' under MPFR
};

}  // namespace femc
