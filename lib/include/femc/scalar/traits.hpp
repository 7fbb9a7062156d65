#pragma once
// ScalarTraits<S>: what femc needs to know about a scalar type beyond Eigen's
// NumTraits: a name for the records, whether its arithmetic is exact, how to
// read a decimal or "p/q" text at the working precision and how to print a
// value so that it reads back to the same value.
//
// Every specialization lives with its type in scalar/<type>.hpp; generic code
// only ever calls these four members.
#include <cstdio>
#include <string>
#include <string_view>

namespace femc {

template <class S>
struct ScalarTraits;  // specialized per scalar type

// Reads text (already checked by check_number_syntax) at the working
// precision of S. Throws NumberError when the value is not finite in S.
template <class S>
S parse_scalar(std::string_view text) { return ScalarTraits<S>::parse(text); }

template <class S>
std::string format_scalar(const S& x) { return ScalarTraits<S>::format(x); }

// A magnitude for a sentence (a warning, a note): two significant digits at
// every precision, where format() would print 78 digits or p/q.
template <class S>
std::string format_short(const S& x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", static_cast<double>(x));
  return buf;
}

}  // namespace femc
