#pragma once
// What every study needs around the solver: the scalar types by name, exact
// conversion of any binary floating-point value to a rational (so that a
// reference computed exactly is a reference for *these* data), errors
// measured exactly, and a portable seeded random source.
#include <Eigen/Householder>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "femc/errors.hpp"
#include "femc/verify/exact_data.hpp"
#include "femc/linalg.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/scalar/visit_precision.hpp"

namespace femc::studies {

template <class S>
struct Tag {
  using type = S;
};

// The working precisions of the accuracy studies: every floating scalar
// type of the precision table (scalar/precisions.hpp), MPFR at
// kStudyMpfrBits, as the studies' outputs spell them ("mpfr-256").
inline constexpr long kStudyMpfrBits = 256;
inline const std::vector<std::string>& working_precisions() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
#define FEMC_WORKING_PRECISION(Type, tag, header, spelling, kind, models, bits, what) \
  FEMC_IF_FLOATING_##kind(out.push_back(std::is_same_v<Type, mpfr_real> ? mpfr_precision_name(kStudyMpfrBits) : spelling);)
    FEMC_PRECISIONS(FEMC_WORKING_PRECISION)
#undef FEMC_WORKING_PRECISION
    return out;
  }();
  return names;
}

// Calls f(Tag<S>{}) with S the scalar type named by precision ("double",
// "long-double", "float128", "dd", "qd", "mpfr-<bits>"); for MPFR the
// thread's default precision is set for the duration of the call.
// (visit_precision, scalar/visit_precision.hpp; exact is not a working
// precision of the studies.)
template <class F>
void with_precision(const std::string& precision, F&& f) {
  visit_precision(precision, [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (std::is_same_v<S, rational>)
      throw InputError("precision", "'exact' is not a working precision of the studies");
    else
      f(Tag<S>{});
  });
}

// The unit roundoff of a named precision, as a double (for bounds).
double unit_roundoff_of(const std::string& precision);

// x exactly, for any finite binary floating-point x of femc's types. Only
// exact operations are used: scaling by 2, and removing the integer part of
// a value below 2³⁰ (Sterbenz), so that the loop peels 30 bits at a time.
using prop::all_finite;
using prop::to_rational;
using prop::norm2;

// A rational (scalar, vector, matrix) rounded once to S through the "p/q"
// text path of user input, as the claims read their exact data
// (femc/verify/exact_data.hpp).
template <class S, class X>
auto from_rational(const X& x) {
  return prop::convert<S>(x);
}
using prop::to_double;

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
