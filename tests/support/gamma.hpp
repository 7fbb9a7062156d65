#pragma once
// Higham's γ_k = k·u / (1 − k·u) (Accuracy and Stability of Numerical
// Algorithms, 2nd ed., §3.1): the constant of the backward-error bounds the
// kernel tests check, u the unit roundoff of S (at S's current precision
// under MPFR).
#include "femc/linalg.hpp"

namespace femc::test {

template <class S>
S gamma(Index k) {
  const S ku = S(double(k)) * unit_roundoff<S>();
  return ku / (1 - ku);
}

}  // namespace femc::test
