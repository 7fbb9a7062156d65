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

}  // namespace femc
