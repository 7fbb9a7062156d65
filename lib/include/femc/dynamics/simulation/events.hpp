#pragma once
// The events of a step x0 → x1 of a unilateral model, and where they happen.
// Most urgent first:
//   Impact: a gap open at x0 (> 0) is closed at x1 (< 0);
//   Switch: a switching function of the model (model.hpp: a sliding
//           contact's slip speed, signed to be positive at x0) reaches 0;
//   Drift:  a contact touching at x0 is below −tol at x1 (the impact map
//           projects the velocity; resting contacts within [−tol, 0] are
//           no event and stay closed without restarts).
// Impacts and switches are located by bisection on the step: the zero of
// the gap, or of the switching function, to within [−tol, 0] (gaps) or
// [−tol, tol] (switches), tol the gap tolerance of the options.
#include "femc/dynamics/model.hpp"
#include "femc/dynamics/simulation/ode_state.hpp"

namespace femc::dynamics::simulation {

enum class EventKind { None, Impact, Switch, Drift };

struct StepEvent {
  EventKind kind = EventKind::None;
  Index index = -1;  // the contact, or the switching function
};

template <class S>
class EventLocator {
 public:
  EventLocator(const Model<S>& model, OdeLayout layout, S tolerance)
      : model_(model), layout_(layout), tol_(tolerance) {}

  // The event of the step x0 → x1, if any. Throws ModelStop when x1 leaves
  // what the model describes (check_state).
  StepEvent find(const OdeState<S>& x0, const OdeState<S>& x1) const {
    Vector<S> q0, qd0, q1, qd1;
    layout_.unpack(x0, q0, qd0);
    layout_.unpack(x1, q1, qd1);
    model_.check_state(q1);
    StepEvent e;
    const Vector<S> g1 = model_.gaps(q1);
    if (g1.size() == 0) return e;
    const Vector<S> g0 = model_.gaps(q0);
    for (Index i = 0; i < g1.size(); ++i)
      if (g0(i) > S(0) && g1(i) < S(0) && (e.index < 0 || g1(i) < g1(e.index))) e = {EventKind::Impact, i};
    if (e.kind != EventKind::None) return e;
    const Vector<S> f0 = model_.switching(q0, qd0), f1 = model_.switching(q1, qd1);
    for (Index i = 0; i < f1.size(); ++i)
      if (f0(i) > tol_ && f1(i) <= tol_) return StepEvent{EventKind::Switch, i};
    for (Index i = 0; i < g1.size(); ++i)
      if (g0(i) <= S(0) && g1(i) < -tol_) return StepEvent{EventKind::Drift, i};
    return e;
  }

  // Bisection on [lo, hi] for an Impact or a Switch; state_at(τ, x) gives
  // the state at τ (the dense output, or a re-taken step of length τ).
  // Returns τ, with the state there in xe.
  template <class StateAt>
  S locate(const StepEvent& e, S lo, S hi, StateAt state_at, OdeState<S>& xe) const {
    S te = hi;
    for (int it = 0; it < 300; ++it) {
      te = (lo + hi) / S(2);
      state_at(te, xe);
      const int s = side(xe, e);
      if (s > 0) lo = te;
      else if (s < 0) hi = te;
      else break;
    }
    return te;
  }

 private:
  // Where x is against the event's window: +1 before, 0 inside, −1 past.
  int side(const OdeState<S>& x, const StepEvent& e) const {
    Vector<S> q, qd;
    layout_.unpack(x, q, qd);
    const S v = e.kind == EventKind::Impact ? S(model_.gaps(q)(e.index)) : S(model_.switching(q, qd)(e.index));
    const S upper = e.kind == EventKind::Impact ? S(0) : tol_;
    if (v > upper) return 1;
    if (v < -tol_) return -1;
    return 0;
  }

  const Model<S>& model_;
  OdeLayout layout_;
  S tol_;
};

}  // namespace femc::dynamics::simulation
