#pragma once
// Method `kkt`: the range-space (Schur complement) method of rigid-body codes
// such as RBDL and Pinocchio, for constraint matrices of full row rank.
//
// For rank A = m the constraints are consistent and q̈ does not depend on W
// (001 Result 2, (44)–(47)); with G = A M⁻¹Aᵀ (004 (23)):
//   λ  = G⁻¹(b − A M⁻¹Q),        Qᴺ = Aᵀλ                      004 (23)
//   ν  = G⁻¹ A M⁻¹C,             Qᵂ = C − Aᵀν                  002 (33) for rank A = m
//   q̈  = M⁻¹(Q + Qᴺ + Qᵂ)
// G is formed as YᵀY with Y = L⁻¹Aᵀ and factored by pivoted LDLᵀ. W is not
// used. Rank is decided on √|D_i| (σ-scale) with the tolerance of rank.hpp,
// raised to the rounding floor √(10(n + m)ε) of the computed G: as
// κ(G) = κ(B)², this method refuses systems with κ(B) ≳ (10(n + m)ε)^{-1/2}
// (≈ 10⁷ in double). A rank-deficient A raises MethodError, never a wrong answer.
// In double, M = L Lᵀ is LAPACK's dpotrf, Y = L⁻¹Aᵀ its dtrsm and G = YᵀY
// OpenBLAS's dsyrk (dense_products.hpp); LDLᵀ is Eigen's.
#include <Eigen/Cholesky>

#include "femc/methods/method_workspace.hpp"
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_kkt(const System<S>& sys, const Options<S>& opt);

// The storage of method kkt kept between solves, as CodWorkspace keeps
// cod's (cod.hpp): after a first solve of a shape (n, m), a solve of the
// same shape makes no heap allocation (in MPFR with the limb pool), the
// factor of an unchanged M is reused, and the result is solve_kkt's bit for
// bit. A MethodError (A not of full row rank) allocates its message.
template <class S>
class KktWorkspace : public MethodWorkspace<S> {
 public:
  void solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol);

 private:
  void solve_gram_in_place(Vector<S>& x) const;

  using MethodWorkspace<S>::mass_;
  using MethodWorkspace<S>::weight_;
  Matrix<S> Y_, G_;  // Y = L⁻¹Aᵀ, G = YᵀY
  Eigen::LDLT<Matrix<S>> ldlt_;
  Vector<S> a_, aC_, d_, nu_;
  Vector<S> r_;         // L⁻¹(Qᶜ − C), of size n
  Vector<S> rA_, WrA_;  // A q̈ − b and W(A q̈ − b), of size m
};

}  // namespace femc
