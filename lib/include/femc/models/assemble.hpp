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
//
// The solves are cod's on the dense A, or, with method `sparse` and a model
// that also provides sparse_constraint_jacobian(model, q) (planar.hpp),
// sparse's on the sparse A: a mechanism of thousands of bodies is assembled
// without an n × n matrix. Any other method assembles with cod: the state is
// the same to within the tolerance, whichever solves.
#include <algorithm>
#include <type_traits>
#include <utility>

#include "femc/linalg.hpp"
#include "femc/solve.hpp"

namespace femc::models {

namespace assemble_detail {
template <class Model, class S, class = void>
struct has_sparse_jacobian : std::false_type {};
template <class Model, class S>
struct has_sparse_jacobian<Model, S,
                           std::void_t<decltype(sparse_constraint_jacobian(std::declval<const Model&>(),
                                                                           std::declval<const Vector<S>&>()))>>
    : std::true_type {};

template <class S>
S inf_norm(const Vector<S>& v) {
  S out(0);
  for (Index i = 0; i < v.size(); ++i) out = std::max<S>(out, v(i) < S(0) ? S(-v(i)) : v(i));
  return out;
}

// The Newton steps and the velocity projection, with A(q) from `jacobian`
// and A⁺x from `minimum_norm`.
template <class Model, class S, class Jacobian, class MinimumNorm>
S project(const Model& model, Vector<S>& q, Vector<S>& qd, const S& tol, int iterations, Jacobian&& jacobian,
          MinimumNorm&& minimum_norm) {
  Vector<S> phi = constraints(model, q);
  for (int it = 0; it < iterations && inf_norm(phi) > tol; ++it) {
    q -= minimum_norm(jacobian(q), phi);
    phi = constraints(model, q);
  }
  const auto A = jacobian(q);
  qd -= minimum_norm(A, Vector<S>(A * qd));
  return inf_norm(phi);
}
}  // namespace assemble_detail

template <class Model, class S>
S assemble(const Model& model, Vector<S>& q, Vector<S>& qd, const S& tol, int iterations = 50,
           Method method = Method::Cod) {
  const Index n = model.n();
  if constexpr (assemble_detail::has_sparse_jacobian<Model, S>::value) {
    if (method == Method::Sparse) {
      SparseMatrix<S> identity(n, n);
      identity.setIdentity();
      Options<S> opt;
      opt.method = Method::Sparse;
      return assemble_detail::project(
          model, q, qd, tol, iterations, [&](const Vector<S>& at) { return sparse_constraint_jacobian(model, at); },
          [&](const SparseMatrix<S>& A, const Vector<S>& x) {
            SparseSystem<S> sys;
            sys.M = identity;
            sys.A = A;
            sys.b = x;
            sys.Q = sys.C = Vector<S>::Zero(n);
            return solve(sys, opt).qdd;
          });
    }
  }
  return assemble_detail::project(
      model, q, qd, tol, iterations, [&](const Vector<S>& at) { return constraint_jacobian(model, at); },
      [&](const Matrix<S>& A, const Vector<S>& x) {
        return solve(make_system<S>(Matrix<S>::Identity(n, n), A, x, Vector<S>::Zero(n))).qdd;
      });
}

}  // namespace femc::models
