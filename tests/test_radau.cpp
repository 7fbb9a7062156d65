// The Radau IIA stepper (dynamics/simulation/radau_iia.hpp) and its tableau
// (radau_tableau.hpp), label unit: the tableau against its closed forms and
// its order conditions at 256 bits, a perturbed tableau caught by the same
// checks, and the stepper on a stiff and a non-stiff problem with known
// solutions.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include "femc/dynamics/simulation/radau_iia.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"

namespace femc {
namespace {

using dynamics::simulation::RadauIIA;
using dynamics::simulation::radau_iia_tableau;
using dynamics::simulation::RadauTableau;
using mpfr::mpreal;

// Each test sets the working precision of mpreal for its own duration.
class Radau : public ::testing::Test {
 protected:
  MpfrPrecision precision_{256};
};

// |x − v| / |v| for a value v computed at 512 bits.
mpreal relative_to(const mpreal& x, const mpreal& v) { return mpfr::abs(x - v) / mpfr::abs(v); }

// s = 3 against the closed forms of Hairer & Wanner (§IV.5), the
// reference evaluated at 512 bits: every entry is the reference correctly
// rounded to 256 bits, so within u = 2⁻²⁵⁶ relatively; the text that
// carries it has 64 guard bits, hence u·(1 + 2⁻⁶⁰).
TEST_F(Radau, ThreeStageTableauIsTheClosedFormCorrectlyRounded) {
  const RadauTableau<mpreal> t = radau_iia_tableau<mpreal>(3);
  const mpreal u = unit_roundoff<mpreal>();
  std::vector<mpreal> c_ref, a_ref;
  {
    MpfrPrecision wide(512);
    const mpreal r6 = mpfr::sqrt(mpreal(6));
    c_ref = {(4 - r6) / 10, (4 + r6) / 10, mpreal(1)};
    a_ref = {(88 - 7 * r6) / 360, (296 - 169 * r6) / 1800, (-2 + 3 * r6) / 225,
             (296 + 169 * r6) / 1800, (88 + 7 * r6) / 360, (-2 - 3 * r6) / 225,
             (16 - r6) / 36, (16 + r6) / 36, mpreal(1) / 9};
  }
  const mpreal bound = u * (1 + mpfr::ldexp(mpreal(1), -60));
  mpreal worst = 0;
  for (int i = 0; i < 3; ++i) {
    MpfrPrecision wide(512);
    worst = mpfr::max(worst, relative_to(mpreal(t.c(i)), c_ref[std::size_t(i)]));
    for (int j = 0; j < 3; ++j) worst = mpfr::max(worst, relative_to(mpreal(t.A(i, j)), a_ref[std::size_t(3 * i + j)]));
  }
  std::cout << "s = 3 tableau: worst relative error " << worst.toString("%.3Re") << " (bound u = " << u.toString("%.3Re")
            << ")\n";
  EXPECT_LE(worst, bound);
  EXPECT_EQ(t.c(2), mpreal(1)) << "c_s = 1 exactly";
}

// The order conditions of a collocation method, at 256 bits:
//   B(2s − 1): Σ_j b_j c_j^{k−1} = 1/k,          k = 1 … 2s − 1
//   C(s):      Σ_j a_ij c_j^{k−1} = c_i^k / k,    k = 1 … s
// Each side is a sum of s products of at most k + 1 rounded factors, so the
// computed difference is within (2k + s + 2)·u·(Σ_j |a_ij c_j^{k−1}| + |rhs|)
// of the exact one (γ-bound of the products, the sum and the rhs). Returns
// the worst ratio of |difference| to that bound.
mpreal order_condition_ratio(const RadauTableau<mpreal>& t) {
  const int s = int(t.c.size());
  const mpreal u = unit_roundoff<mpreal>();
  mpreal worst = 0;
  auto check = [&](const mpreal& lhs, const mpreal& magnitude, const mpreal& rhs, int k) {
    const mpreal bound = mpreal(2 * k + s + 2) * u * (magnitude + mpfr::abs(rhs));
    worst = mpfr::max(worst, mpfr::abs(lhs - rhs) / bound);
  };
  for (int k = 1; k <= 2 * s - 1; ++k) {
    mpreal lhs = 0, magnitude = 0;
    for (int j = 0; j < s; ++j) {
      const mpreal term = t.A(s - 1, j) * mpfr::pow(t.c(j), k - 1);
      lhs += term;
      magnitude += mpfr::abs(term);
    }
    check(lhs, magnitude, mpreal(1) / k, k);
  }
  for (int i = 0; i < s; ++i)
    for (int k = 1; k <= s; ++k) {
      mpreal lhs = 0, magnitude = 0;
      for (int j = 0; j < s; ++j) {
        const mpreal term = t.A(i, j) * mpfr::pow(t.c(j), k - 1);
        lhs += term;
        magnitude += mpfr::abs(term);
      }
      check(lhs, magnitude, mpfr::pow(t.c(i), k) / k, k);
    }
  return worst;
}

TEST_F(Radau, EveryTableauMeetsItsOrderConditions) {
  for (int s = 1; s <= 9; ++s) {
    const mpreal ratio = order_condition_ratio(radau_iia_tableau<mpreal>(s));
    std::cout << "s = " << s << ": worst order-condition residual / bound " << ratio.toString("%.2Re") << "\n";
    EXPECT_LE(ratio, 1) << "s = " << s;
  }
}

// The same checks catch a tableau one entry of which is off by 2⁻²⁰⁰ (far
// below double's roundoff, far above 256 bits').
TEST_F(Radau, APerturbedTableauFailsTheOrderConditions) {
  RadauTableau<mpreal> t = radau_iia_tableau<mpreal>(5);
  t.A(2, 1) += mpfr::ldexp(mpreal(1), -200);
  EXPECT_GT(order_condition_ratio(t), 1);
}

TEST_F(Radau, StagesOutsideTheRangeAreRefused) {
  EXPECT_THROW(radau_iia_tableau<double>(0), InputError);
  EXPECT_THROW(radau_iia_tableau<double>(dynamics::simulation::kMaxRadauStages + 1), InputError);
}

// The record clock of these tests: steps land on the integers.
template <class S>
S next_integer(const S& t) {
  return S(mpfr::floor(t)) + S(1);
}

// Integrates x′ = f(t, x) from 0 to t_end, at most max_steps steps; returns
// the state reached and counts the steps.
template <class S, class F>
std::vector<S> integrate(RadauIIA<S>& stepper, F f, std::vector<S> x, const S& t_end, long& steps,
                         long max_steps = 100000) {
  stepper.initialize(x, S(0), t_end);
  steps = 0;
  while (stepper.current_time() < t_end && steps < max_steps) {
    stepper.do_step(f);
    ++steps;
  }
  return stepper.current_state();
}

// Prothero–Robinson, y′ = λ(y − cos t) − sin t, y(0) = 1, solution cos t,
// with λ = −10⁶ at 128 bits: the stiff test on which the extrapolated
// linearly implicit Euler method took 20 000 steps without reaching
// t = 0.04 at tolerance 10⁻²⁰. A method whose stiff error is a power of h
// (order s + 1 here, the stage order plus one) needs few steps at any
// tolerance: at most (tol₁/tol₂)^(1/(s+1)) times as many for a tighter
// tolerance, which is how the step controller chooses them, and twice that
// for rejected steps and the grid's last short step. The global error of an
// error-per-step control is at most the tolerance times the number of steps.
TEST(RadauStepper, ProtheroRobinsonIsStiffAndStaysCheap) {
  MpfrPrecision precision(128);
  using S = mpreal;
  const S lambda = -1000000;
  auto f = [&](const std::vector<S>& y, std::vector<S>& dy, const S& t) {
    dy.resize(1);
    dy[0] = lambda * (y[0] - mpfr::cos(t)) - mpfr::sin(t);
  };
  long steps_loose = 0, steps_tight = 0;
  const double loose = 1e-20, tight = 1e-30;
  RadauIIA<S> a{S(loose), S(loose), next_integer<S>, 7}, b{S(tight), S(tight), next_integer<S>, 7};
  const S y_loose = integrate(a, f, {S(1)}, S(1), steps_loose)[0];
  const S y_tight = integrate(b, f, {S(1)}, S(1), steps_tight)[0];
  const double e_loose = static_cast<double>(mpfr::abs(y_loose - mpfr::cos(S(1))));
  const double e_tight = static_cast<double>(mpfr::abs(y_tight - mpfr::cos(S(1))));
  std::cout << "Prothero-Robinson, lambda = -1e6, s = 7: tol 1e-20: " << steps_loose << " steps, error " << e_loose
            << "; tol 1e-30: " << steps_tight << " steps, error " << e_tight << "\n";
  EXPECT_LE(e_loose, loose * double(steps_loose));
  EXPECT_LE(e_tight, tight * double(steps_tight));
  EXPECT_LE(double(steps_tight), 2 * std::pow(loose / tight, 1.0 / 8) * double(steps_loose));
}

// A non-stiff nonlinear problem with a known solution, at 256 bits:
// x′ = −y·r, y′ = x·r with r = √(x² + y²), the circle of radius 1 run at
// unit speed: (cos t, sin t). Its Jacobian changes along the run, so the
// simplified Newton iteration's frozen J is put to work.
TEST(RadauStepper, CircleFollowsItsSolution) {
  MpfrPrecision precision(256);
  using S = mpreal;
  auto f = [](const std::vector<S>& x, std::vector<S>& dx, const S&) {
    const S r = mpfr::sqrt(x[0] * x[0] + x[1] * x[1]);
    dx = {S(-x[1] * r), S(x[0] * r)};
  };
  const double tol = 1e-50;
  RadauIIA<S> stepper{S(tol), S(tol), next_integer<S>, 7};
  long steps = 0;
  const S t_end = 2;
  const std::vector<S> x = integrate(stepper, f, {S(1), S(0)}, t_end, steps);
  const double error = static_cast<double>(mpfr::max(mpfr::abs(x[0] - mpfr::cos(t_end)), mpfr::abs(x[1] - mpfr::sin(t_end))));
  std::cout << "circle, s = 7, tol 1e-50: " << steps << " steps, " << stepper.newton_iterations()
            << " Newton iterations, " << stepper.rejected_steps() << " rejected, error " << error << "\n";
  EXPECT_LE(error, tol * double(steps));
}

// Tolerances below double's range: at 2048 bits and tolerance 10⁻⁴⁰⁰ the
// scaled residual of the first Newton iteration is near 10⁴⁰⁰ and the last
// corrections are far below 10⁻³⁰⁸, neither of which double holds (sent to
// double unnormalized, the first overflowed, and the step was cut without
// end). A collocation method of s stages is exact for a solution that is a
// polynomial of degree at most s, so x′ = t⁵, y′ = x from (0, 0), whose
// solution is (t⁶/6, t⁷/42), is integrated by s = 7 in one step of 1 with
// no truncation error: what is left is the Newton iteration's, which stops
// when the last correction is below 10⁻³ of the scale abs_tol +
// rel_tol·|x| ≤ 2·tol, and leaves at most that when it contracts by 1/2 or
// better. The coupling y′ = x gives the iteration a Jacobian to work with.
TEST(RadauStepper, TolerancesBelowDoublesRangeConverge) {
  MpfrPrecision precision(2048);
  using S = mpreal;
  auto f = [](const std::vector<S>& x, std::vector<S>& dx, const S& t) {
    dx = {S(mpfr::pow(t, 5)), x[0]};
  };
  const S tol = S("1e-400");
  RadauIIA<S> stepper{tol, tol, next_integer<S>, 7};
  long steps = 0;
  const std::vector<S> x = integrate(stepper, f, {S(0), S(0)}, S(1), steps, 10);
  const S error = mpfr::max(mpfr::abs(x[0] - S(1) / 6), mpfr::abs(x[1] - S(1) / 42));
  const S bound = S("2e-3") * tol;
  std::cout << "polynomial solution at 2048 bits, tol 1e-400: " << steps << " step(s), " << stepper.newton_iterations()
            << " Newton iterations, error " << error.toString("%.3Re") << " (bound " << bound.toString("%.3Re")
            << ")\n";
  EXPECT_EQ(steps, 1);
  EXPECT_EQ(stepper.current_time(), S(1));
  EXPECT_LE(error, bound);
}

}  // namespace
}  // namespace femc
