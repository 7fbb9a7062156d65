// Study `perturbed-constraints`: 001's robustness claim (Section 1: the
// constraints A q̈ = b + ε are "at best an approximate description"; the
// General Gauss Principle makes the motion forgiving of such errors). Every
// solve here is exact (method exact, rationals), so what is measured is the
// sensitivity of the mathematics, not rounding.
//
// Experiments (n = 6, m = 3), ε from 1e-16 to 1e-1:
//   b                  full row rank, b → b + ε‖b‖e
//   b-inconsistent     rank 2 (row 3 = 2·row 2), inconsistent b, b perturbed
//   A-same-rank        full row rank, A → A + ε‖A‖E (rank unchanged)
//   A-rank-change      rank 2, consistent b; A + ε‖A‖E has rank 3: the new
//                      constraint direction is not small, so Δq̈ = O(1) as ε → 0
//   A-rank-change-inconsistent   the same with inconsistent b: Δq̈ ~ 1/ε
//   W-full-rank        W = I + εS: q̈ does not depend on W (G9), Δq̈ = 0
//   W-deficient-consistent       rank 2, consistent: Δq̈ = 0 (CLAIMS, after G12)
//   W-deficient-inconsistent     rank 2, inconsistent: Δq̈ ∝ ε
//
// Then every registered floating solver, at every working precision, solves
// the same two systems rounded to that precision: does it follow the
// mathematics? Its change Δq̈ differs from the exact one by at most the
// forward errors of its two solves, so
//   c_change = ‖Δq̈_solver − Δq̈_exact‖ / (β₀‖q̈₀‖ + β₁‖q̈₁‖),
// β the solver's first-order bound (reference.hpp, forward_error_bound), is
// a modest constant for a solver that is right. This is where W ≠ I and
// rank-deficient, inconsistent constraints meet every solver (the
// conditioning study has W = I): a solver that uses W where 001 says q̈
// does not depend on it, or drops the least-squares part, moves by O(ε)
// or O(1) where the exact motion does not.
//
// First-order bounds (from q̈ = L⁻ᵀ(a + x + w), a = L⁻¹Q, c = L⁻¹C,
// x = B⁺(b − B a), w = (I − B⁺B)c, B = A L⁻ᵀ, Wedin's expansion of B⁺):
//   Δb:  ‖Δq̈‖ ≤ ‖L⁻¹‖ ‖B⁺‖ ‖Δb‖
//   ΔA (rank kept, consistent): ‖Δq̈‖ ≤ ‖L⁻¹‖ ‖B⁺‖ ‖ΔB‖ (‖a‖ + 2‖x‖ + 2‖c‖),
//   ‖ΔB‖ ≤ ‖ΔA‖ ‖L⁻¹‖. No bound exists when the rank changes.
#include <Eigen/Cholesky>
#include <Eigen/SVD>
#include <cmath>
#include <map>

#include "femc/solve.hpp"
#include "framework/measure.hpp"
#include "framework/reference.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"
#include "framework/verdict.hpp"

namespace femc::studies {
namespace {

constexpr Index kN = 6, kM = 3;

const char* const kExperiments[] = {"b",
                                    "b-inconsistent",
                                    "A-same-rank",
                                    "A-rank-change",
                                    "A-rank-change-inconsistent",
                                    "W-full-rank",
                                    "W-deficient-consistent",
                                    "W-deficient-inconsistent"};

struct Base {
  System<double> sys;
  bool deficient = false;
};

Base base_system(const std::string& experiment, Random& rng) {
  Base base;
  base.deficient = experiment != "b" && experiment != "A-same-rank" && experiment != "W-full-rank";
  const bool inconsistent = experiment.find("inconsistent") != std::string::npos;
  System<double>& s = base.sys;
  s.M = spd_with_condition(kN, 10, rng);
  s.A = matrix_with_condition(kM, kN, kM, 10, rng);
  s.b.resize(kM), s.Q.resize(kN), s.C.resize(kN);
  for (Index i = 0; i < kM; ++i) s.b(i) = rng.normal();
  for (Index i = 0; i < kN; ++i) s.Q(i) = rng.normal(), s.C(i) = rng.normal();
  if (base.deficient) {
    s.A.row(2) = 2.0 * s.A.row(1);  // exact: rank 2
    s.b(2) = 2.0 * s.b(1) + (inconsistent ? 1.0 : 0.0);
  }
  s.W = Eigen::MatrixXd::Identity(kM, kM);
  return base;
}

// The first-order bound of the header, at 256 bits from the exact data
// (NaN where no bound exists).
double first_order_bound(const std::string& experiment, const System<rational>& sys, const Solution<rational>& sol,
                         double norm_db, double norm_dA) {
  if (experiment != "b" && experiment != "b-inconsistent" && experiment != "A-same-rank") return NAN;
  MpfrPrecision guard(256);
  using R = mpfr_real;
  const Matrix<R> M = from_rational<R>(sys.M), A = from_rational<R>(sys.A);
  Eigen::LLT<Matrix<R>> chol(M);
  const Matrix<R> B = chol.matrixL().solve(A.transpose()).transpose();
  Eigen::JacobiSVD<Matrix<R>> svdB(B), svdM(M);
  const Index r = sol.diagnostics.rank.rank;
  const double pinv_B = static_cast<double>(1 / svdB.singularValues()(r - 1));
  const double inv_L = static_cast<double>(1 / sqrt(svdM.singularValues()(kN - 1)));
  if (experiment != "A-same-rank") return inv_L * pinv_B * norm_db;
  const Vector<R> a = chol.matrixL().solve(from_rational<R>(sys.Q)), c = chol.matrixL().solve(from_rational<R>(sys.C));
  const Vector<R> qdd = from_rational<R>(sol.qdd);
  const Vector<R> lt_qdd = Matrix<R>(chol.matrixU()) * qdd;  // a + x + w
  // x = B⁺(b − B a) lies in Range(Bᵀ); w in Null(B): x = Bᵀ(BBᵀ)⁻¹B(lt_qdd − a) for full row rank.
  const Vector<R> y = (B * B.transpose()).llt().solve(Vector<R>(B * (lt_qdd - a)));
  const Vector<R> x = B.transpose() * y;
  const double norm_dB = norm_dA * inv_L;
  return inv_L * pinv_B * norm_dB *
         static_cast<double>(a.norm() + R(2) * x.norm() + R(2) * c.norm());
}

class PerturbedConstraints : public Study {
 public:
  std::string name() const override { return "perturbed-constraints"; }
  bool compares_solvers() const override { return true; }
  std::string summary() const override {
    return "001's robustness claim, in exact arithmetic: the change of q̈ when b, A (with and without a change "
           "of rank) or W are perturbed by ε, against the first-order bound; and every solver's change against "
           "the exact one, within the forward errors of its two solves.";
  }
  std::vector<std::string> columns() const override {
    return {"experiment", "log10_eps", "eps", "seed", "method", "precision", "status", "rank_before", "rank_after",
            "qdd_norm", "rel_change_qdd", "abs_change_qdd", "bound", "ratio_to_bound", "change_error_bound",
            "c_change", "sigma_min_rel"};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override {
    std::vector<std::string> p = {"exact"};
    for (const std::string& w : working_precisions()) p.push_back(w);
    return p;
  }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    const bool quick = config.size == Size::Quick;
    std::vector<Cell> out;
    for (const char* e : kExperiments)
      for (int s = 0; s < (quick ? 1 : 5); ++s)
        for (int k = -32; k <= -2; k += quick ? 2 : 1) {  // log10 ε = k/2
          Cell c;
          c.key = std::string(e) + "_e" + std::to_string(-k) + "_s" + std::to_string(s);
          c.params = {{"experiment", e}, {"half_log10_eps", std::to_string(k)}, {"seed", std::to_string(s)}};
          out.push_back(c);
        }
    return out;
  }

  // A cell's two systems, before and after the perturbation, as every
  // solver receives them (doubles, exact at every precision).
  struct Pair {
    System<double> before, after;
  };
  static Pair pair_of(const Cell& cell, const StudyConfig& config) {
    const std::string experiment = cell.params.at("experiment");
    const double eps = std::pow(10.0, std::stoi(cell.params.at("half_log10_eps")) / 2.0);
    // The base system depends on the experiment and seed only, not on ε.
    Random rng(config.seed, experiment + "_s" + cell.params.at("seed"));
    const Base base = base_system(experiment, rng);
    System<double> pert = base.sys;
    if (experiment[0] == 'b') {
      Eigen::VectorXd e(kM);
      for (Index i = 0; i < kM; ++i) e(i) = rng.normal();
      const Eigen::VectorXd db = (eps * base.sys.b.norm() / e.norm()) * e;
      pert.b += db;
    } else if (experiment[0] == 'A') {
      Eigen::MatrixXd E(kM, kN);
      for (Index j = 0; j < kN; ++j)
        for (Index i = 0; i < kM; ++i) E(i, j) = rng.normal();
      pert.A += (eps * base.sys.A.norm() / E.norm()) * E;
    } else {
      Eigen::MatrixXd S(kM, kM);
      for (Index j = 0; j < kM; ++j)
        for (Index i = 0; i < kM; ++i) S(i, j) = rng.normal();
      S = (S + S.transpose()).eval();
      S /= S.norm();  // ‖S‖_F = 1 < 1/ε: W stays positive definite
      pert.W += eps * S;
      pert.W.triangularView<Eigen::StrictlyUpper>() = pert.W.transpose().eval().triangularView<Eigen::StrictlyUpper>();
    }
    return {base.sys, pert};
  }

  std::vector<System<rational>> cell_systems(const Cell& cell, const StudyConfig& config,
                                             const std::string&) const override {
    const Pair p = pair_of(cell, config);
    return {exact_system(p.before), exact_system(p.after)};
  }

  std::string verdict_rule() const override {
    return "fails where the solver's change of q̈ between the two systems differs from the exact change by more than "
           "c = " + std::to_string(int(verify::kLawConstant)) + "·max(m, n, 4) times the sum of its two solves' "
           "first-order bounds (c_change, the 001 robustness claim held to the solver's law), or where it gives no "
           "answer on systems it declares it takes; judged where every nonzero singular value of B of both systems "
           "is 1000× clear of the solver's rank tolerance τ (σ/σ₁ > 1000·τ: sigma_min_rel); below, the solver may "
           "drop the direction, and the claim Rank_DeclaredPolicy judges that decision";
  }

  std::vector<CellFailure> failures(const Table& t, const std::string& solver) const override {
    std::vector<CellFailure> out;
    const double c_max = verify::law_constant(kM, kN);
    const Capabilities& caps = capabilities_of(solver);
    for (const Row& row : t.rows) {
      if (t.text(row, "method") != solver) continue;
      const std::string status = t.text(row, "status");
      if (status.rfind("not-applicable", 0) == 0) continue;
      const double tau = rank_tol_of(caps, NAN, kM, kN, unit_roundoff_of(t.text(row, "precision")));
      if (!(t.number(row, "sigma_min_rel") > kClearOfTolerance * tau)) continue;  // the Rank claim's ground
      const std::string cell = t.text(row, "experiment") + "_e" + num(long(std::lround(-2 * t.number(row, "log10_eps")))) +
                               "_s" + t.text(row, "seed");
      if (status != "ok") out.push_back({cell, t.text(row, "precision"), "no answer: " + status});
      else if (t.number(row, "c_change") > c_max)
        out.push_back({cell, t.text(row, "precision"), over("c_change", t.number(row, "c_change"), c_max)});
    }
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig& config) const override {
    const std::string experiment = cell.params.at("experiment");
    const double log10_eps = std::stoi(cell.params.at("half_log10_eps")) / 2.0;
    const double eps = std::pow(10.0, log10_eps);
    const Pair p = pair_of(cell, config);
    double norm_db = 0, norm_dA = 0;
    const System<rational> before = exact_system(p.before), after = exact_system(p.after);
    if (experiment[0] == 'A') norm_dA = frobenius(Matrix<rational>(after.A - before.A));
    if (experiment[0] == 'b') norm_db = norm2(Vector<rational>(after.b - before.b));
    // The exact solutions (method exact) and the condition numbers of both systems.
    const ExactReference ref0 = exact_reference(before), ref1 = exact_reference(after);
    const Solution<rational>& s0 = ref0.solution;
    const Solution<rational>& s1 = ref1.solution;
    const Vector<rational> d = s1.qdd - s0.qdd;
    const double abs_change = norm2(d), q0 = norm2(s0.qdd);
    const double bound = first_order_bound(experiment, before, s0, norm_db, norm_dA);
    const Row head{experiment, num(log10_eps), num(eps), cell.params.at("seed")};
    // The smallest nonzero σ/σ₁ of B over both systems: where it lies within
    // 1000× of a solver's rank tolerance, the solver may rightly drop it.
    auto least_sigma = [](const ExactReference& ref) {
      return ref.rank > 0 ? ref.sigma_B[std::size_t(ref.rank - 1)] / ref.sigma_B[0] : 1.0;
    };
    const std::string sigma_min_rel = num(std::min(least_sigma(ref0), least_sigma(ref1)));
    auto row = [&](std::vector<std::string> tail) {
      Row r = head;
      r.insert(r.end(), tail.begin(), tail.end());
      r.push_back(sigma_min_rel);
      return r;
    };
    const std::string rank0 = num(long(s0.diagnostics.rank.rank)), rank1 = num(long(s1.diagnostics.rank.rank));
    std::vector<Row> rows = {row({"exact", "exact", "ok", rank0, rank1, num(q0), num(abs_change / q0), num(abs_change),
                                  num(bound), num(std::isnan(bound) ? NAN : abs_change / bound), "nan", "nan"})};

    // Every floating solver on the same data at each working precision (the
    // data are doubles: exact at every one).
    const double exact_norms[2] = {q0, norm2(s1.qdd)};
    for (const std::string& precision : working_precisions()) {
      const double u = unit_roundoff_of(precision);
      with_precision(precision, [&](auto tag) {
        using S = typename decltype(tag)::type;
        const System<S> x0 = system_as<S>(before), x1 = system_as<S>(after);
        for (const RegisteredSolver* solver : study_solvers<S>(config)) {
          std::string status = not_accepted(solver->capabilities(), x0);
          if (status.empty()) status = not_accepted(solver->capabilities(), x1);
          if (!status.empty()) {
            rows.push_back(row({solver->name(), precision, "not-applicable: " + status, rank0, rank1, num(q0), "nan",
                                "nan", "nan", "nan", "nan", "nan"}));
            continue;
          }
          try {
            const Solution<S> t0 = solver->solve(x0, Options<S>{}), t1 = solver->solve(x1, Options<S>{});
            if (!all_finite(t0.qdd) || !all_finite(t1.qdd)) throw MethodError("not finite");
            const Vector<rational> change = to_rational(t1.qdd) - to_rational(t0.qdd);
            const int p = solver->capabilities().error_growth;
            const double err_bound =
                forward_error_bound(ref0, u, p) * exact_norms[0] + forward_error_bound(ref1, u, p) * exact_norms[1];
            const double deviation = norm2(Vector<rational>(change - d));
            rows.push_back(row({solver->name(), precision, "ok", rank0, rank1, num(q0), num(norm2(change) / q0),
                                num(norm2(change)), "nan", "nan", num(err_bound), num(deviation / err_bound)}));
          } catch (const MethodError& e) {
            const bool deficient = ref0.rank < before.m() || ref1.rank < after.m();
            rows.push_back(row({solver->name(), precision, refusal_status(solver->capabilities(), deficient, e), rank0,
                                rank1, num(q0), "nan", "nan", "nan", "nan", "nan", "nan"}));
          }
        }
      });
    }
    return rows;
  }

  // Where a bound exists: the largest ‖Δq̈‖/bound (floor 1: within the
  // first-order bound is never a regression). Where the theory says q̈ does
  // not move (W-full-rank, W-deficient-consistent): the largest change
  // (floor 0: exact arithmetic must give exactly 0).
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    for (const Row& row : t.rows) {
      const std::string e = t.text(row, "experiment");
      if (t.text(row, "method") != "exact") {
        // A solver: the largest c_change (floor 1, as in conditioning) and
        // its failures on systems it declares it takes (floor 0).
        const std::string key = e + "/" + t.text(row, "method") + "/" + t.text(row, "precision");
        const std::string status = t.text(row, "status");
        if (status.rfind("not-applicable", 0) == 0) continue;
        m.count(key + "/failures", status != "ok");
        m.raise(key + "/c_change", status == "ok" ? t.number(row, "c_change") : NAN, 1);
        continue;
      }
      if (e == "W-full-rank" || e == "W-deficient-consistent")
        m.raise(e + "/max_abs_change", t.number(row, "abs_change_qdd"), 0);
      else if (!std::isnan(t.number(row, "bound")))
        m.raise(e + "/max_ratio_to_bound", t.number(row, "ratio_to_bound"), 1);
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_perturbed_constraints_study() { return std::make_unique<PerturbedConstraints>(); }

}  // namespace femc::studies
