#pragma once
// Double-double (≈106 bits) and quad-double (≈212 bits) from libqd, with the
// Eigen NumTraits they need. A value is an unevaluated sum of 2 (4) doubles,
// so its precision is not a fixed number of bits; `bits()` is the nominal one
// used for the unit roundoff in error bounds (libqd's own epsilon).
#include <qd/dd_real.h>
#include <qd/qd_real.h>

#include <Eigen/Core>

#include "femc/scalar/traits.hpp"

namespace Eigen {

template <>
struct NumTraits<dd_real> : GenericNumTraits<dd_real> {
  using Real = dd_real;
  using NonInteger = dd_real;
  using Nested = dd_real;
  using Literal = dd_real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 2,
    AddCost = 20,
    MulCost = 20
  };
  static inline Real epsilon() { return Real(dd_real::_eps); }
  static inline Real dummy_precision() { return Real(dd_real::_eps) * Real(1024); }
  static inline Real highest() { return dd_real::_max; }
  static inline Real lowest() { return -dd_real::_max; }
  static inline Real infinity() { return dd_real::_inf; }
  static inline Real quiet_NaN() { return dd_real::_nan; }
  static inline int digits10() { return 31; }
  static inline int digits() { return 106; }
};

template <>
struct NumTraits<qd_real> : GenericNumTraits<qd_real> {
  using Real = qd_real;
  using NonInteger = qd_real;
  using Nested = qd_real;
  using Literal = qd_real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 4,
    AddCost = 80,
    MulCost = 80
  };
  static inline Real epsilon() { return Real(qd_real::_eps); }
  static inline Real dummy_precision() { return Real(qd_real::_eps) * Real(1024); }
  static inline Real highest() { return qd_real::_max; }
  static inline Real lowest() { return -qd_real::_max; }
  static inline Real infinity() { return qd_real::_inf; }
  static inline Real quiet_NaN() { return qd_real::_nan; }
  static inline int digits10() { return 62; }
  static inline int digits() { return 212; }
};

}  // namespace Eigen

namespace femc {

template <>
struct ScalarTraits<dd_real> {
  static constexpr bool exact = false;
  static std::string name() { return "dd"; }
  static long bits() { return 106; }
  static dd_real parse(std::string_view text);
  static std::string format(const dd_real& x);
};

template <>
struct ScalarTraits<qd_real> {
  static constexpr bool exact = false;
  static std::string name() { return "qd"; }
  static long bits() { return 212; }
  static qd_real parse(std::string_view text);
  static std::string format(const qd_real& x);
};

}  // namespace femc
