#pragma once
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "femc/methods/literal.hpp"
#include "femc/rank.hpp"

namespace femc {
namespace detail {

// f(X) = V f(Λ) Vᵀ for a symmetric positive definite X = V Λ Vᵀ.
template <class S, class F>
Matrix<S> spd_function(const Eigen::SelfAdjointEigenSolver<Matrix<S>>& eig, F f) {
  const Vector<S> d = eig.eigenvalues().unaryExpr(f);
  return eig.eigenvectors() * d.asDiagonal() * eig.eigenvectors().transpose();
}

// X⁺ = V Σ⁺ Uᵀ from an SVD, inverting the singular values kept by the rank
// policy (decide(σ), by default decide_rank at tol). Records the rank decision.
template <class S, class Decide>
Matrix<S> pseudoinverse(const Matrix<S>& X, const S& tol, RankDecision<S>* rank, Decide&& decide) {
  Matrix<S> Xp = Matrix<S>::Zero(X.cols(), X.rows());
  if (X.rows() == 0 || X.cols() == 0) {
    if (rank) *rank = decide_rank(Vector<S>(), tol);
    return Xp;
  }
  Eigen::JacobiSVD<Matrix<S>> svd(X, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Vector<S> sigma = svd.singularValues();
  const RankDecision<S> r = decide(sigma);
  for (Index k = 0; k < r.rank; ++k)
    Xp += svd.matrixV().col(k) * (svd.matrixU().col(k).transpose() / sigma(k));
  if (rank) *rank = r;
  return Xp;
}

template <class S>
Matrix<S> pseudoinverse(const Matrix<S>& X, const S& tol, RankDecision<S>* rank) {
  return pseudoinverse<S>(X, tol, rank, [&](const Vector<S>& sigma) { return decide_rank(sigma, tol); });
}

}  // namespace detail

template <class S>
Solution<S> solve_literal(const System<S>& sys, const Options<S>& opt) {
  using std::sqrt;
  const Index n = sys.n(), m = sys.m();
  const S tol = rank_tolerance(opt, m, n);
  Solution<S> sol;

  const Eigen::SelfAdjointEigenSolver<Matrix<S>> eigM(sys.M);
  const Matrix<S> M_half = detail::spd_function<S>(eigM, [](const S& x) { return S(sqrt(x)); });
  const Matrix<S> M_mhalf = detail::spd_function<S>(eigM, [](const S& x) { return S(S(1) / sqrt(x)); });
  const Matrix<S> M_inv = detail::spd_function<S>(eigM, [](const S& x) { return S(S(1) / x); });
  Matrix<S> W_half = Matrix<S>::Identity(m, m);
  S kappa_W(1), norm_W(1);
  if (m > 0 && !is_identity(sys.W)) {
    const Eigen::SelfAdjointEigenSolver<Matrix<S>> eigW(sys.W);
    W_half = detail::spd_function<S>(eigW, [](const S& x) { return S(sqrt(x)); });
    norm_W = eigW.eigenvalues()(m - 1);
    kappa_W = norm_W / eigW.eigenvalues()(0);
  }
  const auto& ev = eigM.eigenvalues();
  const S kappa_M = ev(n - 1) / ev(0);

  const Vector<S> a = M_inv * sys.Q;                 // a = M⁻¹Q
  const Matrix<S> B = sys.A * M_mhalf;               // B = A M^{-1/2}
  const Matrix<S> P = W_half * B;                    // P = W^{1/2} B
  const Vector<S> bt = W_half * sys.b;               // b̃ = W^{1/2} b
  RankDecision<S> rankP;
  const S tol_formed = formed_rank_tolerance(opt, m, n, kappa_M, kappa_W);
  const DataCut<S> data_P = data_rank_cut(opt, sys.A, norm_W, S(S(1) / ev(0)));  // rank.hpp: rounded data
  const DataCut<S> data_A = data_rank_cut(opt, sys.A, S(1), S(1));
  auto decide_A = [&](const Vector<S>& sigma) {
    RankDecision<S> r = decide_rank(sigma, tol);
    apply_data_cut(r, sigma, data_A);
    return r;
  };
  const Matrix<S> Pp = detail::pseudoinverse<S>(P, tol, &rankP, [&](const Vector<S>& sigma) {
    RankDecision<S> r = decide_formed_rank(sigma, tol, tol_formed, [&] {  // rank.hpp: A settles what forming P blurs
      return decide_A(Eigen::JacobiSVD<Matrix<S>>(sys.A).singularValues()).rank;
    });
    apply_data_cut(r, sigma, data_P);
    return r;
  });
  const Matrix<S> I_PpP = Matrix<S>::Identity(n, n) - Pp * P;

  sol.qdd = a + M_mhalf * Pp * (bt - P * M_mhalf * sys.Q) + M_mhalf * I_PpP * M_mhalf * sys.C;  // 001 (15)
  sol.QN = M_half * Pp * (bt - P * M_mhalf * sys.Q);   // 002 (33), weighted as in 001 (15)
  sol.QW = M_half * I_PpP * M_mhalf * sys.C;           // 002 (33)
  sol.Qc = sol.QN + sol.QW;
  sol.lambda = detail::pseudoinverse<S>(Matrix<S>(sys.A.transpose()), tol, nullptr, decide_A) * sol.QN;  // 004 (21)
  sol.Gg_min = (Pp * (bt - P * M_mhalf * (sys.Q + sys.C))).squaredNorm();  // 001 (30)
  sol.delta_norm_sq = ((P * Pp - Matrix<S>::Identity(m, m)) * bt).squaredNorm();  // 001 (24)

  sol.diagnostics.rank = rankP;
  sol.diagnostics.kappa_M = kappa_M;
  sol.diagnostics.kappa_B = rankP.rank > 0 ? S(rankP.largest / rankP.smallest_kept) : S(1);
  return sol;
}

}  // namespace femc
