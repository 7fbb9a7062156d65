#pragma once
// What the workspaces of cod, kkt, nullspace and literal (cod.hpp, kkt.hpp,
// nullspace.hpp, literal.hpp) share: the kept Cholesky factors of M and W
// (spd_factor.hpp) with validate()'s checks made on them, and the one-off
// solve of a method through a fresh workspace.
#include "femc/methods/spd_factor.hpp"
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
class MethodWorkspace {
 public:
  // validate()'s checks of M and of a W ≠ I, made with the factors the next
  // solve uses. Throw InputError as validate() does. (kkt does not use W;
  // validate() still checks it, with a kept factor.)
  void validate_mass(const Matrix<S>& M) { mass_.validate(M); }
  void validate_weight(const Matrix<S>& W) { weight_.validate(W); }
  // Whether the last solve reused a factor of M made by an earlier solve.
  bool reused_mass_factor() const { return mass_.reused(); }

 protected:
  SpdFactor<S> mass_{"M"}, weight_{"W"};  // M = L Lᵀ, W = L_W L_Wᵀ
};

// A method's solve(sys, opt) (solve_cod, solve_kkt, solve_nullspace,
// solve_literal): one
// solve through a fresh workspace, the same bits as a kept one's.
template <class Workspace, class S>
Solution<S> solve_with_fresh(const System<S>& sys, const Options<S>& opt) {
  Workspace ws;
  Solution<S> sol;
  ws.solve(sys, opt, sol);
  return sol;
}

}  // namespace femc
