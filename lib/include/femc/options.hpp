#pragma once
// Options shared by all methods.
#include <optional>
#include <string>

#include "femc/data_precision.hpp"
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
  // The precision the data were rounded to before femc read them
  // (data_precision.hpp). Exact, the default: every number is taken at face
  // value. Otherwise rank is decided above the data's rounding level
  // (rank.hpp, data_rank_cut) and M, W are judged symmetric and positive
  // definite at that level, and symmetrized (system.hpp).
  DataPrecision data_precision = kExactData;
  // A precision the data may have been rounded to, when data_precision is
  // exact (the JSON reader sets double when every number could be one). It
  // changes no decision: a rank decision that keeps a magnitude within a
  // factor 100 of its rounding level is warned about.
  DataPrecision suspected_data_precision = kExactData;
};

}  // namespace femc
