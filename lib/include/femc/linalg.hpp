#pragma once
// Dense matrix and vector types of femc, over any scalar S.
#include <Eigen/Core>

namespace femc {

template <class S>
using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Vector = Eigen::Matrix<S, Eigen::Dynamic, 1>;
using Index = Eigen::Index;

// Unit roundoff u = eps/2 of S (0 for exact types).
template <class S>
S unit_roundoff() {
  return Eigen::NumTraits<S>::epsilon() / S(2);
}

// ‖X‖_F computed on X/max|X_ij|, so that it neither overflows nor
// underflows where the entries do not (for floating types).
template <class S, class Derived>
S scaled_frobenius_norm(const Eigen::MatrixBase<Derived>& X) {
  if (X.size() == 0) return S(0);
  const S amax = X.cwiseAbs().maxCoeff();
  return amax > S(0) ? S(amax * (X / amax).norm()) : S(0);
}

}  // namespace femc
