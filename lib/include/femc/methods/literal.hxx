#pragma once
#include "femc/decomposition/dense_products.hpp"
#include "femc/errors.hpp"
#include "femc/methods/literal.hpp"
#include "femc/rank.hpp"
#include "femc/scalar/traits.hpp"

// What the library instantiates of this unit beyond solve_literal: its workspace class
// (lib/src/instantiate/method.cpp.in).
#define FEMC_INSTANTIATE_literal(S) template class LiteralWorkspace<S>;

namespace femc {
namespace detail {

// f(X) = V f(Λ) Vᵀ for a symmetric positive definite X = V Λ Vᵀ, through
// scaled = V f(Λ) (kept storage).
template <class S, class F>
void spd_function_into(const SymmetricEigen<S>& eig, F f, Matrix<S>& scaled, Matrix<S>& out) {
  const Matrix<S>& V = eig.eigenvectors();
  scaled.resize(V.rows(), V.cols());
  for (Index j = 0; j < V.cols(); ++j) scaled.col(j) = V.col(j) * f(eig.eigenvalues()(j));
  product_transposed_into(scaled, V, out);
}

// X⁺ = Σ_{k<r} v_k u_kᵀ/σ_k for X = U Σ Vᵀ: the singular values kept by the
// rank decision inverted, the others dropped. (Aᵀ)⁺ is the same sum with
// the roles of U and V swapped.
template <class S>
void pseudoinverse_into(const Matrix<S>& U, const Matrix<S>& V, const Vector<S>& sigma, Index r, Matrix<S>& Xp) {
  Xp.resize(V.rows(), U.rows());
  Xp.setZero();
  for (Index k = 0; k < r; ++k) Xp.noalias() += V.col(k) * (U.col(k).transpose() / sigma(k));
}

template <class S>
MethodError svd_failed(const char* what) {
  return MethodError(std::string("literal: the SVD of ") + what + " met a number that is not finite in " +
                     ScalarTraits<S>::name() + "; rescale the system or raise the precision");
}

// The eigendecomposition of X (M or W), refused when the QR iterations did
// not converge or when X's smallest computed eigenvalue is not positive.
// X's Cholesky factor exists (prepare() refuses X otherwise), so such an
// eigenvalue means X is too ill-conditioned for its square roots at this
// precision: its eigenvalues are known only to the eigensolver's backward
// error, ‖X‖·O(nu).
template <class S>
void decompose_spd(SymmetricEigen<S>& eig, const Matrix<S>& X, const char* field) {
  if (!eig.compute(X))
    throw MethodError(std::string("literal: the eigendecomposition of ") + field + " did not converge in " +
                      ScalarTraits<S>::name());
  if (!(eig.eigenvalues()(0) > S(0)))
    throw MethodError(std::string("literal: the smallest computed eigenvalue of ") + field + " is " +
                      ScalarTraits<S>::format(eig.eigenvalues()(0)) + ", not positive, in " +
                      ScalarTraits<S>::name() + " (" + field + " is too ill-conditioned); raise the precision");
}

}  // namespace detail

template <class S>
void LiteralWorkspace<S>::form_functions_of_M(const Matrix<S>& M) {
  using std::sqrt;
  have_M_ = false;
  detail::decompose_spd(eigM_, M, "M");
  detail::spd_function_into(eigM_, [](const S& x) { return S(sqrt(x)); }, scaled_M_, M_half_);
  detail::spd_function_into(eigM_, [](const S& x) { return S(S(1) / sqrt(x)); }, scaled_M_, M_mhalf_);
  detail::spd_function_into(eigM_, [](const S& x) { return S(S(1) / x); }, scaled_M_, M_inv_);
  have_M_ = true;
}

template <class S>
void LiteralWorkspace<S>::form_square_root_of_W(const Matrix<S>& W) {
  using std::sqrt;
  have_W_ = false;
  detail::decompose_spd(eigW_, W, "W");
  detail::spd_function_into(eigW_, [](const S& x) { return S(sqrt(x)); }, scaled_W_, W_half_);
  have_W_ = true;
}

template <class S>
void LiteralWorkspace<S>::solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol) {
  const Index n = sys.n(), m = sys.m();
  const bool weighted = m > 0 && !is_identity(sys.W);
  const S tol = rank_tolerance(opt, m, n);

  mass_.prepare(sys.M);  // throws validate()'s error when M is not positive definite
  if (!(mass_.reused() && have_M_)) form_functions_of_M(sys.M);
  const Vector<S>& ev = eigM_.eigenvalues();
  const S kappa_M = ev(n - 1) / ev(0);
  S kappa_W(1), norm_W(1);
  if (weighted) {
    weight_.prepare(sys.W);
    if (!(weight_.reused() && have_W_)) form_square_root_of_W(sys.W);
    norm_W = eigW_.eigenvalues()(m - 1);
    kappa_W = norm_W / eigW_.eigenvalues()(0);
  }

  a_.noalias() = M_inv_ * sys.Q;       // a = M⁻¹Q
  product_into(sys.A, M_mhalf_, B_);   // B = A M^{-1/2}
  bt_ = sys.b;
  if (weighted) {
    product_into(W_half_, B_, P_);     // P = W^{1/2} B
    bt_.noalias() = W_half_ * sys.b;   // b̃ = W^{1/2} b
  } else {
    P_ = B_;
  }

  // The ranks: of P, decided on its singular values; of A, which settles
  // what forming P blurs (rank.hpp) and gives (Aᵀ)⁺.
  if (!svdA_.compute(sys.A, true)) throw detail::svd_failed<S>("A");
  if (!svdP_.compute(P_, true)) throw detail::svd_failed<S>("P = W^{1/2} A M^{-1/2}");
  const DataCut<S> data_P = data_rank_cut(opt, sys.A, norm_W, S(S(1) / ev(0)));  // rank.hpp: rounded data
  const DataCut<S> data_A = data_rank_cut(opt, sys.A, S(1), S(1));
  const Vector<S>& sigmaA = svdA_.singularValues();
  const Vector<S>& sigmaP = svdP_.singularValues();
  RankDecision<S> rankA = decide_rank(sigmaA, tol);
  apply_data_cut(rankA, sigmaA, data_A);
  RankDecision<S> rankP;
  if (sigmaP.size() == 0) {
    rankP = decide_rank(sigmaP, tol);
  } else {
    const S tol_formed = formed_rank_tolerance(opt, m, n, kappa_M, kappa_W);
    rankP = decide_formed_rank(sigmaP, tol, tol_formed, [&] { return rankA.rank; });
    apply_data_cut(rankP, sigmaP, data_P);
  }
  detail::pseudoinverse_into(svdP_.matrixU(), svdP_.matrixV(), sigmaP, rankP.rank, Pp_);  // P⁺
  detail::pseudoinverse_into(svdA_.matrixV(), svdA_.matrixU(), sigmaA, rankA.rank, Atp_);  // (Aᵀ)⁺

  x_.noalias() = M_mhalf_ * sys.Q;
  r_ = bt_;
  r_.noalias() -= P_ * x_;             // b̃ − P M^{-1/2} Q
  s_.noalias() = Pp_ * r_;             // P⁺(b̃ − P M^{-1/2} Q)
  w_.noalias() = M_mhalf_ * sys.C;
  y_.noalias() = P_ * w_;
  z_ = w_;
  z_.noalias() -= Pp_ * y_;            // (I − P⁺P) M^{-1/2} C

  sol.qdd = a_;
  sol.qdd.noalias() += M_mhalf_ * s_;
  sol.qdd.noalias() += M_mhalf_ * z_;  // 001 (15)
  sol.QN.noalias() = M_half_ * s_;     // 002 (33), weighted as in 001 (15)
  sol.QW.noalias() = M_half_ * z_;     // 002 (33)
  sol.Qc = sol.QN + sol.QW;
  sol.lambda.noalias() = Atp_ * sol.QN;  // 004 (21)

  rhs_ = sys.Q + sys.C;
  x_.noalias() = M_mhalf_ * rhs_;
  r_ = bt_;
  r_.noalias() -= P_ * x_;
  s_.noalias() = Pp_ * r_;
  sol.Gg_min = s_.squaredNorm();       // 001 (30)
  s_.noalias() = Pp_ * bt_;
  r_ = -bt_;
  r_.noalias() += P_ * s_;
  sol.delta_norm_sq = r_.squaredNorm();  // 001 (24): ‖(P P⁺ − I) b̃‖²

  sol.diagnostics.rank = rankP;
  sol.diagnostics.kappa_M = kappa_M;
  sol.diagnostics.kappa_B = rankP.rank > 0 ? S(rankP.largest / rankP.smallest_kept) : S(1);
  sol.diagnostics.warnings.clear();
  sol.diagnostics.notes.clear();
}

template <class S>
Solution<S> solve_literal(const System<S>& sys, const Options<S>& opt) {
  return solve_with_fresh<LiteralWorkspace<S>>(sys, opt);
}

}  // namespace femc
