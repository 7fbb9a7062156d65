#pragma once
// The index-3 formulation's stepper (simulate.hpp, Formulation::Index3): the
// trapezoidal rule on the positions' constraints, Bayo & Ledesma's scheme
// (index-3 augmented Lagrangian with mass-orthogonal projections, ALI3-P,
// 1996; the formulation the IFToMM benchmark's authors pass A02 with) with
// its penalty replaced by Gauss's principle at any rank:
//
//   q_{n+1} = q̂ + h²/4·a,  q̇_{n+1} = v̂ + h/2·a,
//   q̂ = q_n + h q̇_n + h²/4·a_n,  v̂ = q̇_n + h/2·a_n,
//
// a the acceleration that satisfies the dynamics at (q_{n+1}, q̇_{n+1}) and
// puts the positions on the constraints, φ(q_{n+1}) = 0. Newton on φ: each
// iterate is the acceleration of Gauss's principle whose constraints are
// φ linearized about the iterate, A·a = A·a_k − (4/h²)·φ (Model::
// newton_acceleration, femc's solve at any rank, τ raised to the iterate's
// drift). Then the velocities are projected onto φ̇ = 0 in the metric of M,
// leaving the directions the rule's own O(h²) rate makes untrustworthy
// (BilateralModel::project_velocity), and the next step's a_n is the
// Gauss solution at the new state (the index-1 one, consistent data), or,
// at a singular configuration, the step's own a (one_step_impl says why).
//
// Why it passes singular configurations. The position update is the
// dynamics' (it minimizes the Gaussian from the trapezoidal prediction,
// weighted by M/h²), not a geometric projection: near a point where two
// branches cross, the other branch would need an acceleration of order
// (velocity jump)/h, which the Gaussian rejects, so the step stays on the
// branch the motion is on; the stages of an explicit method, evaluated off
// the constraints near the crossing, see the singular vector field of the
// index-1 equations (its drift divided by σ_min) and crawl towards the
// crossing in ever shorter steps. A Newton iterate that does not halve |φ|∞
// (near the singular point the linearization holds only along directions
// with σ² ≫ ‖∂A/∂q‖·|φ|) is retaken with its smallest kept direction
// dropped, as the projected formulation's Gauss–Newton steps are
// (bilateral_model.hpp).
//
// Second order, fixed step h (SimulationOptions::step): its error over a
// run is O(h²) and not controlled by a tolerance.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "femc/dynamics/model.hpp"
#include "femc/dynamics/simulation/force_evaluator.hpp"
#include "femc/dynamics/simulation/ode_state.hpp"

namespace femc::dynamics::simulation {

template <class S>
class Index3Trapezoidal {
 public:
  Index3Trapezoidal(const Model<S>& model, ForceEvaluator<S>& forces, OdeLayout layout, S step)
      : model_(model), forces_(forces), layout_(layout), step_(step) {}

  // From (x, t) by dt, in steps of at most step_ (Odeint's do_step shape; the
  // system function is not used: the step needs the model itself).
  template <class System>
  void do_step(System&&, OdeState<S>& x, const S& t, const S& dt) {
    using std::ceil;
    const long n = std::max(1L, static_cast<long>(static_cast<double>(ceil(dt / step_ - S(1) / S(1000)))));
    const S h = dt / S(n);
    for (long k = 0; k < n; ++k) one_step_impl(x, t + S(k) * h, h);
  }

  long steps() const { return steps_; }  // trapezoidal steps taken
  long newton_iterations() const { return iterations_; }
  long directions_dropped() const { return dropped_; }

  // One step of h from (x, t).
  void one_step(OdeState<S>& x, const S& t, const S& h);

 private:
  static S inf_norm(const Vector<S>& v) {
    S m(0);
    for (Index i = 0; i < v.size(); ++i) m = std::max<S>(m, v(i) < S(0) ? S(-v(i)) : v(i));
    return m;
  }

  void one_step_impl(OdeState<S>& x, const S& t, const S& h) {
    ++steps_;
    Vector<S> q, v;
    layout_.unpack(x, q, v);
    const Forces<S> f0 = forces_.at(x, t);
    // a_n: the Gauss solution at the state (the accelerations' projection of
    // Bayo & Ledesma's scheme), but at a singular configuration the last
    // step's own acceleration, where this step starts from its end. There
    // the Gauss solution divides the rule's constraint rate, of order h²
    // (project_velocity), by σ_min: at A02 N = 1000's first flat
    // configuration (σ_min/σ₁ = 1.4·10⁻⁹) it was 3·10⁵ m/s² against the
    // motion's 23, and the predictor threw the mechanism off its branch. A
    // configuration is singular here when a direction the state's solve kept
    // is one the last velocity projection could not correct (σ/σ₁ at or
    // below its τ). Measured on A02 (B0's largest error over 2 s at N = 1000,
    // over 20 s at N = 40): with the Gauss solution everywhere 8·10⁻⁵ m and
    // 8.9·10⁻⁵ m, the step's own acceleration everywhere 6.5·10⁻⁶ m and
    // 1.1·10⁻⁴ m, this rule the better of each.
    const bool singular = f0.rank && f0.rank->largest > S(0) &&
                          f0.rank->smallest_kept <= last_velocity_tol_ * f0.rank->largest;
    const Vector<S>& a0 = have_last_ && singular && x == last_x_ ? last_a_ : f0.qdd;
    const Vector<S> q_hat = q + h * v + (h * h / S(4)) * a0, v_hat = v + (h / S(2)) * a0;
    S scale(1);
    for (Index i = 0; i < q.size(); ++i) scale = std::max<S>(scale, q(i) < S(0) ? S(-q(i)) : q(i));
    const S tol = S(64) * unit_roundoff<S>() * scale;  // |φ|∞ on the constraints, as the assembly's
    const S c = S(4) / (h * h);
    Vector<S> a = a0;
    std::optional<S> rank_tol;
    for (int it = 0; it < kMaxIterations; ++it) {
      const Vector<S> qk = q_hat + (h * h / S(4)) * a, vk = v_hat + (h / S(2)) * a;
      const S phi_k = inf_norm(model_.position_violation(qk, t + h));
      bool accepted = false;
      for (int retry = 0; retry < kMaxIterations && !accepted; ++retry) {
        RankDecision<S> decided;
        const Vector<S> next = model_.newton_acceleration(qk, vk, a, c, rank_tol, decided);
        ++iterations_;
        const S phi_next = inf_norm(model_.position_violation(Vector<S>(q_hat + (h * h / S(4)) * next), t + h));
        const S moved = (h * h / S(4)) * inf_norm(Vector<S>(next - a));
        if (phi_next <= phi_k / S(2) || phi_next <= tol) {
          accepted = true;
          a = next;
          if (phi_next <= tol && moved <= tol) it = kMaxIterations;  // converged
        } else if (decided.rank > 1 && decided.largest > S(0)) {
          rank_tol = decided.smallest_kept / decided.largest;  // drop the smallest kept direction
          ++dropped_;
        } else {
          break;
        }
      }
      if (!accepted) break;
    }
    q = q_hat + (h * h / S(4)) * a;
    v = v_hat + (h / S(2)) * a;
    last_velocity_tol_ = model_.project_velocity(q, v);
    OdeState<S> next = layout_.pack(q, v);
    // The works: the trapezoidal rule on their powers, each end's forces the
    // Gauss solution at that state.
    const Forces<S>& f1 = forces_.at(next, t + h);
    next[layout_.work_nonideal()] =
        x[layout_.work_nonideal()] + h / S(2) * (v.dot(f1.nonideal) + velocity(x).dot(f0.nonideal));
    next[layout_.work_ideal()] = x[layout_.work_ideal()] + h / S(2) * (v.dot(f1.ideal) + velocity(x).dot(f0.ideal));
    x = std::move(next);
    last_x_ = x;
    last_a_ = a;
    have_last_ = true;
  }

  Vector<S> velocity(const OdeState<S>& x) const {
    Vector<S> q, v;
    layout_.unpack(x, q, v);
    return v;
  }

  static constexpr int kMaxIterations = 10;
  const Model<S>& model_;
  ForceEvaluator<S>& forces_;
  OdeLayout layout_;
  S step_;
  long steps_ = 0, iterations_ = 0, dropped_ = 0;
  // The state the last step ended at, its acceleration a_{n+1} and the
  // rank tolerance of its velocity projection.
  OdeState<S> last_x_;
  Vector<S> last_a_;
  bool have_last_ = false;
  S last_velocity_tol_ = S(0);
};

template <class S>
void Index3Trapezoidal<S>::one_step(OdeState<S>& x, const S& t, const S& h) {
  one_step_impl(x, t, h);
}

}  // namespace femc::dynamics::simulation
