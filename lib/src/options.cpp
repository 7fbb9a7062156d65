#include "femc/options.hpp"

#include "femc/errors.hpp"

namespace femc {

const std::vector<MethodInfo>& methods() {
  static const std::vector<MethodInfo> list = [] {
    std::vector<MethodInfo> v;
#define FEMC_METHOD_INFO(name_, Enumerator_, arithmetic_, workspace_, rank_deficient_, error_growth_, residual_mass_power_, \
                         rank_policy_, description_)                                                 \
  {                                                                                                    \
    Capabilities c;                                                                                    \
    c.rank_deficient = rank_deficient_;                                                                \
    c.error_growth = error_growth_;                                                                    \
    c.residual_mass_power = residual_mass_power_;                                                      \
    c.arithmetic = Arithmetic::arithmetic_;                                                            \
    c.rank_policy = rank_policy_;                                                                      \
    v.push_back({Method::Enumerator_, #name_, description_, c, (0 FEMC_IF_WORKSPACE(workspace_, +1)) != 0}); \
  }
    FEMC_METHODS(FEMC_METHOD_INFO)
#undef FEMC_METHOD_INFO
    return v;
  }();
  return list;
}

const MethodInfo& method_info(Method m) {
  for (const MethodInfo& info : methods())
    if (info.method == m) return info;
  throw InputError("method", "no method with enumerator " + std::to_string(int(m)));
}

std::string to_string(Method m) { return method_info(m).name; }

std::string method_names() {
  std::string s;
  for (const MethodInfo& info : methods()) s += (s.empty() ? "" : ", ") + std::string(info.name);
  return s;
}

Method parse_method(const std::string& name) {
  for (const MethodInfo& info : methods())
    if (name == info.name) return info.method;
  throw InputError("method", "unknown method '" + name.substr(0, 40) + "' (" + method_names() + ")");
}

}  // namespace femc
