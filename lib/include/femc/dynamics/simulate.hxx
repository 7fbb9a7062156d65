#pragma once
// The body of simulate() (simulate.hpp): the options checked, the units of
// simulation/ put together, the stepper chosen, and a stop turned into the
// run's stop reason.
//   simulation/ode_state.hpp        the integrated state (q, q̇, works)
//   simulation/force_evaluator.hpp  the model's forces, one solve per state
//   simulation/recorder.hpp         the records and the energy balance
//   simulation/events.hpp           impacts, mode switches, drift: found and located
//   simulation/impacts.hpp          the impact map applied at an event
//   simulation/stepping.hpp         the fixed-step and the dense-output loops
//   simulation/radau_iia.hpp        the stiff stepper
#include "femc/dynamics/odeint_multiprecision.hpp"  // before odeint.hpp
#include <boost/numeric/odeint.hpp>

#include "femc/dynamics/simulate.hpp"
#include "femc/dynamics/simulation/index3_trapezoidal.hpp"
#include "femc/dynamics/simulation/radau_iia.hpp"
#include "femc/dynamics/simulation/stepping.hpp"
#include "femc/errors.hpp"

namespace femc::dynamics {

namespace detail {
template <class S>
void check_simulation_input(const Model<S>& model, const Vector<S>& q0, const Vector<S>& qd0,
                            const SimulationOptions<S>& opt) {
  const Index n = model.dof();
  if (q0.size() != n || qd0.size() != n)
    throw InputError("initial state", "needs " + std::to_string(n) + " coordinates and velocities");
  if (!(opt.t_end > S(0))) throw InputError("t_end", "must be positive, got " + format_scalar(opt.t_end));
  if (!(opt.dt > S(0)) || opt.dt > opt.t_end)
    throw InputError("dt", "must be in (0, t_end], got " + format_scalar(opt.dt));
  if (opt.record_every < 1)
    throw InputError("record_every", "must be at least 1, got " + std::to_string(opt.record_every));
  if (!(opt.step >= S(0))) throw InputError("step", "must be positive (or 0 for the default), got " + format_scalar(opt.step));
  if (!(opt.abs_tol > S(0)) || !(opt.rel_tol >= S(0)))
    throw InputError("tolerance", "abs_tol must be positive and rel_tol non-negative");
  if (opt.stepper == Stepper::RadauIIA &&
      (opt.stages < simulation::kMinRadauStages || opt.stages > simulation::kMaxRadauStages))
    throw InputError("stages", "must be in [" + std::to_string(simulation::kMinRadauStages) + ", " +
                                   std::to_string(simulation::kMaxRadauStages) + "], got " + std::to_string(opt.stages));
}
}  // namespace detail

template <class S>
Trajectory<S> simulate(const Model<S>& model, const Vector<S>& q0, const Vector<S>& qd0,
                       const SimulationOptions<S>& opt) {
  namespace odeint = boost::numeric::odeint;
  using namespace simulation;
  detail::check_simulation_input(model, q0, qd0, opt);
  const OdeLayout layout{model.dof()};
  Trajectory<S> traj;
  ForceEvaluator<S> forces(model, opt.baumgarte, layout);
  Recorder<S> recorder(model, forces, layout, traj, opt, q0, qd0);
  const EventLocator<S> events(model, layout, opt.gap_tolerance);
  Run<S> run{model, opt, layout, traj, forces, recorder, events, layout.pack(q0, qd0)};
  try {
    forces.begin_step(run.x);
    run.record(run.x, run.t);
    if (opt.formulation == Formulation::Index3 && model.projects()) {
      Index3Trapezoidal<S> stepper(model, forces, layout,
                                   opt.step > S(0) ? opt.step : (opt.dt < S(1) / S(1000) ? opt.dt : S(1) / S(1000)));
      run_fixed_step(run, stepper);
      traj.steps = stepper.steps();  // run_fixed_step counts the record intervals
      traj.newton_iterations = stepper.newton_iterations();
      traj.directions_dropped += stepper.directions_dropped();
    } else if (opt.stepper == Stepper::Rk4) {
      odeint::runge_kutta4<OdeState<S>, S, OdeState<S>, S> stepper;
      run_fixed_step(run, stepper);
    } else if (opt.stepper == Stepper::Dopri5) {
      // Steps no longer than the record interval: the dense output between
      // records stays as accurate as the steps, and no contact event is
      // stepped over unseen.
      auto stepper = odeint::make_dense_output(opt.abs_tol, opt.rel_tol, opt.dt,
                                               odeint::runge_kutta_dopri5<OdeState<S>, S, OdeState<S>, S>());
      run_dense_output(run, stepper);
    } else if (opt.stepper == Stepper::RadauIIA) {
      RadauIIA<S> stepper(
          opt.abs_tol, opt.rel_tol, [&run](const S& t) { return run.record_time_after(t); }, opt.stages);
      run_dense_output(run, stepper);
    } else {
      // Extrapolation of any order (Deuflhard's order and step control): the
      // stepper for tolerances near the working precision's unit roundoff,
      // where a fifth-order method would take millions of steps.
      odeint::bulirsch_stoer_dense_out<OdeState<S>, S, OdeState<S>, S> stepper(opt.abs_tol, opt.rel_tol, S(1), S(0),
                                                                               opt.dt);
      run_dense_output(run, stepper);
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
  if (!traj.completed) run.keep_unkept();
  traj.force_evaluations = forces.evaluations();
  if (!traj.completed)
    traj.events.push_back({traj.records.empty() ? S(0) : traj.records.back().t, traj.stop_reason});
  return traj;
}

}  // namespace femc::dynamics
