#pragma once
// MPFR at a run-time precision in bits, through mpreal (its precision is set
// in bits, exactly; Boost's mpfr_float counts decimal digits). Eigen's own
// NumTraits<mpfr::mpreal> comes from unsupported/Eigen/MPRealSupport.
//
// The precision is MPFR's per-thread default: set it with MpfrPrecision
// before creating any number, and every value made afterwards carries it.
#include <mpreal.h>

#include <Eigen/Core>
#include <unsupported/Eigen/MPRealSupport>

#include "femc/scalar/traits.hpp"

namespace Eigen::internal {
// a·b + c in one MPFR operation with one rounding and one temporary. Eigen's
// generic pmadd is padd(pmul(a, b), c): two temporaries, two roundings. Its
// matrix–vector kernels call pmadd once per multiply-add, and under MPFR each
// temporary is an allocation (reports/performance.md). Declared here, before
// any Eigen kernel is instantiated for mpreal: every femc file reaches mpreal
// through this header.
template <>
inline mpfr::mpreal pmadd<mpfr::mpreal>(const mpfr::mpreal& a, const mpfr::mpreal& b, const mpfr::mpreal& c) {
  using std::max;
  mpfr::mpreal r(0, max(max(a.get_prec(), b.get_prec()), c.get_prec()));
  mpfr_fma(r.mpfr_ptr(), a.mpfr_srcptr(), b.mpfr_srcptr(), c.mpfr_srcptr(), mpfr::mpreal::get_default_rnd());
  return r;
}
}  // namespace Eigen::internal

namespace femc {

using mpfr_real = mpfr::mpreal;

// Bounds on a user-chosen precision: below 24 bits the error analysis of the
// tests is meaningless, above 65536 bits a solve of any size is impractical.
inline constexpr long kMinMpfrBits = 24;
inline constexpr long kMaxMpfrBits = 65536;

// Sets the default precision for the lifetime of the guard (this thread).
class MpfrPrecision {
 public:
  explicit MpfrPrecision(long bits);
  ~MpfrPrecision();
  MpfrPrecision(const MpfrPrecision&) = delete;
  MpfrPrecision& operator=(const MpfrPrecision&) = delete;

 private:
  mpfr_prec_t previous_;
};

// MPFR's precision at `bits`, as every output names it (femc solve's and
// femc simulate's JSON, the studies' CSV, the benchmarks, the Python module):
// "mpfr-256". The command line also takes the bits alone (mpfr_bits_of,
// scalar/visit_precision.hpp, reads both).
std::string mpfr_precision_name(long bits);

template <>
struct ScalarTraits<mpfr_real> {
  static constexpr bool exact = false;
  static std::string name();  // mpfr_precision_name(bits()): "mpfr-<bits>"
  static long bits();
  static mpfr_real parse(std::string_view text);
  static std::string format(const mpfr_real& x);
};

}  // namespace femc
