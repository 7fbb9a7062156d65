#include "femc/verify/reference.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <unordered_map>

#include "femc/io/system_text.hpp"
#include "femc/solve.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::verify {

namespace {

using R = mpfr_real;

double to_d(const R& x) { return static_cast<double>(x); }

// B = U_W A L⁻ᵀ and L at the precision in force.
struct Factors {
  Matrix<R> L, B, UW;  // UW: U_W (I when W = I or m = 0)
};

Factors factors(const System<rational>& sys) {
  Factors f;
  const Matrix<R> M = prop::convert<R>(sys.M), A = prop::convert<R>(sys.A);
  f.L = Eigen::LLT<Matrix<R>>(M).matrixL();
  f.B = f.L.triangularView<Eigen::Lower>().solve(Matrix<R>(A.transpose())).transpose();
  f.UW = Matrix<R>::Identity(sys.m(), sys.m());
  if (sys.m() > 0 && !is_identity(sys.W)) {
    const Matrix<R> W = prop::convert<R>(sys.W);
    f.UW = Eigen::LLT<Matrix<R>>(W).matrixU();
    f.B = f.UW * f.B;
  }
  return f;
}

double norm_of(const Vector<rational>& v, const Matrix<rational>& G) {  // √(vᵀGv)
  return std::sqrt(std::max(0.0, prop::to_double(rational(v.dot(G * v)))));
}

}  // namespace

double kappa_of(const Matrix<rational>& X, Index k, long bits) {
  if (k < 1 || X.size() == 0) return 1;
  MpfrPrecision guard(bits);
  const Vector<R> s = Eigen::JacobiSVD<Matrix<R>>(prop::convert<R>(X)).singularValues();
  return to_d(R(s(0) / s(k - 1)));
}

long reference_bits(long working_bits) { return std::max<long>(256, 2 * working_bits + 64); }

ExactReference exact_reference(const System<rational>& sys, long bits) {
  ExactReference ref;
  Options<rational> opt;
  opt.method = Method::Exact;
  ref.solution = solve(sys, opt);
  ref.rank = ref.solution.diagnostics.rank.rank;
  ref.M_inverse = Eigen::FullPivLU<Matrix<rational>>(sys.M).inverse();  // M is SPD: nonsingular
  ref.a = ref.M_inverse * Vector<rational>(sys.Q + sys.C);

  MpfrPrecision guard(bits);
  const Factors f = factors(sys);
  Eigen::SelfAdjointEigenSolver<Matrix<R>> eigM(prop::convert<R>(sys.M), Eigen::EigenvaluesOnly);
  ref.norm_M = to_d(eigM.eigenvalues().maxCoeff());
  ref.kappa_M = to_d(R(eigM.eigenvalues().maxCoeff() / eigM.eigenvalues().minCoeff()));
  if (sys.m() > 0) {
    Eigen::SelfAdjointEigenSolver<Matrix<R>> eigW(prop::convert<R>(sys.W), Eigen::EigenvaluesOnly);
    ref.kappa_W = to_d(R(eigW.eigenvalues().maxCoeff() / eigW.eigenvalues().minCoeff()));
    ref.norm_W = to_d(eigW.eigenvalues().maxCoeff());
    const Vector<R> sA = Eigen::JacobiSVD<Matrix<R>>(prop::convert<R>(sys.A)).singularValues();
    const Vector<R> sB = Eigen::JacobiSVD<Matrix<R>>(f.B).singularValues();
    ref.norm_A = to_d(sA(0));
    ref.norm_B = to_d(sB(0));
    for (Index i = 0; i < sB.size(); ++i) ref.sigma_B.push_back(to_d(sB(i)));
    for (Index i = 0; i < sA.size(); ++i) ref.sigma_A.push_back(to_d(sA(i)));
    if (!is_identity(sys.W)) {
      const Matrix<R> BI = f.L.triangularView<Eigen::Lower>().solve(Matrix<R>(prop::convert<R>(sys.A).transpose())).transpose();
      const Vector<R> sI = Eigen::JacobiSVD<Matrix<R>>(BI).singularValues();
      for (Index i = 0; i < sI.size(); ++i) ref.sigma_B_unweighted.push_back(to_d(sI(i)));
      if (ref.rank > 0) ref.kappa_B_unweighted = to_d(R(sI(0) / sI(ref.rank - 1)));
    }
    if (ref.rank > 0) {
      ref.sigma_r_A = to_d(sA(ref.rank - 1));
      ref.kappa_A = to_d(R(sA(0) / sA(ref.rank - 1)));
      ref.kappa_B = to_d(R(sB(0) / sB(ref.rank - 1)));
      if (is_identity(sys.W)) ref.kappa_B_unweighted = ref.kappa_B;
    }
    if (is_identity(sys.W)) ref.sigma_B_unweighted = ref.sigma_B;
  }
  // ‖x‖ = ‖q̈ − a‖_M, ‖y‖ = ‖Q + C‖_{M⁻¹}, ‖d‖ = ‖b − A a‖_W, exactly but
  // for the last square root.
  const Vector<rational> dq = ref.solution.qdd - ref.a;
  ref.norm_x = norm_of(dq, sys.M);
  // ‖L⁻¹Q‖ + ‖L⁻¹C‖, not ‖L⁻¹(Q + C)‖: a solver computes Qᴺ from Q and Qᵂ
  // from C, each with errors of its own size, which Q + C ≈ 0 cancels in q̈
  // but not in the forces.
  ref.norm_y = norm_of(sys.Q, ref.M_inverse) + norm_of(sys.C, ref.M_inverse);
  if (sys.m() > 0) ref.norm_d = norm_of(Vector<rational>(sys.b - sys.A * ref.a), sys.W);
  ref.norm_qdd = prop::norm2(ref.solution.qdd);
  ref.norm_forces = prop::norm2(sys.Q) + prop::norm2(ref.solution.QN) + prop::norm2(ref.solution.QW);
  ref.norm_r = std::sqrt(std::max(0.0, prop::to_double(ref.solution.delta_norm_sq)));
  ref.eta = (ref.norm_B > 0 && ref.norm_x > 0) ? ref.norm_r / (ref.norm_B * ref.norm_x) : 0;
  return ref;
}

Solution<mpfr_real> truncated_solution(const System<rational>& sys, Index k, long bits) {
  MpfrPrecision guard(bits);
  const Index n = sys.n(), m = sys.m();
  const Factors f = factors(sys);
  const auto L = f.L.triangularView<Eigen::Lower>();
  const Vector<R> yQ = L.solve(prop::convert<R>(sys.Q)), yC = L.solve(prop::convert<R>(sys.C));
  Vector<R> xN = Vector<R>::Zero(n), xW = yC;
  R delta(0);
  if (m > 0) {
    const Vector<R> d = f.UW * prop::convert<R>(sys.b) - f.B * yQ;
    Eigen::JacobiSVD<Matrix<R>> svd(f.B, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Index kk = std::min<Index>(k, svd.singularValues().size());
    const Matrix<R> U = svd.matrixU().leftCols(kk), V = svd.matrixV().leftCols(kk);
    const Vector<R> s = svd.singularValues().head(kk);
    const Vector<R> Ud = U.transpose() * d;
    xN = V * Vector<R>(Ud.cwiseQuotient(s));
    xW = yC - V * Vector<R>(V.transpose() * yC);
    delta = (d - U * Ud).squaredNorm();
  }
  Solution<R> out;
  out.qdd = L.transpose().solve(Vector<R>(yQ + xN + xW));
  out.QN = f.L * xN;
  out.QW = f.L * xW;
  out.Qc = out.QN + out.QW;
  out.Gg_min = (xN + xW - yC).squaredNorm();
  out.delta_norm_sq = delta;
  out.diagnostics.rank.rank = k;
  return out;
}

ExactReference memoized_exact_reference(const System<rational>& sys, long bits) {
  static std::mutex mutex;
  static std::unordered_map<std::string, ExactReference> store;
  // The system as `femc solve` reads it back exactly (every entry as p/q).
  std::string key = std::to_string(bits) + '|' + system_json(to_system_text(sys));
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = store.find(key);
    if (it != store.end()) return it->second;
  }
  ExactReference ref = exact_reference(sys, bits);
  const std::lock_guard<std::mutex> lock(mutex);
  if (store.size() >= 4096) store.clear();
  store.emplace(std::move(key), ref);
  return ref;
}

}  // namespace femc::verify
