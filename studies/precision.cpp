// Study `precision`: how many bits a target accuracy of q̈ costs as the
// constraints become ill-conditioned. The data are exact rationals: A =
// U diag(σ) Vᵀ with σ geometric from 1 to 1/κ, U and V orthogonal, computed
// at 1024 bits and taken as given (n = 6, m = 3, M = diag(1..6) + a coupling,
// integer Q, C, b). A user holding these data rounds them to p bits and
// solves; the error against the exact solution then includes the rounding of
// the data, as it does for every user. Theory (conditioning.cpp): error ≈
// c·κ(B)·2⁻ᵖ, so p ≈ log₂(κ(B)/target) + log₂ c bits (κ(B)² and twice the
// bits for a solver that forms A M⁻¹Aᵀ, Capabilities::error_growth).
#include <Eigen/QR>
#include <cmath>
#include <map>

#include "femc/solve.hpp"
#include "framework/measure.hpp"
#include "framework/reference.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"

namespace femc::studies {
namespace {

constexpr Index kN = 6, kM = 3;
constexpr long kDataBits = 1024;

System<rational> make_data(int log10_kappa, Random& rng) {
  MpfrPrecision guard(kDataBits);
  using R = mpfr_real;
  auto orthogonal = [&](Index n) {
    Matrix<R> G(n, n);
    for (Index j = 0; j < n; ++j)
      for (Index i = 0; i < n; ++i) G(i, j) = R(rng.normal());
    Eigen::HouseholderQR<Matrix<R>> qr(G);
    return Matrix<R>(qr.householderQ() * Matrix<R>::Identity(n, n));
  };
  const Matrix<R> U = orthogonal(kM), V = orthogonal(kN);
  Matrix<R> Sigma = Matrix<R>::Zero(kM, kN);
  const R kappa = pow(R(10), log10_kappa);
  for (Index i = 0; i < kM; ++i) Sigma(i, i) = pow(kappa, -R(static_cast<double>(i)) / R(kM - 1));
  const Matrix<R> A = U * Sigma * V.transpose();
  System<rational> s;
  s.M = Matrix<rational>::Zero(kN, kN);
  for (Index i = 0; i < kN; ++i) s.M(i, i) = rational(static_cast<long>(i + 1));
  s.M(0, 1) = s.M(1, 0) = rational(1) / 2;
  s.A = to_rational(A);
  s.b.resize(kM), s.Q.resize(kN), s.C.resize(kN);
  for (Index i = 0; i < kM; ++i) s.b(i) = rational(rng.integer(-5, 5));
  for (Index i = 0; i < kN; ++i) s.Q(i) = rational(rng.integer(-5, 5)), s.C(i) = rational(rng.integer(-5, 5));
  s.W = Matrix<rational>::Identity(kM, kM);
  return s;
}

std::vector<long> bit_grid(Size size) {
  std::vector<long> bits;
  for (long p = 24; p <= 320; p += size == Size::Quick ? 8 : 4) bits.push_back(p);
  return bits;
}

class PrecisionStudy : public Study {
 public:
  std::string name() const override { return "precision"; }
  bool compares_solvers() const override { return true; }
  std::string summary() const override {
    return "Bits of MPFR precision needed for a target accuracy of q̈ as κ(A) grows to 1e40, for exact data "
           "rounded to the working precision, against log₂(κ/target).";
  }
  std::vector<std::string> columns() const override {
    return {"log10_kappa_target", "seed", "kappa_B", "kappa_M", "bits", "u", "method", "status", "err_qdd", "c_qdd"};
  }
  std::vector<std::string> precisions(const StudyConfig& config) const override {
    std::vector<std::string> names;
    for (long p : bit_grid(config.size)) names.push_back(mpfr_precision_name(p));
    return names;
  }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    const bool quick = config.size == Size::Quick;
    std::vector<Cell> out;
    for (int s = 0; s < (quick ? 1 : 3); ++s)
      for (int k = 0; k <= 40; k += quick ? 4 : 2)
        out.push_back(Cell{"k" + std::to_string(k) + "_s" + std::to_string(s),
                           {{"k", std::to_string(k)}, {"seed", std::to_string(s)}}});
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig& config) const override {
    const int k = std::stoi(cell.params.at("k"));
    Random rng(config.seed, cell.key);
    const System<rational> exact = make_data(k, rng);
    const ExactReference ref = exact_reference(exact);
    std::vector<Row> rows;
    for (long p : bit_grid(config.size)) {
      MpfrPrecision guard(p);
      const System<mpfr_real> sys = system_as<mpfr_real>(exact);
      const double u = std::ldexp(1.0, static_cast<int>(-p));
      for (const RegisteredSolver* solver : study_solvers<mpfr_real>(config)) {
        Row row{num(k), cell.params.at("seed"), num(ref.kappa_B), num(ref.kappa_M), num(p), num(u), solver->name()};
        try {
          const Solution<mpfr_real> s = solver->solve(sys, Options<mpfr_real>{});
          const double err = relative_error(s.qdd, ref.solution.qdd);
          const double bound = forward_error_bound(ref, u, solver->capabilities().error_growth);
          row.insert(row.end(), {"ok", num(err), num(err / bound)});
        } catch (const MethodError& e) {
          row.insert(row.end(), {std::string("method-error: ") + e.what(), "nan", "nan"});
        }
        rows.push_back(row);
      }
    }
    return rows;
  }

  // Per method: the largest error constant c = err/(u(κ(B)^p + κ(M))) over
  // the κ × bits grid where the answer still carries information (err < 1);
  // floor 1, as in conditioning.
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    for (const Row& row : t.rows) {
      const bool counted = t.text(row, "status") == "ok" && t.number(row, "err_qdd") < 1;
      m.raise(t.text(row, "method") + "/c_qdd", counted ? t.number(row, "c_qdd") : NAN, 1);
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_precision_study() { return std::make_unique<PrecisionStudy>(); }

}  // namespace femc::studies
