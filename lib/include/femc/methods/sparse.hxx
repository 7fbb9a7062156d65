#pragma once
#include "femc/decomposition/sparse_cholesky.hpp"
#include "femc/decomposition/sparse_complete_orthogonal.hpp"
#include "femc/methods/sparse.hpp"
#include "femc/rank.hpp"
#include "femc/sparse_system.hxx"

// What the library instantiates of this unit beyond solve_sparse: the sparse system's overload
// (lib/src/instantiate/method.cpp.in).
#define FEMC_INSTANTIATE_sparse(S) template Solution<S> solve_sparse<S>(const SparseSystem<S>&, const Options<S>&);

namespace femc {

template <class S>
Solution<S> solve_sparse(const SparseSystem<S>& sys, const Options<S>& opt) {
  const Index n = sys.n(), m = sys.m();
  const bool weighted = sys.weighted();

  SparseCholesky<S> chol;  // M = F Fᵀ: Fᵀ plays M^{1/2}, F⁻¹ plays M^{-1/2} on forces
  if (!chol.compute(sys.M)) throw detail::not_positive_definite<S>("M");
  Vector<S> yQ = sys.Q, yC = sys.C;
  chol.solve_F(yQ);  // "M^{-1/2} Q"
  chol.solve_F(yC);  // "M^{-1/2} C"
  const SparseMatrix<S> At = sys.A.transpose();
  SparseMatrix<S> Pt = chol.solve_F(At);  // Bᵀ = F⁻¹Aᵀ, B = A M^{-1/2}, 001 (18)
  SparseCholesky<S> cholW;
  Vector<S> bt = sys.b;
  S kappa_W(1), norm1_W(1);
  if (weighted) {  // P = W^{1/2} B, b̃ = W^{1/2} b with W^{1/2} → F_Wᵀ, 001 (18)
    if (!cholW.compute(sys.W)) throw detail::not_positive_definite<S>("W");
    kappa_W = cholW.kappa();
    norm1_W = cholW.norm1();
    Pt = sparse_product(Pt, cholW.F());
    cholW.multiply_Ft(bt);
  }

  const S tol = rank_tolerance(opt, m, n);
  const S tol_formed = formed_rank_tolerance(opt, m, n, chol.kappa(), kappa_W);
  // Rounded data (rank.hpp): ‖M⁻¹‖₁ = κ₁(M)/‖M‖₁ and ‖W‖₁ bound the 2-norms of c_data.
  const S norm_F_A = sparse_scaled_frobenius_norm(sys.A);
  const DataCut<S> data_P =
      data_rank_cut(opt, m, n, norm_F_A, norm1_W, inverse_l1_norm(chol.kappa(), chol.norm1()));
  const DataCut<S> data_A = data_rank_cut(opt, m, n, norm_F_A, S(1), S(1));
  SparseRankRule<S> rule;
  rule.tol = tol;
  rule.tol_formed = tol_formed;
  rule.rank_of_A = [&] { return SparseCompleteOrthogonal<S>(At, tol, data_A).rank().rank; };  // rank.hpp's band
  rule.data = data_P;
  SparseCompleteOrthogonal<S> cod;
  cod.compute(Pt, rule);

  // One decomposition, two right-hand sides.
  Vector<S> xN, xP;
  Vector<S> rhs = bt - Pt.transpose() * yQ;
  cod.solve_into(rhs, xN);  // P⁺(b̃ − P M^{-1/2}Q)
  rhs = Pt.transpose() * yC;
  cod.solve_into(rhs, xP);  // P⁺P M^{-1/2}C
  const Vector<S> xW = yC - xP;  // (I − P⁺P) M^{-1/2}C

  Solution<S> sol;
  sol.QN = xN;
  chol.multiply_F(sol.QN);  // Qᴺ = M^{1/2} P⁺(b̃ − P M^{-1/2}Q), 001 (15), 002 (33)
  sol.QW = xW;
  chol.multiply_F(sol.QW);  // Qᵂ = M^{1/2}(I − P⁺P)M^{-1/2}C,   001 (15), 002 (33)
  sol.Qc = sol.QN + sol.QW;
  sol.qdd = yQ + xN + xW;
  chol.solve_Ft(sol.qdd);                       // 001 (28)–(29)
  sol.Gg_min = (xN - xP).squaredNorm();         // ‖P⁺[b̃ − P M^{-1/2}(Q + C)]‖², 001 (30)
  sol.delta_norm_sq = cod.residual_norm_sq(bt);  // ‖(P P⁺ − I) b̃‖², 001 (24)

  // λ: minimum-norm solution of Aᵀλ = Qᴺ, as in cod: Aᵀ F_W = F Pᵀ, so
  // λ = F_W (Pᵀ)⁺ P⁺(…) when P has full row rank or W = I; otherwise a
  // decomposition of Aᵀ gives (Aᵀ)⁺Qᴺ.
  if (m == 0) {
    sol.lambda.resize(0);
  } else if (!weighted || cod.rank().rank == m) {
    cod.solve_transposed_into(xN, sol.lambda);  // (Pᵀ)⁺ xN
    if (weighted) {
      Vector<S> mu = sol.lambda;
      cholW.multiply_F(mu);
      sol.lambda = mu;
    }
  } else {
    SparseCompleteOrthogonal<S>(SparseMatrix<S>(sys.A), tol, data_A).solve_into(sol.QN, sol.lambda);
  }

  sol.diagnostics.rank = cod.rank();
  sol.diagnostics.kappa_M = chol.kappa();
  sol.diagnostics.kappa_B = cod.kappa_estimate();
  return sol;
}

template <class S>
Solution<S> solve_sparse(const System<S>& sys, const Options<S>& opt) {
  return solve_sparse(to_sparse(sys), opt);
}

}  // namespace femc
