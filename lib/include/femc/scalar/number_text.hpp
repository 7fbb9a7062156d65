#pragma once
// The one grammar femc accepts for a number written as text:
//   decimal  [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
//   rational [+-]? digits / digits      (denominator not zero)
// No "nan", "inf", hex or whitespace. Parsing to a scalar type is done by
// ScalarTraits<S>::parse, which calls these helpers; keeping the grammar in
// one place means every precision accepts exactly the same inputs.
#include <cstdint>  // intmax_t, for MPFR_USE_INTMAX_T
#include <gmp.h>
// mpreal.h (scalar/mpfr.hpp) needs these before the first <mpfr.h>.
#ifndef MPFR_USE_NO_MACRO
#define MPFR_USE_NO_MACRO
#endif
#ifndef MPFR_USE_INTMAX_T
#define MPFR_USE_INTMAX_T
#endif
#include <mpfr.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace femc {

// Thrown for a number text that is malformed or not representable.
struct NumberError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class NumberKind { Decimal, Ratio };

// Checks the grammar above; throws NumberError naming what is wrong.
NumberKind check_number_syntax(std::string_view text);

// Largest decimal exponent accepted (|e| after normalization): beyond it a
// decimal would need an unreasonable amount of memory as an exact rational,
// and it overflows or underflows every floating type femc supports.
inline constexpr long kMaxDecimalExponent = 100000;

// Sets q to the exact value of text (either kind). Throws NumberError.
void number_text_to_mpq(std::string_view text, mpq_t q);

// Sets x (with its own precision) to text correctly rounded to nearest.
void number_text_to_mpfr(std::string_view text, mpfr_t x);

// Hex-float text ("%Ra") of an mpfr value: exact, for handing a value
// already rounded to the target precision to a native parser.
std::string mpfr_to_hex(const mpfr_t x);

// Decimal text of x with `digits` significant digits ("%.*Rg").
std::string mpfr_to_decimal(const mpfr_t x, int digits);

// Significant decimal digits that make a p-bit binary value round-trip:
// ceil(p·log10 2) + 1.
int roundtrip_digits(long bits);

}  // namespace femc
