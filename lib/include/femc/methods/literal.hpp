#pragma once
// Method `literal`: the papers' formulas as printed, to compare the other
// methods against.
//
//   q̈  = a + M^{-1/2} P⁺(b̃ − P M^{-1/2} Q) + M^{-1/2}(I − P⁺P) M^{-1/2} C   001 (15)
//   Qᴺ = M^{1/2} P⁺(b̃ − P M^{-1/2} Q),  Qᵂ = M^{1/2}(I − P⁺P) M^{-1/2} C    002 (33)
//   λ  = (Aᵀ)⁺ Qᴺ                                                           004 (21), h = 0
//   G_g^min = ‖P⁺[b̃ − P M^{-1/2}(Q + C)]‖²,  ‖δ‖² = ‖(P P⁺ − I) b̃‖²         001 (30), (24)
// with a = M⁻¹Q, B = A M^{-1/2}, P = W^{1/2} B, b̃ = W^{1/2} b. The symmetric
// square roots and M⁻¹ come from an eigendecomposition
// (decomposition/symmetric_eigen.hpp), P⁺ and (Aᵀ)⁺ are formed explicitly
// from Jacobi SVDs (decomposition/thin_svd.hpp) with the rank policy of
// rank.hpp (rank decided on the singular values of P). M^{±1/2}, M⁻¹,
// W^{1/2}, B, P, P⁺ and (Aᵀ)⁺ are formed as printed and applied to vectors
// right to left; I − P⁺P and P P⁺ − I are applied as w − P⁺(P w) and
// P(P⁺b̃) − b̃. Slow and less accurate by design.
#include "femc/decomposition/symmetric_eigen.hpp"
#include "femc/decomposition/thin_svd.hpp"
#include "femc/methods/method_workspace.hpp"
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_literal(const System<S>& sys, const Options<S>& opt);

// The storage of method literal kept between solves, as CodWorkspace keeps
// cod's (cod.hpp): after a first solve of a shape (n, m), a solve of the
// same shape makes no heap allocation (in MPFR with the limb pool), the
// eigendecompositions of an unchanged M and W and the matrices formed from
// them are reused, and the result is solve_literal's bit for bit. M's
// Cholesky factor (MethodWorkspace) serves validate()'s checks and says
// whether M changed; the formulas use the eigendecomposition alone.
template <class S>
class LiteralWorkspace : public MethodWorkspace<S> {
 public:
  void solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol);

 private:
  void form_functions_of_M(const Matrix<S>& M);
  void form_square_root_of_W(const Matrix<S>& W);

  using MethodWorkspace<S>::mass_;
  using MethodWorkspace<S>::weight_;
  SymmetricEigen<S> eigM_, eigW_;
  bool have_M_ = false, have_W_ = false;  // eigM_, eigW_ and their functions are of mass_'s, weight_'s X
  Matrix<S> M_half_, M_mhalf_, M_inv_, W_half_;  // M^{1/2}, M^{-1/2}, M⁻¹, W^{1/2}
  Matrix<S> scaled_M_, scaled_W_;                // V f(Λ), forming f(X) = V f(Λ) Vᵀ (one per order: n, m)
  Matrix<S> B_, P_, Pp_, Atp_;                   // A M^{-1/2}, W^{1/2} B, P⁺, (Aᵀ)⁺
  ThinSvd<S> svdP_, svdA_;
  Vector<S> a_, bt_, x_, r_, s_, w_, y_, z_, rhs_;
};

}  // namespace femc
