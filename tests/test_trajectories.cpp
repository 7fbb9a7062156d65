// Trajectories (dynamics/simulate.hpp) of the built-in systems: the energy and
// work balance E(t) − E(0) − ∫q̇ᵀQᵂ dt (− impact losses) = 0 holds to the
// integrator's tolerance — it shrinks in proportion when the tolerance does,
// and goes far below double's floor in multiprecision; the ideal forces do no
// work; Baumgarte stabilization reduces the drift; the redundant linkage
// keeps rank 5 throughout; Y4 runs the same with the QP and the LCP on
// 003's data (not at larger μ: test_contact_systems.cpp), and a
// Painlevé state stops the run with the status instead of a number.
#include <gtest/gtest.h>

#include <cmath>

#include "femc/dynamics/builtin_models.hpp"
#include "femc/systems/sliding_bar.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "support/convert.hpp"

namespace femc {
namespace {

using namespace dynamics;

template <class S>
double max_abs_balance(const Trajectory<S>& t) {
  return test::as_double(t.max_abs_balance);
}
template <class S>
double max_abs_ideal_work(const Trajectory<S>& t) {
  double w = 0;
  for (const auto& r : t.records) w = std::max(w, std::abs(test::as_double(r.work_ideal)));
  return w;
}

Trajectory<double> run(const std::string& name, double tol, Stepper stepper = Stepper::Dopri5, double dt = 0.01,
                       Baumgarte<double> stab = {}, Formulation formulation = Formulation::Projected) {
  auto b = make_builtin_model<double>(name);
  SimulationOptions<double> opt = b.defaults;
  opt.formulation = formulation;
  opt.abs_tol = opt.rel_tol = tol;
  opt.stepper = stepper;
  opt.dt = dt;
  opt.baumgarte = stab;
  return simulate(*b.model, b.q0, b.qd0, opt);
}

// Balance at tolerance 10⁻⁹ and 10⁻¹²: Dopri5 controls the local error per
// step to the tolerance, so the global error of the balance scales with it
// (records every 0.05 s, which is also the largest step: below 10⁻⁹ the
// steps are set by the tolerance, not by that cap); a factor 1000 in
// tolerance must buy at least 30 in the balance unless both are at the
// rounding floor (10⁴·u·E-scale: N ≈ 10³–10⁴ steps of O(u) each).
// The ideal work ∫q̇ᵀQᴺ dt is held to the same bound (scleronomic systems).
// U6's bead with μ = 0.2 swings, loses energy to friction and comes to rest
// where static friction holds (|Q_t| ≤ μ‖Qᴺ‖). Before the model knew about
// rest, the friction direction flipped between trial states there and the
// run never ended (found by the trajectories study); now it stops, says
// why, and in a few hundred steps. Turning points before that, where
// gravity beats static friction, are passed through.
TEST(Trajectories, U6_BeadSticksInsteadOfStalling) {
  auto b = make_builtin_model<double>("bead-with-friction");
  SimulationOptions<double> opt = b.defaults;
  opt.t_end = 20;
  opt.dt = 0.01;
  const auto traj = simulate(*b.model, b.q0, b.qd0, opt);
  EXPECT_FALSE(traj.completed);
  EXPECT_NE(traj.stop_reason.find("bead sticks"), std::string::npos) << traj.stop_reason;
  EXPECT_LT(traj.steps, 10000);
  ASSERT_FALSE(traj.records.empty());
  EXPECT_GT(traj.records.back().t, 1.0);  // it swung before it stuck
  EXPECT_LT(traj.records.back().t, 20.0);
}

TEST(Trajectories, EnergyWorkBalanceFollowsTheTolerance) {
  for (const auto& name : builtin_model_names()) {
    const auto loose = run(name, 1e-9, Stepper::Dopri5, 0.05), tight = run(name, 1e-12, Stepper::Dopri5, 0.05);
    ASSERT_TRUE(loose.completed && tight.completed) << name << ": " << loose.stop_reason << tight.stop_reason;
    const double E0 = std::abs(loose.records.front().energy) + 1;
    const double floor = 1e4 * unit_roundoff<double>() * E0;
    const double b8 = max_abs_balance(loose), b11 = max_abs_balance(tight);
    std::cout << name << ": balance " << b8 << " (tol 1e-9), " << b11 << " (tol 1e-12); ideal work "
              << max_abs_ideal_work(loose) << ", " << max_abs_ideal_work(tight) << "; steps " << tight.steps << "\n";
    EXPECT_LE(b11, std::max(b8 / 30, floor)) << name;
    EXPECT_LE(b8, 1e-9 * 1e3 * E0) << name << ": balance far above the tolerance";
    EXPECT_LE(max_abs_ideal_work(tight), std::max(max_abs_ideal_work(loose) / 30, floor)) << name;
  }
}

// At 128 bits with tolerance 10⁻²⁰ the balance of the spherical pendulum
// falls far below what double can reach (≈ 10⁻¹² at tolerance 10⁻¹³).
TEST(Trajectories, MultiprecisionBalanceBeatsDouble) {
  MpfrPrecision bits(128);
  using S = mpfr_real;
  auto b = make_builtin_model<S>("spherical-pendulum");
  SimulationOptions<S> opt = b.defaults;
  opt.t_end = S(1) / S(2);
  opt.abs_tol = opt.rel_tol = ScalarTraits<S>::parse("1e-20");
  const auto traj = simulate(*b.model, b.q0, b.qd0, opt);
  ASSERT_TRUE(traj.completed) << traj.stop_reason;
  std::cout << "128-bit pendulum: balance " << max_abs_balance(traj) << ", drift "
            << test::as_double(traj.max_position_violation) << ", steps " << traj.steps << "\n";
  EXPECT_LE(max_abs_balance(traj), 1e-17);
  EXPECT_LE(test::as_double(traj.max_position_violation), 1e-17);
}

// Bulirsch–Stoer (the stepper of reference solutions) at 128 bits: its
// balance follows the tolerance as Dopri5's does (a factor 10⁵ in tolerance
// buys at least 30, the criterion of EnergyWorkBalanceFollowsTheTolerance,
// and stays within 10³·tol·E-scale), in tens of steps where Dopri5 at
// 10⁻³⁰ would take millions.
TEST(Trajectories, BulirschStoerReachesTolerancesNearTheUnitRoundoff) {
  MpfrPrecision bits(128);
  using S = mpfr_real;
  auto b = make_builtin_model<S>("spherical-pendulum");
  auto balance_at = [&](const char* tol) {
    SimulationOptions<S> opt = b.defaults;
    opt.t_end = S(1) / S(2);
    opt.stepper = Stepper::BulirschStoer;
    opt.abs_tol = opt.rel_tol = ScalarTraits<S>::parse(tol);
    const auto traj = simulate(*b.model, b.q0, b.qd0, opt);
    EXPECT_TRUE(traj.completed) << traj.stop_reason;
    EXPECT_LT(traj.steps, 1000);
    std::cout << "Bulirsch–Stoer, tol " << tol << ": balance " << max_abs_balance(traj) << ", steps " << traj.steps
              << "\n";
    return max_abs_balance(traj);
  };
  const double E0 = std::abs(test::as_double(b.model->energy(b.q0, b.qd0))) + 1;
  const double loose = balance_at("1e-25"), tight = balance_at("1e-30");
  EXPECT_LE(tight, loose / 30);
  EXPECT_LE(tight, 1e3 * 1e-30 * E0);
}

// Baumgarte (α = β = 1) on a coarse fixed-step RK4 run of the pendulum
// (dt = 0.01): without it the drift grows secularly (≈ linearly: ×10 from
// 10 s to 100 s, at least ×5 asked), with it the drift stays bounded and at
// least 10× smaller. (Large α, β hurt here: the stabilization term is then
// resolved badly by the step — 10 and 20 give more drift than 1 at this dt;
// Ascher, Chin & Reich, Numer. Math. 67 (1994) discuss the choice.) The
// index-1 formulation: the projected one removes the drift Baumgarte damps.
TEST(Trajectories, BaumgarteBoundsTheDrift) {
  const auto index1 = Formulation::Index1;
  const auto plain10 = run("spherical-pendulum", 1e-8, Stepper::Rk4, 0.01, {}, index1);
  const auto stab10 = run("spherical-pendulum", 1e-8, Stepper::Rk4, 0.01, {1, 1}, index1);
  auto long_run = [&](Baumgarte<double> stab) {
    auto b = make_builtin_model<double>("spherical-pendulum");
    SimulationOptions<double> opt = b.defaults;
    opt.formulation = index1;
    opt.stepper = Stepper::Rk4;
    opt.t_end = 100;
    opt.baumgarte = stab;
    return simulate(*b.model, b.q0, b.qd0, opt);
  };
  const auto plain100 = long_run({}), stab100 = long_run({1, 1});
  ASSERT_TRUE(plain10.completed && stab10.completed && plain100.completed && stab100.completed);
  std::cout << "RK4 pendulum drift at 10 s / 100 s: " << plain10.max_position_violation << " / "
            << plain100.max_position_violation << " plain, " << stab10.max_position_violation << " / "
            << stab100.max_position_violation << " Baumgarte\n";
  EXPECT_GE(plain100.max_position_violation, 5 * plain10.max_position_violation);
  EXPECT_LE(stab100.max_position_violation, 2 * stab10.max_position_violation);
  EXPECT_LE(stab10.max_position_violation * 10, plain10.max_position_violation);
}

// The double parallelogram: rank 5 of 6 at every record (drift-aware rank,
// dynamics/bilateral_model.hpp), over 10 s of swinging.
TEST(Trajectories, RedundantLinkageKeepsRankFive) {
  const auto traj = run("double-parallelogram", 1e-10);
  ASSERT_TRUE(traj.completed) << traj.stop_reason;
  for (const auto& r : traj.records) ASSERT_EQ(r.extras.at(0), 5.0) << "t = " << r.t;
}

// Y4: the paper's data under the QP and the LCP formulations give the same
// motion (both contacts are closed or open together by the symmetry of the
// data, and there the two agree); the qp_minus_lcp column stays at rounding.
// The two runs differ only by rounding in λ, which the adaptive steps carry
// as local errors ≤ tol = 10⁻¹⁰: over the ≈ 100 steps, ≤ 10⁻⁸.
TEST(Trajectories, TwoBarsQpAndLcpRunsAgree) {
  auto bq = make_builtin_model<double>("two-bars", ContactFormulation::GaussQp);
  auto bl = make_builtin_model<double>("two-bars", ContactFormulation::Lcp);
  const auto tq = simulate(*bq.model, bq.q0, bq.qd0, bq.defaults);
  const auto tl = simulate(*bl.model, bl.q0, bl.qd0, bl.defaults);
  ASSERT_EQ(tq.records.size(), tl.records.size());
  bool landed = false;
  for (std::size_t i = 0; i < tq.records.size(); ++i) {
    EXPECT_LE((tq.records[i].q - tl.records[i].q).cwiseAbs().maxCoeff(), 1e-8) << "t = " << tq.records[i].t;
    const double gap = tq.records[i].extras.back();
    if (gap >= 0) EXPECT_LE(gap, 1e-10);
    if (tq.records[i].extras[0] > 0) landed = true;
  }
  EXPECT_TRUE(landed) << "the bars land and press on the ground";
  ASSERT_FALSE(tq.events.empty());
  EXPECT_EQ(tq.events.front().what, "impact");
}

// Y3 at μ = 3/2 > 4/3, started at θ* = (π − atan μ)/2 sliding left at rest in
// θ: A < 0 and B < 0, so the QP is unbounded and the LCP has no solution.
// The run stops at once with that status, never with a number.
TEST(Trajectories, PainleveStateStopsTheRun) {
  const double mu = 1.5, th = (M_PI - std::atan(mu)) / 2;
  const systems::SlidingBar<double> bar{1, 1, 9.81, mu};
  for (const auto formulation : {ContactFormulation::GaussQp, ContactFormulation::Lcp}) {
    ContactModel<double, systems::SlidingBar<double>> model("sliding-bar", bar, {"x", "y", "theta"}, {"A"},
                                                            formulation);
    model.gap_tolerance = model.speed_tolerance = 1e-6;
    Vector<double> q(3), qd(3);
    q << 0, std::sin(th), th;
    qd << -1, 0, 0;
    SimulationOptions<double> opt;
    opt.gap_tolerance = 1e-6;
    const auto traj = simulate(model, q, qd, opt);
    EXPECT_FALSE(traj.completed);
    const char* status = formulation == ContactFormulation::GaussQp ? "unbounded" : "none";
    EXPECT_NE(traj.stop_reason.find(status), std::string::npos) << traj.stop_reason;
  }
}

// Beyond 003: stick, then slip. The bar (m = l = 1) released at rest at
// θ = 1 rad with μ = 1 first pivots about a sticking end A (mode 2, slip
// speed at rounding level, |F_t| ≤ μF_n), then the friction saturates and A
// slides outward (mode 1, F_t = −μF_n). The balance holds throughout.
TEST(Trajectories, StickThenSlip) {
  const systems::SlidingBar<double> bar{1, 1, 9.81, 1};
  ContactModel<double, systems::SlidingBar<double>> model("sliding-bar", bar, {"x", "y", "theta"}, {"A"});
  model.gap_tolerance = model.speed_tolerance = 1e-6;
  Vector<double> q(3), qd = Vector<double>::Zero(3);
  q << 0, std::sin(1.0), 1.0;
  SimulationOptions<double> opt;
  opt.t_end = 0.6;
  opt.gap_tolerance = 1e-6;
  const auto traj = simulate(model, q, qd, opt);
  ASSERT_TRUE(traj.completed) << traj.stop_reason;
  int stuck = 0, sliding = 0;
  for (const auto& r : traj.records) {
    const double slip = r.qd(0) + std::sin(r.q(2)) * r.qd(2);  // ẋ_A = ẋ + l sinθ θ̇
    const double N = r.extras[0], F = r.extras[1], mode = r.extras[2];
    if (mode == 2) {
      ++stuck;
      EXPECT_LE(std::abs(slip), 1e-9) << "t = " << r.t;
      EXPECT_LE(std::abs(F), N) << "t = " << r.t;
      EXPECT_EQ(sliding, 0) << "no sticking after sliding began, t = " << r.t;
    } else {
      ASSERT_EQ(mode, 1) << "t = " << r.t;
      ++sliding;
      EXPECT_GT(slip, 0) << "t = " << r.t;
      EXPECT_NEAR(F, -N, 1e-12 * (1 + N)) << "t = " << r.t;
    }
  }
  EXPECT_GT(stuck, 10);
  EXPECT_GT(sliding, 5);
  EXPECT_LE(traj.max_abs_balance, 1e-8);
}

}  // namespace
}  // namespace femc

namespace femc {
namespace {

using namespace dynamics;

// A model that does work it does not book: the spherical pendulum with a
// small force along q̇ added to q̈ and to neither Qᴺ nor Qᵂ, so that the
// balance E − E(0) − ∫q̇ᵀQᵂ dt grows without the integrator's error.
class Unbooked : public Model<double> {
 public:
  Unbooked(const Model<double>& m, double gain) : m_(m), gain_(gain) {}
  std::string name() const override { return m_.name(); }
  std::vector<std::string> coordinate_names() const override { return m_.coordinate_names(); }
  Matrix<double> mass(const Vector<double>& q) const override { return m_.mass(q); }
  double potential(const Vector<double>& q) const override { return m_.potential(q); }
  Forces<double> forces(const Vector<double>& q, const Vector<double>& qd, const double& t,
                        const Baumgarte<double>& stab) const override {
    Forces<double> f = m_.forces(q, qd, t, stab);
    f.qdd += gain_ * qd;
    return f;
  }
  Vector<double> position_violation(const Vector<double>& q, const double& t) const override {
    return m_.position_violation(q, t);
  }
  Vector<double> velocity_violation(const Vector<double>& q, const Vector<double>& qd, const double& t) const override {
    return m_.velocity_violation(q, qd, t);
  }

 private:
  const Model<double>& m_;
  double gain_;
};

// The energy monitor (simulation/monitors.hpp) against its allowance
// 10·tol·E_scale·√steps: a clean run of the spherical pendulum stays within
// it (its largest balance ÷ allowance printed), and the same pendulum with
// an unbooked force of 10⁻⁶·q̇ trips it, with the time it first did.
TEST(Trajectories, TheEnergyMonitorTripsOnWorkNobodyBooked) {
  auto b = make_builtin_model<double>("spherical-pendulum");
  SimulationOptions<double> opt = b.defaults;
  opt.t_end = 5;
  opt.dt = 0.05;
  opt.abs_tol = opt.rel_tol = 1e-10;
  const auto clean = simulate(*b.model, b.q0, b.qd0, opt);
  ASSERT_TRUE(clean.completed);
  EXPECT_TRUE(clean.warnings.empty()) << clean.warnings.front().what;
  const Unbooked wrong(*b.model, 1e-6);
  const auto dirty = simulate(wrong, b.q0, b.qd0, opt);
  ASSERT_TRUE(dirty.completed);
  ASSERT_FALSE(dirty.warnings.empty()) << "an unbooked 1e-6·q̇ went unseen: balance " << dirty.max_abs_balance;
  EXPECT_EQ(dirty.warnings.front().kind, "energy balance");
  std::cout << "clean balance " << clean.max_abs_balance << "; unbooked: balance " << dirty.max_abs_balance
            << ", tripped at t = " << dirty.warnings.front().t_first << " (" << dirty.warnings.front().measure
            << " > " << dirty.warnings.front().threshold << ")\n";
}

}  // namespace
}  // namespace femc
