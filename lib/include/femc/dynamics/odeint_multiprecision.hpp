#pragma once
// Boost.Odeint's adaptive steppers look for the scalar of a state through
// nested value_type typedefs; boost::multiprecision::number (femc::float128)
// names itself as its value_type, and the lookup never ends. A full
// specialization (a partial one for every number<> is ambiguous with
// Odeint's own) tells Odeint that float128 is its own scalar. mpreal and the
// built-in types have no value_type; mpreal needs the binomial coefficients
// below.
#include <boost/math/special_functions/binomial.hpp>
#include <boost/numeric/odeint/algebra/detail/extract_value_type.hpp>

#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"

namespace boost::numeric::odeint::detail {

template <>
struct extract_value_type<femc::float128, void> {
  typedef femc::float128 type;
};

}  // namespace boost::numeric::odeint::detail

// Bulirsch–Stoer's dense output takes binomial coefficients C(n, k), n < 40,
// through Boost.Math, whose generic body needs compile-time digits that
// mpreal (precision set at run time) does not have. The product
// C(n, k) = Π (n − k + i)/i is exact in integers of a few bits.
namespace boost::math {

template <>
inline mpfr::mpreal binomial_coefficient<mpfr::mpreal>(unsigned n, unsigned k) {
  mpfr::mpreal r(1);
  for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

}  // namespace boost::math
