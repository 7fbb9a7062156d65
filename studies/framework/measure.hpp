#pragma once
// One solve at working precision S, measured against the exact reference:
// forward errors of every output of 002 (33) / 001 (15) and the LAPACK-style
// scaled residual ratios (LAPACK's test programs flag a ratio ≥ 30).
#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>
#include <string>

#include "femc/solve.hpp"
#include "femc/solvers/registry.hpp"
#include "reference.hpp"
#include "study.hpp"

namespace femc::studies {

struct Measured {
  std::string status = "ok";  // or "method-error: …", or "not-applicable: …" (a system the solver does not take)
  double err_qdd = nan(), err_QN = nan(), err_QW = nan(), err_lambda = nan();
  // Constraint residual, consistent case (as LAPACK's xQRT16):
  //   ‖A q̈ − b‖ / (max(m,n)·(‖A‖‖q̈‖ + ‖b‖)·u);
  // inconsistent case, the normal equations (as xQRT17):
  //   ‖AᵀW(A q̈ − b)‖ / (max(m,n)·‖A‖‖W‖·(‖A‖‖q̈‖ + ‖b‖)·u).
  double ratio_constraint = nan();
  // Multiplier residual ‖Aᵀλ − Qᴺ‖ / (max(m,n)·(‖A‖‖λ‖ + ‖Qᴺ‖)·u).
  double ratio_lambda = nan();
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
    out.status = std::string("method-error: ") + e.what();
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
  const double mn = static_cast<double>(std::max(sys.m(), sys.n()));
  const Vector<rational> q = to_rational(s.qdd), lambda = to_rational(s.lambda), QN = to_rational(s.QN);
  const double nA = frobenius(exact.A), nb = norm2(exact.b), nq = norm2(q);
  if (exact.m() > 0) {
    const Vector<rational> res = exact.A * q - exact.b;
    if (ref.eta == 0) {
      out.ratio_constraint = norm2(res) / (mn * (nA * nq + nb) * u);
    } else {
      const double nW = frobenius(exact.W);
      out.ratio_constraint = norm2(Vector<rational>(exact.A.transpose() * (exact.W * res))) /
                             (mn * nA * nW * (nA * nq + nb) * u);
    }
    if (caps.returns(outputs::lambda | outputs::QN)) {
      const Vector<rational> lres = exact.A.transpose() * lambda - QN;
      const double denom = mn * (nA * norm2(lambda) + norm2(QN)) * u;
      out.ratio_lambda = denom > 0 ? norm2(lres) / denom : 0;
    }
  }
  return out;
}

}  // namespace femc::studies
