#pragma once
// Boost.Odeint's adaptive steppers look for the scalar of a state through
// nested value_type typedefs; boost::multiprecision::number (femc::float128)
// names itself as its value_type, and the lookup never ends. A full
// specialization (a partial one for every number<> is ambiguous with
// Odeint's own) tells Odeint that float128 is its own scalar. mpreal and the
// built-in types have no value_type and need nothing.
#include <boost/numeric/odeint/algebra/detail/extract_value_type.hpp>

#include "femc/scalar/float128.hpp"

namespace boost::numeric::odeint::detail {

template <>
struct extract_value_type<femc::float128, void> {
  typedef femc::float128 type;
};

}  // namespace boost::numeric::odeint::detail
