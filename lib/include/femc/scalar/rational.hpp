#pragma once
// Exact rationals (GMP's mpq through Boost.Multiprecision, expression
// templates off so that Eigen's kernels see plain values). Only methods that
// need no square root run on this type (methods/exact.hpp).
#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/eigen.hpp>

#include "femc/scalar/traits.hpp"

namespace femc {

using rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

template <>
struct ScalarTraits<rational> {
  static constexpr bool exact = true;
  static std::string name() { return "exact"; }
  static long bits() { return 0; }  // unbounded
  static rational parse(std::string_view text);
  static std::string format(const rational& x);  // "p/q", or "p" when q = 1
};

// √x (x ≥ 0) to `bits` bits (x rounded to `bits` bits first, then its root:
// within one unit in the last place), as a rational: for reporting
// magnitudes whose decisions the exact method makes on their squares.
rational sqrt_approximation(const rational& x, long bits = 256);

}  // namespace femc
