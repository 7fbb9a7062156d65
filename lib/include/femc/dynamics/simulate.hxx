#pragma once
// The body of simulate() (simulate.hpp): Odeint's steppers, the records and
// the impact location.
#include "femc/dynamics/odeint_multiprecision.hpp"  // before odeint.hpp
#include <boost/numeric/odeint.hpp>

#include "femc/dynamics/simulate.hpp"
#include "femc/errors.hpp"

namespace femc::dynamics {

namespace detail {

template <class S>
using State = std::vector<S>;

template <class S>
S max_norm(const Vector<S>& v) {
  S m(0);
  for (Index i = 0; i < v.size(); ++i) {
    const S a = v(i) < S(0) ? S(-v(i)) : v(i);
    if (a > m) m = a;
  }
  return m;
}

template <class S>
void unpack(const State<S>& x, Index n, Vector<S>& q, Vector<S>& qd) {
  q.resize(n);
  qd.resize(n);
  for (Index i = 0; i < n; ++i) {
    q(i) = x[std::size_t(i)];
    qd(i) = x[std::size_t(n + i)];
  }
}

}  // namespace detail

template <class S>
Trajectory<S> simulate(const Model<S>& model, const Vector<S>& q0, const Vector<S>& qd0,
                       const SimulationOptions<S>& opt) {
  namespace odeint = boost::numeric::odeint;
  using State = detail::State<S>;
  const Index n = model.dof();
  if (q0.size() != n || qd0.size() != n)
    throw InputError("initial state", "needs " + std::to_string(n) + " coordinates and velocities");
  if (!(opt.t_end > S(0))) throw InputError("t_end", "must be positive, got " + format_scalar(opt.t_end));
  if (!(opt.dt > S(0)) || opt.dt > opt.t_end)
    throw InputError("dt", "must be in (0, t_end], got " + format_scalar(opt.dt));
  if (!(opt.abs_tol > S(0)) || !(opt.rel_tol >= S(0)))
    throw InputError("tolerance", "abs_tol must be positive and rel_tol non-negative");

  Trajectory<S> traj;
  const S E0 = model.energy(q0, qd0);
  S impact_work(0);
  auto rhs = [&](const State& x, State& dx, S t) {
    Vector<S> q, qd;
    detail::unpack(x, n, q, qd);
    const Forces<S> f = model.forces(q, qd, t, opt.baumgarte);
    ++traj.force_evaluations;
    dx.resize(x.size());
    for (Index i = 0; i < n; ++i) {
      dx[std::size_t(i)] = qd(i);
      dx[std::size_t(n + i)] = f.qdd(i);
    }
    dx[std::size_t(2 * n)] = qd.dot(f.nonideal);
    dx[std::size_t(2 * n + 1)] = qd.dot(f.ideal);
  };
  auto record = [&](const State& x, const S& t) {
    Record<S> r;
    r.t = t;
    detail::unpack(x, n, r.q, r.qd);
    model.check_state(r.q);
    r.energy = model.energy(r.q, r.qd);
    r.work_nonideal = x[std::size_t(2 * n)];
    r.work_ideal = x[std::size_t(2 * n + 1)];
    r.work_impacts = impact_work;
    r.balance = r.energy - E0 - r.work_nonideal - r.work_impacts;
    r.position_violation = detail::max_norm(model.position_violation(r.q, t));
    r.velocity_violation = detail::max_norm(model.velocity_violation(r.q, r.qd, t));
    r.extras = model.forces(r.q, r.qd, t, opt.baumgarte).extras;
    const S ab = r.balance < S(0) ? S(-r.balance) : r.balance;
    if (ab > traj.max_abs_balance) traj.max_abs_balance = ab;
    if (r.position_violation > traj.max_position_violation) traj.max_position_violation = r.position_violation;
    if (r.velocity_violation > traj.max_velocity_violation) traj.max_velocity_violation = r.velocity_violation;
    traj.records.push_back(std::move(r));
  };
  // Events of a step x0 → x1 (unilateral models), most urgent first:
  //   Impact: a gap open at x0 (> 0) is closed at x1 (< 0);
  //   Switch: a switching function of the model (model.hpp: a sliding
  //           contact's slip speed, signed to be positive at x0) reaches 0;
  //   Drift:  a contact touching at x0 is below −tol at x1 (the impact map
  //           projects the velocity; resting contacts within [−tol, 0] are
  //           no event and stay closed without restarts).
  // Impacts and switches are located by bisection: the zero of
  // value(x) — the gap, or the switching function — to within [−tol, 0]
  // (gaps) or [−tol, tol] (switches).
  enum class EventKind { None, Impact, Switch, Drift };
  struct StepEvent {
    EventKind kind = EventKind::None;
    Index index = -1;
  };
  auto unpack_q = [&](const State& x, Vector<S>& q, Vector<S>& qd) { detail::unpack(x, n, q, qd); };
  auto find_event = [&](const State& x0, const State& x1) {
    Vector<S> q0, qd0, q1, qd1;
    unpack_q(x0, q0, qd0);
    unpack_q(x1, q1, qd1);
    model.check_state(q1);
    StepEvent e;
    const Vector<S> g1 = model.gaps(q1);
    if (g1.size() == 0) return e;
    const Vector<S> g0 = model.gaps(q0);
    for (Index i = 0; i < g1.size(); ++i)
      if (g0(i) > S(0) && g1(i) < S(0) && (e.index < 0 || g1(i) < g1(e.index))) e = {EventKind::Impact, i};
    if (e.kind != EventKind::None) return e;
    const Vector<S> f0 = model.switching(q0, qd0), f1 = model.switching(q1, qd1);
    for (Index i = 0; i < f1.size(); ++i)
      if (f0(i) > opt.gap_tolerance && f1(i) <= opt.gap_tolerance) return StepEvent{EventKind::Switch, i};
    for (Index i = 0; i < g1.size(); ++i)
      if (g0(i) <= S(0) && g1(i) < -opt.gap_tolerance) return StepEvent{EventKind::Drift, i};
    return e;
  };
  // The value whose zero locates event e, and whether v is in its window
  // (0 inside, +1 before, −1 past).
  auto event_side = [&](const State& x, const StepEvent& e) {
    Vector<S> q, qd;
    unpack_q(x, q, qd);
    const S v = e.kind == EventKind::Impact ? S(model.gaps(q)(e.index)) : S(model.switching(q, qd)(e.index));
    const S upper = e.kind == EventKind::Impact ? S(0) : opt.gap_tolerance;
    if (v > upper) return 1;
    if (v < -opt.gap_tolerance) return -1;
    return 0;
  };
  // Bisection on [lo, hi] with state_at(t, x) giving the state at t.
  auto locate = [&](const StepEvent& e, S lo, S hi, auto state_at, State& xe) {
    S te = hi;
    for (int it = 0; it < 300; ++it) {
      te = (lo + hi) / S(2);
      state_at(te, xe);
      const int side = event_side(xe, e);
      if (side > 0) lo = te;
      else if (side < 0) hi = te;
      else break;
    }
    return te;
  };
  auto apply_impact = [&](State& x, const S& t) {
    Vector<S> q, qd;
    detail::unpack(x, n, q, qd);
    const Vector<S> qd_plus = model.impact(q, qd);
    impact_work += model.kinetic(q, qd_plus) - model.kinetic(q, qd);
    for (Index i = 0; i < n; ++i) x[std::size_t(n + i)] = qd_plus(i);
    traj.events.push_back({t, "impact"});
  };

  State x(std::size_t(2 * n + 2), S(0));
  for (Index i = 0; i < n; ++i) {
    x[std::size_t(i)] = q0(i);
    x[std::size_t(n + i)] = qd0(i);
  }
  S t(0);
  long next_record = 0;
  auto record_time = [&](long k) { return S(k) * opt.dt; };
  // The last record is at t_end when t_end is a multiple of dt up to rounding.
  const S t_last = opt.t_end * (S(1) + S(4) * unit_roundoff<S>());
  auto begin_step = [&](const State& xs) {
    Vector<S> q, qd;
    unpack_q(xs, q, qd);
    return model.begin_step(q, qd);
  };
  // The loop of a stepper with dense output (Dopri5, Bulirsch–Stoer):
  // records from the dense output, events located on it.
  auto run_dense = [&](auto& stepper) {
    stepper.initialize(x, t, opt.dt);
    auto records_up_to = [&](const S& until) {
      while (record_time(next_record) <= until && record_time(next_record) <= t_last) {
        State xr(x.size());
        stepper.calc_state(record_time(next_record), xr);
        record(xr, record_time(next_record));
        ++next_record;
      }
    };
    int refusals = 0;
    while (record_time(next_record) <= t_last) {
      if (traj.steps >= opt.max_steps) throw ModelStop("step limit reached");
      // A trial stage that the solve refuses (an overflow far from the
      // solution, after a step too long for a stiff force: IFToMM A05's
      // first step of dt) is a rejected step: it is retried from the same
      // state, ten times shorter. The error estimate cannot do this, as an
      // overflowed stage has no error to estimate.
      const State x_before = stepper.current_state();
      const S t_before = stepper.current_time(), h_before = stepper.current_time_step();
      // (The system of such a stage may not even be built: a force that
      // overflowed to infinity is refused as an entry that is not finite.)
      std::pair<S, S> interval;
      bool refused = false;
      try {
        interval = stepper.do_step(rhs);
      } catch (const MethodError&) {
        if (++refusals > 20) throw;
        refused = true;
      } catch (const InputError&) {
        if (++refusals > 20) throw;
        refused = true;
      }
      if (refused) {
        stepper.initialize(x_before, t_before, S(h_before / S(10)));
        continue;
      }
      refusals = 0;
      const auto [t0, t1] = interval;
      ++traj.steps;
      State x1 = stepper.current_state();
      State x0(x1.size());
      stepper.calc_state(t0, x0);
      const StepEvent e = find_event(x0, x1);
      if (e.kind != EventKind::None) {
        S te = t1;
        State xe = x1;
        if (e.kind != EventKind::Drift)
          te = locate(e, t0, t1, [&](const S& tt, State& out) { stepper.calc_state(tt, out); }, xe);
        records_up_to(te);  // from the dense output, before the event
        if (e.kind != EventKind::Switch) apply_impact(xe, te);
        begin_step(xe);
        stepper.initialize(xe, te, opt.dt);
        continue;
      }
      records_up_to(t1);
      // New contact modes at the accepted state: restart, so that the
      // first derivative of the next step is recomputed (Dopri5's FSAL).
      if (begin_step(x1)) stepper.initialize(x1, t1, stepper.current_time_step());
    }
  };
  try {
    begin_step(x);
    record(x, t);
    ++next_record;
    if (opt.stepper == Stepper::Rk4) {
      odeint::runge_kutta4<State, S, State, S> stepper;
      while (record_time(next_record) <= t_last) {
        if (traj.steps >= opt.max_steps) throw ModelStop("step limit reached");
        const S t1 = record_time(next_record);
        State x1 = x;
        stepper.do_step(rhs, x1, t, t1 - t);
        ++traj.steps;
        const StepEvent e = find_event(x, x1);
        if (e.kind == EventKind::Impact || e.kind == EventKind::Switch) {
          // Located on re-taken steps from (x, t), with the step's modes.
          State xe = x;
          const S h = locate(e, S(0), t1 - t, [&](const S& hh, State& out) {
            out = x;
            stepper.do_step(rhs, out, t, hh);
          }, xe);
          t = t + h;
          x = xe;
          if (e.kind == EventKind::Impact) apply_impact(x, t);
          begin_step(x);
          continue;  // then on to the same record time from the event
        }
        if (e.kind == EventKind::Drift) apply_impact(x1, t1);
        x = x1;
        t = t1;
        begin_step(x);
        record(x, t);
        ++next_record;
      }
    } else if (opt.stepper == Stepper::Dopri5) {
      // Steps no longer than the record interval: the dense output between
      // records stays as accurate as the steps, and no contact event is
      // stepped over unseen.
      auto stepper = odeint::make_dense_output(opt.abs_tol, opt.rel_tol, opt.dt,
                                               odeint::runge_kutta_dopri5<State, S, State, S>());
      run_dense(stepper);
    } else {
      // Extrapolation of any order (Deuflhard's order and step control): the
      // stepper for tolerances near the working precision's unit roundoff,
      // where a fifth-order method would take millions of steps.
      odeint::bulirsch_stoer_dense_out<State, S, State, S> stepper(opt.abs_tol, opt.rel_tol, S(1), S(0), opt.dt);
      run_dense(stepper);
    }
    traj.completed = true;
  } catch (const ModelStop& stop) {
    traj.stop_reason = stop.what();
  } catch (const boost::numeric::odeint::step_adjustment_error& e) {
    traj.stop_reason = std::string("integrator: ") + e.what();
  } catch (const MethodError& e) {
    // The solve refused a state (e.g. an overflow at the working precision):
    // the run ends there, its records kept, the reason stated.
    traj.stop_reason = std::string("solve: ") + e.what();
  } catch (const InputError& e) {
    // The system of a state could not be built (a force not finite, a
    // spring of zero length): the same.
    traj.stop_reason = std::string("system: ") + e.what();
  }
  if (!traj.completed)
    traj.events.push_back({traj.records.empty() ? S(0) : traj.records.back().t, traj.stop_reason});
  return traj;
}

}  // namespace femc::dynamics
