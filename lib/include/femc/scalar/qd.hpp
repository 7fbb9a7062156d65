#pragma once
// Double-double (≈106 bits) and quad-double (≈212 bits) from libqd.
//
// libqd's dd_real/qd_real cannot be Eigen scalars as they are: Eigen writes
// RealScalar(n) for an Index n, and dd_real(long) is ambiguous between its
// int and double constructors. QdNumber<B> is B with the constructors and
// the arithmetic overloads (exact-match, so never ambiguous with libqd's own)
// that Eigen needs; the arithmetic is libqd's. A value is an unevaluated sum
// of 2 (4) doubles, so its precision is not a fixed number of bits: bits()
// is the nominal one behind libqd's epsilon, used for the unit roundoff.
#include <qd/dd_real.h>
#include <qd/qd_real.h>

#include <Eigen/Core>

#include "femc/scalar/traits.hpp"

namespace femc {

template <class B>
class QdNumber : public B {
 public:
  QdNumber() : B(0.0) {}
  QdNumber(const B& x) : B(x) {}  // NOLINT: implicit, results of libqd functions
  QdNumber(double x) : B(x) {}    // NOLINT
  QdNumber(int x) : B(static_cast<double>(x)) {}        // NOLINT
  QdNumber(long x) : B(static_cast<double>(x)) {}       // NOLINT (exact for |x| < 2^53)
  QdNumber(long long x) : B(static_cast<double>(x)) {}  // NOLINT
  QdNumber(unsigned long x) : B(static_cast<double>(x)) {}  // NOLINT
  explicit operator double() const { return to_double(base()); }

  const B& base() const { return *this; }

  QdNumber& operator+=(const QdNumber& o) { B::operator+=(o.base()); return *this; }
  QdNumber& operator-=(const QdNumber& o) { B::operator-=(o.base()); return *this; }
  QdNumber& operator*=(const QdNumber& o) { B::operator*=(o.base()); return *this; }
  QdNumber& operator/=(const QdNumber& o) { B::operator/=(o.base()); return *this; }

#define FEMC_QD_BINARY(op)                                                                                 \
  friend QdNumber operator op(const QdNumber& a, const QdNumber& b) { return QdNumber(a.base() op b.base()); } \
  friend QdNumber operator op(const QdNumber& a, double b) { return QdNumber(a.base() op b); }             \
  friend QdNumber operator op(double a, const QdNumber& b) { return QdNumber(a op b.base()); }             \
  friend QdNumber operator op(const QdNumber& a, int b) { return QdNumber(a.base() op double(b)); }        \
  friend QdNumber operator op(int a, const QdNumber& b) { return QdNumber(double(a) op b.base()); }        \
  friend QdNumber operator op(const QdNumber& a, long b) { return QdNumber(a.base() op double(b)); }       \
  friend QdNumber operator op(long a, const QdNumber& b) { return QdNumber(double(a) op b.base()); }
  FEMC_QD_BINARY(+)
  FEMC_QD_BINARY(-)
  FEMC_QD_BINARY(*)
  FEMC_QD_BINARY(/)
#undef FEMC_QD_BINARY

#define FEMC_QD_COMPARE(op)                                                                              \
  friend bool operator op(const QdNumber& a, const QdNumber& b) { return a.base() op b.base(); }          \
  friend bool operator op(const QdNumber& a, double b) { return a.base() op b; }                          \
  friend bool operator op(double a, const QdNumber& b) { return a op b.base(); }                          \
  friend bool operator op(const QdNumber& a, int b) { return a.base() op double(b); }                     \
  friend bool operator op(int a, const QdNumber& b) { return double(a) op b.base(); }
  FEMC_QD_COMPARE(==)
  FEMC_QD_COMPARE(!=)
  FEMC_QD_COMPARE(<)
  FEMC_QD_COMPARE(<=)
  FEMC_QD_COMPARE(>)
  FEMC_QD_COMPARE(>=)
#undef FEMC_QD_COMPARE

  friend QdNumber operator-(const QdNumber& a) { return QdNumber(-a.base()); }
  friend QdNumber operator+(const QdNumber& a) { return a; }
  friend QdNumber sqrt(const QdNumber& a) { return QdNumber(::sqrt(a.base())); }
  friend QdNumber abs(const QdNumber& a) { return QdNumber(::abs(a.base())); }
  friend QdNumber fabs(const QdNumber& a) { return QdNumber(::abs(a.base())); }
  friend QdNumber floor(const QdNumber& a) { return QdNumber(::floor(a.base())); }
  friend QdNumber ceil(const QdNumber& a) { return QdNumber(::ceil(a.base())); }
  friend QdNumber exp(const QdNumber& a) { return QdNumber(::exp(a.base())); }
  friend QdNumber log(const QdNumber& a) { return QdNumber(::log(a.base())); }
  friend bool isfinite(const QdNumber& a) { return a.base().isfinite(); }
  friend bool isnan(const QdNumber& a) { return a.base().isnan(); }
  friend bool isinf(const QdNumber& a) { return a.base().isinf(); }
};

using double_double = QdNumber<dd_real>;
using quad_double = QdNumber<qd_real>;

template <>
struct ScalarTraits<double_double> {
  static constexpr bool exact = false;
  static std::string name() { return "dd"; }
  static long bits() { return 106; }
  static double_double parse(std::string_view text);
  static std::string format(const double_double& x);
};

template <>
struct ScalarTraits<quad_double> {
  static constexpr bool exact = false;
  static std::string name() { return "qd"; }
  static long bits() { return 212; }
  static quad_double parse(std::string_view text);
  static std::string format(const quad_double& x);
};

}  // namespace femc

// Eigen's SVD and eigensolvers read std::numeric_limits<RealScalar>::min()
// (an unspecialized limits class would return 0 and break their tests for
// negligible entries); forward libqd's limits, with values of our type.
namespace std {
template <class B>
class numeric_limits<femc::QdNumber<B>> : public numeric_limits<B> {
 public:
  using T = femc::QdNumber<B>;
  static constexpr bool is_specialized = true;
  static T min() noexcept { return T(numeric_limits<B>::min()); }
  static T max() noexcept { return T(numeric_limits<B>::max()); }
  static T lowest() noexcept { return -T(numeric_limits<B>::max()); }
  static T epsilon() noexcept { return T(numeric_limits<B>::epsilon()); }
  static T infinity() noexcept { return T(B::_inf); }
  static T quiet_NaN() noexcept { return T(B::_nan); }
  static T denorm_min() noexcept { return T(numeric_limits<double>::denorm_min()); }
};
}  // namespace std

namespace Eigen {

template <class B, int Digits, int Digits10>
struct QdNumTraits : GenericNumTraits<femc::QdNumber<B>> {
  using Real = femc::QdNumber<B>;
  using NonInteger = Real;
  using Nested = Real;
  using Literal = Real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = Digits / 53,
    AddCost = 10 * Digits / 53,
    MulCost = 10 * Digits / 53
  };
  static inline Real epsilon() { return Real(B::_eps); }
  static inline Real dummy_precision() { return Real(B::_eps) * 1024; }
  static inline Real highest() { return Real(B::_max); }
  static inline Real lowest() { return -Real(B::_max); }
  static inline Real infinity() { return Real(B::_inf); }
  static inline Real quiet_NaN() { return Real(B::_nan); }
  static inline int digits10() { return Digits10; }
  static inline int digits() { return Digits; }
};

template <>
struct NumTraits<femc::double_double> : QdNumTraits<dd_real, 106, 31> {};
template <>
struct NumTraits<femc::quad_double> : QdNumTraits<qd_real, 212, 62> {};

}  // namespace Eigen
