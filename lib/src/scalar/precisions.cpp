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

std::string precision_names() {
  std::string names;
#define FEMC_PRECISION_NAME(Type, tag, header, spelling, kind, models, bits, what) \
  if (std::strcmp(spelling, "BITS") != 0) names += std::string(names.empty() ? "" : ", ") + spelling;
  FEMC_PRECISIONS(FEMC_PRECISION_NAME)
#undef FEMC_PRECISION_NAME
  return names + ", or MPFR bits " + std::to_string(kMinMpfrBits) + ".." + std::to_string(kMaxMpfrBits);
}

std::string model_precision_names() {
  std::string names;
#define FEMC_MODEL_PRECISION_NAME(Type, tag, header, spelling, kind, models, bits, what) \
  if (kEvaluatesModels<Type> && std::strcmp(spelling, "BITS") != 0)                     \
    names += std::string(names.empty() ? "" : ", ") + spelling;
  FEMC_PRECISIONS(FEMC_MODEL_PRECISION_NAME)
#undef FEMC_MODEL_PRECISION_NAME
  return names + (kEvaluatesModels<mpfr_real> ? ", or MPFR bits" : "");
}

}  // namespace femc
