#pragma once
// One solve at working precision S, measured against the exact reference:
// forward errors of every output of 002 (33) / 001 (15) and the LAPACK-style
// scaled residual ratios (LAPACK's test programs flag a ratio ≥ 30).
//
// The residual ratios are LAPACK's for the least-squares problems the
// solvers actually solve. Gauss's principle minimizes in the metric of M:
// with M = LLᵀ, a = M⁻¹(Q + C) and x = Lᵀ(q̈ − a), the constraints read
// B x = d_W (B = W^{1/2}A L⁻ᵀ, d_W = W^{1/2}(b − A a)) and q̈ is the
// minimum-norm least-squares x. A backward-stable solve of that problem
// leaves a residual of order u·(‖B‖‖x‖ + ‖d_W‖), which can exceed
// u·(‖A‖‖q̈‖ + ‖b‖) by up to √κ(M): measured in A's terms, a correct solver
// fails LAPACK's threshold whenever M is ill-conditioned. And B x − d_W =
// W^{1/2}(A q̈ − b) exactly, so the residual is the one of the solver's q̈.
// A solver that is backward stable for B Bᵀ rather than B (error_growth 2)
// leaves a residual u‖G‖‖λ‖ ≈ u‖B‖‖x‖κ(B); one that forms M^{±1/2}
// explicitly, u·κ(M)·(‖B‖‖x‖ + ‖d_W‖): each ratio is taken against the
// solver's own law (Capabilities::error_growth, residual_mass_power).
// Where the data are numerically rank-deficient at the working precision
// (κ(B)·τ ≥ 1, τ the rank tolerance of femc/rank.hpp for a P formed from
// these M and W), a solver may rightly drop the smallest singular value and
// its residual is then not O(u): no ratio is measured there.
#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>
#include <string>

#include "femc/rank.hpp"
#include "femc/solve.hpp"
#include "femc/solvers/registry.hpp"
#include "femc/verify/error_law.hpp"
#include "reference.hpp"
#include "study.hpp"

namespace femc::studies {

struct Measured {
  std::string status = "ok";  // or "method-error: …", or "not-applicable: …" (a system the solver does not take)
  double err_qdd = nan(), err_QN = nan(), err_QW = nan(), err_lambda = nan();
  // Constraint residual, consistent case (as LAPACK's xQRT16):
  //   ‖W^{1/2}(A q̈ − b)‖ / (max(m,n)·(‖B‖‖x‖ + ‖d_W‖)·u·g),
  // g = κ(B)^(p−1)·κ(M)^s the solver's residual law (see the header);
  // inconsistent case, the normal equations (as xQRT17):
  //   ‖Bᵀ W^{1/2}(A q̈ − b)‖ / (max(m,n)·‖B‖·(‖B‖‖x‖ + ‖d_W‖)·u·g).
  double ratio_constraint = nan();
  // Multiplier: λ = (Aᵀ)⁺Qᴺ is the least-squares solution of Aᵀλ = Qᴺ for
  // the Qᴺ the solver returned (which carries its own rounding out of the
  // range of Aᵀ), so the normal equations (xQRT17):
  //   ‖A(Aᵀλ − Qᴺ)‖ / (max(m,n)·‖A‖·(‖A‖‖λ‖ + ‖Qᴺ‖)·u),
  // where A is numerically of full rank at the working precision.
  double ratio_lambda = nan();
  // The largest error of q̈ (in the metric of M), Qᴺ and Qᵂ (in that of
  // M⁻¹) over the forward law T without its constant
  // (femc/verify/error_law.hpp): the measure the studies' verdicts and the
  // claims judge. The relative 2-norm errors above, which the plots show
  // against the relative law, see the cancellation of a = M⁻¹(Q + C)
  // against the constraint's share and are not judged.
  double c_law = nan();
  long rank = -1;  // the rank the method decided
  double qdd_norm = nan();
  static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
};

// The solvers a study runs at S: every floating solver of the registry
// (femc/solvers/registry.hpp) that runs at S, in the registry's order, or
// those of config.solvers when it names some. A solver a program registers
// is studied without editing the study.
template <class S>
std::vector<const RegisteredSolver*> study_solvers(const StudyConfig& config) {
  std::vector<const RegisteredSolver*> out;
  for (const RegisteredSolver& r : solvers().all()) {
    const bool named = config.solvers.empty() ||
                       std::find(config.solvers.begin(), config.solvers.end(), r.name()) != config.solvers.end();
    if (named && r.capabilities().arithmetic == Arithmetic::Floating && r.runs_at<S>()) out.push_back(&r);
  }
  return out;
}

// The status of a solve that raised MethodError: a solver that declares it
// refuses rank-deficient A did as declared on such data (not a failure; the
// claim RankDeficientRefused checks that it always does); any other refusal
// is a failure of the solver.
inline std::string refusal_status(const Capabilities& caps, bool rank_deficient, const MethodError& e) {
  if (rank_deficient && !caps.rank_deficient) return "not-applicable: refused rank-deficient A, as declared";
  return std::string("method-error: ") + e.what();
}

template <class S>
Measured measure(const System<rational>& exact, const ExactReference& ref, const RegisteredSolver& solver) {
  Measured out;
  const System<S> sys = system_as<S>(exact);
  if (const std::string why = not_accepted(solver.capabilities(), sys); !why.empty()) {
    out.status = "not-applicable: " + why;
    return out;
  }
  Solution<S> s;
  try {
    s = solver.solve(sys, Options<S>{});
  } catch (const MethodError& e) {
    out.status = refusal_status(solver.capabilities(), ref.rank < sys.m(), e);
    return out;
  }
  if (!all_finite(s.qdd)) {
    out.status = "not finite";
    return out;
  }
  // Only what the solver declares it returns is measured; the rest stays NaN.
  const Capabilities& caps = solver.capabilities();
  const Solution<rational>& r = ref.solution;
  out.err_qdd = relative_error(s.qdd, r.qdd);
  if (caps.returns(outputs::QN)) out.err_QN = relative_error(s.QN, r.QN);
  if (caps.returns(outputs::QW)) out.err_QW = relative_error(s.QW, r.QW);
  if (caps.returns(outputs::lambda)) out.err_lambda = relative_error(s.lambda, r.lambda);
  if (caps.returns(outputs::rank)) out.rank = static_cast<long>(s.diagnostics.rank.rank);
  out.qdd_norm = static_cast<double>(s.qdd.norm());

  const double u = static_cast<double>(unit_roundoff<S>());
  {
    auto in_M = [&](const Vector<S>& v, const Vector<rational>& exact_v) {
      const Vector<rational> e = to_rational(v) - exact_v;
      return std::sqrt(to_double(rational(e.dot(exact.M * e))));
    };
    auto in_M_inverse = [&](const Vector<S>& v, const Vector<rational>& exact_v) {
      const Vector<rational> e = to_rational(v) - exact_v;
      return std::sqrt(to_double(rational(e.dot(ref.M_inverse * e))));
    };
    double worst = in_M(s.qdd, r.qdd);
    if (caps.returns(outputs::QN)) worst = std::max(worst, in_M_inverse(s.QN, r.QN));
    if (caps.returns(outputs::QW)) worst = std::max(worst, in_M_inverse(s.QW, r.QW));
    const double law = verify::forward_law(ref, u, verify::ErrorLaw::of(caps));
    out.c_law = law > 0 ? worst / law : (worst > 0 ? std::numeric_limits<double>::infinity() : 0);
  }
  const double mn = static_cast<double>(std::max(sys.m(), sys.n()));
  if (exact.m() == 0) return out;
  const Vector<rational> q = to_rational(s.qdd);
  const double tau = static_cast<double>(
      formed_rank_tolerance<S>(Options<S>{}, sys.m(), sys.n(), S(ref.kappa_M), S(ref.kappa_W)));
  if (ref.kappa_B * tau < 1) {
    const Vector<rational> r = exact.A * q - exact.b, dq = q - ref.a;
    const double norm_x = std::sqrt(to_double(rational(dq.dot(exact.M * dq))));  // ‖Lᵀ(q̈ − a)‖
    // The solver's own residual law (Capabilities): κ(B)^(p−1) for a method
    // that forms B Bᵀ, κ(M)^s for one that forms M^{±1/2}.
    const double growth = std::pow(ref.kappa_B, caps.error_growth - 1) * std::pow(ref.kappa_M, caps.residual_mass_power);
    const double scale = mn * (ref.norm_B * norm_x + ref.norm_d) * u * growth;
    if (ref.eta == 0) {
      out.ratio_constraint = std::sqrt(to_double(rational(r.dot(exact.W * r)))) / scale;
    } else {
      const Vector<rational> y = exact.A.transpose() * (exact.W * r);  // ‖Bᵀ W^{1/2} r‖² = yᵀM⁻¹y
      out.ratio_constraint = std::sqrt(to_double(rational(y.dot(ref.M_inverse * y)))) / (ref.norm_B * scale);
    }
  }
  if (caps.returns(outputs::lambda | outputs::QN) &&
      ref.kappa_A * static_cast<double>(default_rank_tolerance<S>(sys.m(), sys.n())) < 1) {
    const Vector<rational> lambda = to_rational(s.lambda), QN = to_rational(s.QN);
    const double nA = frobenius(exact.A);
    const double denom = mn * nA * (nA * norm2(lambda) + norm2(QN)) * u;
    out.ratio_lambda = denom > 0 ? norm2(Vector<rational>(exact.A * (exact.A.transpose() * lambda - QN))) / denom : 0;
  }
  return out;
}

}  // namespace femc::studies
