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

std::string ScalarTraits<rational>::format(const rational& x) { return x.str(); }

}  // namespace femc
