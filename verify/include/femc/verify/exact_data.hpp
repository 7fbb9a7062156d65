#pragma once
// Exact data at any working precision: exact → S through the same text path
// as user input, the condition numbers the claims' error bounds are stated
// in, and the exact rank. The functions of fixed types are compiled once,
// in femc_reference (src/exact_data.cpp): they instantiate Eigen's SVD,
// eigensolver and LU, which every unit including this header paid again.
#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/errors.hpp"
#include "femc/system.hpp"

namespace femc::prop {

template <class S>
S convert(const rational& x) {
  return ScalarTraits<S>::parse(x.str());
}

template <class S>
Matrix<S> convert(const Matrix<rational>& X) {
  Matrix<S> Y(X.rows(), X.cols());
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j) Y(i, j) = convert<S>(X(i, j));
  return Y;
}

template <class S>
Vector<S> convert(const Vector<rational>& x) {
  return convert<S>(Matrix<rational>(x)).col(0);
}

template <class S>
System<S> convert(const System<rational>& s) {
  return System<S>{convert<S>(s.M), convert<S>(s.A), convert<S>(s.b),
                   convert<S>(s.Q), convert<S>(s.C), convert<S>(s.W)};
}

inline double to_double(const rational& x) { return x.convert_to<double>(); }

// x exactly, for any finite binary floating-point x of femc's types (and a
// rational as it is). Only exact operations are used: scaling by 2, and
// removing the integer part of a value below 2³⁰ (Sterbenz), so that the
// loop peels 30 bits at a time.
template <class S>
rational to_rational(const S& value) {
  if constexpr (std::is_same_v<S, rational>) {
    return value;
  } else {
    if (!(value - value == S(0))) throw MethodError("to_rational: the value is not finite");
    if (value == S(0)) return rational(0);
    const bool negative = value < S(0);
    S x = negative ? S(-value) : value;
    long e = 0;  // x = y·2^e with y in [1, 2)
    while (x >= S(2)) x /= S(2), ++e;
    while (x < S(1)) x *= S(2), --e;
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
    const rational two(2);
    for (long i = 0; i < (p < 0 ? -p : p); ++i) scale *= two;
    const rational r = p >= 0 ? rational(mantissa * scale) : rational(mantissa / scale);
    return negative ? rational(-r) : r;
  }
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

template <class S>
bool all_finite(const Vector<S>& v) {
  for (Index i = 0; i < v.size(); ++i)
    if (!(v(i) - v(i) == S(0))) return false;  // NaN and ±∞ give NaN
  return true;
}

// ‖v‖₂ and √(vᵀGv) (G symmetric positive semidefinite) of an exact vector,
// exact but for the last square root.
inline double norm2(const Vector<rational>& v) {
  rational s(0);
  for (Index i = 0; i < v.size(); ++i) s += v(i) * v(i);
  return std::sqrt(to_double(s));
}
inline double norm_in(const Matrix<rational>& G, const Vector<rational>& v) {
  if (v.size() == 0) return 0;
  const double q = to_double(rational(v.dot(G * v)));
  return std::sqrt(q > 0 ? q : 0.0);
}

// Any scalar of femc as a double, for reporting and for bounds (which need
// one or two digits); every type has an explicit conversion.
template <class S>
double as_double(const S& x) {
  return static_cast<double>(x);
}

// κ₂ of the data, to one or two digits (computed in double; enough for a bound).
struct Conditioning {
  double kappa_M = 1, kappa_P = 1, kappa_A = 1;
  // K = κ(M)·κ(P)²·κ(A): κ(P)² for the least-squares residual term, κ(M) for
  // the transformation by a factor of M, κ(A) for λ = (Aᵀ)⁺Qᴺ.
  double K() const { return kappa_M * kappa_P * kappa_P * kappa_A; }
};

// κ of X at rank r: σ₁/σ_r (1 for r = 0).
double kappa_of_rank(const Eigen::MatrixXd& X, Index r);

// The condition numbers of a rational system at rank `rank`, in double.
Conditioning conditioning(const System<rational>& s, Index rank);

// The exact rank of a rational matrix (full-pivoting LU, zero threshold).
Index exact_rank(const Matrix<rational>& X);

// |x|∞ of a rational vector, as a double.
inline double inf_norm(const Vector<rational>& x) {
  double m = 0;
  for (Index i = 0; i < x.size(); ++i) m = std::max(m, std::abs(to_double(x(i))));
  return m;
}

// The forward-error bound for data rounded to a precision of unit roundoff
// u_d (tests/test_rounded_data.cpp states and tests it): rounding the data is
// a backward error of u_d per entry, so
//   |q̂ − q*|∞ ≤ c·u_d·K·(data + |q*|∞),  c = 16(n + m)²,
//   data = 1 + ‖Q‖∞ + ‖C‖∞ + ‖b‖∞,  K = κ(M)·κ_r(P)
// for consistent constraints at rank r. This returns the bound per u_d. An
// engine's data are rounded to double: its answer, if its solve is backward
// stable, is within this bound of the Gauss solution of the data.
double rounded_data_bound_per_u(const System<rational>& sys, Index r, double qdd_inf);

}  // namespace femc::prop
