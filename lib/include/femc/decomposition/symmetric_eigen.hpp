#pragma once
// The eigendecomposition X = V Λ Vᵀ of a symmetric X (read from its lower
// triangle), with λ₁ ≤ … ≤ λₙ: Eigen's SelfAdjointEigenSolver::compute, step
// for step (scaling to [−1, 1], Householder tridiagonalization, implicit
// symmetric QR steps), so the same bits, with its storage kept. Eigen's
// compute() allocates a vector at every call for the tridiagonalization's
// Q (HouseholderSequence::evalTo); here it is a member. A decomposition of
// the order of the previous one allocates nothing (under MPFR, with the limb
// pool: scalar/mpfr_pool.hpp).
//
// The steps are Eigen 3.4's internal functions (tridiagonalization_inplace,
// computeFromTridiagonal_impl); tests/test_spectral_kernels.cpp compares
// the result with SelfAdjointEigenSolver's bit for bit, so a change of
// Eigen that moved them apart fails there.
#include <Eigen/Eigenvalues>

#include "femc/linalg.hpp"

namespace femc {

template <class S>
class SymmetricEigen {
 public:
  // Returns false when the QR iterations did not converge (Eigen's
  // NoConvergence); the factors are then not to be used.
  bool compute(const Matrix<S>& X) {
    const Index n = X.rows();
    values_.resize(n);
    if (n == 0) {
      vectors_.resize(0, 0);
      return true;
    }
    if (n == 1) {
      values_(0) = X(0, 0);
      vectors_.setOnes(1, 1);
      return true;
    }
    vectors_ = X.template triangularView<Eigen::Lower>();  // the strict upper triangle zeroed
    S scale = vectors_.cwiseAbs().maxCoeff();
    if (scale == S(0)) scale = S(1);
    vectors_.template triangularView<Eigen::Lower>() /= scale;
    subdiagonal_.resize(n - 1);
    householder_.resize(n - 1);
    Eigen::internal::tridiagonalization_inplace(vectors_, householder_);
    values_ = vectors_.diagonal();
    subdiagonal_ = vectors_.template diagonal<-1>();
    Eigen::HouseholderSequence<Matrix<S>, Vector<S>>(vectors_, householder_)
        .setLength(n - 1)
        .setShift(1)
        .evalTo(vectors_, work_);  // Q in place of its reflectors
    const Eigen::ComputationInfo info = Eigen::internal::computeFromTridiagonal_impl(
        values_, subdiagonal_, Eigen::SelfAdjointEigenSolver<Matrix<S>>::m_maxIterations, true, vectors_);
    values_ *= scale;
    return info == Eigen::Success;
  }

  const Vector<S>& eigenvalues() const { return values_; }  // ascending
  const Matrix<S>& eigenvectors() const { return vectors_; }

 private:
  Vector<S> values_, subdiagonal_, householder_, work_;
  Matrix<S> vectors_;
};

}  // namespace femc
