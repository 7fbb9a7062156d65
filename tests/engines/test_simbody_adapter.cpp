// The Simbody adapter (engines/simbody): does it extract the matrices Simbody
// computes with, and does Simbody's answer agree with the exact Gauss
// solution of those data? Claim E1 (001 (15)) on an engine's own mechanism.
//
// Each extracted quantity is checked against Simbody's own positions,
// velocities and energies, not against the operator it came from:
//   G u     against d/dt of the position errors along the motion (q̇ = u for pins),
//   b       against −Ġu, Ġ by differences of calcG along the motion,
//   M       against the kinetic energy ½uᵀMu (polarization over unit vectors),
//   Q       at u = 0 against −∂V/∂q, V Simbody's potential energy.
// The differences and their tolerances are support/central_difference.hpp's.
// Each check is also run on a wrong value, off by 1e-6 relative (and b
// without its velocity-product term, M with one entry off by 1e-6), which
// must fail it.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <iostream>

#include "femc/engines/simbody.hpp"
#include "femc/io/json_system.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "support/central_difference.hpp"
#include "support/convert.hpp"
#include "support/engine_cases.hpp"
#include "support/rounded_bound.hpp"

namespace femc::engines::simbody {
namespace {

constexpr double kEps = 0x1p-52;

using Case = test::EngineCase<Mechanism>;
std::vector<Case> cases() {
  return test::engine_cases<Mechanism>(
      [](double theta, double omega) { return four_bar(theta, omega); },
      [](const planar_loop::Loop& l, const std::vector<double>& q, const std::vector<double>& v) {
        return planar_loop(l, q, v);
      },
      [](double speed0) { return bricard(speed0); });
}

// f at q + t·dq (u unchanged), realized to stage; f reads the state.
using Probe = std::function<Vector<double>(const SimTK::State&)>;
Vector<double> at(const Mechanism& m, const Vector<double>& dq, double t, SimTK::Stage stage, const Probe& f) {
  SimTK::State s = m.state;
  for (int i = 0; i < s.getNQ(); ++i) s.updQ()[i] += t * dq(i);
  m.system.realize(s, stage);
  return f(s);
}

// Whether `expected` is the derivative of f along dq (support/central_difference.hpp).
bool difference_agrees(const Mechanism& m, const Vector<double>& dq, SimTK::Stage stage, const Probe& f,
                       const Vector<double>& expected, const char* what) {
  return test::difference_agrees([&](double t) { return at(m, dq, t, stage, f); }, 1, expected, what,
                                 test::step(dq));
}

Vector<double> speeds(const Mechanism& m) { return to_eigen(m.state.getU()); }

using test::off_by_1e6;

TEST(SimbodyAdapter, ConstraintJacobianIsTheDerivativeOfThePositionErrors) {
  for (const Case& c : cases()) {
    const auto m = c.make(true);
    const Extracted e = extract(*m);
    const Vector<double> u = speeds(*m);
    const Probe qerr = [](const SimTK::State& s) { return to_eigen(s.getQErr()); };
    const Vector<double> Gu = e.system.A * u;
    EXPECT_TRUE(difference_agrees(*m, u, SimTK::Stage::Position, qerr, Gu, "G u")) << c.name;
    EXPECT_FALSE(difference_agrees(*m, u, SimTK::Stage::Position, qerr, off_by_1e6(Gu), "G u, off by 1e-6")) << c.name;
  }
}

TEST(SimbodyAdapter, RightHandSideIsMinusTheVelocityProductTerm) {
  for (const Case& c : cases()) {
    const auto m = c.make(true);
    const Extracted e = extract(*m);
    const Vector<double> u = speeds(*m);
    const Probe Gu = [&](const SimTK::State& s) {
      SimTK::Matrix G;
      m->matter.calcG(s, G);
      return Vector<double>(to_eigen(G) * u);
    };
    // d/dt (G u) at fixed u is Ġu = −b.
    EXPECT_TRUE(difference_agrees(*m, u, SimTK::Stage::Velocity, Gu, Vector<double>(-e.system.b), "Ġu = −b"));
    EXPECT_FALSE(difference_agrees(*m, u, SimTK::Stage::Velocity, Gu, Vector<double>::Zero(e.system.b.size()),
                                   "Ġu = 0 (the velocity-product term dropped)"));
    EXPECT_FALSE(difference_agrees(*m, u, SimTK::Stage::Velocity, Gu, off_by_1e6(Vector<double>(-e.system.b)),
                                   "Ġu, off by 1e-6"));
  }
}

// ½uᵀMu against Simbody's kinetic energy at u = e_i and e_i + e_j: every
// entry of M's symmetric part. Rounding: the energy and the product are each
// within a few ε·‖M‖ of exact, so 16·n·ε·‖M‖_max is ample; a 1e-6 relative
// error in one entry is far above it.
bool mass_matrix_agrees(const Mechanism& m, const Matrix<double>& M) {
  const int n = m.state.getNU();
  const double tol = 16 * n * kEps * M.cwiseAbs().maxCoeff();
  double worst = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      SimTK::State s = m.state;
      s.updU() = 0;
      s.updU()[i] = 1;
      if (j != i) s.updU()[j] = 1;
      m.system.realize(s, SimTK::Stage::Velocity);
      const Vector<double> u = to_eigen(s.getU());
      worst = std::max(worst, std::abs(m.matter.calcKineticEnergy(s) - 0.5 * u.dot(M * u)));
    }
  std::cout << "  M: |KE − ½uᵀMu| " << worst << ", tolerance " << tol << "\n";
  return worst <= tol;
}

TEST(SimbodyAdapter, MassMatrixGivesTheKineticEnergy) {
  for (const Case& c : cases()) {
    const auto m = c.make(true);
    const Extracted e = extract(*m);
    EXPECT_TRUE(mass_matrix_agrees(*m, e.system.M)) << c.name;
    Matrix<double> wrong = e.system.M;
    wrong(0, 1) *= 1 + 1e-6;
    wrong(1, 0) *= 1 + 1e-6;
    EXPECT_FALSE(mass_matrix_agrees(*m, wrong)) << c.name;
  }
}

// At u = 0 the applied force is gravity alone: Q = −∂V/∂q.
TEST(SimbodyAdapter, AppliedForceAtRestIsMinusTheGradientOfThePotential) {
  for (const Case& c : cases()) {
    const auto m = c.make(false);
    const Extracted e = extract(*m);
    const Probe V = [&](const SimTK::State& s) { return Vector<double>::Constant(1, m->system.calcPotentialEnergy(s)); };
    for (int i = 0; i < e.system.n(); ++i) {
      const Vector<double> ei = Vector<double>::Unit(e.system.n(), i);
      EXPECT_TRUE(difference_agrees(*m, ei, SimTK::Stage::Dynamics, V, Vector<double>::Constant(1, -e.system.Q(i)),
                                    "−∂V/∂q_i = Q_i"))
          << c.name << " " << i;
      const double scale = std::max(1.0, e.system.Q.lpNorm<Eigen::Infinity>());
      EXPECT_FALSE(difference_agrees(*m, ei, SimTK::Stage::Dynamics, V,
                                     Vector<double>::Constant(1, -e.system.Q(i) + 1e-6 * scale), "Q_i off by 1e-6"))
          << c.name << " " << i;
    }
  }
}

// Simbody's u̇ against the exact Gauss solution of the extracted doubles,
// their rank decided at the data's precision (rank 2 for the planar loops,
// whose ball's z row is redundant; 5 for Bricard's weld). Both approximate the rank-2 Gauss solution of these data within
// the rounded-data bound (support/rounded_bound.hpp) if Simbody's solve is
// backward stable, so they agree within twice it. Also: Simbody's
// multipliers, in femc's sign, give its constraint force, M u̇ − Q = Aᵀλ.
TEST(SimbodyAdapter, SimbodysAccelerationsAreTheGaussSolutionOfItsData) {
  for (const Case& c : cases()) {
    const auto m = c.make(true);
    const Extracted e = extract(*m);
    const std::string json = to_solve_json(e, c.name, "test");
    const SystemText text = read_system_text(json);
    ASSERT_TRUE(text.every_number_could_be_double);
    const System<double> back = to_system<double>(text);
    EXPECT_EQ(back.M, e.system.M);  // written exactly
    EXPECT_EQ(back.A, e.system.A);
    EXPECT_EQ(back.b, e.system.b);
    EXPECT_EQ(back.Q, e.system.Q);

    const System<rational> data = to_system<rational>(text);
    Options<rational> opt{Method::Exact};
    opt.data_precision = kDoubleData;
    const Solution<rational> exact = solve(data, opt);
    EXPECT_EQ(exact.diagnostics.rank.rank, c.rank) << c.name;
    System<rational> sym = data;  // the bound's conditioning, M symmetrized
    sym.M = (data.M + data.M.transpose()) / rational(2);
    const double bound = 2 * test::bound_per_u(sym, c.rank, e.udot.lpNorm<Eigen::Infinity>()) * test::kDoubleU;
    double err = 0;
    for (Index i = 0; i < e.udot.size(); ++i) err = std::max(err, std::abs(test::to_double(exact.qdd(i)) - e.udot(i)));
    std::cout << c.name << ": |q̈ − Simbody u̇|∞ " << err << ", bound " << bound << ", slack "
              << bound / std::max(err, 1e-300) << "\n";
    EXPECT_LE(err, bound) << c.name;

    const Vector<double> force = e.system.M * e.udot - e.system.Q, from_lambda = e.system.A.transpose() * e.lambda;
    const double scale = e.system.M.cwiseAbs().maxCoeff() * e.udot.lpNorm<Eigen::Infinity>() +
                         e.system.Q.lpNorm<Eigen::Infinity>() +
                         e.system.A.cwiseAbs().maxCoeff() * e.lambda.lpNorm<Eigen::Infinity>();
    EXPECT_LE((force - from_lambda).lpNorm<Eigen::Infinity>(), 16 * e.system.n() * kEps * scale) << c.name;
    EXPECT_GT((force + from_lambda).lpNorm<Eigen::Infinity>(), 16 * e.system.n() * kEps * scale)
        << "Simbody's own sign would pass too: the check could not fail";
  }
}

}  // namespace
}  // namespace femc::engines::simbody
