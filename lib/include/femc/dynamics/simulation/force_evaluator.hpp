#pragma once
// The model's forces at a state, as simulate() asks for them: the right-hand
// side of the ODE for the stepper, and the extras of a record. One solve per
// state: the last evaluation is kept, so a record at a step's end and the
// next step's first stage (the same state) share it.
//
// The model's discrete modes (model.hpp, begin_step) are part of what the
// forces depend on, so every begin_step goes through here and forgets the
// kept evaluation.
#include <optional>

#include "femc/dynamics/model.hpp"
#include "femc/dynamics/simulation/ode_state.hpp"

namespace femc::dynamics::simulation {

template <class S>
class ForceEvaluator {
 public:
  ForceEvaluator(const Model<S>& model, const Baumgarte<S>& baumgarte, OdeLayout layout)
      : model_(model), baumgarte_(baumgarte), layout_(layout) {}

  // The forces at (x, t): the kept ones when x's motion and t are the same.
  const Forces<S>& at(const OdeState<S>& x, const S& t) {
    if (kept_ && t == kept_t_ && same_motion(x, kept_x_)) return *kept_;
    Vector<S> q, qd;
    layout_.unpack(x, q, qd);
    kept_.reset();
    kept_ = model_.forces(q, qd, t, baumgarte_);
    ++evaluations_;
    kept_x_ = x;
    kept_t_ = t;
    return *kept_;
  }

  // dx/dt = (q̇, q̈, q̇ᵀQᵂ, q̇ᵀQᴺ), Odeint's system function.
  void rhs(const OdeState<S>& x, OdeState<S>& dx, const S& t) {
    const Forces<S>& f = at(x, t);
    Vector<S> q, qd;
    layout_.unpack(x, q, qd);
    dx.resize(x.size());
    for (Index i = 0; i < layout_.n; ++i) {
      dx[layout_.q(i)] = qd(i);
      dx[layout_.qd(i)] = f.qdd(i);
    }
    dx[layout_.work_nonideal()] = qd.dot(f.nonideal);
    dx[layout_.work_ideal()] = qd.dot(f.ideal);
  }

  // The model's begin_step at an accepted state (model.hpp); true when its
  // modes changed.
  bool begin_step(const OdeState<S>& x) {
    kept_.reset();
    Vector<S> q, qd;
    layout_.unpack(x, q, qd);
    return model_.begin_step(q, qd);
  }

  long evaluations() const { return evaluations_; }

 private:
  bool same_motion(const OdeState<S>& a, const OdeState<S>& b) const {
    for (Index i = 0; i < 2 * layout_.n; ++i)
      if (a[std::size_t(i)] != b[std::size_t(i)]) return false;
    return true;
  }

  const Model<S>& model_;
  const Baumgarte<S>& baumgarte_;
  OdeLayout layout_;
  std::optional<Forces<S>> kept_;
  OdeState<S> kept_x_;
  S kept_t_ = S(0);
  long evaluations_ = 0;
};

}  // namespace femc::dynamics::simulation
