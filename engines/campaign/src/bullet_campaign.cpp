// Bullet on its own mechanisms (issue "Three more engines"): the planar loops
// as btMultiBody trees closed by a btMultiBodyPoint2Point, between two
// multibodies, within one and on a floating base (iv), and Bricard's
// mechanism (a weld of 6 rows, rank 5) between two multibodies and within
// one, at Bullet's impulse cap and with it lifted, along Bullet's own
// trajectories, and the change-point four-bar towards its folded
// configuration.
// (i) Does Bullet's default solver, PGS run to convergence, compute the
// solution of the problem its rows define (engines/bullet/.../bullet.hpp:
// minimize ΔvᵀMΔv subject to J Δv = m_rhs/m_jacDiagABInv)? (iii) Every
// solver Bullet offers for these rows, at its defaults and converged,
// against the same solution; (v) the defaults that change Bullet's motion,
// read from Bullet, and the findings, each with its problem as a `femc solve`
// input.
#include <Eigen/Cholesky>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <tuple>

#include "conformance.hpp"
#include "femc/engines/bullet.hpp"
#include "femc/io/system_text.hpp"
#include "femc/solve.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::engines::campaign {
namespace {

namespace loop = planar_loop;
using bullet::Extracted;
using bullet::Mechanism;
using bullet::Settings;
using bullet::SolverKind;
using bullet::Topology;

// PGS sweeps that converge every planar-loop trajectory state here to
// answer_bound (the floating base needs more than 5000: test_bullet_adapter's
// ConvergedPgsSolvesItsOwnProblem); near the change point and on Bricard's
// opened loop they do not, and the report says where.
constexpr int kConverged = 50000;

const Topology kTopologies[] = {Topology::two_multibodies, Topology::one_multibody, Topology::floating_base};

// How a mechanism is built at its start, under given settings.
using Start = std::function<std::unique_ptr<Mechanism>(const Settings&)>;

// A planar loop at its leading angles and speeds (bullet::planar_loop).
Start planar(const loop::Loop& lengths, std::vector<double> leading, std::vector<double> speeds) {
  return [lengths, leading, speeds](const Settings& s) { return bullet::planar_loop(lengths, leading, speeds, s); };
}
// Bricard's mechanism at the example's start (bullet::bricard: its angles,
// the first pin at kSpeed0 along the one motion).
Start bricard_start() {
  return [](const Settings& s) { return bullet::bricard(s); };
}
constexpr double kImpulseCap = Settings{}.max_applied_impulse;  // Bullet's default
const std::string kNoCap = ", no impulse cap";

// A state of one of Bullet's mechanisms, from which any solver takes one step.
struct State {
  std::string mechanism, state_class;
  Topology topology;
  Start start;                          // what the mechanism is built at
  Vector<double> q, u;                  // then set to (empty: as built)
  std::vector<double> base_pose;        // a floating base's
  double theta = 0, omega = 0, t = 0;   // the first joint's angle and rate
  bool weld = false;                    // Bricard's (6 rows, rank 5), not a planar loop's point-to-point
  // The closure's impulse cap (Settings::max_applied_impulse) of every step
  // from this state, by any solver: Bullet's 100 N·s, or lifted (+∞).
  double impulse_cap = kImpulseCap;
  bool cap_lifted() const { return std::isinf(impulse_cap); }
};

std::unique_ptr<Mechanism> at(const State& s, Settings settings) {
  settings.topology = s.topology;
  settings.max_applied_impulse = s.impulse_cap;
  auto m = s.start(settings);
  if (s.q.size() > 0) {
    m->set_base_pose(s.base_pose);
    m->set_q(s.q);
    m->set_u(s.u);
  }
  return m;
}

// The first joint's angle and rate (u has a floating base's six entries first).
std::pair<double, double> first_joint(const Mechanism& m) {
  const Index k = m.settings().topology == Topology::floating_base ? 6 : 0;
  return {m.q()(0), m.u()(k)};
}

// A solver as the campaign runs it.
struct Config {
  SolverKind solver;
  int iterations;
};
const Config kConfigs[] = {{SolverKind::pgs, 10},          {SolverKind::pgs, kConverged},
                           {SolverKind::mlcp_dantzig, 10}, {SolverKind::mlcp_lemke, 10},
                           {SolverKind::mlcp_lemke, kConverged}, {SolverKind::mlcp_pgs, 10},
                           {SolverKind::mlcp_pgs, kConverged}};
bool is_mlcp(SolverKind s) { return s != SolverKind::pgs; }


// One step of one solver at one state, against femc's solution of the
// problem its rows define.
struct Evaluation {
  const State* state;
  Config config;
  Extracted e;
  bullet::OwnSolution exact;
  double error = 0, bound = 0;  // |Δv − exact|∞ and answer_bound, relative to |exact Δv|∞
  bool finite = true;
  double mlcp_gap = 0, mlcp_tolerance = 0;  // the MLCP matrix against J·unitᵀ
  Index enabled = 0;                        // rows with m_jacDiagABInv ≠ 0
  // An MLCP solver's: |x|∞ of the unique solution x = A⁻¹b of the system it
  // was handed, where femc's rank is every row's (in double, LDLT: a
  // magnitude, to compare with btLemkeSolver's m_maxValue); NaN elsewhere.
  double mlcp_unique_inf = NAN;
};

Evaluation evaluate(const State& s, Config c) {
  Settings settings;
  settings.solver = c.solver;
  settings.iterations = c.iterations;
  Evaluation ev{&s, c, at(s, settings)->step(), {}};
  ev.exact = bullet::solve_own(ev.e);
  const double scale = std::max(inf_norm(ev.exact.dv), 1e-300);
  const Vector<double> dv = ev.e.dv();
  ev.finite = dv.allFinite();
  ev.error = ev.finite ? inf_norm(dv - ev.exact.dv) / scale : NAN;
  ev.bound = (ev.finite ? bullet::answer_bound(ev.e, ev.exact) : 0) / scale;
  if (is_mlcp(c.solver)) {
    const bullet::MatrixCheck m = bullet::check_mlcp_matrix(ev.e);
    ev.mlcp_gap = m.gap;
    ev.mlcp_tolerance = m.tolerance;
  }
  for (Index i = 0; i < ev.e.m; ++i) ev.enabled += ev.e.jac_diag_inv(i) != 0;
  if (is_mlcp(c.solver) && ev.exact.rank == ev.e.m && ev.e.mlcp_A.rows() == ev.e.m)
    ev.mlcp_unique_inf = inf_norm(Vector<double>(ev.e.mlcp_A.ldlt().solve(ev.e.mlcp_b)));
  return ev;
}

// The first enabled row at its impulse cap (Extracted::capped_row).
Index capped_row(const Evaluation& ev) { return ev.e.capped_row(); }

// (i)'s row: Bullet's Δv and the impulse it applied, Jᵀλ, against femc's.
// The impulse's bound: Jᵀλ̂ = M·M⁻¹Jᵀλ̂, and Bullet's unit responses
// M⁻¹J_iᵀ are within ρ|M⁻¹||J_i|ᵀ of its M⁻¹'s, ρ = Extracted::unit_rounding
// (4·n·u on the planar loops, 32·n·u on Bricard; test_bullet_adapter holds
// each). But λ̂ is the record of the iterations, not an answer of its
// own: PGS adds each Δλ·unit_i to Δv̂ (K iterations × m rows, each
// addition rounded at |Δv̂|), and later sweeps correct Δv̂, not λ̂. So,
// with K·m additions,
//   |Jᵀλ̂ − Jᵀλ| ≤ |M|∞·(bound + γ_{Km}|Δv̂|∞ + ρ·|M⁻¹||J|ᵀ|λ̂|) + γ_m·|J|ᵀ|λ̂|
// (the last for forming Jᵀλ̂ here, m terms an entry), a worst case (each
// addition's rounding in the same direction).
Row conformance_row(const Evaluation& ev) {
  const Extracted& e = ev.e;
  const State& s = *ev.state;
  Row r;
  r.mechanism = s.mechanism;
  r.state_class = s.state_class;
  r.theta = s.theta;
  r.omega = s.omega;
  r.t = s.t;
  r.rank_femc = ev.exact.rank;
  r.sigma_ratio = ev.exact.sigma_ratio;
  r.sigma_next = ev.exact.sigma_next;
  // The rank Bullet's answer is nearest to (Simbody's convention): femc's
  // where it is within the bound, one fewer where it is nearer that
  // solution (below), else "?".
  r.rank_engine = ev.finite && ev.error <= ev.bound ? std::to_string(ev.exact.rank) : "?";
  r.error = ev.error;
  r.bound = ev.bound;
  r.violation = inf_norm(e.position_error);
  const System<rational> own = bullet::own_problem(e);
  const Matrix<double> M = own.M.unaryExpr([](const rational& x) { return prop::to_double(x); });
  const Vector<double> impulse = e.J.transpose() * e.lambda;
  auto gamma = [](double k) { return k * 0x1p-53 / (1 - k * 0x1p-53); };
  const Vector<double> Jt_lambda = e.J.cwiseAbs().transpose() * e.lambda.cwiseAbs();
  const double force_scale = std::max(inf_norm(ev.exact.impulse), 1e-300);
  const double scale = std::max(inf_norm(ev.exact.dv), 1e-300);
  r.force_error = inf_norm(impulse - ev.exact.impulse) / force_scale;
  const double additions = double(ev.config.iterations) * double(ev.enabled);
  r.force_bound = (M.cwiseAbs().rowwise().sum().maxCoeff() *
                       (ev.bound * scale + gamma(additions) * inf_norm(e.dv()) +
                        e.unit_rounding * inf_norm(e.Minv.cwiseAbs() * Jt_lambda)) +
                   gamma(double(e.m)) * inf_norm(Jt_lambda)) /
                  force_scale;
  r.pass = ev.finite && r.error <= r.bound && r.force_error <= r.force_bound && r.bound < 1;
  if (r.bound >= 1) r.note = "bound ≥ |Δv|∞: no check";
  if (!ev.finite) r.note = "non-finite Δv";
  // Where an impulse is at its cap Bullet solves a box-constrained problem:
  // its answer is no rank decision on own_problem's equalities.
  if (const Index k = capped_row(ev); k >= 0) {
    r.note = "impulse cap binds: row " + std::to_string(k) + " at |λ| = " + num(std::abs(e.lambda(k))) +
             " N·s; the problem Bullet solves is box-constrained";
    return r;
  }
  // Outside the bound: is Bullet's answer the solution with one direction
  // fewer (a solver that does not move along the smallest one)?
  if (ev.finite && r.error > r.bound) {
    if (const auto fewer = bullet::solve_own_one_direction_dropped(e, ev.exact)) {
      const double to_fewer = inf_norm(e.dv() - fewer->dv) / scale;
      if (to_fewer < r.error) {
        r.rank_engine = std::to_string(fewer->rank);
        r.note = "nearer the rank-" + std::to_string(fewer->rank) + " solution: " + sci(to_fewer) + " from it";
      }
    }
  }
  return r;
}

// `samples` states along Bullet's own trajectory at its defaults (PGS, 10
// iterations) but the impulse cap, from the mechanism's start over `span`
// seconds; a lifted cap is named in the state class.
void trajectory(Topology t, const std::string& name, const Start& start, double span, bool quick,
                std::vector<State>& states, bool weld = false, double impulse_cap = kImpulseCap) {
  const std::string variant = std::isinf(impulse_cap) ? kNoCap : "";
  Settings settings;
  settings.topology = t;
  settings.max_applied_impulse = impulse_cap;
  auto m = start(settings);
  const int samples = quick ? 4 : 24;
  const int steps = int(std::lround(span / settings.h));
  for (int k = 0, step = 0; k < samples; ++k) {
    const int target = steps * k / (samples - 1);
    for (; step < target; ++step) m->step();
    State s{name, "trajectory (" + bullet::to_string(t) + variant + ")", t, start, m->q(), m->u(), m->base_pose()};
    std::tie(s.theta, s.omega) = first_joint(*m);
    s.t = step * settings.h;
    s.weld = weld;
    s.impulse_cap = impulse_cap;
    states.push_back(std::move(s));
  }
}

const std::vector<double> kClosedChainSpeeds{1.0, -1.0, 0.5, 0.3};

std::vector<State> campaign_states(bool quick) {
  std::vector<State> states;
  for (Topology t : kTopologies) {
    trajectory(t, "crank-rocker", planar(loop::kCrankRocker, {1.0}, {2.0}), 3.0, quick, states);
    // Moving from the start: on a floating base a loop released from rest
    // falls as one body, and Δv is rounding (no check).
    trajectory(t, "closed chain", planar(loop::kClosedChain, loop::kClosedChainStart, kClosedChainSpeeds), 3.0, quick,
               states);
    // Bricard's mechanism from the example's start over 1 s, as the other
    // engines' campaigns (it is built on fixed bases only), at Bullet's
    // impulse cap, where the weld needs more on one row at the start and
    // slips (the finding), and with the cap lifted.
    if (t != Topology::floating_base) {
      trajectory(t, "Bricard", bricard_start(), 1.0, quick, states, true);
      trajectory(t, "Bricard", bricard_start(), 1.0, quick, states, true, INFINITY);
    }
    for (const auto& [theta, folded] : change_point_states(quick)) {
      State s{"change-point", (folded ? "folded at θ = 0 (" : "near singular (") + bullet::to_string(t) + ")", t,
              planar(loop::kChangePoint, {theta}, {1.0}), {}, {}, {}};
      s.theta = theta;
      s.omega = 1.0;
      states.push_back(std::move(s));
    }
  }
  return states;
}

// (ii) Bullet's acceleration over one step, a = (v⁺ − v)/h, against hard
// Gauss with the true b = −J̇u and force, split along a chain of hard
// problems: b = Bullet's target −(ERP/h²)·posError − J v/h (what its rows
// pull J a to: the velocity-product part), Bullet's free acceleration with
// its damping in place of the undamped one (the damping part: a second step
// from the same state with the damping 0 gives the undamped v*), and a
// against that (the solver part: its iterations). Each relative to |q̈|∞.
struct Distance {
  double total = 0, velocity_product = 0, damping = 0, solver = 0;
  double jdot_u_error = 0;  // velocity_product's estimate, relative to |J̇u|∞
  System<double> truth;     // the hard Gauss data
};


Distance distance(const State& s, int iterations, double h) {
  Settings settings;
  settings.iterations = iterations;
  settings.h = h;
  auto m = at(s, settings);
  const bullet::VelocityProduct vp = bullet::velocity_product(*m);
  const Extracted e = m->step();
  settings.linear_damping = settings.angular_damping = 0;
  const Extracted undamped = at(s, settings)->step();
  const Matrix<double> M =
      bullet::own_problem(e).M.unaryExpr([](const rational& x) { return prop::to_double(x); });
  const Vector<double> free_true = (undamped.v_star - e.v) / h, free_bullet = (e.v_star - e.v) / h;
  const Vector<double> a = (e.v_next - e.v) / h;
  const Vector<double> target = -(e.settings.erp / (h * h)) * e.position_error - e.J * e.v / h;
  Distance d;
  d.truth = make_system<double>(M, e.J, Vector<double>(-vp.Jdot_u), Vector<double>(M * free_true));
  System<double> stiff = d.truth;
  stiff.b = target;
  System<double> damped = stiff;
  damped.Q = M * free_bullet;
  const Vector<double> q_true = hard_gauss(d.truth).qdd, q_target = hard_gauss(stiff).qdd, q_damped = hard_gauss(damped).qdd;
  const double scale = std::max(inf_norm(q_true), 1e-300);
  d.total = inf_norm(a - q_true) / scale;
  d.velocity_product = inf_norm(q_target - q_true) / scale;
  d.damping = inf_norm(q_damped - q_target) / scale;
  d.solver = inf_norm(a - q_damped) / scale;
  d.jdot_u_error = vp.error / std::max(inf_norm(vp.Jdot_u), 1e-300);
  return d;
}


// h as Bullet's users write it: 1/60, not 0.0166667.
std::string step_text(double h) {
  const double k = std::round(1 / h);
  return std::abs(1 / h - k) < 1e-9 ? "1/" + std::to_string(long(k)) : num(h);
}

struct HardGauss {
  std::string table;
  double damping = 0, velocity_product = 0;  // the largest parts over every state
};

// The crank-rocker between two multibodies: exact states (the adapter's
// assembly at 2 rad/s) and Bullet's own trajectories from 1 rad at 2 rad/s
// over 1 s at three steps, each state stepped by PGS at Bullet's 10
// iterations and converged. Returns (ii)'s table and its largest parts.
HardGauss hard_gauss_sweep(bool quick, Files& files, std::ostream& log) {
  HardGauss out;
  std::ostringstream csv_out;
  csv_out << "class,h,iterations,state,t,total,velocity_product,damping,solver,jdot_u_error\n";
  csv_out.precision(6);
  struct Worst {
    double total = 0, velocity_product = 0, damping = 0, solver = 0, jdot_u_error = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Worst> worst;
  auto note = [&](const std::string& cls, double h, int its, int k, double t, const Distance& d) {
    csv_out << cls << "," << h << "," << its << "," << k << "," << t << "," << d.total << "," << d.velocity_product
            << "," << d.damping << "," << d.solver << "," << d.jdot_u_error << "\n";
    const std::string key = cls + " | " + step_text(h) + " | " + std::to_string(its);
    out.damping = std::max(out.damping, d.damping);
    out.velocity_product = std::max(out.velocity_product, d.velocity_product);
    if (!worst.count(key)) order.push_back(key);
    Worst& w = worst[key];
    w.total = std::max(w.total, d.total);
    w.velocity_product = std::max(w.velocity_product, d.velocity_product);
    w.damping = std::max(w.damping, d.damping);
    w.solver = std::max(w.solver, d.solver);
    w.jdot_u_error = std::max(w.jdot_u_error, d.jdot_u_error);
  };
  const int iteration_counts[] = {10, kConverged};
  const int exact_states = quick ? 3 : 8;
  for (int its : iteration_counts)
    for (int k = 0; k < exact_states; ++k) {
      const double theta = 2 * M_PI * k / exact_states;
      const State s{"crank-rocker", "exact", Topology::two_multibodies, planar(loop::kCrankRocker, {theta}, {2.0})};
      note("exact states", Settings{}.h, its, k, 0, distance(s, its, Settings{}.h));
    }
  const std::vector<double> hs = quick ? std::vector<double>{1.0 / 60} : std::vector<double>{1.0 / 240, 1.0 / 60, 1.0 / 15};
  for (double h : hs) {
    Settings settings;
    settings.h = h;
    auto m = bullet::planar_loop(loop::kCrankRocker, {1.0}, {2.0}, settings);
    const int samples = quick ? 3 : 12, steps = int(std::lround(1.0 / h));
    for (int k = 0, step = 0; k < samples; ++k) {
      const int target = steps * (k + 1) / samples;
      for (; step + 1 < target; ++step) m->step();
      State s{"crank-rocker", "trajectory", Topology::two_multibodies, planar(loop::kCrankRocker, {1.0}, {2.0}),
              m->q(), m->u(), m->base_pose()};
      for (int its : iteration_counts) note("trajectory", h, its, k, step * h, distance(s, its, h));
    }
  }
  files["bullet_hard_gauss.csv"] = csv_out.str();
  {
    const State s{"crank-rocker", "exact", Topology::two_multibodies, planar(loop::kCrankRocker, {1.0}, {2.0})};
    const Distance d = distance(s, 10, Settings{}.h);
    SystemText text = to_system_text(d.truth);
    text.data_precision = "double";
    files["systems/bullet_crank_rocker_hard.json"] = system_json(
        text, "Bullet hard four-bar",
        "Bullet 3.24, crank-rocker between two multibodies at 1 rad, 2 rad/s, its defaults: hard Gauss data (M = "
        "(sym M⁻¹)⁻¹ of Bullet's M⁻¹, its rows J, b = −J̇u by differences of its position errors, Q = M times its "
        "undamped free acceleration). Bullet's a = (v⁺ − v)/h is " + sci(d.total) + " from its solution (relative)");
  }
  std::ostringstream table;
  table << "| class | h | PGS iterations | total | velocity-product part | damping part | solver part | J̇u's error "
           "estimate |\n|---|---|---|---|---|---|---|---|\n";
  for (const std::string& key : order) {
    const Worst& w = worst.at(key);
    table << "| " << key << " | " << sci(w.total) << " | " << sci(w.velocity_product) << " | " << sci(w.damping)
          << " | " << sci(w.solver) << " | " << sci(w.jdot_u_error) << " |\n";
  }
  log << "  hard Gauss: " << order.size() << " classes\n";
  out.table = table.str();
  return out;
}

std::string vector_text(const Vector<double>& x) {
  std::string out = "[";
  for (Index i = 0; i < x.size(); ++i) out += (i ? ", " : "") + sci(x(i));
  return out + "]";
}

// The problem of one evaluation as a `femc solve` input (own_problem, exact),
// its description saying what Bullet answered.
std::string problem_json(const Evaluation& ev, const std::string& finding) {
  const State& s = *ev.state;
  SystemText text = to_system_text(bullet::own_problem(ev.e));
  text.data_precision = "double";
  const std::string name = "Bullet " + s.mechanism + ", " + bullet::to_string(s.topology);
  const std::string description =
      "Bullet 3.24, " + s.mechanism + " (" + s.state_class + ", t = " + sci(s.t) + " s, first joint at " +
      sci(s.theta) + " rad): the problem Bullet's rows define, minimize ΔvᵀMΔv subject to J Δv = b (M = (sym "
      "M⁻¹)⁻¹ of Bullet's M⁻¹, J its enabled rows, b = m_rhs/m_jacDiagABInv; q̈ is Δv). " + finding +
      " Bullet's " + bullet::to_string(ev.config.solver) + " at " + std::to_string(ev.config.iterations) +
      " iterations answered Δv = " + vector_text(ev.e.dv()) + "; femc's Δv = " + vector_text(ev.exact.dv) + ".";
  return system_json(text, name, description);
}

std::string evaluations_csv(const std::vector<Evaluation>& evs) {
  std::ostringstream out;
  out << "mechanism,state_class,topology,t,theta,solver,iterations,enabled_rows,rank_femc,error,bound,finite,"
         "fell_back,mlcp_gap,mlcp_tolerance\n";
  out.precision(6);
  for (const Evaluation& ev : evs)
    out << ev.state->mechanism << "," << ev.state->state_class << "," << bullet::to_string(ev.state->topology) << ","
        << ev.state->t << "," << ev.state->theta << "," << bullet::to_string(ev.config.solver) << ","
        << ev.config.iterations << "," << ev.enabled << "," << ev.exact.rank << "," << ev.error << "," << ev.bound
        << "," << (ev.finite ? "yes" : "no") << "," << (ev.e.fell_back ? "yes" : "no") << "," << ev.mlcp_gap << ","
        << ev.mlcp_tolerance << "\n";
  return out.str();
}

// The MLCP matrix's gap over its rounding (∞ where Bullet puts a nonzero
// entry where the rows' product is exactly zero).
double mlcp_ratio(const Evaluation& ev) {
  if (ev.mlcp_tolerance > 0) return ev.mlcp_gap / ev.mlcp_tolerance;
  return ev.mlcp_gap > 0 ? INFINITY : 0;
}

// (iii)'s table: per topology, solver and class of states (the planar
// loops' trajectories, Bricard's at the cap and lifted, the change-point
// four-bar), over its states.
std::string solver_table(const std::vector<Evaluation>& evs) {
  struct Group {
    int states = 0, within = 0, fell_back = 0, non_finite = 0, finite = 0;
    double error = 0, mlcp = -1;
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (const Evaluation& ev : evs) {
    const std::string states = ev.state->mechanism == "change-point" ? "change-point"
                               : ev.state->weld ? (ev.state->cap_lifted() ? "Bricard (no impulse cap)" : "Bricard")
                                                : "trajectories";
    const std::string key = bullet::to_string(ev.state->topology) + " | " + states + " | " +
                            bullet::to_string(ev.config.solver) + " | " +
                            std::to_string(ev.config.iterations) +
                            (ev.config.solver == SolverKind::pgs && ev.config.iterations == 10 ? " (default)" : "");
    if (!groups.count(key)) order.push_back(key);
    Group& g = groups[key];
    ++g.states;
    g.within += ev.finite && ev.error <= ev.bound;
    g.fell_back += ev.e.fell_back;
    g.non_finite += !ev.finite;
    if (ev.finite) g.error = std::max(g.error, ev.error), ++g.finite;
    if (is_mlcp(ev.config.solver)) g.mlcp = std::max(g.mlcp, mlcp_ratio(ev));
  }
  std::ostringstream md;
  md << "| loop | states of | solver | iterations | states | within the bound | largest error | fell back to PGS | non-finite "
        "Δv | MLCP matrix: largest gap ÷ its rounding |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const std::string& key : order) {
    const Group& g = groups.at(key);
    md << "| " << key << " | " << g.states << " | " << g.within << " | "
       << (g.finite > 0 ? sci(g.error) : std::string("—")) << " | " << g.fell_back
       << " | " << g.non_finite << " | " << (g.mlcp < 0 ? std::string("—") : sci(g.mlcp)) << " |\n";
  }
  return md.str();
}

// The worst evaluation that `pick` selects by `score` (nullptr if none).
template <class Pick, class Score>
const Evaluation* worst(const std::vector<Evaluation>& evs, Pick pick, Score score) {
  const Evaluation* out = nullptr;
  for (const Evaluation& ev : evs)
    if (pick(ev) && (!out || score(ev) > score(*out))) out = &ev;
  return out;
}

// What the report says of Bricard's weld (the impulse cap and the opened
// loop), tallied over the campaign's evaluations.
struct Tally {  // an MLCP solver on the lifted cap's states between two multibodies, at 10 iterations
  int states = 0, within = 0, fell_back = 0;
  double error = 0;
  // Where the rows have full rank: the largest |A⁻¹b|∞ where the solver kept
  // its answer and the smallest where it fell back (btLemkeSolver discards
  // an answer beyond m_maxValue, 1e5). Where they have not (the closed
  // start, rank 5): the states, those the solver answered without falling
  // back, and its largest error there.
  double largest_kept = 0, smallest_fallen = INFINITY;
  int rank_deficient = 0, rank_deficient_answered = 0;
  double rank_deficient_error = 0;
};
// btLemkeSolver's m_maxValue (MLCPSolvers/btLemkeSolver.h at 3.24, its
// constructor): an answer with an entry beyond it is discarded as invalid,
// the MLCP solver returns false, and Bullet falls back to PGS.
constexpr double kLemkeMaxValue = 100000;
struct BricardSummary {
  // Converged PGS at the start between two multibodies, at the cap and lifted.
  const Evaluation* capped = nullptr;
  const Evaluation* free = nullptr;
  // The row at the cap at the start, and its weight in the rows' redundant
  // direction w (Jᵀw = 0): where |w_k| is rounding, the row's impulse is
  // unique.
  Index row = -1;
  double redundant_weight = 0;
  // Over the converged PGS steps (i): the states at the cap, where it binds,
  // and the largest error there; the largest |posError|∞ at the cap and
  // lifted; with the cap lifted, the opened loop's states (femc's rank 6),
  // those within the bound, the largest error and the smallest d₆/d₁.
  int states = 0, binds = 0, opened = 0, opened_within = 0;
  double drift = 0, drift_free = 0, opened_error = 0, weakest = INFINITY, capped_error = 0;
  Tally lemke, dantzig;  // at Bullet's 10 iterations (the fallback's)
};

BricardSummary summarize_bricard(const std::vector<Evaluation>& evs) {
  BricardSummary out;
  auto start_of = [&](bool cap_lifted) {
    return worst(
        evs,
        [&](const Evaluation& ev) {
          return ev.state->weld && ev.state->cap_lifted() == cap_lifted &&
                 ev.state->topology == Topology::two_multibodies && ev.state->t == 0 &&
                 ev.config.solver == SolverKind::pgs && ev.config.iterations == kConverged;
        },
        [](const Evaluation&) { return 0.0; });
  };
  out.capped = start_of(false);
  out.free = start_of(true);
  if (out.capped) {
    out.row = capped_row(*out.capped);
    if (out.row >= 0)
      out.redundant_weight = std::abs(
          Eigen::JacobiSVD<Matrix<double>>(out.capped->e.J, Eigen::ComputeFullU).matrixU()(out.row, 5));
  }
  for (const Evaluation& ev : evs) {
    if (!ev.state->weld || ev.config.solver != SolverKind::pgs || ev.config.iterations != kConverged) continue;
    const double violation = inf_norm(ev.e.position_error);
    if (ev.state->cap_lifted()) {
      out.drift_free = std::max(out.drift_free, violation);
      if (ev.exact.rank == 6) {
        ++out.opened;
        out.opened_within += ev.finite && ev.error <= ev.bound;
        out.opened_error = std::max(out.opened_error, ev.error);
        out.weakest = std::min(out.weakest, ev.exact.sigma_ratio);
      }
      continue;
    }
    ++out.states;
    if (capped_row(ev) >= 0) ++out.binds, out.capped_error = std::max(out.capped_error, ev.error);
    out.drift = std::max(out.drift, violation);
  }
  auto tally = [&](SolverKind solver) {
    Tally t;
    for (const Evaluation& ev : evs)
      if (ev.state->weld && ev.state->cap_lifted() && ev.state->topology == Topology::two_multibodies &&
          ev.config.solver == solver && ev.config.iterations == 10) {
        ++t.states;
        t.within += ev.finite && ev.error <= ev.bound;
        t.fell_back += ev.e.fell_back;
        if (ev.finite) t.error = std::max(t.error, ev.error);
        if (std::isnan(ev.mlcp_unique_inf)) {
          ++t.rank_deficient;
          t.rank_deficient_answered += !ev.e.fell_back;
          if (!ev.e.fell_back && ev.finite) t.rank_deficient_error = std::max(t.rank_deficient_error, ev.error);
        } else if (ev.e.fell_back) {
          t.smallest_fallen = std::min(t.smallest_fallen, ev.mlcp_unique_inf);
        } else {
          t.largest_kept = std::max(t.largest_kept, ev.mlcp_unique_inf);
        }
      }
    return t;
  };
  out.lemke = tally(SolverKind::mlcp_lemke);
  out.dantzig = tally(SolverKind::mlcp_dantzig);
  return out;
}

// What opens Bricard's loop along Bullet's trajectories: |posError|∞ (m and
// rad) over 1 s from the example's start between two multibodies, at
// Bullet's 10 PGS iterations and converged (kConverged), at its impulse cap
// and with it lifted, at its ERP (0.2), and converged without the cap and
// without Baumgarte (ERP 0): what is left is the velocity-level step's
// (q⁺ = q + h·v⁺ leaves the curved constraint manifold by O(h²|v|²) a step)
// and the solver's remaining error, which no cap or sweep count removes.
// test_bullet_adapter's WhatOpensBricardsLoop holds the finding's order.
struct LoopOpening {
  double defaults = 0, unconverged_lifted = 0, converged_capped = 0, converged_lifted = 0, converged_no_erp = 0;
};

double opening_over_one_second(int iterations, double impulse_cap, double erp) {
  Settings s;
  s.iterations = iterations;
  s.max_applied_impulse = impulse_cap;
  s.erp = erp;
  auto m = bullet::bricard(s);
  double worst = inf_norm(m->position_error());
  for (int k = 0, steps = int(std::lround(1.0 / s.h)); k < steps; ++k) {
    m->step();
    worst = std::max(worst, inf_norm(m->position_error()));
  }
  return worst;
}

LoopOpening bricard_loop_opening() {
  const double erp = Settings{}.erp;
  return {opening_over_one_second(10, kImpulseCap, erp), opening_over_one_second(10, INFINITY, erp),
          opening_over_one_second(kConverged, kImpulseCap, erp), opening_over_one_second(kConverged, INFINITY, erp),
          opening_over_one_second(kConverged, INFINITY, 0)};
}

std::string findings(const std::vector<Evaluation>& evs, const std::vector<Row>& rows, const HardGauss& hard,
                     const LoopOpening& opening, Files& files) {
  std::ostringstream md;
  const bullet::Defaults d = bullet::defaults();
  md << "- **Defaults read from Bullet** (its getters, btGetVersion() " << d.version << "): ERP " << d.erp
     << ", global CFM " << d.global_cfm << ", " << d.iterations << " iterations, solver mode " << d.solver_mode
     << "; btContactSolverInfo's time step " << d.h << " (1/60 rounded to float; stepSimulation overwrites it); "
     << "btMultiBody's damping " << d.linear_damping << " / " << d.angular_damping
     << " (0.04f, a float literal, applied to every multibody unless set), velocity clamp ±"
     << d.max_coordinate_velocity << " per coordinate, the point-to-point impulse cap ±" << d.max_applied_impulse
     << " N·s, gyroscopic term " << (d.gyro_term ? "on" : "off") << ", sleeping " << (d.can_sleep ? "on" : "off")
     << ". The campaign steps at h = 1/60 s with them. The damping alone moves Bullet's acceleration by up to "
     << sci(hard.damping) << " of |q̈|∞ on the crank-rocker ((ii)'s damping part), as the velocity-level target "
        "without J̇u does by up to "
     << sci(hard.velocity_product) << ".\n";
  // The fixed-base planar loops, whose z row Bullet disables (Bricard's six
  // weld rows are all enabled: its own finding below).
  auto fixed = [](const Evaluation& ev) {
    return ev.state->topology != Topology::floating_base && !ev.state->weld;
  };
  auto within_one = [](const Evaluation& ev) { return ev.state->topology != Topology::two_multibodies; };
  auto ratio = [](const Evaluation& ev) { return mlcp_ratio(ev); };
  // The MLCP matrix within one multibody.
  {
    // The planar loops' trajectories (Bricard's weld has its own findings below).
    auto trajectory_state = [](const Evaluation& ev) {
      return ev.state->mechanism != "change-point" && !ev.state->weld;
    };
    auto dantzig_on = [&](const Evaluation& ev) {
      return ev.config.solver == SolverKind::mlcp_dantzig && trajectory_state(ev);
    };
    const Evaluation* dantzig = worst(
        evs, [&](const Evaluation& ev) { return dantzig_on(ev) && within_one(ev); },
        [](const Evaluation& ev) { return ev.finite ? ev.error : 0; });
    const Evaluation* gap = worst(
        evs, [&](const Evaluation& ev) { return is_mlcp(ev.config.solver) && within_one(ev); },
        [](const Evaluation& ev) { return ev.mlcp_gap; });
    const Evaluation* between = worst(
        evs, [&](const Evaluation& ev) { return is_mlcp(ev.config.solver) && !within_one(ev); }, ratio);
    int one = 0, one_within = 0, two = 0, two_within = 0;
    for (const Evaluation& ev : evs)
      if (dantzig_on(ev)) {
        const bool ok = ev.finite && ev.error <= ev.bound;
        if (within_one(ev)) ++one, one_within += ok;
        else ++two, two_within += ok;
      }
    if (dantzig && gap) {
      const std::string file = "systems/bullet_" + slug(dantzig->state->mechanism) + "_" +
                               slug(bullet::to_string(dantzig->state->topology)) + "_dantzig.json";
      md << "- **Within one multibody the MLCP's matrix is wrong.** createMLCPFastMultiBody builds A from "
            "computeConstraintMatrixDiagElementMultiBody and …OffDiagElementMultiBody "
            "(btMultiBodyMLCPConstraintSolver.cpp), which add a row's second end only when it lies on another "
            "multibody: within one, A loses J_B M⁻¹J_Bᵀ off the diagonal (and the cross terms on it, nonzero when "
            "the ends share coordinates, a floating base). Its largest entry off J·M⁻¹Jᵀ of Bullet's own rows is "
         << sci(gap->mlcp_gap) << " (" << gap->state->mechanism << ", " << bullet::to_string(gap->state->topology)
         << "; the product's rounding there " << sci(gap->mlcp_tolerance)
         << "); between two multibodies every entry is within " << (between ? sci(ratio(*between)) : std::string("—"))
         << " times its rounding. Dantzig's Δv follows the wrong A: on the trajectories within one multibody it is "
            "within the bound on "
         << one_within << " of " << one << " states and up to " << sci(dantzig->error)
         << " from femc's solution (relative; " << dantzig->state->mechanism << ", "
         << bullet::to_string(dantzig->state->topology) << "), between two multibodies within the bound on "
         << two_within << " of " << two
         << ". PGS, which sweeps the rows one by one through their unit responses, never forms A. `" << file
         << "`.\n";
      files[file] = problem_json(*dantzig, "Bullet's MLCP matrix within one multibody leaves out terms.");
    }
  }
  // Lemke on the fixed-base loops.
  {
    int states = 0, fell = 0;
    for (const Evaluation& ev : evs)
      if (ev.config.solver == SolverKind::mlcp_lemke && ev.config.iterations == 10 && fixed(ev))
        ++states, fell += ev.e.fell_back;
    if (fell > 0)
      md << "- **Lemke falls back to PGS, silently,** on " << fell << " of " << states
       << " fixed-base planar-loop states: the disabled z row leaves a zero row and column in A, btLemkeSolver fails on it, "
          "and btMultiBodyMLCPConstraintSolver::solveGroupCacheFriendlyIterations runs PGS instead (m_fallback, "
          "counted by getNumFallbacks; nothing is printed), at the solver's iteration count: at Bullet's 10 its "
          "answer is PGS's unconverged one.\n";
  }
  // btSolveProjectedGaussSeidel and the zero diagonal.
  {
    int states = 0, nan = 0;
    const Evaluation* first = nullptr;
    for (const Evaluation& ev : evs)
      if (ev.config.solver == SolverKind::mlcp_pgs && ev.config.iterations == 10 && fixed(ev)) {
        ++states;
        if (!ev.finite) {
          ++nan;
          if (!first) first = &ev;
        }
      }
    if (first) {
      const std::string file = "systems/bullet_" + slug(first->state->mechanism) + "_mlcp_pgs_nan.json";
      md << "- **btSolveProjectedGaussSeidel returns NaN as a success** on " << nan << " of " << states
         << " fixed-base planar-loop states: it divides by A's diagonal (btSolveProjectedGaussSeidel.h), zero on the disabled "
            "row, returns true, and the multibodies' velocities become NaN; no fallback runs. The problem it was "
            "given is well posed: `"
         << file << "`.\n";
      files[file] = problem_json(*first, "Bullet's MLCP projected Gauss-Seidel returned NaN on this well-posed "
                                         "problem (a disabled row's zero diagonal).");
    }
  }
  // PGS at its default 10 iterations.
  {
    const Evaluation* pgs = worst(
        evs,
        [](const Evaluation& ev) {
          return ev.config.solver == SolverKind::pgs && ev.config.iterations == 10 &&
                 ev.state->mechanism != "change-point" && !ev.state->weld;
        },
        [](const Evaluation& ev) { return ev.finite ? ev.error : 0; });
    int converged = 0, converged_within = 0;
    for (const Evaluation& ev : evs)
      if (ev.config.solver == SolverKind::pgs && ev.config.iterations == kConverged && !ev.state->weld)
        ++converged, converged_within += ev.finite && ev.error <= ev.bound;
    if (pgs) {
      const std::string file = "systems/bullet_" + slug(pgs->state->mechanism) + "_" +
                               slug(bullet::to_string(pgs->state->topology)) + "_pgs_10.json";
      md << "- **PGS at Bullet's 10 iterations** is up to " << sci(pgs->error) << " from the solution of its own "
         << "problem along the trajectories (relative; " << pgs->state->mechanism << ", " << pgs->state->state_class
         << ", t = " << sci(pgs->state->t) << " s). Run to " << kConverged << " iterations it is within the bound on "
         << converged_within << " of " << converged << " planar-loop states of (i). `" << file << "`.\n";
      files[file] = problem_json(*pgs, "Bullet's default PGS, 10 iterations, stops far from the solution.");
    }
  }
  // Converged PGS near the change point: the weak direction, per arrangement
  // (the floating base's mis-scaled rows converge more slowly).
  {
    std::ostringstream where;
    int states = 0, fewer = 0;
    double worst_error = 0;
    for (const Topology t : kTopologies) {
      double below = 0, above = INFINITY;  // largest d₂/d₁ answered at rank r − 1; smallest within the bound
      int n_fewer = 0;
      for (const Row& r : rows)
        if (r.mechanism == "change-point" && r.state_class == "near singular (" + bullet::to_string(t) + ")") {
          ++states;
          if (r.rank_engine == std::to_string(r.rank_femc - 1)) {
            ++fewer, ++n_fewer;
            below = std::max(below, r.sigma_ratio);
            worst_error = std::max(worst_error, r.error);
          } else if (r.pass) {
            above = std::min(above, r.sigma_ratio);
          }
        }
      if (n_fewer > 0)
        where << (where.tellp() > 0 ? "; " : "") << bullet::to_string(t) << ": " << n_fewer << " states, d₂/d₁ ≤ "
              << sci(below) << (std::isfinite(above) ? " (within the bound from " + sci(above) + ")" : "");
    }
    if (fewer > 0)
      md << "- **Near the change point converged PGS makes a rank decision it does not report.** Along the weak "
            "direction its sweeps converge slowly, and on "
         << fewer << " of " << states << " near-singular states its " << kConverged
         << " iterations end nearer femc's solution with one direction dropped than the one at femc's rank, "
            "decided at double ("
         << where.str() << "; d₂/d₁ the rank-revealing ratio of femc's pivoted QR). Their distance from femc's "
            "solution is up to "
         << sci(worst_error) << "; the note column of `bullet.csv` gives the distance to the other.\n";
  }
  // The floating base's z row.
  {
    int states = 0, kept = 0, live = 0;
    double drift = 0;
    for (const Evaluation& ev : evs)
      if (ev.state->topology == Topology::floating_base && ev.config.solver == SolverKind::pgs &&
          ev.config.iterations == kConverged) {
        ++states;
        kept += ev.enabled > ev.exact.rank;
        if (ev.exact.rank == 3) {
          ++live;
          drift = std::max(drift, ev.e.position_error.head(2).lpNorm<Eigen::Infinity>());
        }
      }
    md << "- **On a floating base Bullet keeps a row that is zero.** The loop's z row is J_A + J_B with both ends "
          "on the base's coordinates: zero but for the rounding of their cancellation. Bullet's scale d = "
          "J_A M⁻¹J_Aᵀ + J_B M⁻¹J_Bᵀ leaves out the cross term that would cancel it (btMultiBodyConstraint.cpp, "
          "fillMultiBodyConstraint), so d is of order 1 and the row stays enabled: on "
       << kept << " of " << states << " floating-base states Bullet solves more rows than the problem's rank. "
       << "Where the loop is open in its plane, the z row is not zero at all: its base columns are ω × (p_A − p_B), "
          "a constraint on the base's tilt, and on "
       << live << " states of Bullet's own floating-base trajectories, whose loop error reaches " << sci(drift)
       << " m at its 10 iterations, femc's rank is 3.\n";
  }
  // Bricard's weld and the impulse cap.
  {
    const BricardSummary b = summarize_bricard(evs);
    const Evaluation* capped = b.capped;
    const Evaluation* free = b.free;
    const Index k = b.row;
    if (k >= 0 && free) {
      const std::string file = "systems/bullet_bricard_impulse_cap.json";
      md << "- **Bullet's impulse cap binds on Bricard's weld.** Every row's impulse is kept within ±"
         << num(kImpulseCap)
         << " N·s a step (btMultiBodyConstraint's m_maxAppliedImpulse, a default the user does not see). At the "
            "example's start (first pin at "
         << num(bricard::kSpeed0) << " rad/s, h = 1/60) the weld's row " << k << " needs "
         << sci(std::abs(free->e.lambda(k)))
         << " N·s (converged PGS with the cap lifted; the row's impulse is unique: the rows' redundant direction "
            "w, Jᵀw = 0, has |w_"
         << k << "| = "
         << sci(b.redundant_weight)
         << "): Bullet leaves it at the cap and its Δv is "
         << sci(capped->error) << " from the solution of its rows' equalities (relative; with the cap lifted "
         << sci(free->error) << ", its bound " << sci(free->bound) << "). Converged PGS ends at the cap on " << b.binds
         << " of " << b.states << " states of Bullet's trajectories, its Δv there up to " << sci(b.capped_error)
         << " from the equalities' solution; nothing is reported. `" << file
         << "` (`femc solve` gives its exact Δv, Jᵀλ its Qc).\n";
      files[file] = problem_json(*capped, "Bullet's impulse cap (100 N·s) binds on this problem's row " +
                                              std::to_string(k) + ".");
    }
    if (b.opened > 0)
      md << "- **Bricard's loop opens along Bullet's own trajectory,** with the cap or without it: |posError|∞ "
            "(m and rad: the weld's three position and three Euler-angle errors) reaches "
         << sci(b.drift) << " within 1 s (" << sci(b.drift_free) << " with the cap lifted) at Bullet's 10 PGS iterations "
         << "a step and ERP " << num(Settings{}.erp)
         << ". On the opened loop the weld's six rows have full rank, weakly (d₆/d₁ down to " << sci(b.weakest)
         << "), and converged PGS (" << kConverged << " iterations, the cap lifted) is within its bound on "
         << b.opened_within << " of " << b.opened << " states, up to " << sci(b.opened_error)
         << " from the solution (relative); the MLCP's Dantzig between two multibodies, a direct solve, on "
         << b.dantzig.within << " of " << b.dantzig.states << "; its Lemke (the cap lifted: bounds ±∞) on "
         << b.lemke.within << " of " << b.lemke.states << ", up to " << sci(b.lemke.error) << " off, falling back to PGS on "
         << b.lemke.fell_back
         << ". Why Lemke misses: with bounds ±∞ btLemkeSolver's box-bounded path answers x = B·b, B its "
            "Gauss–Jordan inverse of A without pivoting, and it discards any answer with an entry beyond its "
            "m_maxValue ("
         << num(kLemkeMaxValue)
         << ", a \"hack/safety mechanism\" in its source) and falls back. It fell back exactly where the "
            "impulses of A's unique solution exceed it (|A⁻¹b|∞ from "
         << sci(b.lemke.smallest_fallen) << " on the states it fell back on, at most " << sci(b.lemke.largest_kept)
         << " where it kept its answer): valid impulses, discarded, and PGS's unconverged answer in their place. "
            "On the closed start, where the weld's rows are redundant (rank 5) and A singular, it answered on "
         << b.lemke.rank_deficient_answered << " of " << b.lemke.rank_deficient << " states without falling back, "
         << sci(b.lemke.rank_deficient_error)
         << " from the solution (relative): a wrong answer, silently. What opens it (between two multibodies, the largest |posError|∞ over 1 s from the "
            "start): at Bullet's defaults "
         << sci(opening.defaults) << "; the cap lifted alone, " << sci(opening.unconverged_lifted)
         << "; the sweeps converged alone (" << kConverged << " iterations), " << sci(opening.converged_capped)
         << ", the cap then binding; both, " << sci(opening.converged_lifted)
         << ": the unconverged sweeps and the cap open it together. Both, and Baumgarte off (ERP 0), "
         << sci(opening.converged_no_erp)
         << ": what the velocity-level step at h = 1/60 leaves (q⁺ = q + h·v⁺ off the curved constraint "
            "manifold, and the solver's remaining error on the weakly full-rank rows; not separated), which ERP "
         << num(Settings{}.erp) << " holds to " << sci(opening.converged_lifted) << ".\n";
  }
  md << "- **Read, not run: split islands off.** With m_splitIslands false, btMultiBodyDynamicsWorld's "
        "MultiBodyInplaceSolverIslandCallback::processIsland passes m_numConstraints as the multibody "
        "constraints' count (engines/UPSTREAM.md).\n";
  std::size_t failing = 0;
  for (const Row& r : rows) failing += !r.pass;
  if (failing > 0) md << "- **" << failing << " of " << rows.size() << " states outside the bound** (`bullet.csv`).\n";
  return md.str();
}

std::string section(const std::vector<Row>& rows, const std::string& hard_gauss, const std::vector<Evaluation>& evs,
                    const std::string& found) {
  std::ostringstream md;
  md << "## Bullet 3.24\n\n"
     << "### (i) Does Bullet's solver compute the solution of the problem its rows define?\n\n"
     << "The planar loops of planar_loop.hpp as btMultiBody trees of pins closed by a btMultiBodyPoint2Point (3 "
        "rows, the z row identically zero on fixed bases), in three arrangements (iv): the chain and the rocker two fixed-base "
        "multibodies, the joint between them; one fixed-base multibody with two branches, the joint within it; "
        "the same on a floating base (the ground a free 1 kg rod). Bricard's mechanism of bricard.hpp on the grounded link as a fixed base, two multibodies "
        "(pins 0–2, 3–5) or one, the cut link's halves joined by a btMultiBodyFixedConstraint (6 rows, rank 5 on "
        "the mechanism: one redundant, every row enabled). "
        "The adapter reads, inside Bullet's solver, each row's J, m_rhs, m_jacDiagABInv and unit response, M⁻¹ "
        "(calcAccelerationDeltasMultiDof) and v*. What the rows define: Δv minimizing ΔvᵀMΔv subject to J Δv = "
        "m_rhs/m_jacDiagABInv on the enabled rows (engines/bullet/include/femc/engines/bullet.hpp), solved by "
        "femc (256 bits, the rank decided at double). Bullet's Δv = v⁺ − v* from its default solver, PGS, run "
        "to convergence ("
     << kConverged
     << " iterations), against it to `answer_bound` (c = 16(n + m): the products J Δv̂ and the accumulation of "
        "the unit responses); the impulse it applied, Jᵀλ, against the exact one. Along Bullet's own "
        "trajectories at its defaults (3 s at h = 1/60: the crank-rocker from 1 rad at 2 rad/s, the closed "
        "chain from its start at rates (1, −1, 0.5, 0.3) rad/s; Bricard's mechanism from the example's start, the "
        "first pin at "
     << num(bricard::kSpeed0) << " rad/s, over 1 s, and again with its impulse cap lifted, "
        "`Settings::max_applied_impulse` = ∞), each state stepped once more by the solver under test; the change-point four-bar "
        "towards its folded configuration at 1 rad/s. Rank agrees: Bullet's answer is within the bound of femc's "
        "solution at femc's rank (or, where it is not, nearer the solution with one direction dropped). All rows: `bullet.csv` (its violation column is Bullet's position error "
        "|posError|∞, in m, and in rad on the weld's three angular rows).\n\n"
     << summary_table(rows) << "\n"
     << "### (ii) How far is Bullet from hard Gauss?\n\n"
     << "Bullet's acceleration over one step, a = (v⁺ − v)/h, against hard Gauss with the true b = −J̇u (J̇u by "
        "differences of the closure's Jacobian on Bullet's positions along the joints' motion, `velocity_product`) and the undamped "
        "free acceleration, and its parts: the velocity-product part (hard Gauss with b = −(ERP/h²)·posError − "
        "J v/h, the target of Bullet's rows, against b = −J̇u), the damping part (Bullet's free acceleration, "
        "with btMultiBody's default damping 0.04f, in place of the undamped one) and the solver part (a against "
        "hard Gauss with both: PGS's iterations). Largest relative distances |·|∞/|q̈|∞ over the states of the "
        "crank-rocker between two multibodies (exact states from the adapter's assembly at 2 rad/s, and "
        "Bullet's own trajectory from 1 rad at 2 rad/s over 1 s), each state stepped by PGS at Bullet's 10 "
        "iterations and converged; `bullet_hard_gauss.csv`.\n\n"
     << hard_gauss << "\n"
     << "### (iii) Every solver for these rows, at its defaults and converged\n\n"
     << "Each solver steps once from every state of (i); its Δv against femc's solution of the problem its rows "
        "define, to the same bound (relative). The MLCP solvers are btMultiBodyMLCPConstraintSolver over "
        "btDantzigSolver, btLemkeSolver and btSolveProjectedGaussSeidel; the iteration count is the fallback's "
        "(and the MLCP PGS's sweeps). `bullet_solvers.csv`.\n\n"
     << solver_table(evs) << "\n"
     << "### (v) Defaults and findings\n\n"
     << found << "\n";
  return md.str();
}

}  // namespace

std::string bullet_campaign(bool quick, Files& files, std::ostream& log) {
  const std::vector<State> states = campaign_states(quick);
  log << "  " << states.size() << " states\n";
  std::vector<Evaluation> evs;
  std::vector<Row> rows;
  for (const Config& c : kConfigs) {
    for (const State& s : states) {
      evs.push_back(evaluate(s, c));
      if (c.solver == SolverKind::pgs && c.iterations == kConverged) rows.push_back(conformance_row(evs.back()));
    }
    log << "  " << bullet::to_string(c.solver) << ", " << c.iterations << " iterations\n";
  }
  const HardGauss hard_gauss = hard_gauss_sweep(quick, files, log);
  const LoopOpening opening = bricard_loop_opening();
  log << "  Bricard's loop opening over 1 s\n";
  const std::string found = findings(evs, rows, hard_gauss, opening, files);
  files["bullet.csv"] = csv(rows);
  files["bullet_solvers.csv"] = evaluations_csv(evs);
  return section(rows, hard_gauss.table, evs, found);
}

}  // namespace femc::engines::campaign
