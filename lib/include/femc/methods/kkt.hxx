#pragma once
#include <algorithm>

#include "femc/decomposition/dense_products.hpp"
#include "femc/errors.hpp"
#include "femc/gaussian.hpp"
#include "femc/methods/kkt.hpp"
#include "femc/rank.hpp"
#include "femc/scalar/traits.hpp"

// What the library instantiates of this unit beyond solve_kkt: its workspace class
// (lib/src/instantiate/method.cpp.in).
#define FEMC_INSTANTIATE_kkt(S) template class KktWorkspace<S>;

namespace femc {

template <class S>
void KktWorkspace<S>::solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol) {
  using std::sqrt;
  const Index n = sys.n(), m = sys.m();
  mass_.prepare(sys.M);
  const DenseCholesky<S>& chol = mass_.cholesky();
  const S kappa_M = mass_.kappa();
  a_ = sys.Q;
  chol.solve_in_place(a_);   // M⁻¹Q
  aC_ = sys.C;
  chol.solve_in_place(aC_);  // M⁻¹C

  RankDecision<S> rank;
  rank.tol = rank_tolerance(opt, m, n);
  sol.lambda.resize(m);
  sol.QN.resize(n);
  sol.QW = sys.C;
  if (m > 0) {
    Y_ = sys.A.transpose();
    mass_.cholesky().solve_L_in_place(Y_);  // Y = L⁻¹Aᵀ
    gram_into(Y_, G_);                      // G = YᵀY = A M⁻¹Aᵀ, 004 (23)
    ldlt_.compute(G_);
    // Pivots of G are squares of σ-scale magnitudes: decide on √|D_i|. The
    // computed G carries errors ≈ (n + m)·u·‖G‖ (forming YᵀY, Higham Thm 3.5,
    // and the LDLᵀ backward error), so no σ-ratio below √(10(n + m)ε) can be
    // told from zero here: that floor is imposed on top of the user's τ.
    d_ = ldlt_.vectorD().cwiseAbs().cwiseSqrt();
    std::sort(d_.data(), d_.data() + d_.size(), [](const S& x, const S& y) { return x > y; });
    const S floor = sqrt(S(10 * (n + m)) * Eigen::NumTraits<S>::epsilon());
    rank = decide_rank(d_, rank.tol > floor ? rank.tol : floor);
    // Rounded data (rank.hpp): d are the singular values of B = A L⁻ᵀ up to
    // the rounding of G; ‖M⁻¹‖₁ = κ₁(M)/‖M‖₁ bounds ‖M⁻¹‖₂.
    apply_data_cut(rank, d_, data_rank_cut(opt, sys.A, S(1), inverse_l1_norm(kappa_M, mass_.norm1())));
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
    sol.lambda = sys.b;
    sol.lambda.noalias() -= sys.A * a_;
    solve_gram_in_place(sol.lambda);  // λ = (A M⁻¹Aᵀ)⁻¹(b − A a), 004 (23)
    nu_.resize(m);
    nu_.noalias() = sys.A * aC_;
    solve_gram_in_place(nu_);         // ν = (A M⁻¹Aᵀ)⁻¹A M⁻¹C
    sol.QN.noalias() = sys.A.transpose() * sol.lambda;
    sol.QW.noalias() -= sys.A.transpose() * nu_;
  } else {
    sol.QN.setZero();
  }
  sol.Qc = sol.QN + sol.QW;
  sol.qdd = sys.Q + sol.Qc;
  chol.solve_in_place(sol.qdd);
  r_ = sol.Qc - sys.C;
  chol.solve_L_in_place(r_);
  sol.Gg_min = r_.squaredNorm();  // (q̈ − M⁻¹(Q+C))ᵀM(…)
  sol.delta_norm_sq = constraint_residual_sq(sys, sol.qdd, rA_, WrA_);  // 0 up to rounding: full row rank is consistent

  sol.diagnostics.rank = rank;
  sol.diagnostics.kappa_M = kappa_M;
  sol.diagnostics.kappa_B = rank.rank > 0 ? S(rank.largest / rank.smallest_kept) : S(1);
  sol.diagnostics.warnings.clear();
  sol.diagnostics.notes.clear();
}

// x ← G⁻¹x = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P x from G's pivoted LDLᵀ, in place and one
// vector at a time: LDLT::solve returns a new vector, LDLT::solveInPlace
// copies, and a two-column solve packs blocks of G's factor, which Eigen
// allocates once they pass its stack limit (at m = 80 under MPFR 256). These
// are the steps of LDLT's own solve; its pseudo-inverse of a zero pivot is
// not needed, as solve() refused a G of deficient rank before.
template <class S>
void KktWorkspace<S>::solve_gram_in_place(Vector<S>& x) const {
  x = ldlt_.transpositionsP() * x;
  ldlt_.matrixL().solveInPlace(x);
  x.array() /= ldlt_.vectorD().array();
  ldlt_.matrixU().solveInPlace(x);
  x = ldlt_.transpositionsP().transpose() * x;
}

template <class S>
Solution<S> solve_kkt(const System<S>& sys, const Options<S>& opt) {
  return solve_with_fresh<KktWorkspace<S>>(sys, opt);
}

}  // namespace femc
