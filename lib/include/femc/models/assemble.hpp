#pragma once
// Putting a state of a mechanism on its constraints (planar.hpp,
// spatial.hpp): the model provides n(), constraints(model, q) and
// constraint_jacobian(model, q).
//
// Newton steps q ← q − A⁺φ until |φ|∞ ≤ tol (at most `iterations`), then
// q̇ ← q̇ − A⁺(A q̇). A⁺x is the minimum-norm solution of A z = x, which is
// Gauss's q̈ for M = I, Q = 0, b = x: femc's own solve, with its rank
// decision, so a redundant or singular A is handled as in any solve.
// Returns |φ|∞ at the end; the caller decides whether that is close enough.
#include <algorithm>

#include "femc/linalg.hpp"
#include "femc/solve.hpp"

namespace femc::models {

template <class Model, class S>
S assemble(const Model& model, Vector<S>& q, Vector<S>& qd, const S& tol, int iterations = 50) {
  const Index n = model.n();
  auto minimum_norm = [&](const Matrix<S>& A, const Vector<S>& x) {
    return solve(make_system<S>(Matrix<S>::Identity(n, n), A, x, Vector<S>::Zero(n))).qdd;
  };
  auto inf_norm = [](const Vector<S>& v) {
    S out(0);
    for (Index i = 0; i < v.size(); ++i) out = std::max<S>(out, v(i) < S(0) ? S(-v(i)) : v(i));
    return out;
  };
  Vector<S> phi = constraints(model, q);
  for (int it = 0; it < iterations && inf_norm(phi) > tol; ++it) {
    q -= minimum_norm(constraint_jacobian(model, q), phi);
    phi = constraints(model, q);
  }
  const Matrix<S> A = constraint_jacobian(model, q);
  qd -= minimum_norm(A, Vector<S>(A * qd));
  return inf_norm(phi);
}

}  // namespace femc::models
