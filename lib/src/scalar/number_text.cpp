#include "femc/scalar/number_text.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

namespace femc {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string quoted(std::string_view t) {
  std::string s(t.substr(0, 40));
  if (t.size() > 40) s += "...";
  return "\"" + s + "\"";
}

// Splits a decimal into sign, digit string (no dot) and the power of ten it is
// scaled by: value = sign * digits * 10^exp10.
struct DecimalParts {
  bool negative = false;
  std::string digits;
  long exp10 = 0;
};

DecimalParts split_decimal(std::string_view t) {
  DecimalParts p;
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) p.negative = (t[i++] == '-');
  long frac_digits = 0;
  bool after_dot = false;
  for (; i < t.size() && (is_digit(t[i]) || t[i] == '.'); ++i) {
    if (t[i] == '.') { after_dot = true; continue; }
    p.digits.push_back(t[i]);
    if (after_dot) ++frac_digits;
  }
  long e = 0;
  if (i < t.size()) {  // exponent, already validated
    ++i;
    bool eneg = false;
    if (t[i] == '+' || t[i] == '-') eneg = (t[i++] == '-');
    for (; i < t.size(); ++i) {
      e = e * 10 + (t[i] - '0');
      if (e > 10 * kMaxDecimalExponent) break;  // saturate; checked below
    }
    if (eneg) e = -e;
  }
  // Drop leading zeros so that the exponent check sees the real magnitude.
  std::size_t nz = p.digits.find_first_not_of('0');
  p.digits = (nz == std::string::npos) ? std::string("0") : p.digits.substr(nz);
  p.exp10 = e - frac_digits;
  if (p.digits != "0") {
    long magnitude = p.exp10 + static_cast<long>(p.digits.size());
    if (std::labs(magnitude) > kMaxDecimalExponent || std::labs(p.exp10) > 2 * kMaxDecimalExponent)
      throw NumberError("number " + quoted(t) + " has a decimal exponent beyond ±" +
                        std::to_string(kMaxDecimalExponent));
  }
  return p;
}

}  // namespace

NumberKind check_number_syntax(std::string_view t) {
  auto fail = [&](const char* why) {
    throw NumberError("number " + quoted(t) + " is not a decimal or p/q rational (" + why + ")");
  };
  if (t.empty()) fail("empty");
  if (t.size() > 4096) fail("longer than 4096 characters");
  std::size_t i = 0;
  if (t[i] == '+' || t[i] == '-') ++i;
  std::size_t int_start = i;
  while (i < t.size() && is_digit(t[i])) ++i;
  std::size_t int_digits = i - int_start;
  if (i < t.size() && t[i] == '/') {
    if (int_digits == 0) fail("missing numerator");
    std::size_t den_start = ++i;
    while (i < t.size() && is_digit(t[i])) ++i;
    if (i == den_start) fail("missing denominator");
    if (i != t.size()) fail("unexpected character after denominator");
    if (t.substr(den_start).find_first_not_of('0') == std::string_view::npos) fail("zero denominator");
    return NumberKind::Ratio;
  }
  std::size_t frac_digits = 0;
  if (i < t.size() && t[i] == '.') {
    std::size_t frac_start = ++i;
    while (i < t.size() && is_digit(t[i])) ++i;
    frac_digits = i - frac_start;
  }
  if (int_digits + frac_digits == 0) fail("no digits");
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t exp_start = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    if (i == exp_start) fail("missing exponent digits");
  }
  if (i != t.size()) fail("unexpected character");
  split_decimal(t);  // exponent range check
  return NumberKind::Decimal;
}

void number_text_to_mpq(std::string_view t, mpq_t q) {
  if (check_number_syntax(t) == NumberKind::Ratio) {
    std::string s(t[0] == '+' ? t.substr(1) : t);
    if (mpq_set_str(q, s.c_str(), 10) != 0) throw NumberError("number " + quoted(t) + " is not a p/q rational");
    mpq_canonicalize(q);
    return;
  }
  DecimalParts p = split_decimal(t);
  mpz_t num, pow;
  mpz_init(num);
  mpz_init(pow);
  mpz_set_str(num, p.digits.c_str(), 10);
  if (p.negative) mpz_neg(num, num);
  mpz_ui_pow_ui(pow, 10, static_cast<unsigned long>(std::labs(p.exp10)));
  if (p.exp10 >= 0) {
    mpz_mul(num, num, pow);
    mpq_set_z(q, num);
  } else {
    mpq_set_num(q, num);
    mpq_set_den(q, pow);
    mpq_canonicalize(q);
  }
  mpz_clear(num);
  mpz_clear(pow);
}

void number_text_to_mpfr(std::string_view t, mpfr_t x) {
  if (check_number_syntax(t) == NumberKind::Ratio) {
    mpq_t q;
    mpq_init(q);
    number_text_to_mpq(t, q);
    mpfr_set_q(x, q, MPFR_RNDN);  // one correctly rounded operation
    mpq_clear(q);
    return;
  }
  std::string s(t);
  char* end = nullptr;
  mpfr_strtofr(x, s.c_str(), &end, 10, MPFR_RNDN);  // correctly rounded
  if (end != s.c_str() + s.size()) throw NumberError("number " + quoted(t) + " could not be read");
}

std::string mpfr_to_hex(const mpfr_t x) {
  char* buf = nullptr;
  mpfr_asprintf(&buf, "%Ra", x);
  std::string s(buf);
  mpfr_free_str(buf);
  return s;
}

std::string mpfr_to_decimal(const mpfr_t x, int digits) {
  char* buf = nullptr;
  mpfr_asprintf(&buf, "%.*Rg", digits, x);
  std::string s(buf);
  mpfr_free_str(buf);
  return s;
}

int roundtrip_digits(long bits) {
  // ceil(bits * log10(2)) + 1, in integers: log10(2) < 30103/100000.
  return static_cast<int>((bits * 30103 + 99999) / 100000) + 1;
}

}  // namespace femc
