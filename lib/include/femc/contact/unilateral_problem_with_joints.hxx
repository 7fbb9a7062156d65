#pragma once
// The bodies of unilateral_problem_with_joints.hpp's function templates. The library instantiates
// them for the model scalars (double, long double, float128, MPFR:
// lib/src/instantiate/contact.cpp.in); include this file to use them at
// another scalar type.
#include "femc/methods/workspace.hpp"
#include "femc/contact/unilateral_problem_with_joints.hpp"
#include "femc/contact/unilateral_problem.hxx"

namespace femc::contact {

template <class S>
UnilateralProblem<S> make_unilateral_problem(const System<S>& joints, const ContactData<S>& c,
                                             const Options<S>& opt) {
  const Index k = c.WN.rows();
  Solution<S> sol;
  Workspace<S> ws;
  UnilateralProblem<S> p;
  solve(joints, opt, sol, ws);
  p.B = c.WN * sol.qdd + c.WbarN;
  p.A.resize(k, k);
  System<S> unit = joints;
  unit.b.setZero();
  for (Index i = 0; i < k; ++i) {
    // Column i of W_Nᵀ + W_tᵀ S U: contact i's force per unit λ_i.
    unit.Q = c.WN.row(i).transpose() + (c.s(i) * c.mu(i)) * c.Wt.row(i).transpose();
    solve(unit, opt, sol, ws);
    p.A.col(i) = c.WN * sol.qdd;
  }
  return p;
}

}  // namespace femc::contact
