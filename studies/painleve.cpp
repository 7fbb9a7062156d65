// Study `painleve`: the (θ, μ) map of 003 Example 4.1 (Y3), the bar whose end
// A slides to the left on the ground. The contact problem is ÿ_A = A F_n + B
// with A = [1 + 3cosθ(cosθ − μ sinθ)]/m and B = lθ̇² sinθ − g; the LCP
// F_n ≥ 0, A F_n + B ≥ 0, F_n(A F_n + B) = 0 has
//   one solution when A > 0;
//   none when A < 0 and B < 0 (Painlevé's inconsistency: the bar presses
//   down, θ̇ = 0);
//   two (F_n = 0 and F_n = −B/A) when A < 0 and B > 0 (indeterminacy: the
//   bar spins fast, θ̇² = 2g/(l sinθ), B = g).
// A < 0 needs μ > 4/3 (min over θ at tan θ = ...). femc computes A and B from
// the model's W_N, W_t, M (contact/unilateral_problem.hpp), counts the LCP's
// solutions by enumeration, runs Lemke and classifies the Gauss QP (Y2),
// in double and at 128 bits; the closed form is the check.
#include <cmath>
#include <map>

#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hpp"
#include "femc/systems/sliding_bar.hpp"
#include "framework/numerics.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"

namespace femc::studies {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Point {
  double A, B;
  std::string lcp_status, qp_status, lemke_status;
  long lcp_solutions;
  double lambda;  // the unique LCP solution, NaN otherwise
};

template <class S>
Point classify(double theta, double mu, bool spinning) {
  using std::sin;
  const S th = S(theta);
  systems::SlidingBar<S> bar{S(1), S(1), S(9.81), S(mu)};
  Vector<S> q(3), qd(3);
  q << S(0), bar.l * sin(th), th;  // end A on the ground
  const S w = spinning ? S(sqrt(S(2) * bar.g / (bar.l * sin(th)))) : S(0);
  // ẋ_A = ẋ + l sinθ θ̇ = −1: A slides to the left.
  qd << S(-1) - bar.l * sin(th) * w, S(0), w;
  // Velocity of A normal to the ground is ẏ − l cosθ θ̇ = 0 needs ẏ = l cosθ θ̇.
  qd(1) = bar.l * cos(th) * w;
  const contact::ContactData<S> c = bar.contact_data(q, qd);
  const contact::UnilateralProblem<S> p = contact::make_unilateral_problem(bar.mass(q), bar.applied(q, qd), c);
  Point out;
  out.A = static_cast<double>(p.A(0, 0));
  out.B = static_cast<double>(p.B(0));
  const contact::LcpSolutions<S> lcp = contact::enumerate_lcp(p.A, p.B);
  out.lcp_status = contact::to_string(lcp.status);
  out.lcp_solutions = static_cast<long>(lcp.solutions.size());
  out.lambda = lcp.status == contact::LcpStatus::Unique ? static_cast<double>(lcp.solutions[0](0)) : NAN;
  out.qp_status = contact::to_string(contact::solve_gauss_qp(p.A, p.B).status);
  out.lemke_status = contact::to_string(contact::lemke(p.A, p.B).status);
  return out;
}

class Painleve : public Study {
 public:
  std::string name() const override { return "painleve"; }
  std::string summary() const override {
    return "The (θ, μ) map of the sliding bar (Y3): sign of A, number of LCP solutions, Lemke's outcome and "
           "the Gauss QP's status, pressing (B < 0) and spinning (B > 0), in double and at 128 bits.";
  }
  std::vector<std::string> columns() const override {
    return {"case", "theta_deg", "mu", "precision", "A", "A_closed_form", "B", "lcp_status", "lcp_solutions",
            "expected_solutions", "lemke_status", "qp_status", "lambda"};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override { return {"double", "mpfr-128"}; }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    const int step = config.size == Size::Quick ? 2 : 1;
    std::vector<Cell> out;
    for (const char* c : {"pressing", "spinning"})
      for (int deg = 1; deg <= 89; deg += step)
        out.push_back(Cell{std::string(c) + "_" + std::to_string(deg), {{"case", c}, {"deg", std::to_string(deg)}}});
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig& config) const override {
    const bool spinning = cell.params.at("case") == "spinning";
    const int deg = std::stoi(cell.params.at("deg"));
    const double theta = deg * kPi / 180;
    const int n_mu = config.size == Size::Quick ? 80 : 400;
    std::vector<Row> rows;
    for (int i = 0; i <= n_mu; ++i) {
      const double mu = 2.0 * i / n_mu;
      // Closed form 003 (30)–(31), m = 1, and the count it predicts (its
      // sign decided where |A| is clear of rounding: 1e-12).
      const double A_cf = 1 + 3 * std::cos(theta) * (std::cos(theta) - mu * std::sin(theta));
      const double B_cf = spinning ? 9.81 : -9.81;
      std::string expected = std::fabs(A_cf) < 1e-12 ? "either" : A_cf > 0 ? "1" : B_cf < 0 ? "0" : "2";
      for (const std::string precision : {"double", "mpfr-128"}) {
        Point p;
        if (precision == "double") {
          p = classify<double>(theta, mu, spinning);
        } else {
          MpfrPrecision guard(128);
          p = classify<mpfr_real>(theta, mu, spinning);
        }
        rows.push_back({cell.params.at("case"), num(long(deg)), num(mu), precision, num(p.A), num(A_cf), num(p.B),
                        p.lcp_status, num(p.lcp_solutions), expected, p.lemke_status, p.qp_status, num(p.lambda)});
      }
    }
    return rows;
  }

  // Per case × precision: points where the number of LCP solutions
  // contradicts the closed form (floor 0).
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    for (const Row& row : t.rows) {
      const std::string& e = t.text(row, "expected_solutions");
      m.count(t.text(row, "case") + "/" + t.text(row, "precision") + "/count_mismatches",
              e != "either" && e != t.text(row, "lcp_solutions"));
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_painleve_study() { return std::make_unique<Painleve>(); }

}  // namespace femc::studies
