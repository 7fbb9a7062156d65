#pragma once
// The two Householder QR kernels of a complete orthogonal decomposition
// (complete_orthogonal.hpp), in LAPACK's compact form: R on and above the
// diagonal, the reflectors Hᵢ = I − τᵢvᵢvᵢᵀ (vᵢ(i) = 1) below it.
//
//   PivotedHouseholderQR:  X Π = Q R, the column with the largest remaining
//                          norm first (Businger and Golub)
//   HouseholderQRInPlace:  X = Q R
//
// double runs LAPACK's blocked dgeqp3 and dgeqrf (lapack.hpp). The other
// types run Eigen's unblocked algorithms (ColPivHouseholderQR's, with its
// norm downdating, and householder_qr_inplace_unblocked's), written out here
// so that each reflector is applied by apply_householder_on_the_left: Eigen's
// applyHouseholderOnTheLeft, or under MPFR the kernel of mpfr_kernels.hpp.
// Storage is reused: a factorization of the shape of the previous one
// allocates nothing.
#include <Eigen/Householder>
#include <algorithm>
#include <type_traits>
#include <vector>

#include "femc/decomposition/lapack.hpp"
#include "femc/decomposition/mpfr_kernels.hpp"

namespace femc {

// X ← H X for H = I − τvvᵀ, v = [1; essential]; temp holds X.cols() numbers
// of scratch (Eigen's convention), the MPFR kernel its own scratch instead.
template <class S, class Block, class Essential>
void apply_householder_on_the_left(Block&& X, const Essential& essential, const S& tau, S* temp,
                                   mpfr_kernels::ScratchFor<S>& scratch) {
  if constexpr (std::is_same_v<S, mpfr_real>)
    mpfr_kernels::apply_reflector_on_the_left(X, essential, tau, scratch);
  else
    X.applyHouseholderOnTheLeft(essential, tau, temp);
}

// x ← H x for one vector x (of essential.size() + 1 entries): w = τ(vᵀx),
// then x ← x − w v, with no temporary vector (Eigen's HouseholderSequence
// makes one per reflector on a vector); under MPFR the kernel of
// mpfr_kernels.hpp.
template <class S, class Segment, class Essential>
void apply_householder_to_vector(Segment&& x, const Essential& essential, const S& tau,
                                 mpfr_kernels::ScratchFor<S>& scratch) {
  if constexpr (std::is_same_v<S, mpfr_real>) {
    mpfr_kernels::apply_reflector_on_the_left(x, essential, tau, scratch);
  } else {
    auto bottom = x.tail(x.size() - 1);
    S w = essential.dot(bottom);
    w += x(0);
    w *= tau;  // τ(vᵀx)
    x(0) -= w;
    bottom -= w * essential;
  }
}

template <class S>
class PivotedHouseholderQR {
 public:
  void compute(const Matrix<S>& X) {
    qr_ = X;
    if constexpr (std::is_same_v<S, double>)
      lapack::pivoted_qr_in_place(qr_, tau_, perm_, jpvt_, work_);
    else
      compute_in_place();
  }
  const Matrix<S>& matrixQR() const { return qr_; }
  const Vector<S>& hCoeffs() const { return tau_; }
  // Column i of XΠ is column permutation()(i) of X.
  const Eigen::VectorXi& permutation() const { return perm_; }

 private:
  // Eigen's ColPivHouseholderQR::computeInPlace, step for step: the largest
  // remaining column norm first, the norms downdated after each step and
  // recomputed when the downdate has lost half the digits (LAPACK Working
  // Note 176, as in xGEQP3).
  void compute_in_place() {
    using std::abs;
    using std::sqrt;
    const Index rows = qr_.rows(), cols = qr_.cols(), size = std::min(rows, cols);
    tau_.resize(size);
    temp_.resize(std::max<Index>(cols, 1));
    perm_.resize(cols);
    for (Index j = 0; j < cols; ++j) perm_(j) = int(j);
    norms_updated_.resize(cols);
    norms_direct_.resize(cols);
    for (Index j = 0; j < cols; ++j) norms_direct_(j) = norms_updated_(j) = qr_.col(j).norm();
    const S downdate_threshold = sqrt(Eigen::NumTraits<S>::epsilon());
    for (Index k = 0; k < size; ++k) {
      Index biggest;
      norms_updated_.tail(cols - k).maxCoeff(&biggest);
      biggest += k;
      if (biggest != k) {
        qr_.col(k).swap(qr_.col(biggest));
        std::swap(norms_updated_(k), norms_updated_(biggest));
        std::swap(norms_direct_(k), norms_direct_(biggest));
        std::swap(perm_(k), perm_(biggest));
      }
      S beta;
      qr_.col(k).tail(rows - k).makeHouseholderInPlace(tau_(k), beta);
      qr_(k, k) = beta;
      apply_householder_on_the_left(qr_.bottomRightCorner(rows - k, cols - k - 1), qr_.col(k).tail(rows - k - 1),
                                    tau_(k), &temp_(k + 1 < cols ? k + 1 : 0), scratch_);
      for (Index j = k + 1; j < cols; ++j) {
        if (norms_updated_(j) == S(0)) continue;
        S t = abs(qr_(k, j)) / norms_updated_(j);
        t = (S(1) + t) * (S(1) - t);
        if (t < S(0)) t = S(0);
        const S ratio = norms_updated_(j) / norms_direct_(j);
        if (t * (ratio * ratio) <= downdate_threshold) {
          norms_direct_(j) = qr_.col(j).tail(rows - k - 1).norm();
          norms_updated_(j) = norms_direct_(j);
        } else {
          norms_updated_(j) *= sqrt(t);
        }
      }
    }
  }

  Matrix<S> qr_;
  Vector<S> tau_;
  Eigen::VectorXi perm_;
  Vector<S> temp_, norms_updated_, norms_direct_;  // all types but double
  mpfr_kernels::ScratchFor<S> scratch_;            // MPFR's
  std::vector<int> jpvt_;                          // double: dgeqp3's
  std::vector<double> work_;
};

// X = Q R in place; tau receives the min(rows, cols) coefficients.
template <class S>
class HouseholderQRInPlace {
 public:
  void compute(Matrix<S>& X, Vector<S>& tau) {
    if constexpr (std::is_same_v<S, double>) {
      lapack::qr_in_place(X, tau, work_);
    } else {  // Eigen's householder_qr_inplace_unblocked
      const Index rows = X.rows(), cols = X.cols(), size = std::min(rows, cols);
      tau.resize(size);
      temp_.resize(std::max<Index>(cols, 1));
      for (Index k = 0; k < size; ++k) {
        S beta;
        X.col(k).tail(rows - k).makeHouseholderInPlace(tau(k), beta);
        X(k, k) = beta;
        apply_householder_on_the_left(X.bottomRightCorner(rows - k, cols - k - 1), X.col(k).tail(rows - k - 1),
                                      tau(k), &temp_(k + 1 < cols ? k + 1 : 0), scratch_);
      }
    }
  }

 private:
  Vector<S> temp_;                       // the reflectors' scratch
  mpfr_kernels::ScratchFor<S> scratch_;  // MPFR's
  std::vector<double> work_;             // LAPACK's
};

}  // namespace femc
