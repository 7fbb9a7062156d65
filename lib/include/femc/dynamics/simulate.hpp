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

// How the constraints are kept (bilateral models; a contact model keeps its
// own impacts and drift maps whatever this says):
//   Projected  Gauss's principle at each state (the index-1 equations, any
//              rank), and after every accepted step (and at every record) the
//              state moved back onto φ = 0 and φ̇ = 0 along the metric of M
//              (Model::project, bilateral_model.hpp): the drift never
//              accumulates. The default. Its steps' stages are still taken
//              off the constraints, where the index-1 vector field is
//              singular at a singular configuration (the drift divided by
//              σ_min): at IFToMM A02's flat configurations a double run can
//              stall or leave its branch, and says so (simulation/
//              monitors.hpp); use Index3 there.
//   Index3     the trapezoidal rule on the positions' constraints, each step
//              Newton's with Gauss's principle at any rank, then the
//              velocities projected (simulation/index3_trapezoidal.hpp): passes
//              singular configurations (IFToMM A02), where the stages of an
//              explicit stepper see the index-1 equations' singular vector
//              field off the constraints and crawl towards the crossing. Fixed
//              step (`step`), second order, no error control: the step sets
//              the accuracy; the stepper and tolerance options are not used.
//              A model file may make it its default ("formulation",
//              "step": the A02 files of models/benchmarks/ do).
//   Index1     the index-1 equations alone (optionally with Baumgarte): the
//              drift grows with time, and at a singular configuration it is
//              divided by the vanishing singular value (IFToMM A02 leaves its
//              branch at double); kept for comparison.
enum class Formulation { Projected, Index3, Index1 };
inline const char* to_string(Formulation f) {
  return f == Formulation::Projected ? "projected" : f == Formulation::Index3 ? "index-3" : "index-1";
}

template <class S>
struct SimulationOptions {
  S t_end = S(1);
  S dt = S(1) / S(100);    // Rk4 step and the record interval
  long record_every = 1;   // keep every k-th record (and the last): a large model's records are large
  S abs_tol = S(1) / S(10000000000LL);  // Dopri5, BulirschStoer, RadauIIA
  S rel_tol = S(1) / S(10000000000LL);
  Stepper stepper = Stepper::Dopri5;
  Formulation formulation = Formulation::Projected;
  // Index3's fixed step (0: the largest h ≤ 10⁻³ s that divides dt).
  S step = S(0);
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

// A result femc cannot vouch for (simulation/monitors.hpp): what tripped,
// when it first did, the measure and the threshold it crossed.
template <class S>
struct Warning {
  std::string kind;  // "energy balance", "singular configuration", "rank at the drift"
  S t_first = S(0), t_last = S(0);
  long records = 0;  // records at which it held (accepted steps too, where it is counted in steps: monitors.hpp)
  S measure = S(0), threshold = S(0);  // at its worst
  std::string what;  // one sentence
};

template <class S>
struct Trajectory {
  std::vector<Record<S>> records;
  std::vector<Event<S>> events;
  std::vector<Warning<S>> warnings;  // empty for a run femc vouches for
  bool completed = false;
  std::string stop_reason;  // empty when completed
  long steps = 0;           // accepted steps
  long force_evaluations = 0;  // solves of the model (stages and records; a state's solve is reused)
  S max_abs_balance = S(0), max_position_violation = S(0), max_velocity_violation = S(0);
  // The projected formulation: projections made, the largest constraint
  // violation a step left before its projection, and the directions its
  // Gauss–Newton steps dropped near singular configurations.
  long projections = 0;
  S max_drift_before_projection = S(0);
  long directions_dropped = 0;
  long newton_iterations = 0;  // the index-3 formulation's
};

// Integrates model from (q0, q̇0) to opt.t_end, recording every opt.dt.
// Throws InputError naming the field for a bad state size or option.
template <class S>
Trajectory<S> simulate(const Model<S>& model, const Vector<S>& q0, const Vector<S>& qd0,
                       const SimulationOptions<S>& opt);

}  // namespace femc::dynamics
