// The engines' planar loops against femc's own construction of them at 256
// bits (issue "Three more engines": the engines' mechanisms from femc's model
// files). engines/common/…/planar_loop_model.hpp writes each loop of
// planar_loop.hpp as a femc model file; femc reads it, evaluates M, A, b, Q
// at MPFR 256 bits at the engine's own joint angles q (at rest) and solves
// it there. Through the map T = ∂x/∂q from the engine's joint angles to the
// model's maximal coordinates (along which the model's tree pins hold
// identically, checked below) the engine's data must be the model's:
//   M_e = TᵀM T,   Q_e = TᵀQ (at rest),   Null(J_e) = Null(A T),
// and a hard-constraint engine's answer u̇ the model's q̈ = T⁺ẍ.
//
// Tolerances (each printed with its slack):
//   M, Q: 16·n·ε relative to |·|∞, the two O(n) recursions' rounding (as
//   test_same_mechanisms.cpp);
//   the null spaces' orthogonal projectors: 16·n·ε/(σ_r/σ₁) (Wedin: one
//   side is exact here, the engine's Jacobian rounded by 16·n·ε·σ₁);
//   Simbody's u̇ against the model's q̈: twice the rounded-data bound
//   (support/rounded_bound.hpp, c = 16(n + m)²) of the model's exact
//   joint-space system, as the adapter's own test takes against the exact
//   solution of Simbody's data: the engine's data are within 16·n·ε of the
//   model's (the first checks), which that constant covers.
// MuJoCo's constraints are soft, its answer is not the hard solution: its
// data (M, J, Q) are checked, its answer is test_mujoco_adapter's. Bullet
// exposes M⁻¹ (calcAccelerationDeltasMultiDof), not M: its M⁻¹ and free
// acceleration v*/h at rest are held to (TᵀM T)⁻¹ and (TᵀM T)⁻¹TᵀQ with the
// same constant, 16·n·ε of |M⁻¹|∞ and of |M⁻¹||Q|∞; its answer is a
// velocity-level step, test_bullet_adapter's. Slack (Bullet 3.24): M⁻¹
// 11–144, M⁻¹Q 69–870, null spaces 50–2e6.
// ODE works in maximal coordinates in space, u = (v, ω) of each body's
// centre (engines/ode/…/ode.hpp), and the model in the plane's, x, y, θ of
// each link's centre: the two meet through the embedding S (ẋ, ẏ, θ̇) ↦
// (v = (ẋ, ẏ, 0), ω = (0, 0, θ̇)), the same bodies in the same order. Then
// SᵀM_ode S = the model's M, SᵀQ_ode = its Q (at rest, where ODE's Q is
// gravity alone), and Null(J_ode) = S·Null(A): ODE's hinges in space must
// admit no motion out of the plane. The null spaces' tolerance is Wedin's
// with ODE's own gap σ_r/σ₁ of J_ode (its one redundant row makes the model's
// gap the wrong one): 16·n·ε/gap, n = 6 per body; ODE's pose is its Newton
// assembly's, within 1e-15 of the model's x(q) (q read from ODE's rotations),
// which moves J by less than that. ODE's rows are soft: its answer is
// test_ode_adapter's. Slack (ODE 0.16.2, 2026-12-03): SᵀMS 2.3e3–9.2e3, Q
// exact, null spaces 220–1700 (285 at the change-point four-bar's
// θ = 1e-4, ODE's gap 1.5e-5).
// Slack measured (2026-12-02, Simbody 3.7, MuJoCo 2.2.2): M and Q 40–450
// where they differ at all (|ΔM| is 0 at some states); the null spaces 60–180
// at generic angles, 1e4–1e6 on the change-point four-bar at θ = 1e-2 and
// 1e-4 (Wedin's worst case grows as 1/θ, the engines' rounding does not lie
// along the closing direction); Simbody's u̇ 6e3–1e6, its error growing to
// 6e-11 at θ = 1e-4 (2.6e-12 relative) where the bound reaches 1.8e-6: the
// rounded-data bound's constant 16(n + m)² and its κ(M)·κ(P) are worst cases.
// There an answer off by 8e-8 relative would pass: the answer check is the
// adapter test's bound, not a tight one (the data checks are within 40–450).
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cstdio>
#include <iostream>

#include "femc/engines/planar_loop_model.hpp"
#include "femc/io/json_model.hpp"
#include "femc/models/planar.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "support/rounded_bound.hpp"
#ifdef FEMC_TEST_SIMBODY
#include "femc/engines/simbody.hpp"
#endif
#ifdef FEMC_TEST_MUJOCO
#include "femc/engines/mujoco.hpp"
#endif
#ifdef FEMC_TEST_BULLET
#include "femc/engines/bullet.hpp"
#endif
#ifdef FEMC_TEST_ODE
#include "femc/engines/ode.hpp"
#endif

namespace femc::engines {
namespace {

constexpr double kEps = 0x1p-52;
constexpr long kBits = 256;

// What an engine gives at a state: its joint angles, its data and, for a
// hard-constraint engine, its accelerations.
struct EngineState {
  std::string engine, mechanism;
  const planar_loop::Loop* loop;
  std::vector<double> q;
  Matrix<double> M, J;
  Vector<double> Q;
  Vector<double> hard_answer;  // empty for a soft engine
  // An engine that gives M⁻¹ and the free acceleration M⁻¹Q instead of M
  // and Q (Bullet): M and Q empty.
  Matrix<double> Minv;
  Vector<double> free_accel;
  // An engine in maximal coordinates in space (ODE): M, Q and J are its
  // own, 6 per body, and the model's data are compared in the model's
  // maximal coordinates through the embedding S (the header).
  bool maximal = false;
};

std::vector<EngineState> engine_states() {
  std::vector<EngineState> out;
  // Generic crank angles of the crank-rocker, and the change-point four-bar
  // towards its fold at θ = 0, where the closure's second singular value is
  // O(θ) and each tolerance grows with the conditioning.
  const std::vector<double> thetas{1.0, 2.5}, near_fold{1e-2, 1e-4};
  auto sci = [](double x) {
    char b[16];
    std::snprintf(b, sizeof b, "%.0e", x);
    return std::string(b);
  };
  auto as_vector = [](const Vector<double>& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
#ifdef FEMC_TEST_SIMBODY
  auto simbody_state = [&](std::unique_ptr<simbody::Mechanism> m, const planar_loop::Loop& L, const std::string& at) {
    const simbody::Extracted e = simbody::extract(*m);
    out.push_back({"Simbody", L.name + " " + at, &L, as_vector(simbody::to_eigen(m->state.getQ())), e.system.M,
                   e.system.A, e.system.Q, e.udot});
  };
  for (double t : thetas)
    simbody_state(simbody::four_bar(t, 0.0), planar_loop::kCrankRocker, "θ = " + std::to_string(t));
  for (double t : near_fold)
    simbody_state(simbody::four_bar(t, 0.0, planar_loop::kChangePoint), planar_loop::kChangePoint, "θ = " + sci(t));
  simbody_state(simbody::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, {0, 0, 0, 0}),
                planar_loop::kClosedChain, "at its start");
#endif
#ifdef FEMC_TEST_MUJOCO
  auto mujoco_state = [&](std::unique_ptr<mujoco::Model> m, const planar_loop::Loop& L, const std::string& at) {
    const mujoco::Extracted e = mujoco::extract(*m);
    out.push_back({"MuJoCo", L.name + " " + at, &L, as_vector(m->qpos()), e.M, e.J, e.Q, Vector<double>()});
  };
  for (double t : thetas)
    mujoco_state(mujoco::four_bar(t, 0.0), planar_loop::kCrankRocker, "θ = " + std::to_string(t));
  for (double t : near_fold)
    mujoco_state(mujoco::four_bar(t, 0.0, {}, planar_loop::kChangePoint), planar_loop::kChangePoint, "θ = " + sci(t));
  mujoco_state(mujoco::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, {0, 0, 0, 0}),
               planar_loop::kClosedChain, "at its start");
#endif
#ifdef FEMC_TEST_BULLET
  // Bullet's M⁻¹ (calcAccelerationDeltasMultiDof) and, at rest, its free
  // motion's acceleration v*/h, read inside one step; both fixed-base
  // topologies (the loop between two multibodies and within one).
  auto bullet_state = [&](const planar_loop::Loop& L, double theta, bullet::Topology t, const std::string& at) {
    bullet::Settings s;
    s.topology = t;
    const auto m = bullet::four_bar(theta, 0.0, s, L);
    const Vector<double> q = m->q();
    const bullet::Extracted e = m->step();
    out.push_back({"Bullet (" + bullet::to_string(t) + ")", L.name + " " + at, &L, as_vector(q), Matrix<double>(),
                   e.J, Vector<double>(), Vector<double>(), e.Minv, Vector<double>((e.v_star - e.v) / s.h)});
  };
  for (bullet::Topology t : {bullet::Topology::two_multibodies, bullet::Topology::one_multibody}) {
    for (double th : thetas) bullet_state(planar_loop::kCrankRocker, th, t, "θ = " + std::to_string(th));
    for (double th : near_fold) bullet_state(planar_loop::kChangePoint, th, t, "θ = " + sci(th));
  }
#endif
#ifdef FEMC_TEST_ODE
  // ODE at rest: its joint angles read from its bodies' rotations (links,
  // then the rocker), its M and Q before the step, its rebuilt rows (checked
  // against ODE's own feedback by test_ode_adapter).
  auto ode_state = [&](std::unique_ptr<ode::Mechanism> m, const planar_loop::Loop& L, const std::string& at) {
    std::vector<double> q;
    double previous = 0;
    const std::vector<ode::BodyState> bodies = m->state();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const double phi = std::atan2(bodies[i].rotation(1, 0), bodies[i].rotation(0, 0));
      q.push_back(i + 1 < bodies.size() ? phi - previous : phi);
      previous = phi;
    }
    const ode::Extracted e = ode::extract(*m);
    EngineState st{"ODE", L.name + " " + at, &L, q, e.M, e.rows.J, e.Q, Vector<double>()};
    st.maximal = true;
    out.push_back(st);
  };
  for (double t : thetas) ode_state(ode::four_bar(t, 0.0), planar_loop::kCrankRocker, "θ = " + std::to_string(t));
  for (double t : near_fold)
    ode_state(ode::four_bar(t, 0.0, planar_loop::kChangePoint), planar_loop::kChangePoint, "θ = " + sci(t));
  ode_state(ode::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, {0, 0, 0, 0}),
            planar_loop::kClosedChain, "at its start");
#endif
  return out;
}

// The embedding S of the plane's maximal coordinates (x, y, θ per body) in
// space's (v, ω per body), 6k × 3k.
Matrix<double> plane_in_space(Index bodies) {
  Matrix<double> S = Matrix<double>::Zero(6 * bodies, 3 * bodies);
  for (Index b = 0; b < bodies; ++b) {
    S(6 * b, 3 * b) = S(6 * b + 1, 3 * b + 1) = 1;  // v_x, v_y
    S(6 * b + 5, 3 * b + 2) = 1;                    // ω_z
  }
  return S;
}

// A 256-bit matrix or vector in double, by the claims' conversion (prop::as_double).
template <class X>
Matrix<double> as_double(const X& x) {
  return x.unaryExpr([](const mpfr_real& v) { return prop::as_double(v); });
}

// The orthogonal projector onto the null space of X, of rank r, in double.
Matrix<double> null_projector(const Matrix<double>& X, Index r, double* gap) {
  Eigen::JacobiSVD<Matrix<double>> svd(X, Eigen::ComputeFullV);
  *gap = svd.singularValues()(r - 1) / svd.singularValues()(0);
  const Matrix<double> N = svd.matrixV().rightCols(X.cols() - r);
  return N * N.transpose();
}

// femc's construction at the engine's q: the joint-space data and answer.
struct Femc {
  Matrix<double> M, AT;
  Vector<double> Q, qdd;
  Matrix<double> Mx, Ax;  // the model's own, in its maximal coordinates
  Vector<double> Qx;
  Matrix<double> Minv;       // (TᵀM T)⁻¹
  Vector<double> free_accel; // (TᵀM T)⁻¹ TᵀQ
  double tree_residual;   // |A T| over the tree pins' rows: 0 to 256 bits if T is right
  System<rational> joint_system;  // M = TᵀM T, the closure's rows of A T, b = 0, Q = TᵀQ, exactly
};

Femc femc_at(const planar_loop::Loop& L, const std::vector<double>& q) {
  MpfrPrecision bits(kBits);
  const PlanarModelText text = read_planar_model_text(planar_loop::model_file(L, q));
  const models::PlanarModel<mpfr_real> model = to_planar_model<mpfr_real>(text);
  const Vector<mpfr_real> x = planar_loop::maximal_coordinates<mpfr_real>(L, q);
  const System<mpfr_real> sys = models::system_at(model, x, Vector<mpfr_real>(Vector<mpfr_real>::Zero(x.size())));
  const Matrix<mpfr_real> T = planar_loop::coordinate_map<mpfr_real>(L, q);
  const Matrix<mpfr_real> MT = T.transpose() * sys.M * T, AT = sys.A * T;
  const Vector<mpfr_real> QT = T.transpose() * sys.Q;
  const Solution<mpfr_real> s = solve(sys, Options<mpfr_real>{});
  const Vector<mpfr_real> qdd = T.householderQr().solve(s.qdd);  // ẍ = T q̈ exactly: the model's pins hold
  const Eigen::PartialPivLU<Matrix<mpfr_real>> lu(MT);
  const Matrix<mpfr_real> Minv = lu.inverse();
  const Vector<mpfr_real> free_accel = lu.solve(QT);
  Femc out{as_double(MT), as_double(AT),     as_double(QT), as_double(qdd), as_double(sys.M), as_double(sys.A),
           as_double(sys.Q), as_double(Minv), as_double(free_accel), 0, {}};
  const Index closure = 2;  // the pin R, the file's last joint
  out.tree_residual = as_double(AT.topRows(AT.rows() - closure)).cwiseAbs().maxCoeff();
  out.joint_system = make_system<rational>(
      prop::to_rational(Matrix<mpfr_real>((MT + MT.transpose()) / 2)),
      prop::to_rational(Matrix<mpfr_real>(AT.bottomRows(closure))), Vector<rational>::Zero(closure),
      prop::to_rational(QT));
  return out;
}

// An engine in space's maximal coordinates (ODE) against the model's
// through the embedding S (the header): SᵀM S and SᵀQ against M and Q with
// the joint-space tolerance 16·n·ε (n = 3 per body), Null(J) against
// S·Null(A) with 16·n·ε/gap (n = 6 per body, gap ODE's own σ_r/σ₁).
void check_in_space(const EngineState& e, const Femc& f) {
  const Index bodies = f.Mx.rows() / 3, n = 3 * bodies, dofs = Index(e.q.size()) - 2;
  const Matrix<double> S = plane_in_space(bodies);
  ASSERT_EQ(e.M.rows(), 6 * bodies) << "the engine's bodies are not the model's";
  const Matrix<double> M = S.transpose() * e.M * S;
  const Vector<double> Q = S.transpose() * e.Q;
  const double M_tol = 16 * n * kEps * f.Mx.cwiseAbs().maxCoeff(), M_err = (M - f.Mx).cwiseAbs().maxCoeff();
  const double Q_tol = 16 * n * kEps * f.Qx.lpNorm<Eigen::Infinity>(), Q_err = (Q - f.Qx).lpNorm<Eigen::Infinity>();
  // ODE's force out of the plane: none at rest under gravity along −y.
  const double off_plane = (e.Q - S * Q).lpNorm<Eigen::Infinity>();
  double gap_e, gap_f;
  const Matrix<double> Pe = null_projector(e.J, 6 * bodies - dofs, &gap_e);
  const Matrix<double> Pf = S * null_projector(f.Ax, n - dofs, &gap_f) * S.transpose();
  const double N_err = (Pe - Pf).cwiseAbs().maxCoeff(), N_tol = 16 * 6 * bodies * kEps / gap_e;
  std::cout << e.engine << ", " << e.mechanism << ": |ΔSᵀMS| " << M_err << " (tolerance " << M_tol << ", slack "
            << M_tol / std::max(M_err, 1e-300) << "), |ΔSᵀQ| " << Q_err << " (" << Q_tol << ", slack "
            << Q_tol / std::max(Q_err, 1e-300) << "), Q out of the plane " << off_plane
            << ", |Δ null-space projector| " << N_err << " (" << N_tol << ", slack "
            << N_tol / std::max(N_err, 1e-300) << ", ODE's gap " << gap_e << ")\n";
  EXPECT_LE(M_err, M_tol);
  EXPECT_LE(Q_err, Q_tol);
  EXPECT_EQ(off_plane, 0);
  EXPECT_LE(N_err, N_tol);
  // The checks can fail: the model's first rod 1e-6 longer moves its
  // inertia and its null space by far more than their tolerances; in
  // maximal coordinates gravity's force does not depend on the lengths, so
  // for Q an engine's force off by 1e-6 of its largest entry must fail.
  planar_loop::Loop longer = *e.loop;
  longer.serial.front() *= 1 + 1e-6;
  const Femc g = femc_at(longer, e.q);
  double gap;
  EXPECT_GT((M - g.Mx).cwiseAbs().maxCoeff(), M_tol) << "a 1e-6 longer first link passes M";
  EXPECT_GT((Pe - S * null_projector(g.Ax, n - dofs, &gap) * S.transpose()).cwiseAbs().maxCoeff(), N_tol)
      << "a 1e-6 longer first link passes the null space's check";
  Vector<double> wrong = Q;
  wrong(1) += 1e-6 * f.Qx.lpNorm<Eigen::Infinity>();
  EXPECT_GT((wrong - f.Qx).lpNorm<Eigen::Infinity>(), Q_tol) << "a force off by 1e-6 passes Q";
}

TEST(ModelFiles, EachEnginesDataAreFemcsOwnConstructionAt256Bits) {
  const std::vector<EngineState> states = engine_states();
  // CMake builds this test only with one of the adapters: no state is a defect.
  ASSERT_FALSE(states.empty()) << "built without the Simbody, MuJoCo, Bullet and ODE adapters";
  for (const EngineState& e : states) {
    SCOPED_TRACE(e.engine + ", " + e.mechanism);
    const Femc f = femc_at(*e.loop, e.q);
    const Index n = Index(e.q.size()), r = 2;
    EXPECT_LE(f.tree_residual, 1e-60) << "T is not the tree's map: the checks below would mean nothing";
    if (e.maximal) {
      check_in_space(e, f);
      continue;
    }

    // M and Q, or (Bullet) M⁻¹ and the free acceleration M⁻¹Q: 16·n·ε of
    // |·|∞, respectively of |M⁻¹||Q|∞ (the same recursions' rounding).
    const bool inverse = e.M.size() == 0;
    auto M_of = [&](const Femc& x) { return inverse ? x.Minv : x.M; };
    auto Q_of = [&](const Femc& x) { return inverse ? x.free_accel : x.Q; };
    const Matrix<double>& eM = inverse ? e.Minv : e.M;
    const Vector<double>& eQ = inverse ? e.free_accel : e.Q;
    const double M_tol = 16 * n * kEps * M_of(f).cwiseAbs().maxCoeff(), M_err = (eM - M_of(f)).cwiseAbs().maxCoeff();
    const double Q_scale = inverse ? (f.Minv.cwiseAbs() * f.Q.cwiseAbs()).lpNorm<Eigen::Infinity>()
                                   : f.Q.lpNorm<Eigen::Infinity>();
    const double Q_tol = 16 * n * kEps * Q_scale, Q_err = (eQ - Q_of(f)).lpNorm<Eigen::Infinity>();
    double gap_e, gap_f;
    const Matrix<double> Pe = null_projector(e.J, r, &gap_e), Pf = null_projector(f.AT.bottomRows(2), r, &gap_f);
    const double N_err = (Pe - Pf).cwiseAbs().maxCoeff(), N_tol = 16 * n * kEps / gap_f;
    const char* M_name = inverse ? "M⁻¹" : "M";
    const char* Q_name = inverse ? "M⁻¹Q" : "Q";
    std::cout << e.engine << ", " << e.mechanism << ": |Δ" << M_name << "| " << M_err << " (tolerance " << M_tol
              << ", slack " << M_tol / std::max(M_err, 1e-300) << "), |Δ" << Q_name << "| " << Q_err << " (" << Q_tol
              << ", slack " << Q_tol / std::max(Q_err, 1e-300) << "), |Δ null-space projector| " << N_err << " ("
              << N_tol << ", slack " << N_tol / std::max(N_err, 1e-300) << ")";
    EXPECT_LE(M_err, M_tol);
    EXPECT_LE(Q_err, Q_tol);
    EXPECT_LE(N_err, N_tol);
    // The checks can fail: the model's first rod 1e-6 longer moves M and
    // the null space by far more than their tolerances.
    {
      planar_loop::Loop longer = *e.loop;
      longer.serial.front() *= 1 + 1e-6;  // the first rod 1e-6 longer: its inertia and its pins move
      const Femc g = femc_at(longer, e.q);
      EXPECT_GT((eM - M_of(g)).cwiseAbs().maxCoeff(), M_tol) << "a 1e-6 longer first link passes " << M_name;
      EXPECT_GT((eQ - Q_of(g)).lpNorm<Eigen::Infinity>(), Q_tol) << "a 1e-6 longer first link passes " << Q_name;
      double gap;
      EXPECT_GT((Pe - null_projector(g.AT.bottomRows(2), r, &gap)).cwiseAbs().maxCoeff(), N_tol)
          << "a 1e-6 longer first link passes the null space's check";
    }

    if (e.hard_answer.size() == 0) {
      std::cout << "\n";
      continue;
    }
    const double qdd_inf = f.qdd.lpNorm<Eigen::Infinity>();
    const double bound = 2 * test::bound_per_u(f.joint_system, r, qdd_inf) * test::kDoubleU;
    const double err = (e.hard_answer - f.qdd).lpNorm<Eigen::Infinity>();
    std::cout << "; |u̇ − q̈|∞ " << err << " (bound " << bound << ", slack " << bound / std::max(err, 1e-300)
              << ", |q̈|∞ " << qdd_inf << ")\n";
    EXPECT_LE(err, bound);
    // The bound can fail: an answer off by 1e-6 relative does.
    Vector<double> wrong = e.hard_answer;
    wrong(0) += 1e-6 * qdd_inf;
    EXPECT_GT((wrong - f.qdd).lpNorm<Eigen::Infinity>(), bound) << "an answer off by 1e-6 passes";
  }
}

}  // namespace
}  // namespace femc::engines
