#pragma once
// What every study needs around the solver: the scalar types by name, exact
// conversion of any binary floating-point value to a rational (so that a
// reference computed exactly is a reference for *these* data), errors
// measured exactly, and a portable seeded random source.
#include <Eigen/Householder>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "femc/errors.hpp"
#include "femc/verify/exact_data.hpp"
#include "femc/linalg.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"

namespace femc::studies {

template <class S>
struct Tag {
  using type = S;
};

// The working precisions of the accuracy studies: every floating scalar
// type of femc, and MPFR at 256 bits.
inline const std::vector<std::string>& working_precisions() {
  static const std::vector<std::string> names{"double", "long-double", "float128", "dd", "qd", "mpfr-256"};
  return names;
}

// Calls f(Tag<S>{}) with S the scalar type named by precision ("double",
// "long-double", "float128", "dd", "qd", "mpfr-<bits>"); for MPFR the
// thread's default precision is set for the duration of the call.
template <class F>
void with_precision(const std::string& precision, F&& f) {
  if (precision == "double") return f(Tag<double>{});
  if (precision == "long-double") return f(Tag<long double>{});
  if (precision == "float128") return f(Tag<float128>{});
  if (precision == "dd") return f(Tag<double_double>{});
  if (precision == "qd") return f(Tag<quad_double>{});
  if (precision.rfind("mpfr-", 0) == 0) {
    const long bits = std::stol(precision.substr(5));
    MpfrPrecision guard(bits);
    return f(Tag<mpfr_real>{});
  }
  throw InputError("precision", "unknown precision '" + precision + "'");
}

// The unit roundoff of a named precision, as a double (for bounds).
double unit_roundoff_of(const std::string& precision);

// x exactly, for any finite binary floating-point x of femc's types. Only
// exact operations are used: scaling by 2, and removing the integer part of
// a value below 2³⁰ (Sterbenz), so that the loop peels 30 bits at a time.
template <class S>
bool all_finite(const Vector<S>& v) {
  for (Index i = 0; i < v.size(); ++i)
    if (!(v(i) - v(i) == S(0))) return false;  // NaN and ±∞ give NaN
  return true;
}

template <class S>
rational to_rational(const S& value) {
  if (!(value - value == S(0))) throw MethodError("to_rational: the value is not finite");
  if (value == S(0)) return rational(0);
  const bool negative = value < S(0);
  S x = negative ? S(-value) : value;
  long e = 0;  // x = y·2^e with y in [1, 2)
  while (x >= S(2)) { x /= S(2); ++e; }
  while (x < S(1)) { x *= S(2); --e; }
  rational mantissa(0);
  long shift = 0;
  const S chunk(1073741824.0);  // 2³⁰
  for (int guard = 0; x != S(0); ++guard) {
    if (guard > 2000) throw MethodError("to_rational: value does not terminate in binary");
    long long digit = static_cast<long long>(static_cast<double>(x));
    if (S(static_cast<double>(digit)) > x) --digit;  // the double conversion may round up
    mantissa = mantissa * rational(1073741824) + rational(digit);
    x = (x - S(static_cast<double>(digit))) * chunk;
    shift += 30;
  }
  // value = mantissa · 2^(e − shift + 30)
  const long p = e - shift + 30;
  rational scale(1);
  rational two(2);
  for (long i = 0; i < (p < 0 ? -p : p); ++i) scale *= two;
  rational r = p >= 0 ? rational(mantissa * scale) : rational(mantissa / scale);
  return negative ? rational(-r) : r;
}

template <class S>
Matrix<rational> to_rational(const Matrix<S>& X) {
  Matrix<rational> R(X.rows(), X.cols());
  for (Index j = 0; j < X.cols(); ++j)
    for (Index i = 0; i < X.rows(); ++i) R(i, j) = to_rational(X(i, j));
  return R;
}

template <class S>
Vector<rational> to_rational(const Vector<S>& x) {
  Vector<rational> r(x.size());
  for (Index i = 0; i < x.size(); ++i) r(i) = to_rational(x(i));
  return r;
}

// A rational (scalar, vector, matrix) rounded once to S through the "p/q"
// text path of user input, as the claims read their exact data
// (femc/verify/exact_data.hpp).
template <class S, class X>
auto from_rational(const X& x) {
  return prop::convert<S>(x);
}
using prop::to_double;

// ‖v‖₂ of an exact vector, to double accuracy.
double norm2(const Vector<rational>& v);

// ‖x − ref‖₂ / ‖ref‖₂ with the difference formed exactly; ‖x − ref‖₂ when
// ref = 0. The error of a solver is then the solver's alone.
template <class S>
double relative_error(const Vector<S>& x, const Vector<rational>& ref) {
  if (x.size() != ref.size()) throw MethodError("relative_error: sizes differ");
  Vector<rational> d = to_rational(x) - ref;
  const double r = norm2(ref);
  return r > 0 ? norm2(d) / r : norm2(d);
}

// SplitMix64: the same stream on every platform and library (unlike the
// standard distributions), seeded from the study seed and the cell key.
class Random {
 public:
  Random(unsigned long seed, const std::string& key);
  std::uint64_t next();
  double uniform();             // [0, 1), 53 random bits
  double uniform(double a, double b);
  double normal();              // Box–Muller
  int integer(int lo, int hi);  // uniform on [lo, hi]

 private:
  std::uint64_t state_;
};

// A random orthogonal n×n matrix (Householder QR of a Gaussian matrix) in double.
Eigen::MatrixXd random_orthogonal(Index n, Random& rng);

// U·diag(σ)·Vᵀ in double, m×n, σ geometric from 1 down to 1/kappa over the
// first r singular values (r ≤ min(m, n)); the result is the exact data.
Eigen::MatrixXd matrix_with_condition(Index m, Index n, Index r, double kappa, Random& rng);

// The symmetric positive definite Q·diag(λ)·Qᵀ with λ geometric from 1 to
// 1/kappa, symmetrized exactly (the lower triangle mirrored).
Eigen::MatrixXd spd_with_condition(Index n, double kappa, Random& rng);

// Number formatting for the CSV files: 17 significant digits (round trip).
std::string num(double x);
std::string num(long x);
inline std::string num(int x) { return num(static_cast<long>(x)); }

}  // namespace femc::studies
