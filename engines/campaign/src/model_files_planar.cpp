// The engines' planar loops against femc's own construction of them at 256
// bits (model_files.hpp). engines/common/…/planar_loop_model.hpp writes each
// loop of planar_loop.hpp as a femc model file; femc reads it, evaluates
// M, A, b, Q at MPFR 256 bits at the engine's own joint angles q (at rest)
// and solves it there. Through the map T = ∂x/∂q from the engine's joint
// angles to the model's maximal coordinates (along which the model's tree
// pins hold identically: the "tree map" check) the engine's data must be the
// model's:
//   M_e = TᵀM T,   Q_e = TᵀQ (at rest),   Null(J_e) = Null(A T),
// and a hard-constraint engine's answer u̇ the model's q̈ = T⁺ẍ.
//
// Tolerances:
//   M, Q: 16·n·ε relative to |·|∞, the two O(n) recursions' rounding (as
//   test_same_mechanisms.cpp);
//   the null spaces' orthogonal projectors: 16·n·ε/(σ_r/σ₁) (Wedin: one
//   side is exact here, the engine's Jacobian rounded by 16·n·ε·σ₁, σ's the
//   engine's: its rows need not be the model's, only span the same space);
//   Simbody's u̇ against the model's q̈: twice the rounded-data bound
//   (verify/exact_data.hpp, c = 16(n + m)²) of the model's exact joint-space
//   system, as the adapter's own test takes against the exact solution of
//   Simbody's data: the engine's data are within 16·n·ε of the model's (the
//   first checks), which that constant covers. The bound's constant and its
//   κ(M)·κ(P) are worst cases: near the change-point four-bar's fold it
//   admits answers off by 1e-7 relative, where the data checks stay tight.
// MuJoCo's constraints are soft, its answer is not the hard solution: its
// data (M, J, Q) are checked, its answer is its campaign's. Bullet exposes
// M⁻¹ (calcAccelerationDeltasMultiDof), not M: its M⁻¹ and free
// acceleration v*/h at rest are held to (TᵀM T)⁻¹ and (TᵀM T)⁻¹TᵀQ with the
// same constant, 16·n·ε of |M⁻¹|∞ and of |M⁻¹||Q|∞; its answer is a
// velocity-level step, its campaign's.
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
// which moves J by less than that. ODE's rows are soft: its answer is its
// campaign's.
//
// The wrong models: the first link 1e-6 longer moves M, Q (in joint angles)
// and the null space by far more than their tolerances; in maximal
// coordinates gravity's force does not depend on the lengths, so there the
// wrong Q is the engine's force off by 1e-6 of its largest entry; an answer
// off by 1e-6 relative for u̇.
#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <cstdio>
#include <memory>

#include "femc/engines/planar_loop_model.hpp"
#include "femc/io/json_model.hpp"
#include "femc/models/planar.hpp"
#include "femc/solve.hpp"
#include "model_files_detail.hpp"
#ifdef FEMC_HAVE_SIMBODY
#include "femc/engines/simbody.hpp"
#endif
#ifdef FEMC_HAVE_MUJOCO
#include "femc/engines/mujoco.hpp"
#endif
#ifdef FEMC_HAVE_BULLET
#include "femc/engines/bullet.hpp"
#endif
#ifdef FEMC_HAVE_ODE
#include "femc/engines/ode.hpp"
#endif

namespace femc::engines::model_files {
namespace {

// What an engine gives at a state: its joint angles, its data and, for a
// hard-constraint engine, its accelerations.
struct EngineState {
  std::string engine, mechanism, state;
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

// A near-fold angle as its label writes it: one digit and the exponent (1e-02).
std::string exponent_label(double x) {
  char b[16];
  std::snprintf(b, sizeof b, "%.0e", x);
  return b;
}
std::string angle(double t) {
  char b[16];
  std::snprintf(b, sizeof b, "%g", t);
  return "θ = " + std::string(b);
}

// The states every engine is checked at: generic crank angles of the
// crank-rocker, the change-point four-bar towards its fold at θ = 0 (where
// the closure's second singular value is O(θ) and each tolerance grows with
// the conditioning), and the closed chain at its start; `four_bar(θ, loop)`
// and `chain()` build them in the engine, `add` records one.
const std::vector<double> kCrankAngles{1.0, 2.5}, kNearFold{1e-2, 1e-4};

template <class Add, class FourBar, class Chain>
void each_state(Add&& add, FourBar&& four_bar, Chain&& chain) {
  for (double t : kCrankAngles) add(four_bar(t, planar_loop::kCrankRocker), planar_loop::kCrankRocker, angle(t));
  for (double t : kNearFold) add(four_bar(t, planar_loop::kChangePoint), planar_loop::kChangePoint, "θ = " + exponent_label(t));
  add(chain(), planar_loop::kClosedChain, "at its start");
}

std::vector<EngineState> engine_states([[maybe_unused]] const std::string& engine) {
  std::vector<EngineState> out;
  [[maybe_unused]] auto as_vector = [](const Vector<double>& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
  };
  [[maybe_unused]] const std::vector<double> at_rest{0, 0, 0, 0};  // the closed chain's leading speeds
#ifdef FEMC_HAVE_SIMBODY
  if (engine == "simbody")
    each_state(
        [&](std::unique_ptr<simbody::Mechanism> m, const planar_loop::Loop& L, const std::string& at) {
          const simbody::Extracted e = simbody::extract(*m);
          out.push_back({"Simbody", L.name, at, &L, as_vector(simbody::to_eigen(m->state.getQ())), e.system.M,
                         e.system.A, e.system.Q, e.udot});
        },
        [](double t, const planar_loop::Loop& L) { return simbody::four_bar(t, 0.0, L); },
        [&] { return simbody::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, at_rest); });
#endif
#ifdef FEMC_HAVE_MUJOCO
  if (engine == "mujoco")
    each_state(
        [&](std::unique_ptr<mujoco::Model> m, const planar_loop::Loop& L, const std::string& at) {
          const mujoco::Extracted e = mujoco::extract(*m);
          out.push_back({"MuJoCo", L.name, at, &L, as_vector(m->qpos()), e.M, e.J, e.Q, Vector<double>()});
        },
        [](double t, const planar_loop::Loop& L) { return mujoco::four_bar(t, 0.0, {}, L); },
        [&] { return mujoco::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, at_rest); });
#endif
#ifdef FEMC_HAVE_BULLET
  if (engine == "bullet") {
    // Bullet's M⁻¹ (calcAccelerationDeltasMultiDof) and, at rest, its free
    // motion's acceleration v*/h, read inside one step; both fixed-base
    // topologies (the loop between two multibodies and within one). The
    // adapter builds four-bars only: no closed chain.
    for (bullet::Topology t : {bullet::Topology::two_multibodies, bullet::Topology::one_multibody}) {
      bullet::Settings s;
      s.topology = t;
      auto add = [&](const planar_loop::Loop& L, double theta, const std::string& at) {
        const auto m = bullet::four_bar(theta, 0.0, s, L);
        const Vector<double> q = m->q();
        const bullet::Extracted e = m->step();
        out.push_back({"Bullet (" + bullet::to_string(t) + ")", L.name, at, &L, as_vector(q), Matrix<double>(), e.J,
                       Vector<double>(), Vector<double>(), e.Minv, Vector<double>((e.v_star - e.v) / s.h)});
      };
      for (double th : kCrankAngles) add(planar_loop::kCrankRocker, th, angle(th));
      for (double th : kNearFold) add(planar_loop::kChangePoint, th, "θ = " + exponent_label(th));
    }
  }
#endif
#ifdef FEMC_HAVE_ODE
  if (engine == "ode")
    // ODE at rest: its joint angles read from its bodies' rotations (links,
    // then the rocker), its M and Q before the step, its rebuilt rows
    // (checked against ODE's own feedback by its adapter's test).
    each_state(
        [&](std::unique_ptr<ode::Mechanism> m, const planar_loop::Loop& L, const std::string& at) {
          std::vector<double> q;
          double previous = 0;
          const std::vector<ode::BodyState> bodies = m->state();
          for (std::size_t i = 0; i < bodies.size(); ++i) {
            const double phi = std::atan2(bodies[i].rotation(1, 0), bodies[i].rotation(0, 0));
            q.push_back(i + 1 < bodies.size() ? phi - previous : phi);
            previous = phi;
          }
          const ode::Extracted e = ode::extract(*m);
          EngineState st{"ODE", L.name, at, &L, q, e.M, e.rows.J, e.Q, Vector<double>()};
          st.maximal = true;
          out.push_back(st);
        },
        [](double t, const planar_loop::Loop& L) { return ode::four_bar(t, 0.0, L); },
        [&] { return ode::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, at_rest); });
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

// femc's construction at the engine's q: the joint-space data and answer.
struct Femc {
  Matrix<double> M, AT;
  Vector<double> Q, qdd;
  Matrix<double> Mx, Ax;  // the model's own, in its maximal coordinates
  Vector<double> Qx;
  Matrix<double> Minv;        // (TᵀM T)⁻¹
  Vector<double> free_accel;  // (TᵀM T)⁻¹ TᵀQ
  double tree_residual;       // |A T| over the tree pins' rows: 0 to 256 bits if T is right
  System<rational> joint_system;  // M = TᵀM T, the closure's rows of A T, b = 0, Q = TᵀQ, exactly
};

Femc femc_at(const planar_loop::Loop& L, const std::vector<double>& q) {
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
  Femc out{as_double_matrix(MT),   as_double_matrix(AT),   as_double_matrix(QT),   as_double_matrix(qdd),
           as_double_matrix(sys.M), as_double_matrix(sys.A), as_double_matrix(sys.Q), as_double_matrix(Minv),
           as_double_matrix(free_accel), 0, {}};
  const Index closure = 2;  // the pin R, the file's last joint
  out.tree_residual = max_abs(as_double_matrix(AT.topRows(AT.rows() - closure)));
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
void check_in_space(const EngineState& e, const Femc& f, const Recorder& record) {
  const Index bodies = f.Mx.rows() / 3, n = 3 * bodies, dofs = Index(e.q.size()) - 2;
  const Matrix<double> S = plane_in_space(bodies);
  if (e.M.rows() != 6 * bodies) {
    record("bodies: engine's − model's", std::abs(double(e.M.rows() / 6 - bodies)), 0);
    return;
  }
  const Matrix<double> M = S.transpose() * e.M * S;
  const Vector<double> Q = S.transpose() * e.Q;
  const double M_tol = 16 * n * kEps * max_abs(f.Mx), Q_tol = 16 * n * kEps * f.Qx.lpNorm<Eigen::Infinity>();
  double gap_e, gap_f;
  const Matrix<double> Pe = null_projector(e.J, 6 * bodies - dofs, &gap_e);
  const Matrix<double> Pf = S * null_projector(f.Ax, n - dofs, &gap_f) * S.transpose();
  const double N_tol = 16 * 6 * bodies * kEps / gap_e;
  planar_loop::Loop longer = *e.loop;
  longer.serial.front() *= 1 + 1e-6;
  const Femc g = femc_at(longer, e.q);
  double gap;
  Vector<double> wrong = Q;
  wrong(1) += 1e-6 * f.Qx.lpNorm<Eigen::Infinity>();
  record("SᵀMS", max_abs(M - f.Mx), M_tol, max_abs(M - g.Mx), "first link 1e-6 longer");
  record("SᵀQ", (Q - f.Qx).lpNorm<Eigen::Infinity>(), Q_tol, (wrong - f.Qx).lpNorm<Eigen::Infinity>(),
         "force off by 1e-6");
  // ODE's force out of the plane: none at rest under gravity along −y.
  record("Q out of the plane", (e.Q - S * Q).lpNorm<Eigen::Infinity>(), 0);
  record("null space", max_abs(Pe - Pf), N_tol,
         max_abs(Pe - S * null_projector(g.Ax, n - dofs, &gap) * S.transpose()), "first link 1e-6 longer");
}

void check(const EngineState& e, std::vector<ModelFileCheck>& out) {
  const Recorder record{out, e.engine, e.mechanism, e.state};
  const Femc f = femc_at(*e.loop, e.q);
  const Index n = Index(e.q.size()), r = 2;
  // T is the tree's map, or the checks below mean nothing.
  record("tree map", f.tree_residual, 1e-60);
  if (e.maximal) return check_in_space(e, f, record);

  // M and Q, or (Bullet) M⁻¹ and the free acceleration M⁻¹Q: 16·n·ε of
  // |·|∞, respectively of |M⁻¹||Q|∞ (the same recursions' rounding).
  const bool inverse = e.M.size() == 0;
  auto M_of = [&](const Femc& x) { return inverse ? x.Minv : x.M; };
  auto Q_of = [&](const Femc& x) { return inverse ? x.free_accel : x.Q; };
  const Matrix<double>& eM = inverse ? e.Minv : e.M;
  const Vector<double>& eQ = inverse ? e.free_accel : e.Q;
  const double M_tol = 16 * n * kEps * max_abs(M_of(f));
  const double Q_scale =
      inverse ? (f.Minv.cwiseAbs() * f.Q.cwiseAbs()).lpNorm<Eigen::Infinity>() : f.Q.lpNorm<Eigen::Infinity>();
  const double Q_tol = 16 * n * kEps * Q_scale;
  // The engine's rows are any R·(A T) + E, E its rounding relative to its
  // own rows: Wedin's denominator is the engine's gap.
  double gap_e, gap_f, gap;
  const Matrix<double> Pe = null_projector(e.J, r, &gap_e), Pf = null_projector(f.AT.bottomRows(2), r, &gap_f);
  const double N_tol = 16 * n * kEps / gap_e;
  planar_loop::Loop longer = *e.loop;
  longer.serial.front() *= 1 + 1e-6;  // the first rod 1e-6 longer: its inertia and its pins move
  const Femc g = femc_at(longer, e.q);
  const std::string wrong = "first link 1e-6 longer";
  record(inverse ? "M⁻¹" : "M", max_abs(eM - M_of(f)), M_tol, max_abs(eM - M_of(g)), wrong);
  record(inverse ? "M⁻¹Q" : "Q", (eQ - Q_of(f)).lpNorm<Eigen::Infinity>(), Q_tol,
         (eQ - Q_of(g)).lpNorm<Eigen::Infinity>(), wrong);
  record("null space", max_abs(Pe - Pf), N_tol, max_abs(Pe - null_projector(g.AT.bottomRows(2), r, &gap)), wrong);
  if (e.hard_answer.size() != 0) record_answer(record, e.hard_answer, f.qdd, f.joint_system, r);
}

}  // namespace

void planar_checks(const std::string& engine, std::vector<ModelFileCheck>& out) {
  MpfrPrecision bits(kBits);
  for (const EngineState& e : engine_states(engine)) check(e, out);
}

}  // namespace femc::engines::model_files
