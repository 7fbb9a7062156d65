// Study `rank`: one constraint row approaches another, σ_min(A) → 0 across
// every precision's rank threshold. Rows 1, 2 are integer vectors a₁, a₂;
// row 3 is a₁ + σ e₁ with σ = 2⁻ᵏ, built in the working precision (so for
// large k it rounds to a₁ exactly, and the data are then exactly of rank 2).
// The third right-hand side is b₁ + 1: in the limit σ = 0 the constraints
// are inconsistent, and for σ > 0 the exact q̈ grows like 1/σ (it must meet
// a₁·q̈ = b₁ and a₁·q̈ + σ q̈₁ = b₁ + 1). At the threshold each method drops
// the row's direction and returns the least-squares answer of the limit:
// the pseudoinverse is discontinuous there, and the study shows where each
// precision puts the jump and what the diagnostics say.
//
// Case `rounded-linkage` (data_precision.hpp): a redundant mechanism whose
// redundancy does not survive rounding. The double parallelogram in mixed
// coordinates (systems/double_parallelogram.hpp, mixed_at) has 6 constraint
// rows of rank 5 exactly; its data rounded to double have rank 6, the sixth
// σ at the rounding level. Each precision and method solves the rounded data
// at face value (data_precision exact) and given their precision (double).
// err_vs_limit is the error against the mechanism's motion (the exact
// solution of the unrounded data), err_vs_exact against the exact solution
// of the rounded data at face value; sigma_rel_B is that sixth σ relative.
#include <cmath>
#include <map>

#include "femc/systems/double_parallelogram.hpp"
#include "framework/measure.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"
#include "framework/verdict.hpp"

namespace femc::studies {
namespace {

constexpr Index kN = 6, kM = 3;
// The solvers of the rank study at S: those that report the rank they decide.
template <class S>
std::vector<const RegisteredSolver*> rank_solvers(const StudyConfig& config) {
  std::vector<const RegisteredSolver*> out;
  for (const RegisteredSolver* r : study_solvers<S>(config))
    if (r->capabilities().returns(outputs::rank)) out.push_back(r);
  return out;
}

// The data at precision S for σ = 2⁻ᵏ (k < 0: the limit σ = 0).
template <class S>
System<S> make_data(int k) {
  Matrix<S> M = Matrix<S>::Zero(kN, kN);
  for (Index i = 0; i < kN; ++i) M(i, i) = S(static_cast<double>(i + 1));
  M(0, 1) = M(1, 0) = S(0.5);
  Matrix<S> A(kM, kN);
  const double a1[kN] = {1, 2, -1, 0, 3, 1}, a2[kN] = {0, 1, 2, -2, 1, 0};
  for (Index j = 0; j < kN; ++j) {
    A(0, j) = S(a1[j]);
    A(1, j) = S(a2[j]);
    A(2, j) = S(a1[j]);
  }
  if (k >= 0) {
    S sigma(1);
    for (int i = 0; i < k; ++i) sigma /= S(2);
    A(2, 0) = A(2, 0) + sigma;  // rounded in S: exactly a₁ once σ < half an ulp of 1
  }
  Vector<S> b(kM), Q(kN), C(kN);
  b << S(1), S(-2), S(2);
  for (Index i = 0; i < kN; ++i) Q(i) = S(static_cast<double>(i % 3) - 1), C(i) = S(0.25 * static_cast<double>(i));
  return System<S>{M, A, b, Q, C, Matrix<S>::Identity(kM, kM)};
}

// Crank angles of the rounded linkage: Pythagorean triples (cos θ, sin θ) = (a/c, b/c).
constexpr int kTriples[][3] = {{3, 4, 5}, {5, 12, 13}, {8, 15, 17}, {7, 24, 25}, {20, 21, 29}};
constexpr Index kLinkageRows = 6, kLinkageRank = 5;

System<rational> rounded_linkage_motion(int triple) {
  const systems::DoubleParallelogram<rational> linkage{rational(1, 3), rational(1, 2), rational(2), rational(3),
                                                       rational(981, 100)};
  const int* t = kTriples[triple];
  return linkage.mixed_at(rational(t[0], t[2]), rational(t[1], t[2]), rational(2));
}

// The same data, each entry rounded to double.
System<rational> rounded_to_double(const System<rational>& s) { return exact_system(system_as<double>(s)); }

class RankStudy : public Study {
 public:
  std::string name() const override { return "rank"; }
  bool compares_solvers() const override { return true; }
  std::string summary() const override {
    return "σ_min(A) → 0 across each precision's rank threshold: the rank each method decides, its "
           "diagnostics, and the jump of q̈ where the pseudoinverse is discontinuous; and a redundant linkage "
           "rounded to double, solved at face value and given the data's precision.";
  }
  std::vector<std::string> columns() const override {
    return {"case", "k", "sigma", "precision", "u", "exact_rank", "sigma_rel_B", "data_precision", "method",
            "status", "rank_decided", "rank_tol", "rank_tol_data", "largest_dropped_rel", "smallest_kept_rel",
            "expected_rank", "qdd_norm", "exact_qdd_norm", "limit_qdd_norm", "err_vs_exact", "err_vs_limit",
            "warnings"};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override { return working_precisions(); }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    std::vector<Cell> out;
    const int step = config.size == Size::Quick ? 4 : 1;
    for (int k = 0; k <= 240; k += step) out.push_back(Cell{"k" + std::to_string(k), {{"k", std::to_string(k)}}});
    for (int t = 0; t < int(std::size(kTriples)); ++t)
      out.push_back(Cell{"rounded" + std::to_string(t), {{"rounded", std::to_string(t)}}});
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig& config) const override {
    if (cell.params.count("rounded")) return run_rounded(std::stoi(cell.params.at("rounded")), config);
    const int k = std::stoi(cell.params.at("k"));
    std::vector<Row> rows;
    for (const std::string& precision : working_precisions()) {
      with_precision(precision, [&](auto tag) {
        using S = typename decltype(tag)::type;
        const System<rational> exact = exact_system(make_data<S>(k));
        const System<rational> limit = exact_system(make_data<S>(-1));
        const ExactReference ref = exact_reference(exact);
        const ExactReference ref_limit = exact_reference(limit);
        const double sigma_rel = ref.rank == kM ? 1 / ref.kappa_B : 0;
        const double u = static_cast<double>(unit_roundoff<S>());
        const System<S> sys = system_as<S>(exact);
        for (const RegisteredSolver* solver : rank_solvers<S>(config)) {
          if (!not_accepted(solver->capabilities(), sys).empty()) continue;  // a system it does not take
          Row row{"sigma-sweep", num(k), num(std::ldexp(1.0, -k)), precision, num(u), num(long(ref.rank)),
                  num(sigma_rel), "exact", solver->name()};
          try {
            const Solution<S> s = solver->solve(sys, Options<S>{});
            const auto& rd = s.diagnostics.rank;
            const double d1 = static_cast<double>(rd.largest);
            const double tol = static_cast<double>(rd.tol);
            // Expected: the exact rank where σ is 1000× clear of the
            // threshold on either side (κ(M) ≤ 7 separates σ(A) from σ(B));
            // "either" inside that band, where both answers are right.
            std::string expected = "either";
            if (ref.rank < kM || sigma_rel < tol / 1000) expected = num(long(kM - 1));
            else if (sigma_rel > 1000 * tol) expected = num(long(kM));
            std::string warnings;
            for (const auto& w : s.diagnostics.warnings) warnings += (warnings.empty() ? "" : "; ") + w;
            row.insert(row.end(),
                       {"ok", num(long(rd.rank)), num(tol), "0", num(d1 == 0 ? 0 : static_cast<double>(rd.largest_dropped) / d1),
                        num(d1 == 0 ? 0 : static_cast<double>(rd.smallest_kept) / d1), expected,
                        num(static_cast<double>(s.qdd.norm())), num(norm2(ref.solution.qdd)),
                        num(norm2(ref_limit.solution.qdd)), num(relative_error(s.qdd, ref.solution.qdd)),
                        num(relative_error(s.qdd, ref_limit.solution.qdd)), warnings});
          } catch (const MethodError& e) {
            row.insert(row.end(), {std::string("method-error: ") + e.what(), "-1", "nan", "nan", "nan", "nan", "either",
                                   "nan", num(norm2(ref.solution.qdd)), num(norm2(ref_limit.solution.qdd)), "nan",
                                   "nan", ""});
          }
          rows.push_back(row);
        }
      });
    }
    return rows;
  }

  // The rounded linkage at every precision × method × data precision. The
  // expected rank: 5 given the data's precision (double), at every working
  // precision; at face value the data have rank 6, which a precision keeps
  // when the sixth σ is 1000× clear of its tolerance ("either" inside that
  // band, as in the sweep).
  std::vector<Row> run_rounded(int triple, const StudyConfig& config) const {
    const System<rational> motion = rounded_linkage_motion(triple);
    const System<rational> rounded = rounded_to_double(motion);
    const ExactReference ref = exact_reference(rounded), ref_motion = exact_reference(motion);
    const double sigma_rel = ref.rank == kLinkageRows ? 1 / ref.kappa_B : 0;
    std::vector<Row> rows;
    for (const std::string& precision : working_precisions()) {
      with_precision(precision, [&](auto tag) {
        using S = typename decltype(tag)::type;
        const double u = static_cast<double>(unit_roundoff<S>());
        const System<S> sys = system_as<S>(rounded);
        for (const DataPrecision data : {kExactData, kDoubleData}) {
          for (const RegisteredSolver* solver : rank_solvers<S>(config)) {
            if (!not_accepted(solver->capabilities(), sys).empty()) continue;  // a system it does not take
            Row row{"rounded-linkage", num(long(triple)), num(sigma_rel), precision, num(u), num(long(ref.rank)),
                    num(sigma_rel), to_string(data), solver->name()};
            Options<S> opt;
            opt.data_precision = data;
            try {
              const Solution<S> s = solver->solve(sys, opt);
              const auto& rd = s.diagnostics.rank;
              const double d1 = static_cast<double>(rd.largest), tol = static_cast<double>(rd.tol);
              std::string expected = num(long(kLinkageRank));
              if (data.exact()) {
                expected = "either";
                if (sigma_rel > 1000 * tol) expected = num(long(kLinkageRows));
                else if (sigma_rel < tol / 1000) expected = num(long(kLinkageRank));
              }
              std::string warnings;
              for (const auto& w : s.diagnostics.warnings) warnings += (warnings.empty() ? "" : "; ") + w;
              row.insert(row.end(), {"ok", num(long(rd.rank)), num(tol), num(static_cast<double>(rd.data_tol)),
                                     num(d1 == 0 ? 0 : static_cast<double>(rd.largest_dropped) / d1),
                                     num(d1 == 0 ? 0 : static_cast<double>(rd.smallest_kept) / d1), expected,
                                     num(static_cast<double>(s.qdd.norm())), num(norm2(ref.solution.qdd)),
                                     num(norm2(ref_motion.solution.qdd)), num(relative_error(s.qdd, ref.solution.qdd)),
                                     num(relative_error(s.qdd, ref_motion.solution.qdd)), warnings});
            } catch (const MethodError& e) {
              row.insert(row.end(), {std::string("method-error: ") + e.what(), "-1", "nan", "nan", "nan", "nan",
                                     "either", "nan", num(norm2(ref.solution.qdd)),
                                     num(norm2(ref_motion.solution.qdd)), "nan", "nan", ""});
            }
            rows.push_back(row);
          }
        }
      });
    }
    return rows;
  }

  std::string verdict_rule() const override {
    return "fails where every σ of the data is 1000× clear of the solver's relative rank tolerance τ (the one it "
           "reports per answer, else declares, else femc's default max(m, n)·ε) and it decides another rank than "
           "the one τ gives (the exact rank where σ_min/σ₁ > 1000·τ, one less where σ_min/σ₁ < τ/1000), or where "
           "it gives no answer while A has full rank and σ_min/σ₁ > 1000·τ";
  }

  std::vector<CellFailure> failures(const Table& t, const std::string& solver) const override {
    std::vector<CellFailure> out;
    const Capabilities& caps = capabilities_of(solver);
    for (const Row& row : t.rows) {
      if (t.text(row, "method") != solver) continue;
      const bool linkage = t.text(row, "case") == "rounded-linkage";
      const std::string cell = (linkage ? "rounded" : "k") + t.text(row, "k"), precision = t.text(row, "precision");
      const Index m = linkage ? kLinkageRows : kM;
      const double u = t.number(row, "u"), sigma = t.number(row, "sigma_rel_B");
      const double tau = rank_tol_of(caps, t.number(row, "rank_tol"), m, kN, u);
      const long exact_rank = std::lround(t.number(row, "exact_rank"));
      std::string expected;
      if (linkage && t.text(row, "data_precision") != "exact") expected = t.text(row, "expected_rank");
      else if (exact_rank < m || sigma < tau / kClearOfTolerance) expected = num(long(m - 1));
      else if (sigma > kClearOfTolerance * tau) expected = num(long(m));
      const std::string status = t.text(row, "status");
      if (status.rfind("not-applicable", 0) == 0 || expected.empty() || expected == "either") continue;
      if (status != "ok") {
        if (expected == num(long(m)) && caps.rank_deficient)
          out.push_back({cell, precision, "no answer while σ_min/σ₁ = " + num(sigma) + " is 1000× clear of τ: " + status});
        continue;
      }
      if (t.text(row, "rank_decided") != expected)
        out.push_back({cell, precision, "decided rank " + t.text(row, "rank_decided") + ", not " + expected +
                                            " (σ_min/σ₁ = " + num(sigma) + ", τ = " + num(tau) + ")"});
    }
    return out;
  }

  std::vector<System<rational>> cell_systems(const Cell& cell, const StudyConfig&,
                                             const std::string& precision) const override {
    if (cell.params.count("rounded")) return {rounded_to_double(rounded_linkage_motion(std::stoi(cell.params.at("rounded"))))};
    std::vector<System<rational>> out;
    with_precision(precision, [&](auto tag) {
      using S = typename decltype(tag)::type;
      out.push_back(exact_system(make_data<S>(std::stoi(cell.params.at("k")))));
    });
    return out;
  }

  // Per method × precision: cells where the decided rank contradicts the
  // expected one (floor 0), and cells the method could not solve while A had
  // full rank (floor 0). The rounded linkage given its data's precision:
  // rank mismatches (floor 0) and the error constant of q̈ against the
  // motion, c = err_vs_limit / (u_d·κ(M)·κ_r(P)) with u_d = 2⁻⁵³ (the bound
  // of tests/test_rounded_data.cpp for these consistent constraints; floor
  // 1). A solver that refuses rank-deficient A (kkt) refuses these data
  // (rank 5 of 6 rows) by design: not counted.
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    std::map<int, double> conditioning;  // per triple: κ(M)·κ_r(P) of the motion
    for (const Row& row : t.rows) {
      if (t.text(row, "case") == "rounded-linkage") {
        const RegisteredSolver* solver = solvers().find(t.text(row, "method"));
        if (t.text(row, "data_precision") != "double" || (solver && !solver->capabilities().rank_deficient)) continue;
        const std::string key = "rounded/" + t.text(row, "method") + "/" + t.text(row, "precision");
        const bool wrong = t.text(row, "status") != "ok" || t.text(row, "rank_decided") != t.text(row, "expected_rank");
        m.count(key + "/rank_mismatches", wrong);
        m(key + "/c_motion", 1);
        if (wrong) continue;
        const int triple = std::stoi(t.text(row, "k"));
        if (!conditioning.count(triple)) {
          const ExactReference r = exact_reference(rounded_linkage_motion(triple));
          conditioning[triple] = r.kappa_M * r.kappa_B;
        }
        const double err = std::stod(t.text(row, "err_vs_limit"));
        m.raise(key + "/c_motion", err / (std::ldexp(1.0, -53) * conditioning[triple]), 1);
        continue;
      }
      const std::string key = t.text(row, "method") + "/" + t.text(row, "precision");
      const bool ok = t.text(row, "status") == "ok";
      const std::string& expected = t.text(row, "expected_rank");
      m.count(key + "/failures_full_rank", !ok && t.text(row, "exact_rank") == num(long(kM)));
      m.count(key + "/rank_mismatches", ok && expected != "either" && expected != t.text(row, "rank_decided"));
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_rank_study() { return std::make_unique<RankStudy>(); }

}  // namespace femc::studies
