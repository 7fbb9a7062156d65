#pragma once
// The storage the methods keep between solves, for many solves of one shape
// (integrators, studies, a contact problem's k + 1 solves):
//
//   femc::Workspace<double> ws;
//   femc::Solution<double> sol;
//   for (...) femc::solve(sys, opt, sol, ws);  // solve.hpp
//
// One member per method that has a workspace: cod (cod.hpp), kkt (kkt.hpp),
// nullspace (nullspace.hpp) and literal (literal.hpp). After a first solve
// of a shape each makes no heap allocation, reuses the factor (literal: the
// eigendecomposition) of an unchanged M, and gives solve()'s result bit for
// bit. sparse (its own sparse factors) and exact (rationals allocate at
// every operation) have none: solve() with a Workspace runs them as solve()
// does.
// One workspace serves one thread at a time.
#include "femc/methods/cod.hpp"
#include "femc/methods/kkt.hpp"
#include "femc/methods/literal.hpp"
#include "femc/methods/nullspace.hpp"

namespace femc {

template <class S>
struct Workspace {
  CodWorkspace<S> cod;
  KktWorkspace<S> kkt;
  NullspaceWorkspace<S> nullspace;
  LiteralWorkspace<S> literal;
};

}  // namespace femc
