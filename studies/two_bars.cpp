// Study `two-bars`: where in (θ₁, μ) the Gauss QP and the LCP of 003
// Example 4.2 (Y4, systems/two_bars.hpp) give different contact forces.
//
// The two bars stand as an A-frame with both feet on the ground: y = ½l sinθ₁
// and θ₂ = π/2 − θ₁ (then g_N = 0 at A and at C, and the frame is
// isosceles). Both feet slide with unit speed, in one of three patterns:
//   translating  ẋ = 1, no rotation: both feet slide to the right;
//   spreading    the feet slide apart (A left, C right), the apex sinks:
//                θ̇₁ = −w, θ̇₂ = w, ẋ = −½l sinθ₁ w, ẏ = −½l cosθ₁ w with
//                w = 1/(l sinθ₁), so that ẋ_A = −1, ẋ_C = 1 and ġ_N = 0;
//   closing      the same with every velocity reversed.
// At each point the contact problem g̈_N = Aλ + B (003 (22)) is built from
// the model (contact/unilateral_problem.hpp), and
//   - the LCP (003 (33)) is solved by enumeration (all its solutions);
//   - the Gauss QP min ½λᵀAλ, Aλ + B ≥ 0 (003 (36)) is classified.
// Y2 (QP = LCP) holds when A is symmetric, so at μ = 0 the two must agree
// everywhere (metric frictionless_disagreements, floor 0). With friction A is
// not symmetric and, on a region this study maps, the QP holds a foot down
// with a pulling force where the LCP lifts it (../shared/CLAIMS.md, the note
// on Y4). Double and 128 bits are both run; their classes must coincide
// away from the region's boundary (metric precision_mismatches).
#include <cmath>
#include <map>

#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hpp"
#include "femc/systems/two_bars.hpp"
#include "framework/numerics.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"

namespace femc::studies {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The outcome at one point. Classes, in the order they are decided:
//   lcp-none | lcp-multiple | lcp-degenerate   the LCP has not one solution;
//   qp-unbounded | qp-non-unique | qp-singular the QP has not one minimizer;
//   qp-pulls    both unique, the QP's λ has a component below −τ: it holds a
//               foot down that the LCP lets go;
//   differ      both unique and λ ≥ −τ, but ‖λ_QP − λ_LCP‖∞ > τ;
//   agree       ‖λ_QP − λ_LCP‖∞ ≤ τ.
// τ = c·u·κ∞(A)·(‖λ_LCP‖∞ + ‖B‖∞/‖A‖∞), c = 4(k + 1) = 12 as in lcp.hpp: the
// first-order error of a k×k solve of the data's size, for both solutions.
struct Point {
  double A11, A12, A21, A22, B1, B2;
  std::string lcp_status, qp_status, outcome;
  double lcp_lambda_A, lcp_lambda_C, qp_lambda_A, qp_lambda_C, difference, tolerance;
};

template <class S>
Point classify(const std::string& motion, double theta_deg, double mu) {
  using std::cos;
  using std::sin;
  const S pi = S(4) * atan(S(1));
  const S th1 = S(theta_deg) * pi / S(180), th2 = pi / S(2) - th1;
  const systems::TwoBars<S> tb{S(2), S(2), S(98) / S(10), S(mu)};
  const S h = tb.l / S(2), s1 = sin(th1), c1 = cos(th1);
  Vector<S> q(4), qd(4);
  q << S(0), h * s1, th1, th2;
  if (motion == "translating") {
    qd << S(1), S(0), S(0), S(0);
  } else {
    const S w = (motion == "spreading" ? S(1) : S(-1)) / (tb.l * s1);
    qd << -h * s1 * w, -h * c1 * w, -w, w;
  }
  const contact::ContactData<S> c = tb.contact_data(q, qd);
  const contact::UnilateralProblem<S> p = contact::make_unilateral_problem(tb.mass(q), tb.applied(q, qd), c);
  Point out{};
  out.A11 = double(p.A(0, 0)), out.A12 = double(p.A(0, 1)), out.A21 = double(p.A(1, 0)), out.A22 = double(p.A(1, 1));
  out.B1 = double(p.B(0)), out.B2 = double(p.B(1));
  out.lcp_lambda_A = out.lcp_lambda_C = out.qp_lambda_A = out.qp_lambda_C = out.difference = out.tolerance = NAN;
  const contact::LcpSolutions<S> lcp = contact::enumerate_lcp(p.A, p.B);
  const contact::QpResult<S> qp = contact::solve_gauss_qp(p.A, p.B);
  out.lcp_status = contact::to_string(lcp.status);
  out.qp_status = contact::to_string(qp.status);
  if (lcp.status != contact::LcpStatus::Unique) {
    out.outcome = "lcp-" + out.lcp_status;
    return out;
  }
  const Vector<S>& l = lcp.solutions.front();
  out.lcp_lambda_A = double(l(0)), out.lcp_lambda_C = double(l(1));
  if (qp.status != contact::QpStatus::Unique) {
    out.outcome = "qp-" + out.qp_status;
    return out;
  }
  out.qp_lambda_A = double(qp.lambda(0)), out.qp_lambda_C = double(qp.lambda(1));
  const S normA = p.A.cwiseAbs().rowwise().sum().maxCoeff();
  const S kappa = normA * Matrix<S>(p.A.inverse()).cwiseAbs().rowwise().sum().maxCoeff();
  const S tau = S(12) * unit_roundoff<S>() * kappa * (l.cwiseAbs().maxCoeff() + p.B.cwiseAbs().maxCoeff() / normA);
  const S diff = (qp.lambda - l).cwiseAbs().maxCoeff();
  out.difference = double(diff), out.tolerance = double(tau);
  out.outcome = qp.lambda.minCoeff() < -tau ? "qp-pulls" : diff > tau ? "differ" : "agree";
  return out;
}

class TwoBarsMap : public Study {
 public:
  std::string name() const override { return "two-bars"; }
  std::string summary() const override {
    return "The (θ₁, μ) map of the two bars (Y4) standing on both feet and sliding: where the Gauss QP and the "
           "LCP give the same contact forces, where the QP pulls a foot down that the LCP lifts, in double and "
           "at 128 bits; at μ = 0 they must agree.";
  }
  std::vector<std::string> columns() const override {
    return {"motion",       "theta1_deg",   "mu",          "precision",   "A11",         "A12",
            "A21",          "A22",          "B1",          "B2",          "lcp_status",  "qp_status",
            "outcome",      "lcp_lambda_A", "lcp_lambda_C", "qp_lambda_A", "qp_lambda_C", "difference",
            "tolerance"};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override { return {"double", "mpfr-128"}; }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    const int step = config.size == Size::Quick ? 2 : 1;
    std::vector<Cell> out;
    for (const char* m : {"translating", "spreading", "closing"})
      for (int deg = 1; deg <= 89; deg += step)
        out.push_back(Cell{std::string(m) + "_" + std::to_string(deg), {{"motion", m}, {"deg", std::to_string(deg)}}});
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig& config) const override {
    const std::string& motion = cell.params.at("motion");
    const int deg = std::stoi(cell.params.at("deg"));
    const int n_mu = config.size == Size::Quick ? 80 : 400;
    std::vector<Row> rows;
    for (int i = 0; i <= n_mu; ++i) {
      const double mu = 2.0 * i / n_mu;
      for (const std::string precision : {"double", "mpfr-128"}) {
        Point p;
        if (precision == "double") {
          p = classify<double>(motion, deg, mu);
        } else {
          MpfrPrecision guard(128);
          p = classify<mpfr_real>(motion, deg, mu);
        }
        rows.push_back({motion, num(long(deg)), num(mu), precision, num(p.A11), num(p.A12), num(p.A21), num(p.A22),
                        num(p.B1), num(p.B2), p.lcp_status, p.qp_status, p.outcome, num(p.lcp_lambda_A),
                        num(p.lcp_lambda_C), num(p.qp_lambda_A), num(p.qp_lambda_C), num(p.difference),
                        num(p.tolerance)});
      }
    }
    return rows;
  }

  // Per motion × precision: disagreements (any outcome but agree; a count
  // that tracks the models, guarded against change by the gate) and those at
  // μ = 0 (Y2 requires none). Per motion: points whose outcome differs
  // between double and 128 bits.
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    std::map<std::string, std::map<std::string, std::string>> by_point;  // motion/deg/mu → precision → outcome
    for (const Row& row : t.rows) {
      const std::string motion = t.text(row, "motion"), precision = t.text(row, "precision");
      const bool disagree = t.text(row, "outcome") != "agree";
      m.count(motion + "/" + precision + "/disagreements", disagree);
      m.count(motion + "/" + precision + "/frictionless_disagreements", disagree && t.number(row, "mu") == 0);
      by_point[motion + "/" + t.text(row, "theta1_deg") + "/" + t.text(row, "mu")][precision] = t.text(row, "outcome");
    }
    for (const auto& [point, outcomes] : by_point) {
      const std::string motion = point.substr(0, point.find('/'));
      m.count(motion + "/precision_mismatches",
              outcomes.size() == 2 && outcomes.begin()->second != std::next(outcomes.begin())->second);
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_two_bars_study() { return std::make_unique<TwoBarsMap>(); }

}  // namespace femc::studies
