#pragma once
// Numbers of the engines' shared mechanisms (planar_loop.hpp, bricard.hpp)
// as femc's model files state them: text that femc reads exactly at the
// working precision.
#include <charconv>
#include <string>

#include "femc/scalar/rational.hpp"

namespace femc::engines {

// The shortest decimal that reads back to x (0.4 for the double nearest
// 0.4): the number as the mechanism's header writes it.
inline std::string decimal(double x) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, x).ptr;
  return std::string(buffer, end);
}

// x's decimal as an exact rational, and a rational as model-file text (p/q).
inline rational exact(double x) { return ScalarTraits<rational>::parse(decimal(x)); }
inline std::string text(const rational& x) { return ScalarTraits<rational>::format(x); }

// The decimal read at S (0.4, not the double nearest 0.4), as femc reads
// the model file.
template <class S>
S at(double x) {
  return ScalarTraits<S>::parse(decimal(x));
}

}  // namespace femc::engines
