#include <cstring>

#include "femc/scalar/visit_precision.hpp"

namespace femc {

std::optional<long> mpfr_bits_of(const std::string& name) {
  const std::string digits = name.rfind("mpfr-", 0) == 0 ? name.substr(5) : name;
  if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const long bits = std::stol(digits);
  if (bits < kMinMpfrBits || bits > kMaxMpfrBits)
    throw InputError("precision", name + " bits is outside [" + std::to_string(kMinMpfrBits) + ", " +
                                      std::to_string(kMaxMpfrBits) + "]");
  return bits;
}

namespace {

// The table's names of the fixed precisions (not MPFR's "BITS") whose type
// keep(PrecisionTag<Type>{}) accepts, comma-separated, in the table's order.
template <class Keep>
std::string fixed_precision_names(Keep keep) {
  std::string names;
#define FEMC_FIXED_PRECISION_NAME(Type, tag, header, spelling, kind, models, bits, what) \
  if (keep(PrecisionTag<Type>{}) && std::strcmp(spelling, "BITS") != 0)                 \
    names += std::string(names.empty() ? "" : ", ") + spelling;
  FEMC_PRECISIONS(FEMC_FIXED_PRECISION_NAME)
#undef FEMC_FIXED_PRECISION_NAME
  return names;
}

}  // namespace

std::string precision_names() {
  return fixed_precision_names([](auto) { return true; }) + ", or MPFR bits " + std::to_string(kMinMpfrBits) + ".." +
         std::to_string(kMaxMpfrBits);
}

std::string model_precision_names() {
  return fixed_precision_names([](auto tag) { return kEvaluatesModels<typename decltype(tag)::type>; }) +
         (kEvaluatesModels<mpfr_real> ? ", or MPFR bits" : "");
}

}  // namespace femc
