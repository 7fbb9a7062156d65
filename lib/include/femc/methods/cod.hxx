#pragma once
#include <Eigen/Cholesky>

#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/methods/cod.hpp"
#include "femc/methods/common.hpp"
#include "femc/rank.hpp"

namespace femc {

template <class S>
Solution<S> solve_cod(const System<S>& sys, const Options<S>& opt) {
  const Index n = sys.n(), m = sys.m();
  const bool weighted = m > 0 && !is_identity(sys.W);
  Solution<S> sol;

  // M = L Lᵀ: Lᵀ plays M^{1/2}, L⁻¹ plays M^{-1/2} acting on forces.
  Eigen::LLT<Matrix<S>> chol(sys.M);
  const auto L = chol.matrixL();
  const Vector<S> yQ = L.solve(sys.Q);  // "M^{-1/2} Q"
  const Vector<S> yC = L.solve(sys.C);  // "M^{-1/2} C"
  Matrix<S> P = L.solve(sys.A.transpose()).transpose();  // B = A M^{-1/2}, 001 (18)
  Vector<S> bt = sys.b;
  Eigen::LLT<Matrix<S>> cholW;
  if (weighted) {  // P = W^{1/2} B, b̃ = W^{1/2} b with W^{1/2} → L_Wᵀ, 001 (18)
    cholW.compute(sys.W);
    P = cholW.matrixU() * P;
    bt = cholW.matrixU() * bt;
  }

  const S kappa_W = weighted ? detail::kappa_from_llt(cholW).value_or(S(1)) : S(1);
  const S tol = rank_tolerance(opt, m, n);
  const S tol_formed = formed_rank_tolerance(opt, m, n, detail::kappa_from_llt(chol).value_or(S(1)), kappa_W);
  CompleteOrthogonal<S> cod;
  cod.compute_with(P, tol, [&](const Vector<S>& d) {  // rank.hpp: A settles what forming P blurs
    return decide_formed_rank(d, tol, tol_formed, [&] { return CompleteOrthogonal<S>(sys.A, tol).rank().rank; });
  });
  // One decomposition, two right-hand sides: P⁺(b̃ − P M^{-1/2}Q) and P⁺P M^{-1/2}C.
  const Matrix<S> x = cod.solve(detail::two_columns<S>(bt - P * yQ, P * yC));
  const Vector<S> xN = x.col(0);       // P⁺(b̃ − P M^{-1/2}Q)
  const Vector<S> xW = yC - x.col(1);  // (I − P⁺P) M^{-1/2}C

  sol.QN = L * xN;  // Qᴺ = M^{1/2} P⁺(b̃ − P M^{-1/2}Q), 001 (15), 002 (33)
  sol.QW = L * xW;  // Qᵂ = M^{1/2}(I − P⁺P)M^{-1/2}C,   001 (15), 002 (33)
  sol.Qc = sol.QN + sol.QW;
  sol.qdd = L.transpose().solve(yQ + xN + xW);    // 001 (28)–(29)
  sol.Gg_min = (xN - x.col(1)).squaredNorm();     // ‖P⁺[b̃ − P M^{-1/2}(Q + C)]‖², 001 (30)
  sol.delta_norm_sq = cod.residual_norm_sq(bt);   // ‖(P P⁺ − I) b̃‖², 001 (24)

  // λ: minimum-norm solution of Aᵀλ = Qᴺ. Since Aᵀ L_W = L Pᵀ, λ = L_W (Pᵀ)⁺ P⁺(…)
  // solves it; it is the minimum-norm one when P has full row rank (it is the
  // only one) or W = I (then it lies in Range(P) = Range(A)). Otherwise a
  // second decomposition, of Aᵀ, gives (Aᵀ)⁺Qᴺ.
  if (m > 0) {
    if (!weighted || cod.rank().rank == m) {
      Vector<S> mu = cod.solve_transposed(xN);
      sol.lambda = weighted ? Vector<S>(cholW.matrixL() * mu) : mu;
    } else {
      const CompleteOrthogonal<S> codAt(sys.A.transpose(), tol);
      sol.lambda = codAt.solve(sol.QN);
    }
  } else {
    sol.lambda.resize(0);
  }

  sol.diagnostics.rank = cod.rank();
  sol.diagnostics.kappa_M = detail::kappa_from_llt(chol);
  sol.diagnostics.kappa_B = cod.kappa_estimate();
  return sol;
}

}  // namespace femc
