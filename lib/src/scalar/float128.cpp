#include "femc/scalar/float128.hpp"

extern "C" {
#include <quadmath.h>
}

#include <string>

#include "femc/scalar/number_text.hpp"

namespace femc {

// Decimals through libquadmath's correctly rounded strtoflt128; p/q through
// one correctly rounded MPFR division at 113 bits, handed over as a hex float.
float128 ScalarTraits<float128>::parse(std::string_view text) {
  std::string s;
  if (check_number_syntax(text) == NumberKind::Decimal) {
    s = std::string(text);
  } else {
    mpfr_t x;
    mpfr_init2(x, 113);
    number_text_to_mpfr(text, x);
    s = mpfr_to_hex(x);
    mpfr_clear(x);
  }
  __float128 v = strtoflt128(s.c_str(), nullptr);
  if (finiteq(v) == 0) throw NumberError("number \"" + std::string(text.substr(0, 40)) + "\" overflows float128");
  return float128(v);
}

std::string ScalarTraits<float128>::format(const float128& x) {
  char buf[128];
  quadmath_snprintf(buf, sizeof buf, "%.*Qg", roundtrip_digits(113), x.backend().value());
  return buf;
}

}  // namespace femc
