#pragma once
// A model's formulas evaluated in double against the same formulas at 256
// bits on the same (double) data: every entry within c·u·scale, scale =
// max(1, max |entry|) of the matrix, and the largest error ÷ (u·scale) kept,
// so that the test prints the check's slack (c over the largest error seen).
//
// Why c·u·scale: each entry is a fixed chain of at most a few dozen roundings
// (products of rotations with points, sums over a joint's terms), each at
// most u relative to an intermediate no larger than the entry's matrix's
// scale (the data are of order 1); c = 64 covers such chains, and a formula
// that lost precision (a float constant, a truncated one, an intermediate
// rounded to double at 256 bits) errs by orders of magnitude more.
// Measured (the tests print it): the planar model's largest error is
// 12.0·u·scale (slack 5.3), the spatial model's 2.0 (slack 31), the two
// bars' 1.8 (slack 36).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "femc/linalg.hpp"
#include "femc/scalar/traits.hpp"
#include "support/convert.hpp"

namespace femc::test {

template <class R>
class DoubleAgreement {
 public:
  explicit DoubleAgreement(std::string name, double c = 64) : name_(std::move(name)), c_(c) {}
  ~DoubleAgreement() {
    std::cout << name_ << ": largest error " << worst_ << "·u·scale, bound " << c_ << "·u·scale, slack "
              << (worst_ > 0 ? c_ / worst_ : INFINITY) << "\n";
  }
  void check(const Matrix<double>& a, const Matrix<R>& b, const char* what) {
    const double u = unit_roundoff<double>();
    const double scale = std::max(1.0, a.cwiseAbs().maxCoeff());
    ASSERT_EQ(a.rows(), b.rows()) << what;
    ASSERT_EQ(a.cols(), b.cols()) << what;
    for (Index i = 0; i < a.rows(); ++i)
      for (Index j = 0; j < a.cols(); ++j) {
        const double err = std::abs(a(i, j) - as_double(b(i, j)));
        worst_ = std::max(worst_, err / (u * scale));
        EXPECT_LE(err, c_ * u * scale) << what << "(" << i << "," << j << ")";
      }
  }

 private:
  std::string name_;
  double c_;
  double worst_ = 0;
};

}  // namespace femc::test
