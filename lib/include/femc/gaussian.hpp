#pragma once
// The two quadratic forms of the General Gauss Principle, evaluated at any z:
// for tests and studies that check a solution from outside, and for the
// methods that report ‖δ‖² by evaluating the residual (kkt, nullspace):
//   G_g(z) = (z − M⁻¹(Q + C))ᵀ M (z − M⁻¹(Q + C))        001 (10), (25)
//          = (M z − Q − C)ᵀ M⁻¹ (M z − Q − C)
//   ‖A z − b‖²_W = (A z − b)ᵀ W (A z − b)               001 (16)
// G_g is evaluated in its second form through a Cholesky factor (no M⁻¹);
// at exact types, which have no square root, as rᵀ(LDLᵀ)⁻¹r, exactly.
#include <Eigen/Cholesky>

#include "femc/scalar/traits.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
S gaussian(const System<S>& sys, const Vector<S>& z) {
  const Vector<S> r = sys.M.template selfadjointView<Eigen::Lower>() * z - sys.Q - sys.C;
  if constexpr (ScalarTraits<S>::exact) {
    return r.dot(Eigen::LDLT<Matrix<S>>(sys.M).solve(r));
  } else {
    const Eigen::LLT<Matrix<S>> chol(sys.M);
    return chol.matrixL().solve(r).squaredNorm();
  }
}

// r and Wr: the caller's scratch (a workspace's, which allocates nothing).
template <class S>
S constraint_residual_sq(const System<S>& sys, const Vector<S>& z, Vector<S>& r, Vector<S>& Wr) {
  if (sys.m() == 0) return S(0);  // (Eigen's self-adjoint product misbehaves on empty operands)
  r.resize(sys.m());
  r.noalias() = sys.A * z;
  r -= sys.b;
  Wr.resize(sys.m());
  Wr.noalias() = sys.W.template selfadjointView<Eigen::Lower>() * r;
  return r.dot(Wr);
}

template <class S>
S constraint_residual_sq(const System<S>& sys, const Vector<S>& z) {
  Vector<S> r, Wr;
  return constraint_residual_sq(sys, z, r, Wr);
}

// uᵀ M u, the squared M-norm of a displacement (001 (33), 004 (13)).
template <class S>
S m_norm_sq(const System<S>& sys, const Vector<S>& u) {
  return u.dot(sys.M.template selfadjointView<Eigen::Lower>() * u);
}

}  // namespace femc
