#pragma once
// IEEE binary128 through Boost.Multiprecision's float128 (libquadmath).
#include <boost/multiprecision/float128.hpp>
#include <boost/multiprecision/eigen.hpp>

#include "femc/scalar/traits.hpp"

namespace femc {

using float128 = boost::multiprecision::float128;

template <>
struct ScalarTraits<float128> {
  static constexpr bool exact = false;
  static std::string name() { return "float128"; }
  static long bits() { return 113; }
  static float128 parse(std::string_view text);
  static std::string format(const float128& x);
};

}  // namespace femc
