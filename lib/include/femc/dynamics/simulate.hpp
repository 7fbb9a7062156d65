#pragma once
// Trajectories of a Model (model.hpp) in any floating scalar type, with
// Boost.Odeint steppers (no hand-written Runge–Kutta):
//   Stepper::Dopri5  adaptive Dormand–Prince 5(4) with dense output
//                    (abs_tol, rel_tol); records at t = k·dt from the
//                    dense output, so the output grid does not steer the steps;
//   Stepper::Rk4     classical fixed-step Runge–Kutta, step dt;
//   Stepper::BulirschStoer  extrapolation with order and step control and
//                    dense output (abs_tol, rel_tol), steps at most dt: for
//                    reference solutions at tolerances near the working
//                    precision.
//   Stepper::RadauIIA  the s-stage Radau IIA collocation method, order
//                    2s − 1 (simulation/radau_iia.hpp; Odeint has no implicit
//                    method of high order), L-stable, for stiff models (IFToMM
//                    A05's spring-dampers) at any tolerance; steps end on the
//                    record grid.
// The state is (q, q̇, W_nonideal, W_ideal): the work integrals ∫ q̇ᵀQᵂ dt
// and ∫ q̇ᵀQᴺ dt are integrated with the motion, so the balance
//   E(t) − E(0) − ∫ q̇ᵀQᵂ dt − (impact losses)
// measures the integrator's error (model.hpp). Per record: the energy, both
// works, the balance, and the position- and velocity-level constraint
// violations (max norm). The trajectory's maxima are over the records kept.
//
// Impacts (unilateral models): a gap that crosses zero during a step is
// located by bisection on the dense output (Dopri5) or on re-taken steps
// (Rk4) to within [−gap tolerance, 0]; the model's impact map is applied
// there and its kinetic-energy change is booked as impact work. A resting
// contact that drifts below −gap tolerance gets the same map (a velocity
// projection) where it is found.
// A ModelStop (Painlevé state, unmodelled contact), a step-size failure or
// a solve that refuses a state (MethodError, e.g. an overflow) ends the run
// early with the reason recorded; the trajectory up to it is kept.
//
// simulate.hxx holds the body, put together from the units of simulation/
// (the state, one solve per state, records, events, impacts, the two
// stepping loops); the library instantiates it for double,
// long double, float128 and mpfr_real (lib/src/instantiate/dynamics.cpp.in),
// so callers at those types include this header only.
#include <optional>
#include <string>
#include <vector>

#include "femc/dynamics/model.hpp"

namespace femc::dynamics {

enum class Stepper { Dopri5, Rk4, BulirschStoer, RadauIIA };

template <class S>
struct SimulationOptions {
  S t_end = S(1);
  S dt = S(1) / S(100);    // Rk4 step and the record interval
  long record_every = 1;   // keep every k-th record (and the last): a large model's records are large
  S abs_tol = S(1) / S(10000000000LL);  // Dopri5, BulirschStoer, RadauIIA
  S rel_tol = S(1) / S(10000000000LL);
  Stepper stepper = Stepper::Dopri5;
  int stages = 7;  // RadauIIA's s: order 2s − 1 (13), stage order s
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
  long force_evaluations = 0;  // solves of the model (stages and records; a state's solve is reused)
  S max_abs_balance = S(0), max_position_violation = S(0), max_velocity_violation = S(0);
};

// Integrates model from (q0, q̇0) to opt.t_end, recording every opt.dt.
// Throws InputError naming the field for a bad state size or option.
template <class S>
Trajectory<S> simulate(const Model<S>& model, const Vector<S>& q0, const Vector<S>& qd0,
                       const SimulationOptions<S>& opt);

}  // namespace femc::dynamics
