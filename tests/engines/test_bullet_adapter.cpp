// The Bullet adapter (engines/bullet): does it read the problem Bullet's
// multibody constraint solver is given, and does Bullet solve it
// (engines/bullet/.../bullet.hpp)? Claim E1 (001 (15)) on the velocity-level
// problem of one step: Δv minimizes ΔvᵀMΔv subject to J Δv = b.
//
// Each quantity read from inside Bullet's solver is checked against Bullet's
// own positions and against its other outputs:
//   J        against central differences of Bullet's position errors
//            (localPosToWorld) along the joints' motion (fixed bases);
//   m_rhs    against −(ERP/h)·posError − J v*, rebuilt from Bullet's own
//            positions and J, times m_jacDiagABInv;
//   M⁻¹      against the rows' unit responses (M⁻¹J_iᵀ, computed by Bullet
//            from J_i, here from M⁻¹'s columns) and for symmetry;
// and Bullet's answer Δv = v⁺ − v* against femc's 256-bit solution of that
// problem: PGS run to convergence (iterations raised) within answer_bound;
// Bullet's MLCP matrix against J·M⁻¹Jᵀ formed from the same rows.
// Differences and tolerances: support/central_difference.hpp. Each check also
// runs on a wrong value (off by 1e-6), which must fail it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "femc/engines/bullet.hpp"
#include "femc/errors.hpp"
#include "support/central_difference.hpp"

namespace femc::engines::bullet {
namespace {

using test::difference_agrees;
using test::off_by_1e6;
constexpr double kU = 0x1p-53;

struct Case {
  std::string name;
  planar_loop::Loop loop;
  std::vector<double> leading, speeds;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (double theta : {0.3, 1.0, 2.0, 4.0})
    out.push_back({"crank-rocker at " + std::to_string(theta), planar_loop::kCrankRocker, {theta}, {2.0}});
  out.push_back({"closed chain", planar_loop::kClosedChain, planar_loop::kClosedChainStart, {1.0, -1.0, 0.5, 0.3}});
  out.push_back({"change point at 1e-2", planar_loop::kChangePoint, {1e-2}, {2.0}});
  return out;
}

const Topology kTopologies[] = {Topology::two_multibodies, Topology::one_multibody, Topology::floating_base};

std::unique_ptr<Mechanism> make(const Case& c, Settings s) {
  return planar_loop(c.loop, c.leading, c.speeds, s);
}

// The checks the planar loops and Bricard share, each on its wrong value too.

// J u against central differences of Bullet's own position errors along
// q0 + s·u (the step e read J at q0; m is left at q0).
void expect_jacobian_is_the_derivative(Mechanism& m, const Vector<double>& q0, const Vector<double>& u,
                                       const Extracted& e) {
  auto path = [&](double s) {
    m.set_q(q0 + s * u);
    return m.position_error();
  };
  EXPECT_TRUE(difference_agrees(path, 1, e.J * u, "J u", test::step(u)));
  EXPECT_FALSE(difference_agrees(path, 1, off_by_1e6(e.J * u), "J u off by 1e-6", test::step(u)));
  m.set_q(q0);
}

// m_rhs = (−(ERP/h)·posError − J v*)·m_jacDiagABInv, from Bullet's positions:
// each row's two products and the sum to γ_{n+3} of their magnitudes.
// Disabled rows (m_jacDiagABInv = 0) have m_rhs = 0 and no wrong value.
void expect_baumgartes_rhs(const Extracted& e) {
  const Settings& s = e.settings;
  const double k = double(e.n + 3), g = k * kU / (1 - k * kU);
  for (Index i = 0; i < e.m; ++i) {
    const double d = e.jac_diag_inv(i);
    const double rebuilt = (-s.erp / s.h * e.position_error(i) - e.J.row(i).dot(e.v_star)) * d;
    const double scale =
        (s.erp / s.h * std::abs(e.position_error(i)) + e.J_magnitude.row(i).dot(e.v_star.cwiseAbs())) * std::abs(d);
    EXPECT_LE(std::abs(e.rhs(i) - rebuilt), g * scale + 1e-300) << "row " << i;
    if (d != 0 && scale > 0) {
      EXPECT_GT(std::abs(e.rhs(i) - rebuilt * (1 + 1e-6)), g * scale) << "row " << i << " off by 1e-6 passes";
    }
  }
}

// M⁻¹ read column by column against the unit responses Bullet computed for
// its rows (M⁻¹J_iᵀ, from J_i): the same linear map, to the mechanism
// class's Extracted::unit_rounding of |J||M⁻¹|ᵀ, and symmetric to it. The
// wrong value: one diagonal entry 1e-6 off, on the coordinate the first
// row's J reaches most.
void expect_unit_responses_agree(const Extracted& e) {
  const double g = e.unit_rounding;
  const Matrix<double> scale = e.J_magnitude * e.Minv.cwiseAbs().transpose();
  const Matrix<double> gap = (e.unit - e.J * e.Minv.transpose()).cwiseAbs();
  double used = 0;  // the largest share of its tolerance an entry uses
  for (Index i = 0; i < gap.rows(); ++i)
    for (Index j = 0; j < gap.cols(); ++j)
      if (scale(i, j) > 0) used = std::max(used, gap(i, j) / (g * scale(i, j)));
  std::cout << "  |unit − J M⁻¹ᵀ|: at most " << used << " of its tolerance\n";
  EXPECT_LE((gap - g * scale).maxCoeff(), 0.0);
  Index k;
  e.J.row(0).cwiseAbs().maxCoeff(&k);
  Matrix<double> wrong = e.Minv;
  wrong(k, k) *= 1 + 1e-6;
  EXPECT_GT(((e.unit - e.J * wrong.transpose()).cwiseAbs() - g * scale).maxCoeff(), 0.0);
  EXPECT_LE((e.Minv - e.Minv.transpose()).cwiseAbs().maxCoeff(), g * e.Minv.cwiseAbs().maxCoeff());
}

// The hidden defaults Bullet's getters report (engines/UPSTREAM.md §2, §5), as
// the adapter's Settings take them: a Bullet with other defaults fails here.
TEST(BulletAdapter, DefaultsAreWhatUpstreamSays) {
  const Defaults d = defaults();
  const Settings s;
  EXPECT_EQ(d.erp, s.erp);
  EXPECT_EQ(d.global_cfm, 0.0);
  // btContactSolverInfo's m_timeStep is btScalar(1.f / 60.f), 1/60 rounded to
  // float first; stepSimulation overwrites it with the step it takes.
  EXPECT_EQ(d.h, double(1.f / 60.f));
  EXPECT_NE(d.h, s.h);
  EXPECT_EQ(d.iterations, s.iterations);
  EXPECT_EQ(d.linear_damping, s.linear_damping);
  EXPECT_EQ(d.angular_damping, s.angular_damping);
  EXPECT_EQ(d.max_coordinate_velocity, s.max_coordinate_velocity);
  EXPECT_EQ(d.max_applied_impulse, 100.0);
  EXPECT_TRUE(d.gyro_term);
  std::cout << "  Bullet's defaults: ERP " << d.erp << ", CFM " << d.global_cfm << ", h " << d.h << ", "
            << d.iterations << " iterations, solver mode " << d.solver_mode << ", damping " << d.linear_damping
            << "/" << d.angular_damping << ", velocity clamp " << d.max_coordinate_velocity << ", impulse cap "
            << d.max_applied_impulse << ", gyro " << d.gyro_term << ", can sleep " << d.can_sleep << "\n";
}

// Every topology assembles the loop on Bullet's own positions: the closure
// error's x, y rows to 1e-15, its z row identically 0 (the plane is exact).
TEST(BulletAdapter, AssemblesEachLoopOnItsOwnPositions) {
  for (Topology t : kTopologies)
    for (const Case& c : cases()) {
      const auto m = make(c, {t});
      SCOPED_TRACE(m->name() + ", " + c.name);
      const Vector<double> e = m->position_error();
      EXPECT_LE(e.head(2).lpNorm<Eigen::Infinity>(), 1e-15);
      EXPECT_EQ(e(2), 0.0);
    }
}

// J against differences of the position errors along the joints' motion,
// at the state the step reads (fixed bases: u is the joint rates).
TEST(BulletAdapter, JacobianIsTheDerivativeOfBulletsPositionErrors) {
  for (Topology t : {Topology::two_multibodies, Topology::one_multibody})
    for (const Case& c : cases()) {
      const auto m = make(c, {t});
      SCOPED_TRACE(m->name() + ", " + c.name);
      const Vector<double> q0 = m->q(), u = m->u();
      const Extracted e = m->step();  // reads J at q0 (positions are integrated after the solve)
      expect_jacobian_is_the_derivative(*m, q0, u, e);
    }
}

// J̇u by differences of the position errors (velocity_product) against the
// derivative of Bullet's own J u along the joints' motion, J read inside
// the solver at q ± s·u: two different routes to the same term.
TEST(BulletAdapter, VelocityProductIsTheDerivativeOfBulletsJacobian) {
  for (Topology t : {Topology::two_multibodies, Topology::one_multibody})
    for (const Case& c : cases()) {
      const auto m = make(c, {t});
      SCOPED_TRACE(m->name() + ", " + c.name);
      const Vector<double> q0 = m->q(), u = m->u();
      const VelocityProduct vp = velocity_product(*m);
      EXPECT_EQ(m->q(), q0) << "velocity_product did not restore the state";
      auto path = [&](double s) {
        m->set_q(q0 + s * u);
        m->set_u(u);
        return Vector<double>(m->step().J * u);
      };
      EXPECT_TRUE(difference_agrees(path, 1, vp.Jdot_u, "J̇u", test::step(u)));
      EXPECT_FALSE(difference_agrees(path, 1, off_by_1e6(vp.Jdot_u), "J̇u off by 1e-6", test::step(u)));
      std::cout << "  its own error estimate " << vp.error << ", |J̇u|∞ " << vp.Jdot_u.lpNorm<Eigen::Infinity>()
                << "\n";
    }
  EXPECT_THROW(velocity_product(*make(cases().front(), {Topology::floating_base})), InputError);
}

// A state copied to a new mechanism (q, u and a floating base's pose) is the
// same state: one step from each gives the same bits, on every topology,
// after the original has moved (the floating base fallen and turned).
TEST(BulletAdapter, ACopiedStateStepsAlike) {
  for (Topology t : kTopologies) {
    const Case c = cases().front();
    const auto a = make(c, {t});
    for (int k = 0; k < 30; ++k) a->step();
    const auto b = make(c, {t});
    b->set_base_pose(a->base_pose());
    b->set_q(a->q());
    b->set_u(a->u());
    SCOPED_TRACE(a->name());
    EXPECT_EQ(a->base_pose().size(), t == Topology::floating_base ? 7u : 0u);
    const Extracted ea = a->step(), eb = b->step();
    EXPECT_EQ(ea.J, eb.J);
    EXPECT_EQ(ea.v_star, eb.v_star);
    EXPECT_EQ(ea.v_next, eb.v_next);
    EXPECT_EQ(a->base_pose(), b->base_pose());
  }
  EXPECT_THROW(make(cases().front(), {})->set_base_pose({0, 0, 0, 0, 0, 0, 1}), InputError);  // a fixed base
  const auto f = make(cases().front(), {Topology::floating_base});
  EXPECT_THROW(f->set_base_pose({0, 0, NAN, 0, 0, 0, 1}), InputError);
  EXPECT_THROW(f->set_base_pose({0, 0, 0, 0, 0, 0, 0}), InputError);
}

// m_rhs is Baumgarte's on Bullet's own position errors (expect_baumgartes_rhs).
TEST(BulletAdapter, RightHandSideIsBaumgartesOnBulletsOwnErrors) {
  for (Topology t : kTopologies)
    for (const Case& c : cases()) {
      const auto m = make(c, {t});
      SCOPED_TRACE(m->name() + ", " + c.name);
      const Extracted e = m->step();
      expect_baumgartes_rhs(e);
      const double k = double(e.n + 3), g = k * kU / (1 - k * kU);
      // The z row is zero. On fixed bases it is exactly zero and Bullet
      // disables it. On a floating base it is zero to the rounding of its two
      // ends' cancellation, and Bullet keeps it: its scale d = J_A M⁻¹J_Aᵀ +
      // J_B M⁻¹J_Bᵀ leaves out the cross term that cancels the rest (the
      // finding of MlcpMatrixAgainstTheRowsProduct).
      if (t == Topology::floating_base) {
        EXPECT_LE(e.J.row(2).cwiseAbs().maxCoeff(), g * e.J_magnitude.row(2).maxCoeff());
        EXPECT_GT(e.jac_diag_inv(2), 0.0) << "Bullet disables the floating base's z row (fixed upstream?)";
      } else {
        EXPECT_EQ(e.J.row(2).cwiseAbs().maxCoeff(), 0.0);
        EXPECT_EQ(e.jac_diag_inv(2), 0.0);
      }
    }
}

// M⁻¹ against the rows' unit responses (expect_unit_responses_agree): the
// planar loops at their 4·n·u.
TEST(BulletAdapter, InverseMassAgreesWithTheRowsUnitResponses) {
  for (Topology t : kTopologies)
    for (const Case& c : cases()) {
      const auto m = make(c, {t});
      SCOPED_TRACE(m->name() + ", " + c.name);
      const Extracted e = m->step();
      EXPECT_EQ(e.unit_rounding, 4 * double(e.n) * kU);
      expect_unit_responses_agree(e);
    }
}

// PGS run to convergence solves the problem it is given: Δv within
// answer_bound of femc's 256-bit solution at 50000 iterations. Bullet's
// default (10) and 5000 are printed against the same bound: on the floating
// base near the change point 5000 are not enough (9e-9 against 3e-16), as
// the rows' mis-scaled steps (d without the cross term) slow the sweep.
// Slack (bound ÷ error at 50000 iterations, Bullet 3.24): 74 to 1630. The
// rounding of v⁺ = v* + Δv̂, u·|v⁺|, which answer_bound must count (Δv̂ is
// read as v⁺ − v*; on a falling floating base |v⁺| ≫ |Δv|), dominates it at
// these states; reading Bullet's own Δv (m_deltaVelocities) would tighten it.
TEST(BulletAdapter, ConvergedPgsSolvesItsOwnProblem) {
  for (Topology t : kTopologies)
    for (const Case& c : cases()) {
      for (int iterations : {10, 5000, 50000}) {
        Settings s{t};
        s.iterations = iterations;
        const auto m = make(c, s);
        SCOPED_TRACE(m->name() + ", " + c.name + ", " + std::to_string(iterations) + " iterations");
        const Extracted e = m->step();
        const OwnSolution x = solve_own(e);
        const double bound = answer_bound(e, x), err = (e.dv() - x.dv).lpNorm<Eigen::Infinity>();
        std::cout << "  " << m->name() << ", " << c.name << ", " << iterations << " iterations: |Δv − exact| " << err
                  << " (bound " << bound << ", |Δv| " << x.dv.lpNorm<Eigen::Infinity>() << ")\n";
        if (iterations != 50000) continue;
        EXPECT_LE(err, bound);
        EXPECT_GT((off_by_1e6(e.dv()) - x.dv).lpNorm<Eigen::Infinity>(), bound) << "an answer off by 1e-6 passes";
      }
    }
}

// The MLCP solvers are handed A = J M⁻¹Jᵀ of the rows (createMLCPFastMultiBody):
// entry by entry against the product of Bullet's own J and unit responses,
// to γ_n of its terms. Between two multibodies it is, and Dantzig's answer
// is femc's solution to answer_bound. Within one multibody it is not: the
// finding (engines/UPSTREAM.md, reports/engines): computeConstraintMatrix
// {Diag,OffDiag}ElementMultiBody add a row's two ends' terms only when the
// ends lie on different multibodies, so A loses J_B M⁻¹J_Bᵀ off the diagonal
// (and J_A M⁻¹J_Bᵀ + J_B M⁻¹J_Aᵀ on it, nonzero when the ends share
// coordinates: a floating base), and the answer follows the wrong A. The
// test holds the finding: a Bullet that forms A right fails it here, and
// the report and UPSTREAM.md must change with it. Run at 50000 iterations
// (what the MLCP PGS and the PGS fallback sweep) so that a fallback's
// answer is converged.
TEST(BulletAdapter, MlcpMatrixAgainstTheRowsProduct) {
  for (SolverKind solver : {SolverKind::mlcp_dantzig, SolverKind::mlcp_lemke, SolverKind::mlcp_pgs})
    for (Topology t : kTopologies)
      for (const Case& c : cases()) {
        Settings s{t};
        s.solver = solver;
        s.iterations = 50000;  // the MLCP PGS's sweeps (Dantzig and Lemke do not read it)
        const auto m = make(c, s);
        SCOPED_TRACE(m->name() + ", " + c.name);
        const Extracted e = m->step();
        const MatrixCheck check = check_mlcp_matrix(e);
        const OwnSolution x = solve_own(e);
        const double err = (e.dv() - x.dv).lpNorm<Eigen::Infinity>(), bound = answer_bound(e, x);
        std::cout << "  " << m->name() << ", " << c.name << ": |A_mlcp − J M⁻¹Jᵀ| " << check.gap << " at ("
                  << check.row << ", " << check.col << "), tolerance " << check.tolerance << "; fell back "
                  << e.fell_back << "; |Δv − exact| " << err << " (bound " << bound << ", |Δv| "
                  << x.dv.lpNorm<Eigen::Infinity>() << ")\n";
        // A: right between two multibodies, wrong within one.
        if (t == Topology::two_multibodies) {
          EXPECT_LE(check.gap, check.tolerance);
        } else {
          EXPECT_GT(check.gap, 1e6 * check.tolerance) << "Bullet's MLCP matrix is right within one multibody";
        }
        // The answer. On fixed bases the z row is disabled and its row and
        // column of A are zero: Lemke fails on the singular A and Bullet falls
        // back to PGS (m_fallback, nothing printed), which converges;
        // btSolveProjectedGaussSeidel divides by the zero diagonal and
        // returns NaN impulses as a success, and the multibody's velocities
        // become NaN. On the floating base the z row is live (A_zz = d), all
        // three answer from the wrong A.
        const bool fixed = t != Topology::floating_base;
        if (solver == SolverKind::mlcp_pgs && fixed) {
          EXPECT_FALSE(e.fell_back);
          EXPECT_FALSE(std::isfinite(e.dv().sum())) << "the MLCP PGS no longer returns NaN on a zero diagonal";
          continue;
        }
        const bool falls_back = solver == SolverKind::mlcp_lemke && fixed;
        EXPECT_EQ(e.fell_back, falls_back);
        if (t == Topology::two_multibodies || falls_back) {
          EXPECT_LE(err, bound);
        } else {
          EXPECT_GT(err, 1e6 * bound) << "the MLCP answer within one multibody is right";
        }
      }
}

// Bricard's MLCP matrix, as the planar loops' (MlcpMatrixAgainstTheRowsProduct):
// right between two multibodies, wrong within one (the weld's two halves on
// one multibody lose J_B M⁻¹J_Bᵀ off the diagonal).
TEST(BulletAdapter, BricardsMlcpMatrixAgainstTheRowsProduct) {
  for (Topology t : {Topology::two_multibodies, Topology::one_multibody}) {
    Settings s{t};
    s.solver = SolverKind::mlcp_dantzig;
    const Extracted e = bricard(s)->step();
    const MatrixCheck check = check_mlcp_matrix(e);
    std::cout << "  " << to_string(t) << ": |A_mlcp − J M⁻¹Jᵀ| " << check.gap << " at (" << check.row << ", "
              << check.col << "), tolerance " << check.tolerance << "\n";
    if (t == Topology::two_multibodies) {
      EXPECT_LE(check.gap, check.tolerance);
    } else {
      EXPECT_GT(check.gap, 1e6 * check.tolerance) << "Bullet's MLCP matrix is right within one multibody";
    }
  }
}

// Bricard's mechanism (bullet::bricard, both fixed-base topologies): it
// closes at the example's angles on Bullet's own positions; the weld's six
// rows against central differences of Bullet's own posErrors (linear, then
// the Euler angles of frame_A⁻¹frame_B) along a motion of all six pins,
// which the loop does not allow (the rows are the posErrors' derivative on
// every motion, not only on the mechanism's); m_rhs against Baumgarte's
// rebuild as for the loops; M⁻¹ against the rows' unit responses. Each check
// also runs on a wrong value (off by 1e-6), which must fail it.
TEST(BulletAdapter, BricardsWeldRowsAreTheDerivativeOfBulletsPositionErrors) {
  for (Topology t : {Topology::two_multibodies, Topology::one_multibody}) {
    Settings s{t};
    const auto m = bricard(s);
    SCOPED_TRACE(m->name());
    const Vector<double> q0 = m->q();
    EXPECT_LE(m->position_error().lpNorm<Eigen::Infinity>(), 1e-14);
    Vector<double> u(6);
    u << 1.0, -0.5, 0.3, 0.7, -0.2, 0.4;
    m->set_u(u);
    const Extracted e = m->step();
    ASSERT_EQ(e.m, 6);
    expect_jacobian_is_the_derivative(*m, q0, u, e);
    expect_baumgartes_rhs(e);
    for (Index i = 0; i < e.m; ++i) EXPECT_GT(e.jac_diag_inv(i), 0.0) << "row " << i << " disabled";
    // Bricard's spatial links at their 16·n·ε (bullet.hpp, unit_rounding).
    EXPECT_EQ(e.unit_rounding, 32 * double(e.n) * kU);
    expect_unit_responses_agree(e);
  }
  EXPECT_THROW(bricard({Topology::floating_base}), InputError);
}

// Bricard's start (bullet::bricard's speed0): the first pin at the example's
// speed and the others along the mechanism's one motion, so that Bullet's
// own weld rows at the start give J u = 0 to their rounding, 16·n·ε of
// ‖J‖∞‖u‖∞ (the rows' recursion and the null vector's SVD), normwise: at
// the example's angles three of the six rows are zero but for rounding
// (their entries ~1e-15, left by the recursion's cancellation at the
// links' magnitudes), so |J||u| entrywise is no scale for them (it failed:
// J u 4.9e-15 against 8.9e-28 on row 0). A rate off by 1e-6 must fail it.
// At speed0 = 0 the mechanism is at rest.
TEST(BulletAdapter, BricardStartsAlongItsOneMotion) {
  for (Topology t : {Topology::two_multibodies, Topology::one_multibody}) {
    const auto m = bricard({t});
    SCOPED_TRACE(m->name());
    const Vector<double> u = m->u();
    EXPECT_EQ(u(0), bricard::kSpeed0);
    const Extracted e = m->step();
    const double tol = 16 * double(e.n) * 2 * kU * e.J_magnitude.cwiseAbs().rowwise().sum().maxCoeff() *
                       u.lpNorm<Eigen::Infinity>();
    std::cout << "  |J u|∞ " << (e.J * u).lpNorm<Eigen::Infinity>() << " against " << tol << "\n";
    EXPECT_LE((e.J * u).lpNorm<Eigen::Infinity>(), tol);
    // The wrong rate: the largest after the first pin's (the one motion
    // keeps some pins still at the example's start).
    Index k = 1;
    u.tail(5).cwiseAbs().maxCoeff(&k);
    Vector<double> wrong = u;
    wrong(k + 1) *= 1 + 1e-6;
    EXPECT_GT((e.J * wrong).lpNorm<Eigen::Infinity>(), tol);
    EXPECT_TRUE(bricard({t}, 0.0)->u().isZero());
  }
  EXPECT_THROW(bricard({}, NAN), InputError);
}

// The impulse cap (reports/engines' finding): at Bricard's start converged
// PGS leaves a weld row at Bullet's ±100 N·s, and its Δv is far from the
// solution of its rows' equalities; with the cap lifted it is within
// answer_bound. A cap that is not positive is an InputError.
TEST(BulletAdapter, TheImpulseCapBindsOnBricardsWeldAtItsStart) {
  for (Topology t : {Topology::two_multibodies, Topology::one_multibody}) {
    Settings s{t};
    s.iterations = 50000;
    const Extracted capped = bricard(s)->step();
    SCOPED_TRACE(to_string(t));
    const OwnSolution x = solve_own(capped);
    const double scale = x.dv.lpNorm<Eigen::Infinity>();
    EXPECT_EQ(capped.lambda.cwiseAbs().maxCoeff(), s.max_applied_impulse);
    EXPECT_GT((capped.dv() - x.dv).lpNorm<Eigen::Infinity>(), 1e-2 * scale);
    s.max_applied_impulse = INFINITY;
    const Extracted lifted = bricard(s)->step();
    const OwnSolution y = solve_own(lifted);
    EXPECT_GT(lifted.lambda.cwiseAbs().maxCoeff(), 100.0);
    EXPECT_LE((lifted.dv() - y.dv).lpNorm<Eigen::Infinity>(), answer_bound(lifted, y));
  }
  Settings bad;
  bad.max_applied_impulse = 0;
  EXPECT_THROW(bricard(bad), InputError);
  bad.max_applied_impulse = NAN;
  EXPECT_THROW(four_bar(1.0, 2.0, bad), InputError);
}

// What opens Bricard's loop along Bullet's trajectory (reports/engines'
// finding, bullet_campaign's LoopOpening): the largest |posError|∞ over 1 s
// from the start is large at Bullet's defaults, nearly as large with only
// the cap lifted or only the sweeps converged, and several times smaller
// with both. The factor 3 is the finding's claim (measured: 0.15, 0.149 and
// 0.131 against 0.019 at Bullet 3.24), not a rounding bound.
TEST(BulletAdapter, WhatOpensBricardsLoop) {
  auto opening = [](int iterations, double cap) {
    Settings s;
    s.iterations = iterations;
    s.max_applied_impulse = cap;
    const auto m = bricard(s);
    double worst = 0;
    for (int k = 0; k < 60; ++k) {
      m->step();
      worst = std::max(worst, m->position_error().lpNorm<Eigen::Infinity>());
    }
    return worst;
  };
  const double both = opening(50000, INFINITY);
  std::cout << "  |posError|∞ over 1 s with the cap lifted and the sweeps converged: " << both << "\n";
  EXPECT_GT(opening(10, 100), 3 * both);
  EXPECT_GT(opening(10, INFINITY), 3 * both);
  EXPECT_GT(opening(50000, 100), 3 * both);
}

// btLemkeSolver on Bricard's weld with the cap lifted (reports/engines'
// finding): at the closed start, where the weld's rows are redundant (rank
// 5) and the MLCP's A singular, it answers without falling back, far from
// the solution (31.8 times |Δv| at Bullet 3.24); two PGS steps along the
// trajectory, where the loop has opened (rank 6), the unique impulses
// A⁻¹b exceed its m_maxValue (1e5) and it discards them and falls back.
TEST(BulletAdapter, LemkeOnBricardsWeld) {
  Settings lemke;
  lemke.solver = SolverKind::mlcp_lemke;
  lemke.max_applied_impulse = INFINITY;
  const Extracted start = bricard(lemke)->step();
  const OwnSolution x = solve_own(start);
  EXPECT_EQ(x.rank, 5);
  EXPECT_FALSE(start.fell_back);
  EXPECT_GT((start.dv() - x.dv).lpNorm<Eigen::Infinity>(), x.dv.lpNorm<Eigen::Infinity>());
  Settings pgs;
  pgs.max_applied_impulse = INFINITY;
  const auto m = bricard(pgs);
  m->step();
  m->step();
  const auto l = bricard(lemke);
  l->set_q(m->q());
  l->set_u(m->u());
  const Extracted opened = l->step();
  EXPECT_EQ(solve_own(opened).rank, 6);
  const double unique = opened.mlcp_A.ldlt().solve(opened.mlcp_b).lpNorm<Eigen::Infinity>();
  std::cout << "  two steps on: |A⁻¹b|∞ " << unique << ", fell back " << opened.fell_back << "\n";
  EXPECT_GT(unique, 1e5);
  EXPECT_TRUE(opened.fell_back);
}

// Extracted::capped_row on made-up rows: a row at either cap is found, one
// the last bit inside it is not, nor a disabled row at its cap.
TEST(BulletAdapter, CappedRowIsTheFirstEnabledRowAtItsCap) {
  Extracted e;
  e.m = 3;
  e.jac_diag_inv = Vector<double>::Ones(3);
  e.upper = Vector<double>::Constant(3, 100);
  e.lower = -e.upper;
  e.lambda = Vector<double>::Zero(3);
  EXPECT_EQ(e.capped_row(), -1);
  e.lambda(2) = -100;
  EXPECT_EQ(e.capped_row(), 2);
  e.lambda(1) = 100;
  EXPECT_EQ(e.capped_row(), 1);
  e.lambda(1) = std::nextafter(100.0, 0.0);
  e.lambda(2) = std::nextafter(-100.0, 0.0);
  EXPECT_EQ(e.capped_row(), -1);
  e.lambda(0) = 100;
  e.jac_diag_inv(0) = 0;
  EXPECT_EQ(e.capped_row(), -1);
}

}  // namespace
}  // namespace femc::engines::bullet
