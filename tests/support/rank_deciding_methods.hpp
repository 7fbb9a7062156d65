#pragma once
// The methods that decide a rank in floating point (methods/list.hpp:
// Floating and rank_deficient), for the tests of the rank policy: a method
// added to the list is tested without an edit here.
#include <vector>

#include "femc/options.hpp"

namespace femc::test {

inline std::vector<Method> rank_deciding_methods() {
  std::vector<Method> out;
  for (const MethodInfo& info : methods())
    if (info.capabilities.arithmetic == Arithmetic::Floating && info.capabilities.rank_deficient)
      out.push_back(info.method);
  return out;
}

}  // namespace femc::test
