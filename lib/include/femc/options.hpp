#pragma once
// Options shared by all methods.
#include <optional>
#include <string>
#include <vector>

#include "femc/data_precision.hpp"
#include "femc/linalg.hpp"
#include "femc/methods/list.hpp"
#include "femc/solvers/capabilities.hpp"

namespace femc {

// One enumerator per line of methods/list.hpp.
#define FEMC_METHOD_ENUMERATOR(name, Enumerator, ...) Enumerator,
enum class Method { FEMC_METHODS(FEMC_METHOD_ENUMERATOR) };
#undef FEMC_METHOD_ENUMERATOR

// A method's line of methods/list.hpp.
struct MethodInfo {
  Method method;
  const char* name;
  const char* description;
  Capabilities capabilities;  // every output; rank_deficient, arithmetic, rank_policy from the list
  bool has_workspace = false;  // a member of Workspace<S> (methods/workspace.hpp)
};

// Every method, in the order of the list.
const std::vector<MethodInfo>& methods();
const MethodInfo& method_info(Method m);
std::string to_string(Method m);
// Parses a method's name; throws InputError("method", …) naming the choices.
Method parse_method(const std::string& name);
// The methods' names in the list's order, comma-separated, for messages.
std::string method_names();

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
