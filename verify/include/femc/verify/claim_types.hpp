#pragma once
// The scalar types the claims run at, of the precision table's
// (scalar/precisions.hpp): double, float128, MPFR (at the bits in force) and
// exact. The claim table (claim_table.hpp: a property per type), the claims'
// runner, the protocol's process solver and the ctest registration
// instantiate at these, and femc verify accepts these precisions. Light on
// purpose: the protocol (process_solver.hpp) reads it without RapidCheck.
//
// A line: X(Type)
#include <type_traits>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"

#define FEMC_CLAIM_TYPES(X) \
  X(double)                 \
  X(float128)               \
  X(mpfr_real)              \
  X(rational)

namespace femc::prop {

template <class S>
inline constexpr bool kClaimsRunAt = false;
#define FEMC_CLAIMS_RUN_AT(Type) template <> inline constexpr bool kClaimsRunAt<Type> = true;
FEMC_CLAIM_TYPES(FEMC_CLAIMS_RUN_AT)
#undef FEMC_CLAIMS_RUN_AT

}  // namespace femc::prop
