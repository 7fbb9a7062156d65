#pragma once
// The records of a trajectory (simulate.hpp's Record): at a state x and a
// time t, the energy, the works, the balance
//   E(t) − E(0) − ∫ q̇ᵀQᵂ dt − (impact losses)
// (model.hpp), the constraint violations and the model's extras, and the
// running maxima of the Trajectory. The impact losses are booked here too
// (impacts.hpp reports each one), since the balance needs their sum.
#include "femc/dynamics/simulate.hpp"
#include "femc/dynamics/simulation/force_evaluator.hpp"
#include "femc/dynamics/simulation/monitors.hpp"
#include "femc/dynamics/simulation/ode_state.hpp"

namespace femc::dynamics::simulation {

template <class S>
class Recorder {
 public:
  Recorder(const Model<S>& model, ForceEvaluator<S>& forces, OdeLayout layout, Trajectory<S>& traj,
           const SimulationOptions<S>& opt, const Vector<S>& q0, const Vector<S>& qd0)
      : model_(model), forces_(forces), layout_(layout), traj_(traj), E0_(model.energy(q0, qd0)),
        monitors_(opt, traj, model.potential(q0)) {}

  // Throws ModelStop (check_state) when x leaves what the model describes:
  // at every record time, kept or not (stepping.hpp).
  void check(const OdeState<S>& x) const {
    Vector<S> q, qd;
    layout_.unpack(x, q, qd);
    model_.check_state(q);
  }

  // Records x at t, after check(x).
  void record(const OdeState<S>& x, const S& t) {
    Record<S> r;
    r.t = t;
    layout_.unpack(x, r.q, r.qd);
    model_.check_state(r.q);
    const S kinetic = model_.kinetic(r.q, r.qd), potential = model_.potential(r.q);
    r.energy = kinetic + potential;
    r.work_nonideal = x[layout_.work_nonideal()];
    r.work_ideal = x[layout_.work_ideal()];
    r.work_impacts = impact_work_;
    r.balance = r.energy - E0_ - r.work_nonideal - r.work_impacts;
    r.position_violation = max_norm(model_.position_violation(r.q, t));
    r.velocity_violation = max_norm(model_.velocity_violation(r.q, r.qd, t));
    const Forces<S>& f = forces_.at(x, t);
    r.extras = f.extras;
    monitors_.observe(r, kinetic, potential, f);
    const S ab = r.balance < S(0) ? S(-r.balance) : r.balance;
    if (ab > traj_.max_abs_balance) traj_.max_abs_balance = ab;
    if (r.position_violation > traj_.max_position_violation) traj_.max_position_violation = r.position_violation;
    if (r.velocity_violation > traj_.max_velocity_violation) traj_.max_velocity_violation = r.velocity_violation;
    traj_.records.push_back(std::move(r));
  }

  // The monitors' look at the end state x of an accepted step at t
  // (monitors.hpp, observe_step): its forces are the next step's first
  // stage's, so a stepper with that stage kept (Dopri5's FSAL, a projected
  // state's restart) solves nothing more.
  void step(const OdeState<S>& x, const S& t) { monitors_.observe_step(t, forces_.at(x, t)); }

  // An impact at t changed the kinetic energy by dE (≤ 0 for a plastic one).
  void impact(const S& t, const S& dE) {
    impact_work_ += dE;
    traj_.events.push_back({t, "impact"});
  }

 private:
  const Model<S>& model_;
  ForceEvaluator<S>& forces_;
  OdeLayout layout_;
  Trajectory<S>& traj_;
  S E0_;
  S impact_work_ = S(0);
  Monitors<S> monitors_;
};

}  // namespace femc::dynamics::simulation
