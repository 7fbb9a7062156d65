// A downstream solver under femc's claims, from the downstream project's own
// ctest: a Schur-complement q̈ of the kind rigid-body codes use, declared for
// what it is (q̈ and Qᶜ, full row rank only), checked by every claim that
// applies to it with femc::verify, against femc's exact solution.
#include <femc/scalar/builtin.hpp>
#include <femc/solvers/registry.hpp>
#include <femc/verify/run_claims.hpp>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <iostream>

namespace {

femc::Solution<double> my_solver(const femc::System<double>& sys, const femc::Options<double>&) {
  using Mat = femc::Matrix<double>;
  using Vec = femc::Vector<double>;
  const Eigen::LLT<Mat> chol(sys.M);
  femc::Solution<double> s;
  s.Qc = sys.C;
  if (sys.m() > 0) {
    Eigen::ColPivHouseholderQR<Mat> qr(sys.A.transpose());
    qr.setThreshold(16.0 * double(sys.n() + sys.m()) * Eigen::NumTraits<double>::epsilon());
    if (qr.rank() < sys.m()) throw femc::MethodError("my_solver: A has not full row rank");
    const Mat G = sys.A * chol.solve(Mat(sys.A.transpose()));
    const Vec lambda = Eigen::LDLT<Mat>(G).solve(Vec(sys.b - sys.A * chol.solve(Vec(sys.Q + sys.C))));
    s.Qc += sys.A.transpose() * lambda;
  }
  s.qdd = chol.solve(Vec(sys.Q + s.Qc));
  return s;
}

}  // namespace

int main() {
  femc::Capabilities caps;
  caps.outputs = femc::outputs::qdd | femc::outputs::constraint_force;
  caps.rank_deficient = false;
  caps.error_growth = 2;  // it forms G = A M⁻¹Aᵀ
  femc::RegisteredSolver mine("downstream", "a downstream Schur-complement solver", caps);
  mine.at<double>(my_solver);
  const femc::RegisteredSolver& solver = femc::solvers().add(std::move(mine));
  femc::verify::ClaimRunOptions options;
  options.cases = 50;
  int failed = 0, passed = 0;
  for (const auto& o : femc::verify::run_claims<double>(femc::verify::select_claims({}), solver, options)) {
    std::cout << o.suite << ": " << femc::verify::to_string(o.verdict) << "\n";
    if (o.verdict == femc::verify::Verdict::Pass) ++passed;
    if (o.verdict == femc::verify::Verdict::Fail || o.verdict == femc::verify::Verdict::GaveUp) {
      ++failed;
      std::cout << o.detail << "\n";
    }
  }
  std::cout << passed << " claims pass, " << failed << " fail\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
