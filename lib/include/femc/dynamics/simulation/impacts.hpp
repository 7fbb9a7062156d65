#pragma once
// An impact at a located event (events.hpp): the model's impact map
// (model.hpp; contact_model.hpp: perfectly plastic, frictionless, by an
// LCP on the velocities) replaces q̇ in x, and the kinetic energy it
// removes is booked with the recorder (recorder.hpp) for the balance.
#include "femc/dynamics/model.hpp"
#include "femc/dynamics/simulation/ode_state.hpp"
#include "femc/dynamics/simulation/recorder.hpp"

namespace femc::dynamics::simulation {

template <class S>
void apply_impact(const Model<S>& model, OdeLayout layout, OdeState<S>& x, const S& t, Recorder<S>& recorder) {
  Vector<S> q, qd;
  layout.unpack(x, q, qd);
  const Vector<S> qd_plus = model.impact(q, qd);
  recorder.impact(t, model.kinetic(q, qd_plus) - model.kinetic(q, qd));
  layout.set_velocity(x, qd_plus);
}

}  // namespace femc::dynamics::simulation
