// The regression gate catches a worse solver: cod's q̈ replaced, in this
// test's registry only, by the normal equations (B Bᵀ)y = r, the classic way
// to lose accuracy (κ(B)² in place of κ(B)); the quick studies against the
// committed baseline (reports/baseline) must then find cod's metrics worse.
// The shipped `femc report` has no such hook.
#include <gtest/gtest.h>
#include <unistd.h>

#include <Eigen/Cholesky>
#include <filesystem>
#include <memory>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solvers/registry.hpp"
#include "gate/regression_gate.hpp"

namespace femc::studies {
namespace {

template <class S>
Vector<S> normal_equations_qdd(const System<S>& sys) {
  Eigen::LLT<Matrix<S>> chol(sys.M);
  const auto L = chol.matrixL();
  const Matrix<S> B = L.solve(sys.A.transpose()).transpose();
  const Vector<S> a = L.solve(sys.Q), c = L.solve(sys.C);
  const Eigen::LDLT<Matrix<S>> normal(Matrix<S>(B * B.transpose()));
  const Vector<S> x = B.transpose() * normal.solve(Vector<S>(sys.b - B * a));
  const Vector<S> w = c - B.transpose() * normal.solve(Vector<S>(B * c));
  return L.transpose().solve(Vector<S>(a + x + w));
}

// cod as registered (`original`), with its q̈ replaced at S.
template <class S>
void make_worse(RegisteredSolver& cod, const std::shared_ptr<const RegisteredSolver>& original) {
  cod.at<S>([original](const System<S>& sys, const Options<S>& opt) {
    Solution<S> s = original->solve(sys, opt);
    s.qdd = normal_equations_qdd(sys);
    return s;
  });
}

TEST(RegressionGate, CatchesASolverMadeWorse) {
  RegisteredSolver& cod = solvers().edit("cod");
  const auto original = std::make_shared<const RegisteredSolver>(cod);
  // One builtin and one multiprecision type: the gate must name cod from
  // either (each type made worse cost this unit 8 s of compilation).
  make_worse<double>(cod, original);
  make_worse<mpfr_real>(cod, original);
  const std::string work = (std::filesystem::temp_directory_path() / ("femc-gate-test-" + std::to_string(::getpid())));
  std::filesystem::create_directories(work);
  const MetricSet now = run_quick_studies(work, 2, false);
  std::filesystem::remove_all(work);
  const GateVerdict v = compare(read_baseline(FEMC_BASELINE), now, kDefaultGateFactor);
  print_verdict(std::cout, v, kDefaultGateFactor);
  EXPECT_FALSE(v.passed());
  int cod_worse = 0, others_worse = 0;
  for (const auto& line : v.lines) {
    if (line.verdict != "worse") continue;
    const bool of_cod = line.metric.rfind("cod/", 0) == 0 || line.metric.find("/cod/") != std::string::npos;
    (of_cod ? cod_worse : others_worse) += 1;
  }
  EXPECT_GT(cod_worse, 0) << "no metric of cod got worse";
  EXPECT_EQ(others_worse, 0) << "only cod was changed";
}

}  // namespace
}  // namespace femc::studies
