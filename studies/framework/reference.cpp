#include "reference.hpp"

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "femc/solve.hpp"

namespace femc::studies {

double frobenius(const Matrix<rational>& X) {
  rational s(0);
  for (Index j = 0; j < X.cols(); ++j)
    for (Index i = 0; i < X.rows(); ++i) s += X(i, j) * X(i, j);
  return std::sqrt(to_double(s));
}

namespace {

double ratio_of_rank(const Vector<mpfr_real>& sigma, Index r) {
  if (r == 0) return 1;
  return static_cast<double>(sigma(0) / sigma(r - 1));
}

}  // namespace

ExactReference exact_reference(const System<rational>& sys) {
  ExactReference ref;
  Options<rational> opt;
  opt.method = Method::Exact;
  ref.solution = solve(sys, opt);
  ref.rank = ref.solution.diagnostics.rank.rank;

  MpfrPrecision guard(256);
  using R = mpfr_real;
  const Matrix<R> M = from_rational<R>(sys.M), A = from_rational<R>(sys.A), W = from_rational<R>(sys.W);
  Eigen::LLT<Matrix<R>> chol(M);
  Matrix<R> B = chol.matrixL().solve(A.transpose()).transpose();  // A L⁻ᵀ
  if (sys.m() > 0 && !is_identity(sys.W)) {
    Eigen::LLT<Matrix<R>> cholW(W);
    B = Matrix<R>(cholW.matrixU()) * B;  // Uᵀ U = W: ‖U r‖ = ‖r‖_W
  }
  Eigen::JacobiSVD<Matrix<R>> svdM(M);
  ref.kappa_M = ratio_of_rank(svdM.singularValues(), M.rows());
  if (sys.m() > 0) {
    Eigen::JacobiSVD<Matrix<R>> svdW(W);
    ref.kappa_W = ratio_of_rank(svdW.singularValues(), W.rows());
  }
  if (sys.m() > 0) {
    Eigen::JacobiSVD<Matrix<R>> svdA(A), svdB(B);
    ref.kappa_A = ratio_of_rank(svdA.singularValues(), ref.rank);
    ref.kappa_B = ratio_of_rank(svdB.singularValues(), ref.rank);
    ref.norm_B = static_cast<double>(svdB.singularValues()(0));
  }
  // ‖x‖ with x = Lᵀ(q̈ − M⁻¹(Q + C)) = L⁻¹(M q̈ − Q − C).
  const Vector<R> qdd = from_rational<R>(ref.solution.qdd), Q = from_rational<R>(sys.Q),
                  C = from_rational<R>(sys.C);
  const Vector<R> x = chol.matrixL().solve(Vector<R>(M * qdd - Q - C));
  const double norm_x = static_cast<double>(x.norm());
  const double norm_r = std::sqrt(to_double(ref.solution.delta_norm_sq));
  ref.eta = (ref.norm_B > 0 && norm_x > 0) ? norm_r / (ref.norm_B * norm_x) : 0;

  // The transformed problem, exactly: M is SPD, so its LU has no zero pivot.
  ref.M_inverse = Eigen::FullPivLU<Matrix<rational>>(sys.M).inverse();
  ref.a = ref.M_inverse * Vector<rational>(sys.Q + sys.C);
  if (sys.m() > 0) {
    const Vector<rational> d = sys.b - sys.A * ref.a;
    ref.norm_d = std::sqrt(to_double(rational(d.dot(sys.W * d))));
  }
  return ref;
}

double forward_error_bound(const ExactReference& ref, double u, int error_growth) {
  return u * (std::pow(ref.kappa_B, error_growth) + ref.kappa_M + ref.kappa_B * ref.kappa_B * ref.eta);
}

}  // namespace femc::studies
