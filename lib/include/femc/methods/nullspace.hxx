#pragma once
#include <Eigen/Cholesky>

#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/gaussian.hpp"
#include "femc/methods/common.hpp"
#include "femc/methods/nullspace.hpp"
#include "femc/rank.hpp"

namespace femc {

template <class S>
Solution<S> solve_nullspace(const System<S>& sys, const Options<S>& opt) {
  const Index n = sys.n(), m = sys.m();
  const bool weighted = m > 0 && !is_identity(sys.W);
  const S tol = rank_tolerance(opt, m, n);
  Solution<S> sol;
  const auto M = sys.M.template selfadjointView<Eigen::Lower>();

  const CompleteOrthogonal<S> codA(sys.A, tol, data_rank_cut(opt, sys.A, S(1), S(1)));  // rank.hpp: rounded data
  const Matrix<S> Z = codA.null_space_basis();
  Vector<S> zp;
  if (!weighted) {
    zp = codA.solve(sys.b);  // A⁺b
  } else {
    const Eigen::LLT<Matrix<S>> cholW(sys.W);  // ‖A z − b‖_W = ‖L_Wᵀ(A z − b)‖
    const Matrix<S> RA = cholW.matrixU() * sys.A;
    const DataCut<S> data_RA = data_rank_cut(opt, sys.A, symmetric_l1_norm(sys.W), S(1));  // RA = L_Wᵀ A
    zp = CompleteOrthogonal<S>(RA, tol, data_RA).solve(Vector<S>(cholW.matrixU() * sys.b));
  }

  if (Z.cols() > 0) {
    const Matrix<S> MZ = M * Z;
    const Eigen::LLT<Matrix<S>> reduced(Z.transpose() * MZ);  // ZᵀMZ, SPD
    const Vector<S> y = reduced.solve(Vector<S>(Z.transpose() * (sys.Q + sys.C - M * zp)));
    sol.qdd = zp + Z * y;
    sol.QW = MZ * reduced.solve(Vector<S>(Z.transpose() * sys.C));
  } else {  // rank A = n: Z_W = {z_p} (001 Remark 7) and I − B⁺B = 0, so Qᵂ = 0
    sol.qdd = zp;
    sol.QW = Vector<S>::Zero(n);
  }
  sol.Qc = M * sol.qdd - sys.Q;
  sol.QN = sol.Qc - sol.QW;
  sol.lambda = codA.solve_transposed(sol.QN);

  const Eigen::LLT<Matrix<S>> chol(sys.M);
  sol.Gg_min = chol.matrixL().solve(Vector<S>(sol.Qc - sys.C)).squaredNorm();
  sol.delta_norm_sq = constraint_residual_sq(sys, sol.qdd);

  sol.diagnostics.rank = codA.rank();
  sol.diagnostics.kappa_M = detail::kappa_from_llt(chol);
  sol.diagnostics.kappa_B = codA.kappa_estimate();  // of A here, not B
  return sol;
}

}  // namespace femc
