#pragma once
// Options shared by all methods.
#include <optional>
#include <string>

#include "femc/linalg.hpp"

namespace femc {

enum class Method { Literal, Cod, Kkt, Nullspace, Exact };

std::string to_string(Method m);
// Parses "literal|cod|kkt|nullspace|exact"; throws InputError("method", …).
Method parse_method(const std::string& name);

template <class S>
struct Options {
  Method method = Method::Cod;
  // Relative rank tolerance τ (rank.hpp). Unset: default_rank_tolerance().
  std::optional<S> rank_tol;
  // Skip validate() (for callers that validated the system once already).
  bool assume_valid = false;
};

}  // namespace femc
