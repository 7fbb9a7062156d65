#pragma once
// Counted: a double that counts its arithmetic, so that one solve of a
// method at a given shape yields its operation counts (op_count.cpp). Eigen
// sees it as it sees mpreal: a non-vectorizable scalar of huge cost, so the
// same kernels (no SIMD packets, no lazy small products) run as for MPFR.
// The counts are exact for the code path; only MPRealSupport's hand-written
// GEMM kernel for mpreal differs, and it performs the same k·m·n
// multiply-adds.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "femc/scalar/traits.hpp"

namespace femc::bench {

struct OpCounts {
  std::uint64_t add = 0;   // + and − (binary)
  std::uint64_t mul = 0;
  std::uint64_t div = 0;
  std::uint64_t sqrt = 0;
  std::uint64_t cmp = 0;   // comparisons, abs, negation: not in the floor
};

inline OpCounts g_ops;  // the benchmark is single-threaded

class Counted {
 public:
  Counted() = default;
  Counted(double x) : v_(x) {}                  // NOLINT: implicit, like a literal
  Counted(int x) : v_(x) {}                     // NOLINT
  Counted(long x) : v_(double(x)) {}            // NOLINT
  Counted(long long x) : v_(double(x)) {}       // NOLINT
  Counted(unsigned long x) : v_(double(x)) {}   // NOLINT
  explicit operator double() const { return v_; }
  double value() const { return v_; }

  Counted& operator+=(const Counted& o) { ++g_ops.add; v_ += o.v_; return *this; }
  Counted& operator-=(const Counted& o) { ++g_ops.add; v_ -= o.v_; return *this; }
  Counted& operator*=(const Counted& o) { ++g_ops.mul; v_ *= o.v_; return *this; }
  Counted& operator/=(const Counted& o) { ++g_ops.div; v_ /= o.v_; return *this; }

  friend Counted operator+(Counted a, const Counted& b) { return a += b; }
  friend Counted operator-(Counted a, const Counted& b) { return a -= b; }
  friend Counted operator*(Counted a, const Counted& b) { return a *= b; }
  friend Counted operator/(Counted a, const Counted& b) { return a /= b; }
  friend Counted operator-(const Counted& a) { ++g_ops.cmp; return Counted(-a.v_); }
  friend Counted operator+(const Counted& a) { return a; }

#define FEMC_COUNTED_COMPARE(op) \
  friend bool operator op(const Counted& a, const Counted& b) { ++g_ops.cmp; return a.v_ op b.v_; }
  FEMC_COUNTED_COMPARE(==)
  FEMC_COUNTED_COMPARE(!=)
  FEMC_COUNTED_COMPARE(<)
  FEMC_COUNTED_COMPARE(<=)
  FEMC_COUNTED_COMPARE(>)
  FEMC_COUNTED_COMPARE(>=)
#undef FEMC_COUNTED_COMPARE

  friend Counted sqrt(const Counted& a) { ++g_ops.sqrt; return Counted(std::sqrt(a.v_)); }
  friend Counted abs(const Counted& a) { ++g_ops.cmp; return Counted(std::fabs(a.v_)); }
  friend Counted fabs(const Counted& a) { return abs(a); }
  friend Counted floor(const Counted& a) { return Counted(std::floor(a.v_)); }
  friend Counted ceil(const Counted& a) { return Counted(std::ceil(a.v_)); }
  friend Counted exp(const Counted& a) { return Counted(std::exp(a.v_)); }
  friend Counted log(const Counted& a) { return Counted(std::log(a.v_)); }
  friend bool isfinite(const Counted& a) { return std::isfinite(a.v_); }
  friend bool isnan(const Counted& a) { return std::isnan(a.v_); }
  friend bool isinf(const Counted& a) { return std::isinf(a.v_); }

 private:
  double v_ = 0;
};

}  // namespace femc::bench

namespace femc {
template <>
struct ScalarTraits<bench::Counted> {  // only kkt's error message prints one
  static constexpr bool exact = false;
  static std::string name() { return "counted"; }
  static long bits() { return 53; }
  static std::string format(const bench::Counted& x) { return std::to_string(x.value()); }
};
}  // namespace femc

namespace std {
template <>
class numeric_limits<femc::bench::Counted> : public numeric_limits<double> {
 public:
  using T = femc::bench::Counted;
  static T min() noexcept { return T(numeric_limits<double>::min()); }
  static T max() noexcept { return T(numeric_limits<double>::max()); }
  static T lowest() noexcept { return T(numeric_limits<double>::lowest()); }
  static T epsilon() noexcept { return T(numeric_limits<double>::epsilon()); }
  static T infinity() noexcept { return T(numeric_limits<double>::infinity()); }
  static T quiet_NaN() noexcept { return T(numeric_limits<double>::quiet_NaN()); }
  static T denorm_min() noexcept { return T(numeric_limits<double>::denorm_min()); }
};
}  // namespace std

namespace Eigen {
template <>
struct NumTraits<femc::bench::Counted> : GenericNumTraits<femc::bench::Counted> {
  using Real = femc::bench::Counted;
  using NonInteger = Real;
  using Nested = Real;
  using Literal = Real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = HugeCost,  // as NumTraits<mpfr::mpreal> (MPRealSupport)
    AddCost = HugeCost,
    MulCost = HugeCost
  };
  static inline Real epsilon() { return Real(std::numeric_limits<double>::epsilon()); }
  static inline Real dummy_precision() { return Real(1e-12); }
  static inline Real highest() { return Real(std::numeric_limits<double>::max()); }
  static inline Real lowest() { return Real(std::numeric_limits<double>::lowest()); }
  static inline Real infinity() { return Real(std::numeric_limits<double>::infinity()); }
  static inline Real quiet_NaN() { return Real(std::numeric_limits<double>::quiet_NaN()); }
  static inline int digits10() { return 15; }
  static inline int digits() { return 53; }
};
}  // namespace Eigen
