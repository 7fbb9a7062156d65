#include "femc/scalar/builtin.hpp"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "femc/scalar/number_text.hpp"

namespace femc {
namespace {

// Reads text into a binary floating type with `bits` significand bits:
// decimals through the C library's correctly rounded strtod/strtold; p/q
// rationals by one correctly rounded MPFR division at `bits`, handed over
// exactly as a hex float.
template <class F, class Strto>
F parse_binary(std::string_view text, long bits, Strto strto, const char* type) {
  std::string s;
  if (check_number_syntax(text) == NumberKind::Decimal) {
    s = std::string(text);
  } else {
    mpfr_t x;
    mpfr_init2(x, bits);
    number_text_to_mpfr(text, x);
    s = mpfr_to_hex(x);
    mpfr_clear(x);
  }
  char* end = nullptr;
  F v = strto(s.c_str(), &end);
  if (!std::isfinite(v))
    throw NumberError("number \"" + std::string(text.substr(0, 40)) + "\" overflows " + type);
  return v;
}

}  // namespace

double ScalarTraits<double>::parse(std::string_view text) {
  return parse_binary<double>(text, 53, [](const char* s, char** e) { return std::strtod(s, e); }, "double");
}

std::string ScalarTraits<double>::format(double x) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

long ScalarTraits<long double>::bits() { return LDBL_MANT_DIG; }

long double ScalarTraits<long double>::parse(std::string_view text) {
  return parse_binary<long double>(
      text, LDBL_MANT_DIG, [](const char* s, char** e) { return std::strtold(s, e); }, "long double");
}

std::string ScalarTraits<long double>::format(long double x) {
  char buf[96];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

}  // namespace femc
