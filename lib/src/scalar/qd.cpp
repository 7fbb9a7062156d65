#include "femc/scalar/qd.hpp"

#include <cmath>
#include <string>

#include "femc/scalar/number_text.hpp"

namespace femc {
namespace {

// Enough bits to hold any dd/qd value exactly: the components of a
// normalized value span at most the double exponent range plus 4·53 bits.
constexpr long kExactBits = 2400;

// Greedy split of a correctly rounded high-precision value into K doubles:
// x_k = RN(x − x_0 − … − x_{k−1}); the result is the nearest K-double sum
// up to the last component's rounding.
template <int K>
void split_into_doubles(std::string_view text, double (&parts)[K], const char* type) {
  mpfr_t x;
  mpfr_init2(x, 64 * K + 64);
  number_text_to_mpfr(text, x);
  for (int k = 0; k < K; ++k) {
    parts[k] = mpfr_get_d(x, MPFR_RNDN);
    mpfr_sub_d(x, x, parts[k], MPFR_RNDN);
  }
  mpfr_clear(x);
  if (!std::isfinite(parts[0]))
    throw NumberError("number \"" + std::string(text.substr(0, 40)) + "\" overflows " + type);
}

template <int K>
std::string format_sum(const double* parts, long bits) {
  mpfr_t x;
  mpfr_init2(x, kExactBits);
  mpfr_set_d(x, parts[0], MPFR_RNDN);
  for (int k = 1; k < K; ++k) mpfr_add_d(x, x, parts[k], MPFR_RNDN);
  std::string s = mpfr_to_decimal(x, roundtrip_digits(bits));
  mpfr_clear(x);
  return s;
}

}  // namespace

double_double ScalarTraits<double_double>::parse(std::string_view text) {
  double p[2];
  split_into_doubles<2>(text, p, "dd");
  return double_double(dd_real(p[0], p[1]));
}

std::string ScalarTraits<double_double>::format(const double_double& x) { return format_sum<2>(x.x, bits()); }

quad_double ScalarTraits<quad_double>::parse(std::string_view text) {
  double p[4];
  split_into_doubles<4>(text, p, "qd");
  return quad_double(qd_real(p[0], p[1], p[2], p[3]));
}

std::string ScalarTraits<quad_double>::format(const quad_double& x) { return format_sum<4>(x.x, bits()); }

}  // namespace femc
