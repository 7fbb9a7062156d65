#include "femc/options.hpp"

#include "femc/errors.hpp"

namespace femc {

std::string to_string(Method m) {
  switch (m) {
    case Method::Literal: return "literal";
    case Method::Cod: return "cod";
    case Method::Kkt: return "kkt";
    case Method::Nullspace: return "nullspace";
    case Method::Exact: return "exact";
  }
  return "?";
}

Method parse_method(const std::string& name) {
  for (Method m : {Method::Literal, Method::Cod, Method::Kkt, Method::Nullspace, Method::Exact})
    if (name == to_string(m)) return m;
  throw InputError("method", "unknown method '" + name.substr(0, 40) + "' (literal, cod, kkt, nullspace, exact)");
}

}  // namespace femc
