// Study `conditioning`: forward error of every output against the exact
// solution of the same data, as κ(A) and κ(M) sweep, for every method and
// every working precision, with the theory line and LAPACK-style residuals.
//
// The theory line. A backward-stable solve returns the exact answer of data
// perturbed by O(u) relatively; first-order perturbation theory of the
// minimum-norm least-squares solution x = B⁺p (Wedin 1973; Higham, Accuracy
// and Stability of Numerical Algorithms, 2nd ed., Thm 20.1 and §21.1;
// Golub & Van Loan, 4th ed., §5.3.7 and §5.5) gives
//   ‖Δx‖/‖x‖ ≲ u·(κ(B) + κ(B)²·η),   η = ‖r‖/(‖B‖‖x‖),
// where η = 0 for consistent constraints (rank A = m, or b in Range A); the
// factor L of M = LLᵀ (B = A L⁻ᵀ, q̈ = L⁻ᵀ(…)) adds κ(M)·u. So
//   bound = u·(κ(B) + κ(M) + κ(B)²·η)   for q̈, Qᴺ, Qᵂ,
//   bound_λ = κ(A)·bound                 for λ = (Aᵀ)⁺Qᴺ (one more LS solve).
// A method that forms G = B Bᵀ (kkt; κ(G) = κ(B)²) is backward stable for
// G, not for B: its term is κ(B)², and each solver declares its power p
// (Capabilities::error_growth; forward_error_bound in reference.hpp).
// The study reports c = error/bound, the constant of the bound, which theory
// says is a modest function of n, m: the regression gate watches its maximum,
// each solver against its own law.
#include <cmath>

#include <map>

#include "framework/measure.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"
#include "framework/verdict.hpp"

namespace femc::studies {
namespace {

constexpr Index kN = 8, kM = 4, kDeficientRank = 2;

// 001 / 002 data at one sweep point, in double (so exact in every type).
System<double> make_data(bool consistent, double kappa_A, double kappa_M, Random& rng) {
  Eigen::MatrixXd A;
  if (consistent) {
    A = matrix_with_condition(kM, kN, kM, kappa_A, rng);  // full row rank
  } else {
    // Rank 2 exactly at every precision: rows 3, 4 are rows 1, 2 scaled by
    // powers of two (exact). A generic b is then inconsistent (G3: δ ≠ 0).
    const Eigen::MatrixXd A1 = matrix_with_condition(kDeficientRank, kN, kDeficientRank, kappa_A, rng);
    A.resize(kM, kN);
    A << A1, 2.0 * A1.row(1), 0.5 * A1.row(0);
  }
  System<double> s;
  s.M = spd_with_condition(kN, kappa_M, rng);
  s.A = A;
  s.b.resize(kM), s.Q.resize(kN), s.C.resize(kN);
  for (Index i = 0; i < kM; ++i) s.b(i) = rng.normal();
  for (Index i = 0; i < kN; ++i) s.Q(i) = rng.normal(), s.C(i) = rng.normal();
  s.W = Eigen::MatrixXd::Identity(kM, kM);
  return s;
}

class Conditioning : public Study {
 public:
  std::string name() const override { return "conditioning"; }
  bool compares_solvers() const override { return true; }
  std::string summary() const override {
    return "Forward error of q̈, Qᴺ, Qᵂ and λ against the exact solution as κ(A) and κ(M) sweep, "
           "for every method and precision, against the first-order bound u·(κ(B)^p + κ(M) + κ(B)²η), p the solver's declared error growth.";
  }
  std::vector<std::string> columns() const override {
    return {"case", "log10_kappa_A_target", "log10_kappa_M_target", "seed", "n", "m", "rank",
            "kappa_A", "kappa_M", "kappa_B", "eta", "precision", "u", "method", "status",
            "rank_decided", "err_qdd", "err_QN", "err_QW", "err_lambda", "bound", "bound_lambda",
            "c_qdd", "c_QN", "c_QW", "c_lambda", "c_law", "ratio_constraint", "ratio_lambda"};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override { return working_precisions(); }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    const bool quick = config.size == Size::Quick;
    std::vector<Cell> out;
    const int seeds = quick ? 1 : 3, step = quick ? 2 : 1;
    const std::vector<int> kms = quick ? std::vector<int>{0, 8} : std::vector<int>{0, 4, 8, 12};
    for (const char* c : {"consistent", "inconsistent"})
      for (int km : kms)
        for (int ka = 0; ka <= 16; ka += step)
          for (int s = 0; s < seeds; ++s) {
            Cell cell;
            cell.key = std::string(c) + "_kA" + std::to_string(ka) + "_kM" + std::to_string(km) + "_s" +
                       std::to_string(s);
            cell.params = {{"case", c}, {"ka", std::to_string(ka)}, {"km", std::to_string(km)},
                           {"seed", std::to_string(s)}};
            out.push_back(cell);
          }
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig& config) const override {
    const bool consistent = cell.params.at("case") == "consistent";
    const int ka = std::stoi(cell.params.at("ka")), km = std::stoi(cell.params.at("km"));
    Random rng(config.seed, cell.key);
    const System<double> data = make_data(consistent, std::pow(10.0, ka), std::pow(10.0, km), rng);
    const System<rational> exact = exact_system(data);
    const ExactReference ref = exact_reference(exact);
    std::vector<Row> rows;
    for (const std::string& precision : working_precisions()) {
      const double u = unit_roundoff_of(precision);
      with_precision(precision, [&](auto tag) {
        using S = typename decltype(tag)::type;
        for (const RegisteredSolver* solver : study_solvers<S>(config)) {
          const double bound = forward_error_bound(ref, u, solver->capabilities().error_growth);
          const double bound_lambda = ref.kappa_A * bound;
          const Measured r = measure<S>(exact, ref, *solver);
          rows.push_back({cell.params.at("case"), num(ka), num(km), cell.params.at("seed"), num(long(kN)),
                          num(long(kM)), num(long(ref.rank)), num(ref.kappa_A), num(ref.kappa_M), num(ref.kappa_B),
                          num(ref.eta), precision, num(u), solver->name(), r.status, num(r.rank), num(r.err_qdd),
                          num(r.err_QN), num(r.err_QW), num(r.err_lambda), num(bound), num(bound_lambda),
                          num(r.err_qdd / bound), num(r.err_QN / bound), num(r.err_QW / bound),
                          num(r.err_lambda / bound_lambda), num(r.c_law), num(r.ratio_constraint), num(r.ratio_lambda)});
        }
      });
    }
    return rows;
  }

  std::string verdict_rule() const override {
    return "fails where the data are clear of the solver's rank tolerance τ by 1000× (σ_min/σ₁ of B = 1/κ(B) > "
           "1000·τ) and its law leaves a digit (c·u·(κ(B)^p + κ(M) + κ(B)²η) < 0.1): an error constant above c = " +
           std::to_string(int(verify::kLawConstant)) +
           "·max(m, n, 4) (the claims' constant, femc/verify/error_law.hpp), either c_law (the largest error of q̈ "
           "in the metric of M, of Qᴺ and Qᵂ in that of M⁻¹, over the claims' forward law T without c) or "
           "c_lambda (λ's relative error over κ(A) times the relative law); a rank other than the exact one, a "
           "refusal or a result that is not finite. The plotted relative constants c_qdd, c_QN and c_QW are "
           "not judged: a relative 2-norm error sees the cancellation of M⁻¹(Q + C) against the constraint's "
           "share, which the law does not describe";
  }

  std::vector<CellFailure> failures(const Table& t, const std::string& solver) const override {
    std::vector<CellFailure> out;
    const Capabilities& caps = capabilities_of(solver);
    const double c_max = verify::law_constant(kM, kN);
    for (const Row& row : t.rows) {
      if (t.text(row, "method") != solver) continue;
      const std::string status = t.text(row, "status");
      if (status.rfind("not-applicable", 0) == 0) continue;
      const double u = t.number(row, "u"), kB = t.number(row, "kappa_B"), bound = t.number(row, "bound");
      const double tau = rank_tol_of(caps, NAN, kM, kN, u);
      const bool clear = 1 / kB > kClearOfTolerance * tau, digits = c_max * bound < 0.1;
      const std::string cell = t.text(row, "case") + "_kA" + t.text(row, "log10_kappa_A_target") + "_kM" +
                               t.text(row, "log10_kappa_M_target") + "_s" + t.text(row, "seed");
      const std::string precision = t.text(row, "precision");
      if (status != "ok") {
        if (clear && digits) out.push_back({cell, precision, "no answer where the law leaves digits: " + status});
        continue;
      }
      if (!clear) continue;
      const double decided = t.number(row, "rank_decided"), rank = t.number(row, "rank");
      if (decided >= 0 && decided != rank)
        out.push_back({cell, precision, "decided rank " + num(long(decided)) + ", the exact rank " + num(long(rank)) +
                                            " (σ_min/σ₁ = " + num(1 / kB) + " is 1000× clear of τ = " + num(tau) + ")"});
      if (!digits) continue;
      for (const char* q : {"c_law", "c_lambda"}) {
        const double c = t.number(row, q);
        if (c > c_max) out.push_back({cell, precision, over(q, c, c_max) + " at κ(B) = " + num(kB) + ", κ(M) = " +
                                                          t.text(row, "kappa_M")});
      }
    }
    return out;
  }

  std::vector<System<rational>> cell_systems(const Cell& cell, const StudyConfig& config,
                                             const std::string&) const override {
    Random rng(config.seed, cell.key);
    const int ka = std::stoi(cell.params.at("ka")), km = std::stoi(cell.params.at("km"));
    return {exact_system(make_data(cell.params.at("case") == "consistent", std::pow(10.0, ka), std::pow(10.0, km), rng))};
  }

  // Per case × method × precision: the largest constant c of each output
  // (floor 1: below the theory line is never a regression), the largest
  // residual ratio (floor 30, LAPACK's threshold) and the number of cells the
  // method could not solve (floor 0: any new failure is a regression).
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    for (const Row& row : t.rows) {
      const std::string key = t.text(row, "case") + "/" + t.text(row, "method") + "/" + t.text(row, "precision");
      if (t.text(row, "status").rfind("not-applicable", 0) == 0) continue;
      const bool ok = t.text(row, "status") == "ok";
      m.count(key + "/failures", !ok);
      if (!ok) continue;
      for (const char* q : {"c_qdd", "c_QN", "c_QW", "c_lambda"}) m.raise(key + "/" + q, t.number(row, q), 1);
      m.raise(key + "/ratio_constraint", t.number(row, "ratio_constraint"), 30);
      m.raise(key + "/ratio_lambda", t.number(row, "ratio_lambda"), 30);
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_conditioning_study() { return std::make_unique<Conditioning>(); }

}  // namespace femc::studies
