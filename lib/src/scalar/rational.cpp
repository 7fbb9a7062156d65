#include "femc/scalar/rational.hpp"

#include <string>

#include "femc/scalar/number_text.hpp"

namespace femc {

rational ScalarTraits<rational>::parse(std::string_view text) {
  mpq_t q;
  mpq_init(q);
  try {
    number_text_to_mpq(text, q);
  } catch (...) {
    mpq_clear(q);
    throw;
  }
  rational r(q);
  mpq_clear(q);
  return r;
}

rational sqrt_approximation(const rational& x, long bits) {
  mpfr_t r;
  mpfr_init2(r, bits);
  mpfr_set_q(r, x.backend().data(), MPFR_RNDN);
  mpfr_sqrt(r, r, MPFR_RNDN);
  mpq_t q;
  mpq_init(q);
  mpfr_get_q(q, r);
  rational out(q);
  mpq_clear(q);
  mpfr_clear(r);
  return out;
}

std::string ScalarTraits<rational>::format(const rational& x) { return x.str(); }

}  // namespace femc
