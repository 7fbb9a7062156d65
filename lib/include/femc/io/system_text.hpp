#pragma once
// A system written as `femc solve`'s input, which io/json_system.hpp reads
// back exactly: its numbers as texts (SystemText; each entry formatted to
// round-trip at S, a rational as p/q), and the JSON document. The engines'
// extracted systems, femc verify's counterexamples and protocol requests,
// and a model's system at a state (the Python module) are written so.
#include <string>

#include "femc/io/json_system.hpp"

namespace femc {

template <class S>
SystemText to_system_text(const System<S>& sys) {
  SystemText t;
  t.n = sys.n();
  t.m = sys.m();
  auto put = [](std::vector<std::string>& out, const auto& X) {
    for (Index i = 0; i < X.rows(); ++i)
      for (Index j = 0; j < X.cols(); ++j) out.push_back(ScalarTraits<S>::format(X(i, j)));
  };
  put(t.M, sys.M), put(t.A, sys.A), put(t.b, sys.b), put(t.Q, sys.Q), put(t.C, sys.C), put(t.W, sys.W);
  return t;
}

// The document, with `name` and `description` keys when they are not empty
// (then a key per line, for people; else one line).
std::string system_json(const SystemText& system, const std::string& name = "", const std::string& description = "");

}  // namespace femc
