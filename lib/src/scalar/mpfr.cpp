#include "femc/scalar/mpfr.hpp"

#include <string>

#include "femc/scalar/number_text.hpp"

namespace femc {

MpfrPrecision::MpfrPrecision(long bits) : previous_(mpfr::mpreal::get_default_prec()) {
  if (bits < kMinMpfrBits || bits > kMaxMpfrBits)
    throw NumberError("precision " + std::to_string(bits) + " bits is outside [" + std::to_string(kMinMpfrBits) +
                      ", " + std::to_string(kMaxMpfrBits) + "]");
  mpfr::mpreal::set_default_prec(bits);
}

MpfrPrecision::~MpfrPrecision() { mpfr::mpreal::set_default_prec(previous_); }

std::string mpfr_precision_name(long bits) { return "mpfr-" + std::to_string(bits); }

std::string ScalarTraits<mpfr_real>::name() { return mpfr_precision_name(bits()); }

long ScalarTraits<mpfr_real>::bits() { return mpfr::mpreal::get_default_prec(); }

mpfr_real ScalarTraits<mpfr_real>::parse(std::string_view text) {
  mpfr_real x;  // at the current default precision
  number_text_to_mpfr(text, x.mpfr_ptr());
  if (!mpfr_number_p(x.mpfr_srcptr()))
    throw NumberError("number \"" + std::string(text.substr(0, 40)) + "\" overflows " + name());
  return x;
}

std::string ScalarTraits<mpfr_real>::format(const mpfr_real& x) {
  return mpfr_to_decimal(x.mpfr_srcptr(), roundtrip_digits(x.get_prec()));
}

}  // namespace femc
