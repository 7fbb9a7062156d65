#pragma once
// double and long double: IEEE binary64 and the x87 80-bit extended type.
#include <string>
#include <string_view>

#include "femc/scalar/traits.hpp"

namespace femc {

template <>
struct ScalarTraits<double> {
  static constexpr bool exact = false;
  static std::string name() { return "double"; }
  static long bits() { return 53; }
  static double parse(std::string_view text);
  static std::string format(double x);  // shortest text that reads back to x
};

template <>
struct ScalarTraits<long double> {
  static constexpr bool exact = false;
  static std::string name() { return "long-double"; }
  static long bits();
  static long double parse(std::string_view text);
  static std::string format(long double x);
};

}  // namespace femc
