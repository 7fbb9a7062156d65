#pragma once

#include "femc/methods/cod.hpp"
#include "femc/rank.hpp"
#include "femc/system.hxx"

// What the library instantiates of this unit beyond solve_cod: its workspace class
// (lib/src/instantiate/method.cpp.in).
#define FEMC_INSTANTIATE_cod(S) template class CodWorkspace<S>;

namespace femc {

template <class S>
void CodWorkspace<S>::solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol) {
  const Index n = sys.n(), m = sys.m();
  const bool weighted = m > 0 && !is_identity(sys.W);

  mass_.prepare(sys.M);  // M = L Lᵀ: Lᵀ plays M^{1/2}, L⁻¹ plays M^{-1/2} acting on forces
  DenseCholesky<S>& chol = mass_.cholesky();
  const auto L = chol.matrixL();
  yQ_ = sys.Q;
  chol.solve_L_in_place(yQ_);  // "M^{-1/2} Q"
  yC_ = sys.C;
  chol.solve_L_in_place(yC_);  // "M^{-1/2} C"
  Bt_ = sys.A.transpose();
  chol.solve_L_in_place(Bt_);  // B = A M^{-1/2} = A L⁻ᵀ, 001 (18): L Bᵀ = Aᵀ
  P_ = Bt_.transpose();
  S kappa_W(1), norm1_W(1);
  if (weighted) {  // P = W^{1/2} B, b̃ = W^{1/2} b with W^{1/2} → L_Wᵀ, 001 (18)
    weight_.prepare(sys.W);
    norm1_W = weight_.norm1();
    kappa_W = weight_.kappa();
    weight_.cholesky().multiply_by_Lt_in_place(P_);
    bt_.noalias() = weight_.cholesky().matrixU() * sys.b;
  } else {
    bt_ = sys.b;
  }

  const S tol = rank_tolerance(opt, m, n);
  const S tol_formed = formed_rank_tolerance(opt, m, n, mass_.kappa(), kappa_W);
  // Rounded data: ‖M⁻¹‖₁ = κ₁(M)/‖M‖₁ and ‖W‖₁ bound the 2-norms of rank.hpp's c_data.
  const DataCut<S> data_P = data_rank_cut(opt, sys.A, norm1_W, inverse_l1_norm(mass_.kappa(), mass_.norm1()));
  const DataCut<S> data_A = data_rank_cut(opt, sys.A, S(1), S(1));
  cod_.compute_with(P_, tol, [&](const Vector<S>& d) {  // rank.hpp: A settles what forming P blurs
    RankDecision<S> r = decide_formed_rank(d, tol, tol_formed, [&] {
      return CompleteOrthogonal<S>(sys.A, tol, data_A).rank().rank;
    });
    apply_data_cut(r, d, data_P);
    return r;
  });
  // One decomposition, two right-hand sides.
  xN_.resize(n);
  xP_.resize(n);
  rhs_ = bt_;
  rhs_.noalias() -= P_ * yQ_;
  cod_.solve_into(rhs_, xN_);  // P⁺(b̃ − P M^{-1/2}Q)
  rhs_.noalias() = P_ * yC_;
  cod_.solve_into(rhs_, xP_);  // P⁺P M^{-1/2}C
  xW_ = yC_ - xP_;             // (I − P⁺P) M^{-1/2}C

  sol.QN.resize(n);
  sol.QW.resize(n);
  sol.QN.noalias() = L * xN_;  // Qᴺ = M^{1/2} P⁺(b̃ − P M^{-1/2}Q), 001 (15), 002 (33)
  sol.QW.noalias() = L * xW_;  // Qᵂ = M^{1/2}(I − P⁺P)M^{-1/2}C,   001 (15), 002 (33)
  sol.Qc = sol.QN + sol.QW;
  sol.qdd = yQ_ + xN_ + xW_;
  chol.solve_Lt_in_place(sol.qdd);              // 001 (28)–(29)
  sol.Gg_min = (xN_ - xP_).squaredNorm();        // ‖P⁺[b̃ − P M^{-1/2}(Q + C)]‖², 001 (30)
  sol.delta_norm_sq = cod_.residual_norm_sq(bt_);  // ‖(P P⁺ − I) b̃‖², 001 (24)

  // λ: minimum-norm solution of Aᵀλ = Qᴺ. Since Aᵀ L_W = L Pᵀ, λ = L_W (Pᵀ)⁺ P⁺(…)
  // solves it; it is the minimum-norm one when P has full row rank (it is the
  // only one) or W = I (then it lies in Range(P) = Range(A)). Otherwise a
  // second decomposition, of Aᵀ, gives (Aᵀ)⁺Qᴺ.
  if (m == 0) {
    sol.lambda.resize(0);
  } else if (!weighted || cod_.rank().rank == m) {
    mu_.resize(m);
    cod_.solve_transposed_into(xN_, mu_);  // (Pᵀ)⁺ xN
    if (weighted) {
      sol.lambda.resize(m);
      sol.lambda.noalias() = weight_.cholesky().matrixL() * mu_;
    } else {
      sol.lambda = mu_;
    }
  } else {
    At_ = sys.A.transpose();
    codAt_.compute(At_, tol, data_A);
    sol.lambda.resize(m);
    codAt_.solve_into(sol.QN, sol.lambda);  // (Aᵀ)⁺Qᴺ
  }

  sol.diagnostics.rank = cod_.rank();
  sol.diagnostics.kappa_M = mass_.kappa();
  sol.diagnostics.kappa_B = cod_.kappa_estimate();
  sol.diagnostics.warnings.clear();
  sol.diagnostics.notes.clear();
}

template <class S>
Solution<S> solve_cod(const System<S>& sys, const Options<S>& opt) {
  return solve_with_fresh<CodWorkspace<S>>(sys, opt);
}

}  // namespace femc
