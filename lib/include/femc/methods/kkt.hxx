#pragma once
#include <Eigen/Cholesky>
#include <algorithm>
#include <vector>

#include "femc/errors.hpp"
#include "femc/gaussian.hpp"
#include "femc/methods/common.hpp"
#include "femc/methods/kkt.hpp"
#include "femc/rank.hpp"
#include "femc/scalar/traits.hpp"

namespace femc {

template <class S>
Solution<S> solve_kkt(const System<S>& sys, const Options<S>& opt) {
  using std::abs;
  using std::sqrt;
  const Index n = sys.n(), m = sys.m();
  Solution<S> sol;
  Eigen::LLT<Matrix<S>> chol(sys.M);
  const auto L = chol.matrixL();
  const S kappa_M = *detail::kappa_from_llt(chol);
  const Vector<S> a = chol.solve(sys.Q);   // M⁻¹Q
  const Vector<S> aC = chol.solve(sys.C);  // M⁻¹C

  Vector<S> lambda = Vector<S>::Zero(m), nu = Vector<S>::Zero(m);
  RankDecision<S> rank;
  rank.tol = rank_tolerance(opt, m, n);
  if (m > 0) {
    const Matrix<S> Y = L.solve(sys.A.transpose());
    const Matrix<S> G = Y.transpose() * Y;  // A M⁻¹Aᵀ, 004 (23)
    const Eigen::LDLT<Matrix<S>> ldlt(G);
    // Pivots of G are squares of σ-scale magnitudes: decide on √|D_i|. The
    // computed G carries errors ≈ (n + m)·u·‖G‖ (forming YᵀY, Higham Thm 3.5,
    // and the LDLᵀ backward error), so no σ-ratio below √(10(n + m)ε) can be
    // told from zero here: that floor is imposed on top of the user's τ.
    Vector<S> d = ldlt.vectorD().cwiseAbs().cwiseSqrt();
    std::sort(d.data(), d.data() + d.size(), [](const S& x, const S& y) { return x > y; });
    const S floor = sqrt(S(10 * (n + m)) * Eigen::NumTraits<S>::epsilon());
    rank = decide_rank(d, rank.tol > floor ? rank.tol : floor);
    // Rounded data (rank.hpp): d are the singular values of B = A L⁻ᵀ up to
    // the rounding of G; ‖M⁻¹‖₁ = κ₁(M)/‖M‖₁ bounds ‖M⁻¹‖₂.
    apply_data_cut(rank, d, data_rank_cut(opt, sys.A, S(1), inverse_l1_norm(kappa_M, symmetric_l1_norm(sys.M))));
    if (rank.rank < m) {
      // Name the cut that decided: the working precision's, or the data's.
      const bool by_data = rank.data_tol_applied && rank.largest_dropped > rank.tol * rank.largest;
      throw MethodError("kkt needs A of full row rank: A M⁻¹Aᵀ has numerical rank " + std::to_string(rank.rank) +
                        " < m = " + std::to_string(m) + " (σ-ratio " +
                        format_short(S(rank.largest_dropped / rank.largest)) + " ≤ " +
                        (by_data ? "the data's rounding level " + format_short(rank.data_tol) + " at " +
                                       to_string(opt.data_precision)
                                 : "tolerance " + format_short(rank.tol)) +
                        "); use cod, nullspace or literal");
    }
    const Matrix<S> X = ldlt.solve(detail::two_columns<S>(sys.b - sys.A * a, sys.A * aC));
    lambda = X.col(0);  // λ = (A M⁻¹Aᵀ)⁻¹(b − A a), 004 (23)
    nu = X.col(1);
  }
  sol.lambda = lambda;
  sol.QN = sys.A.transpose() * lambda;
  sol.QW = sys.C - sys.A.transpose() * nu;
  sol.Qc = sol.QN + sol.QW;
  sol.qdd = chol.solve(sys.Q + sol.Qc);
  sol.Gg_min = L.solve(Vector<S>(sol.Qc - sys.C)).squaredNorm();  // (q̈ − M⁻¹(Q+C))ᵀM(…)
  sol.delta_norm_sq = constraint_residual_sq(sys, sol.qdd);  // 0 up to rounding: full row rank is consistent

  sol.diagnostics.rank = rank;
  sol.diagnostics.kappa_M = kappa_M;
  sol.diagnostics.kappa_B = rank.rank > 0 ? S(rank.largest / rank.smallest_kept) : S(1);
  return sol;
}

}  // namespace femc
