#pragma once
#include "femc/decomposition/dense_products.hpp"
#include "femc/errors.hpp"
#include "femc/gaussian.hpp"
#include "femc/methods/nullspace.hpp"
#include "femc/rank.hpp"
#include "femc/scalar/traits.hpp"

// What the library instantiates of this unit beyond solve_nullspace: its workspace class
// (lib/src/instantiate/method.cpp.in).
#define FEMC_INSTANTIATE_nullspace(S) template class NullspaceWorkspace<S>;

namespace femc {

template <class S>
void NullspaceWorkspace<S>::solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol) {
  const Index n = sys.n(), m = sys.m();
  const bool weighted = m > 0 && !is_identity(sys.W);
  const S tol = rank_tolerance(opt, m, n);
  const auto M = sys.M.template selfadjointView<Eigen::Lower>();
  mass_.prepare(sys.M);

  codA_.compute(sys.A, tol, data_rank_cut(opt, sys.A, S(1), S(1)));  // rank.hpp: rounded data
  codA_.null_space_basis_into(Z_);
  zp_.resize(n);
  if (!weighted) {
    codA_.solve_into(sys.b, zp_);  // A⁺b
  } else {  // ‖A z − b‖_W = ‖L_Wᵀ(A z − b)‖
    weight_.prepare(sys.W);
    RA_ = sys.A;
    weight_.cholesky().multiply_by_Lt_in_place(RA_);
    bt_.resize(m);
    bt_.noalias() = weight_.cholesky().matrixU() * sys.b;
    // RA = L_Wᵀ A has A's rank exactly (L_W is nonsingular), but forming it
    // blurs its small singular values by up to τ·√κ(W)·d₁ (rank.hpp,
    // formed_rank_tolerance): A's own rank settles what that blurs, as in
    // cod. With τ alone an exactly rank-1 A under κ(W) ≈ 10⁶ kept a noise
    // singular value of RA, and q̈ lost every digit at every precision but
    // qd's (property G9_WMattersIffAtWrNonzero, random seed).
    const S tol_formed = formed_rank_tolerance(opt, m, n, S(1), weight_.kappa());
    const DataCut<S> data_RA = data_rank_cut(opt, sys.A, weight_.norm1(), S(1));
    codRA_.compute_with(RA_, tol, [&](const Vector<S>& d) {
      RankDecision<S> r = decide_formed_rank(d, tol, tol_formed, [&] { return codA_.rank().rank; });
      apply_data_cut(r, d, data_RA);
      return r;
    });
    codRA_.solve_into(bt_, zp_);
  }

  sol.qdd = zp_;
  sol.QW.resize(n);
  if (Z_.cols() > 0) {
    symmetric_product_into(sys.M, Z_, MZ_);  // M Z
    transposed_product_into(Z_, MZ_, ZMZ_);  // ZᵀM Z, SPD
    if (!reduced_.compute(ZMZ_))
      throw MethodError("nullspace: ZᵀMZ is not positive definite at " + ScalarTraits<S>::name() +
                        " (M is too ill-conditioned on Null(A) at this precision); raise the precision");
    rhs_ = sys.Q + sys.C;
    rhs_.noalias() -= M * zp_;
    y_.resize(Z_.cols());
    y_.noalias() = Z_.transpose() * rhs_;
    reduced_.solve_in_place(y_);  // (ZᵀMZ) y = Zᵀ(Q + C − M z_p)
    sol.qdd.noalias() += Z_ * y_;  // q̈ = z_p + Z y
    y_.noalias() = Z_.transpose() * sys.C;
    reduced_.solve_in_place(y_);
    sol.QW.noalias() = MZ_ * y_;   // Qᵂ = M Z (ZᵀMZ)⁻¹ZᵀC
  } else {  // rank A = n: Z_W = {z_p} (001 Remark 7) and I − B⁺B = 0, so Qᵂ = 0
    sol.QW.setZero();
  }
  sol.Qc.resize(n);
  sol.Qc.noalias() = M * sol.qdd;
  sol.Qc -= sys.Q;
  sol.QN = sol.Qc - sol.QW;
  sol.lambda.resize(m);
  codA_.solve_transposed_into(sol.QN, sol.lambda);  // (Aᵀ)⁺Qᴺ

  r_ = sol.Qc - sys.C;
  mass_.cholesky().solve_L_in_place(r_);
  sol.Gg_min = r_.squaredNorm();
  sol.delta_norm_sq = constraint_residual_sq(sys, sol.qdd, rA_, WrA_);

  sol.diagnostics.rank = codA_.rank();
  sol.diagnostics.kappa_M = mass_.kappa();
  sol.diagnostics.kappa_B = codA_.kappa_estimate();  // of A here, not B
  sol.diagnostics.warnings.clear();
  sol.diagnostics.notes.clear();
}

template <class S>
Solution<S> solve_nullspace(const System<S>& sys, const Options<S>& opt) {
  return solve_with_fresh<NullspaceWorkspace<S>>(sys, opt);
}

}  // namespace femc
