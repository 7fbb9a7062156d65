#pragma once
// A small solver that is not femc's, for the tests that show a registered
// solver reaching the properties and the studies without editing them
// (docs/solving.md, "Adding a solver"). The Schur-complement motion of rigid-body
// codes, q̈ and Qᶜ only:
//   (A M⁻¹Aᵀ) λ = b − A M⁻¹(Q + C),   q̈ = M⁻¹(Q + C + Aᵀλ),   Qᶜ = C + Aᵀλ
// (004 (23); with C, 002 (33) at full row rank, where Qᴺ + Qᵂ = C + Aᵀλ).
// It declares what it is: q̈, Qᶜ and its rank only, full row rank only (it refuses a
// rank-deficient A with MethodError), W accepted (it cannot matter at full
// row rank, 001 (44)–(47)); double and float128.
#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/solvers/registry.hpp"

namespace femc::test {

template <class S>
Solution<S> schur_solve(const System<S>& sys, const Options<S>&) {
  const Index n = sys.n(), m = sys.m();
  Solution<S> s;
  const Eigen::LLT<Matrix<S>> chol(sys.M);
  const Vector<S> a = chol.solve(Vector<S>(sys.Q + sys.C));
  s.Qc = sys.C;
  if (m > 0) {
    Eigen::ColPivHouseholderQR<Matrix<S>> qr(sys.A.transpose());
    qr.setThreshold(S(16 * (n + m)) * Eigen::NumTraits<S>::epsilon());
    if (qr.rank() < m) throw MethodError("schur: A has rank " + std::to_string(qr.rank()) + " < m = " + std::to_string(m));
    s.diagnostics.rank.rank = qr.rank();
    s.diagnostics.rank.tol = qr.threshold();
    const Matrix<S> G = sys.A * chol.solve(Matrix<S>(sys.A.transpose()));
    const Vector<S> lambda = Eigen::LDLT<Matrix<S>>(G).solve(Vector<S>(sys.b - sys.A * a));
    s.Qc += sys.A.transpose() * lambda;
  }
  s.qdd = chol.solve(Vector<S>(sys.Q + s.Qc));
  return s;
}

inline RegisteredSolver schur_solver() {
  Capabilities caps;
  caps.outputs = outputs::qdd | outputs::constraint_force | outputs::rank;
  caps.rank_deficient = false;
  caps.error_growth = 2;  // it forms G = A M⁻¹Aᵀ
  caps.rank_policy = "pivoted QR of Aᵀ, threshold 16(n + m)ε";
  RegisteredSolver r("schur", "Schur-complement q̈ of rigid-body codes (a test solver)", caps);
  r.at<double>(schur_solve<double>);
  r.at<float128>(schur_solve<float128>);
  return r;
}

}  // namespace femc::test
