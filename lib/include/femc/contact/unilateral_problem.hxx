#pragma once
// The bodies of unilateral_problem.hpp's function templates. The library instantiates
// them for the model scalars (double, long double, float128, MPFR:
// lib/src/instantiate/contact.cpp.in); include this file to use them at
// another scalar type.
#include "femc/contact/unilateral_problem.hpp"

namespace femc::contact {

template <class S>
ContactForces<S> contact_forces(const ContactData<S>& c, const Vector<S>& lambda) {
  ContactForces<S> f;
  f.normal = c.WN.transpose() * lambda;
  f.friction = c.Wt.transpose() * (c.s.cwiseProduct(c.mu).cwiseProduct(lambda)).eval();
  return f;
}

template <class S>
UnilateralProblem<S> make_unilateral_problem(const Matrix<S>& M, const Vector<S>& Q,
                                             const ContactData<S>& c) {
  const Eigen::LLT<Matrix<S>> llt(M);
  if (llt.info() != Eigen::Success) throw InputError("M", "not positive definite");
  // W_Nᵀ + W_tᵀ S U, column i = W_N,iᵀ + s_i μ_i W_t,iᵀ
  Matrix<S> G = c.WN.transpose();
  for (Index i = 0; i < c.WN.rows(); ++i) G.col(i) += (c.s(i) * c.mu(i)) * c.Wt.row(i).transpose();
  UnilateralProblem<S> p;
  p.A = c.WN * llt.solve(G);
  p.B = c.WN * llt.solve(Q) + c.WbarN;
  return p;
}

template <class S>
Vector<S> contact_acceleration(const Matrix<S>& M, const Vector<S>& Q, const ContactData<S>& c,
                               const Vector<S>& lambda) {
  const ContactForces<S> f = contact_forces(c, lambda);
  const Eigen::LLT<Matrix<S>> llt(M);
  if (llt.info() != Eigen::Success) throw InputError("M", "not positive definite");
  return llt.solve(Vector<S>(Q + f.normal + f.friction));
}

}  // namespace femc::contact
