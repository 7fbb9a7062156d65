#pragma once
// The two stepping loops of simulate() (simulate.hpp), over a Run: the
// state, the record clock, and the units that evaluate the forces
// (force_evaluator.hpp), record (recorder.hpp), find and locate events
// (events.hpp) and apply impacts (impacts.hpp).
//   run_fixed_step:    a stepper without dense output (Rk4): one step per
//                      record interval; an event is located on re-taken
//                      steps from the step's start.
//   run_dense_output:  a stepper with dense output (Dopri5, Bulirsch–Stoer):
//                      its own steps; records and events from the dense
//                      output.
// Both end at the last record time, or throw ModelStop (a state the model
// does not describe, the step limit), MethodError or InputError (a state
// whose system cannot be solved or built), which simulate() turns into the
// run's stop reason.
#include <optional>
#include <utility>

#include "femc/dynamics/simulate.hpp"
#include "femc/dynamics/simulation/events.hpp"
#include "femc/dynamics/simulation/force_evaluator.hpp"
#include "femc/dynamics/simulation/impacts.hpp"
#include "femc/dynamics/simulation/radau_iia.hpp"
#include "femc/dynamics/simulation/recorder.hpp"
#include "femc/errors.hpp"

namespace femc::dynamics::simulation {

template <class S>
struct Run {
  const Model<S>& model;
  const SimulationOptions<S>& opt;
  OdeLayout layout;
  Trajectory<S>& traj;
  ForceEvaluator<S>& forces;
  Recorder<S>& recorder;
  const EventLocator<S>& events;
  OdeState<S> x;
  S t = S(0);
  long next_record = 0;
  // The last record time's state that passed check() but was not kept: a
  // run that stops early keeps it (keep_unkept), whatever record_every.
  std::optional<std::pair<OdeState<S>, S>> unkept{};

  S record_time(long k) const { return S(k) * opt.dt; }
  // The first record time after t (Radau IIA's steps end on it).
  S record_time_after(const S& t) const {
    long k = next_record;
    while (record_time(k) <= t) ++k;
    return record_time(k);
  }
  // The last record is at t_end when t_end is a multiple of dt up to rounding.
  S t_last() const { return opt.t_end * (S(1) + S(4) * unit_roundoff<S>()); }
  bool records_left() const { return record_time(next_record) <= t_last(); }
  // Record times are k·dt; every record_every-th one is kept, and the last.
  void record(const OdeState<S>& at, const S& time) {
    if (next_record % opt.record_every == 0 || record_time(next_record + 1) > t_last()) {
      recorder.record(at, time);
      unkept.reset();
    } else {
      recorder.check(at);
      unkept.emplace(at, time);
    }
    ++next_record;
  }
  // After an early stop: the last state reached is a record. Its forces may
  // be what stopped the run (they are the next step's first stage); then it
  // stays out, as it would with every record kept.
  void keep_unkept() {
    if (!unkept) return;
    try {
      recorder.record(unkept->first, unkept->second);
    } catch (const ModelStop&) {
    } catch (const MethodError&) {
    } catch (const InputError&) {
    }
    unkept.reset();
  }
  void check_step_limit() const {
    if (traj.steps >= opt.max_steps) throw ModelStop("step limit reached");
  }
  // The projected formulation (simulate.hpp): x onto the constraints.
  bool projecting() const { return opt.formulation == Formulation::Projected && model.projects(); }
  void project(OdeState<S>& at, const S& time) {
    if (!projecting()) return;
    Vector<S> q, qd;
    layout.unpack(at, q, qd);
    const Projection<S> p = model.project(q, qd, time);
    ++traj.projections;
    traj.directions_dropped += p.directions_dropped;
    const S drift = p.position_before > p.velocity_before ? p.position_before : p.velocity_before;
    if (drift > traj.max_drift_before_projection) traj.max_drift_before_projection = drift;
    for (Index i = 0; i < layout.n; ++i) {
      at[layout.q(i)] = q(i);
      at[layout.qd(i)] = qd(i);
    }
  }
  // An accepted step's end state, to the monitors: models with a rank
  // decision (those that project), in the formulations whose steps' stages
  // see the index-1 field (not Index3, which has its own loop).
  void observe_step(const OdeState<S>& at, const S& time) {
    if (model.projects() && opt.formulation != Formulation::Index3) recorder.step(at, time);
  }
  auto system() {
    return [this](const OdeState<S>& x, OdeState<S>& dx, const S& t) { forces.rhs(x, dx, t); };
  }
};

template <class S, class Stepper>
void run_fixed_step(Run<S>& run, Stepper& stepper) {
  auto system = run.system();
  while (run.records_left()) {
    run.check_step_limit();
    const S t1 = run.record_time(run.next_record);
    OdeState<S> x1 = run.x;
    stepper.do_step(system, x1, run.t, t1 - run.t);
    ++run.traj.steps;
    const StepEvent e = run.events.find(run.x, x1);
    if (e.kind == EventKind::Impact || e.kind == EventKind::Switch) {
      // Located on re-taken steps from (x, t), with the step's modes.
      OdeState<S> xe = run.x;
      const S h = run.events.locate(e, S(0), t1 - run.t, [&](const S& hh, OdeState<S>& out) {
        out = run.x;
        stepper.do_step(system, out, run.t, hh);
      }, xe);
      run.t = run.t + h;
      run.x = xe;
      if (e.kind == EventKind::Impact) apply_impact(run.model, run.layout, run.x, run.t, run.recorder);
      run.forces.begin_step(run.x);
      continue;  // then on to the same record time from the event
    }
    if (e.kind == EventKind::Drift) apply_impact(run.model, run.layout, x1, t1, run.recorder);
    run.project(x1, t1);
    run.x = std::move(x1);
    run.t = t1;
    run.forces.begin_step(run.x);
    run.record(run.x, run.t);
  }
}

// The stepper goes on from x1, a small correction of its state at t1: a
// stepper that can (RadauIIA::continue_from) keeps its controller and
// predictor; Odeint's restart at the current step size.
template <class Stepper, class State, class S>
void continue_stepper_from(Stepper& stepper, const State& x1, const S& t1) {
  stepper.initialize(x1, t1, stepper.current_time_step());
}
template <class S>
void continue_stepper_from(RadauIIA<S>& stepper, const OdeState<S>& x1, const S&) {
  stepper.continue_from(x1);
}

template <class S, class Stepper>
void run_dense_output(Run<S>& run, Stepper& stepper) {
  auto system = run.system();
  stepper.initialize(run.x, run.t, run.opt.dt);
  auto records_up_to = [&](const S& until) {
    while (run.records_left() && run.record_time(run.next_record) <= until) {
      OdeState<S> xr(run.x.size());
      stepper.calc_state(run.record_time(run.next_record), xr);
      run.project(xr, run.record_time(run.next_record));
      run.record(xr, run.record_time(run.next_record));
    }
  };
  int refusals = 0;
  while (run.records_left()) {
    run.check_step_limit();
    // A trial stage that the solve refuses (an overflow far from the
    // solution, after a step too long for a stiff force: IFToMM A05's first
    // step of dt), or whose system cannot even be built (a force that
    // overflowed to infinity is refused as an entry that is not finite), is
    // a rejected step: it is retried from the same state, ten times shorter.
    // The error estimate cannot do this, as an overflowed stage has no
    // error to estimate.
    const OdeState<S> x_before = stepper.current_state();
    const S t_before = stepper.current_time(), h_before = stepper.current_time_step();
    std::pair<S, S> interval;
    bool refused = false;
    try {
      interval = stepper.do_step(system);
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
    OdeState<S> x1 = stepper.current_state();
    ++run.traj.steps;
    OdeState<S> x0(x1.size());
    stepper.calc_state(t0, x0);
    const StepEvent e = run.events.find(x0, x1);
    if (e.kind != EventKind::None) {
      S te = t1;
      OdeState<S> xe = x1;
      if (e.kind != EventKind::Drift)
        te = run.events.locate(e, t0, t1, [&](const S& tt, OdeState<S>& out) { stepper.calc_state(tt, out); }, xe);
      records_up_to(te);  // from the dense output, before the event
      if (e.kind != EventKind::Switch) apply_impact(run.model, run.layout, xe, te, run.recorder);
      run.forces.begin_step(xe);
      stepper.initialize(xe, te, run.opt.dt);
      continue;
    }
    // The step's end to the monitors while the step's last stage is the kept
    // evaluation (Dopri5's FSAL: no solve more); a record would evict it. A
    // projected state is looked at after its projection, below.
    if (!run.projecting()) run.observe_step(x1, t1);
    records_up_to(t1);
    if (run.projecting()) {
      // The projected state starts the next step (its first derivative anew).
      run.project(x1, t1);
      run.forces.begin_step(x1);
      run.observe_step(x1, t1);
      continue_stepper_from(stepper, x1, t1);
      continue;
    }
    // New contact modes at the accepted state: restart, so that the first
    // derivative of the next step is recomputed (Dopri5's FSAL).
    if (run.forces.begin_step(x1)) stepper.initialize(x1, t1, stepper.current_time_step());
  }
}

}  // namespace femc::dynamics::simulation
