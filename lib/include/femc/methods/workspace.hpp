#pragma once
// The storage the methods keep between solves, for many solves of one shape
// (integrators, studies, a contact problem's k + 1 solves):
//
//   femc::Workspace<double> ws;
//   femc::Solution<double> sol;
//   for (...) femc::solve(sys, opt, sol, ws);  // solve.hpp
//
// One member per method whose line in methods/list.hpp says Workspace
// (today cod, kkt, nullspace and literal), named as the method. After a
// first solve of a shape each makes no heap allocation, reuses the factor
// (literal: the eigendecomposition) of an unchanged M, and gives solve()'s
// result bit for bit. The others (sparse keeps its own sparse factors; exact
// allocates at every rational operation) have none: solve() with a
// Workspace runs them as solve() does.
// One workspace serves one thread at a time.
#include "femc/methods/list.hpp"
#include "femc/methods/units.hpp"  // every method's header (generated from the list)
#include "femc/options.hpp"

namespace femc {

#define FEMC_WORKSPACE_MEMBER(name, Enumerator, arithmetic, workspace, ...) \
  FEMC_IF_WORKSPACE(workspace, Enumerator##Workspace<S> name;)

template <class S>
struct Workspace {
  FEMC_METHODS(FEMC_WORKSPACE_MEMBER)

  // Whether the last solve of `method` in its member reused a factor of M
  // made by an earlier solve (false for a method without a member).
  bool reused_mass_factor(Method method) const {
    switch (method) {
#define FEMC_WORKSPACE_REUSED(name, Enumerator, arithmetic, workspace, ...) \
  FEMC_IF_WORKSPACE(workspace, case Method::Enumerator: return name.reused_mass_factor();)
      FEMC_METHODS(FEMC_WORKSPACE_REUSED)
#undef FEMC_WORKSPACE_REUSED
      default: return false;
    }
  }
};

#undef FEMC_WORKSPACE_MEMBER

}  // namespace femc
