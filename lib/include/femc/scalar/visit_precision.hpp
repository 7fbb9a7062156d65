#pragma once
// visit_precision(name, f): the one dispatch from a precision's name to its
// scalar type (the table scalar/precisions.hpp): it returns f(PrecisionTag<S>{})
// for the type S that name denotes. An MPFR precision is named by its bits,
// "256" as on the command line or "mpfr-256" as ScalarTraits<mpfr_real>::name()
// spells it; the thread's default MPFR precision is set to them for the call.
// A caller that does not run at some type says so in f (if constexpr).
//
//   visit_precision("float128", [&](auto tag) { using S = typename decltype(tag)::type; … });
#include <optional>
#include <string>
#include <type_traits>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/precisions.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"

namespace femc {

template <class S>
struct PrecisionTag {
  using type = S;
};

// The bits of an MPFR precision's name ("256" or "mpfr-256"); nullopt for a
// name of another form. Throws InputError("precision", …) for bits outside
// [kMinMpfrBits, kMaxMpfrBits].
std::optional<long> mpfr_bits_of(const std::string& name);

// "double, long-double, float128, dd, qd, exact, or MPFR bits 24..65536": the
// table's names, for messages and --help.
std::string precision_names();

// Whether a model is evaluated and simulated at S (the table's Models
// column): the QD types offer no sin and cos through femc's scalar traits,
// and no model is exact. The library compiles the model layer at these
// types only (lib/CMakeLists.txt reads the same column).
template <class S>
inline constexpr bool kEvaluatesModels = false;
#define FEMC_EVALUATES_MODELS(Type, tag, header, spelling, kind, models, bits, what) \
  FEMC_IF_MODELS_##models(template <> inline constexpr bool kEvaluatesModels<Type> = true;)
FEMC_PRECISIONS(FEMC_EVALUATES_MODELS)
#undef FEMC_EVALUATES_MODELS

// "double, long-double, float128, or MPFR bits": the names of the precisions
// a model is evaluated at, for messages and --help.
std::string model_precision_names();

// f(PrecisionTag<S>{}) for the precision named; InputError("precision", …)
// naming the choices for an unknown name.
template <class F>
decltype(auto) visit_precision(const std::string& name, F&& f) {
  if (const std::optional<long> bits = mpfr_bits_of(name)) {
    MpfrPrecision guard(*bits);
    return f(PrecisionTag<mpfr_real>{});
  }
#define FEMC_VISIT_PRECISION(Type, tag, header, spelling, kind, models, bits, what) \
  if (!std::is_same_v<Type, mpfr_real> && name == spelling) return f(PrecisionTag<Type>{});
  FEMC_PRECISIONS(FEMC_VISIT_PRECISION)
#undef FEMC_VISIT_PRECISION
  throw InputError("precision", "unknown precision '" + name.substr(0, 40) + "' (" + precision_names() + ")");
}

}  // namespace femc
