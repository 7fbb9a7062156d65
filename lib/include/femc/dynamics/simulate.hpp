#pragma once
// Trajectories of a Model (model.hpp) in any floating scalar type, with
// Boost.Odeint steppers (no hand-written Runge–Kutta):
//   Stepper::Dopri5  adaptive Dormand–Prince 5(4) with dense output
//                    (abs_tol, rel_tol); records at t = k·dt from the
//                    dense output, so the output grid does not steer the steps;
//   Stepper::Rk4     classical fixed-step Runge–Kutta, step dt.
// The state is (q, q̇, W_nonideal, W_ideal): the work integrals ∫ q̇ᵀQᵂ dt
// and ∫ q̇ᵀQᴺ dt are integrated with the motion, so the balance
//   E(t) − E(0) − ∫ q̇ᵀQᵂ dt − (impact losses)
// measures the integrator's error (model.hpp). Per record: the energy, both
// works, the balance, and the position- and velocity-level constraint
// violations (max norm).
//
// Impacts (unilateral models): a gap that crosses zero during a step is
// located by bisection on the dense output (Dopri5) or on re-taken steps
// (Rk4) to within [−gap tolerance, 0]; the model's impact map is applied
// there and its kinetic-energy change is booked as impact work. A resting
// contact that drifts below −gap tolerance gets the same map (a velocity
// projection) where it is found.
// A ModelStop (Painlevé state, unmodelled contact) ends the run early with
// the reason recorded; the trajectory up to it is kept.
#include "femc/dynamics/odeint_multiprecision.hpp"  // before odeint.hpp
#include <boost/numeric/odeint.hpp>
#include <optional>
#include <string>
#include <vector>

#include "femc/dynamics/model.hpp"

namespace femc::dynamics {

enum class Stepper { Dopri5, Rk4 };

template <class S>
struct SimulationOptions {
  S t_end = S(1);
  S dt = S(1) / S(100);    // Rk4 step and the record interval
  S abs_tol = S(1) / S(10000000000LL);  // Dopri5
  S rel_tol = S(1) / S(10000000000LL);
  Stepper stepper = Stepper::Dopri5;
  Baumgarte<S> baumgarte;
  S gap_tolerance = S(0);  // unilateral models: see contact_model.hpp
  long max_steps = 50000000;
};

template <class S>
struct Record {
  S t;
  Vector<S> q, qd;
  S energy, work_nonideal, work_ideal, work_impacts, balance;
  S position_violation, velocity_violation;
  std::vector<S> extras;
};

template <class S>
struct Event {
  S t;
  std::string what;
};

template <class S>
struct Trajectory {
  std::vector<Record<S>> records;
  std::vector<Event<S>> events;
  bool completed = false;
  std::string stop_reason;  // empty when completed
  long steps = 0;           // accepted steps
  long force_evaluations = 0;
  S max_abs_balance = S(0), max_position_violation = S(0), max_velocity_violation = S(0);
};

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
  // A contact event of the step x0 → x1: a gap that was open (> 0) at x0
  // and is closed (< 0) at x1 — an impact, to be located — or a gap below
  // −tol at x1 that was already touching at x0 (drift of a resting contact
  // past the tolerance, projected by the same impact map). Resting contacts
  // within [−tol, 0] are no event: they stay closed without restarts.
  struct Contact {
    Index crossing = -1;  // the first to cross, by depth
    bool drifted = false;
  };
  auto contact_event = [&](const State& x0, const State& x1) {
    Vector<S> q0, qd0, q1, qd1;
    detail::unpack(x0, n, q0, qd0);
    detail::unpack(x1, n, q1, qd1);
    model.check_state(q1);
    Contact c;
    const Vector<S> g1 = model.gaps(q1);
    if (g1.size() == 0) return c;
    const Vector<S> g0 = model.gaps(q0);
    for (Index i = 0; i < g1.size(); ++i) {
      if (g0(i) > S(0) && g1(i) < S(0) && (c.crossing < 0 || g1(i) < g1(c.crossing))) c.crossing = i;
      if (g0(i) <= S(0) && g1(i) < -opt.gap_tolerance) c.drifted = true;
    }
    return c;
  };
  auto gap_of = [&](const State& x, Index i) {
    Vector<S> q, qd;
    detail::unpack(x, n, q, qd);
    return model.gaps(q)(i);
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
  try {
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
        const Contact ev = contact_event(x, x1);
        const Index i = ev.crossing;
        if (i >= 0) {
          // Bisection on re-taken steps from (x, t).
          S lo(0), hi = t1 - t;
          State xm = x;
          for (int it = 0; it < 200; ++it) {
            const S mid = (lo + hi) / S(2);
            xm = x;
            stepper.do_step(rhs, xm, t, mid);
            const S gm = gap_of(xm, i);
            if (gm > S(0)) lo = mid;
            else if (gm < -opt.gap_tolerance) hi = mid;
            else break;
          }
          t = t + (lo + hi) / S(2);
          x = xm;
          apply_impact(x, t);
          continue;  // then on to the same record time from the impact
        }
        if (ev.drifted) apply_impact(x1, t1);
        x = x1;
        t = t1;
        record(x, t);
        ++next_record;
      }
    } else {
      // Steps no longer than the record interval: the dense output between
      // records stays as accurate as the steps, and no contact event is
      // stepped over unseen.
      auto stepper = odeint::make_dense_output(opt.abs_tol, opt.rel_tol, opt.dt,
                                               odeint::runge_kutta_dopri5<State, S, State, S>());
      stepper.initialize(x, t, opt.dt);
      while (record_time(next_record) <= t_last) {
        if (traj.steps >= opt.max_steps) throw ModelStop("step limit reached");
        const auto [t0, t1] = stepper.do_step(rhs);
        ++traj.steps;
        State x1 = stepper.current_state();
        State x0(x1.size());
        stepper.calc_state(t0, x0);
        const Contact ev = contact_event(x0, x1);
        const Index i = ev.crossing;
        if (i >= 0 || ev.drifted) {
          S te = t1;
          State xe = x1;
          if (i >= 0) {
            S lo = t0, hi = t1;
            for (int it = 0; it < 200; ++it) {
              const S mid = (lo + hi) / S(2);
              stepper.calc_state(mid, xe);
              te = mid;
              const S gm = gap_of(xe, i);
              if (gm > S(0)) lo = mid;
              else if (gm < -opt.gap_tolerance) hi = mid;
              else break;
            }
          }
          // Records up to the impact come from the dense output.
          while (record_time(next_record) <= te && record_time(next_record) <= t_last) {
            State xr(x1.size());
            stepper.calc_state(record_time(next_record), xr);
            record(xr, record_time(next_record));
            ++next_record;
          }
          apply_impact(xe, te);
          stepper.initialize(xe, te, opt.dt);
          continue;
        }
        while (record_time(next_record) <= t1 && record_time(next_record) <= t_last) {
          State xr(x1.size());
          stepper.calc_state(record_time(next_record), xr);
          record(xr, record_time(next_record));
          ++next_record;
        }
      }
    }
    traj.completed = true;
  } catch (const ModelStop& stop) {
    traj.stop_reason = stop.what();
  } catch (const boost::numeric::odeint::step_adjustment_error& e) {
    traj.stop_reason = std::string("integrator: ") + e.what();
  }
  if (!traj.completed)
    traj.events.push_back({traj.records.empty() ? S(0) : traj.records.back().t, traj.stop_reason});
  return traj;
}

}  // namespace femc::dynamics
