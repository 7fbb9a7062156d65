#pragma once
// A mechanical system to integrate: what the trajectory code (simulate.hpp)
// asks of it at one state (q, q̇, t).
//
// Energy bookkeeping. With E = ½ q̇ᵀM q̇ + V(q) and Q = −∇V + (forces that
// the model reports as non-ideal), the equations M q̈ = Q + Qᴺ + Qᵂ give
//   dE/dt = q̇ᵀ Qᴺ + q̇ᵀ Qᵂ.
// The ideal part does no work along the motion of a scleronomic system
// (q̇ᵀQᴺ = 0 when A q̇ = 0), so E(t) − E(0) − ∫ q̇ᵀQᵂ dt = 0; the integrals of
// both powers are carried as two extra states, so the check measures the
// integrator's error, not a quadrature's.
#include <optional>
#include <string>
#include <vector>

#include "femc/linalg.hpp"
#include "femc/solution.hpp"

namespace femc::dynamics {

// Baumgarte stabilization (1972): the acceleration-level constraint
// φ̈ = 0 is replaced by φ̈ + 2α φ̇ + β² φ = 0 (α = β = 0: none).
template <class S>
struct Baumgarte {
  S alpha = S(0);
  S beta = S(0);
  bool active() const { return alpha != S(0) || beta != S(0); }
};

template <class S>
struct Forces {
  Vector<S> qdd;
  Vector<S> ideal;     // Qᴺ (bilateral) or W_Nᵀλ (contact normal forces)
  Vector<S> nonideal;  // Qᵂ (friction, the work-doing part)
  std::vector<S> extras;  // model-specific columns (extra_names())
  // Bilateral models: the solve's rank decision (femc/rank.hpp) and the
  // drift's share of its relative tolerance (bilateral_model.hpp, 0 when
  // the drift did not raise it), for simulate()'s monitors.
  std::optional<RankDecision<S>> rank;
  S drift_tol = S(0);
};

// What a projection onto the constraints did (Model::project).
template <class S>
struct Projection {
  bool applied = false;
  int iterations = 0;             // Gauss–Newton steps on the positions
  S position_before = S(0);       // |φ|∞ before and after
  S position_after = S(0);
  S velocity_before = S(0);       // |φ̇|∞ before and after
  S velocity_after = S(0);
  Index directions_dropped = 0;   // constraint directions a step left out (too close to singular for its drift)
};

// Thrown when the model cannot continue (a Painlevé state, a contact the
// model does not include, a sticking state it does not resolve). The
// simulation stops there and reports the message; it never guesses.
class ModelStop : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class S>
class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  virtual std::vector<std::string> coordinate_names() const = 0;
  Index dof() const { return Index(coordinate_names().size()); }
  virtual std::vector<std::string> extra_names() const { return {}; }

  virtual Matrix<S> mass(const Vector<S>& q) const = 0;
  virtual S potential(const Vector<S>& q) const = 0;
  virtual Forces<S> forces(const Vector<S>& q, const Vector<S>& qd, const S& t,
                           const Baumgarte<S>& stab) const = 0;
  // Constraint violation at position and velocity level (for contacts: the
  // penetration and the approach speed of closed contacts).
  virtual Vector<S> position_violation(const Vector<S>& q, const S& t) const = 0;
  virtual Vector<S> velocity_violation(const Vector<S>& q, const Vector<S>& qd, const S& t) const = 0;

  // Unilateral models: gaps g_N(q) (empty for bilateral ones) and the
  // velocity jump of an impact at a state where some gap closes.
  virtual Vector<S> gaps(const Vector<S>&) const { return {}; }
  virtual Vector<S> gap_rates(const Vector<S>&, const Vector<S>&) const { return {}; }
  virtual Vector<S> impact(const Vector<S>&, const Vector<S>& qd) const { return qd; }
  // Called on every accepted state (not on the trial stages of a step):
  // throws ModelStop when the state leaves what the model describes.
  virtual void check_state(const Vector<S>&) const {}

  // Non-smooth models decide discrete modes (which contacts are closed,
  // sticking or sliding which way) at an accepted state and keep them over
  // the trial stages of the next step: the stages of a Runge–Kutta step
  // leave the constraint manifold by O(h²), which must not flip a mode.
  // Returns true when the modes changed. switching() returns functions,
  // positive at the step's start, whose zero crossing ends a mode (a
  // sliding contact coming to rest); simulate() locates it and restarts.
  virtual bool begin_step(const Vector<S>&, const Vector<S>&) const { return false; }
  virtual Vector<S> switching(const Vector<S>&, const Vector<S>&) const { return {}; }

  // The projected formulation (simulate.hpp): moves an accepted state onto
  // the constraints, φ(q) = 0 and φ̇(q, q̇) = 0, each correction the smallest
  // in the metric of M. Models that cannot project (contact models) say so.
  virtual bool projects() const { return false; }
  virtual Projection<S> project(Vector<S>&, Vector<S>&, const S&) const { return {}; }
  // The index-3 formulation (simulation/index3_trapezoidal.hpp): the
  // acceleration a of Gauss's principle at (q, q̇) whose constraints are the
  // positions' linearized: A(q)·a = A(q)·a_prev − c·φ(q) (c = 4/h², the
  // trapezoidal rule's), at any rank, τ overridden by rank_tol when set; and
  // the velocities' projection alone (project's second half), which returns
  // the relative rank tolerance it applied (directions of σ/σ₁ at or below
  // it left uncorrected; 0 for the solve's default). Only models that
  // project offer them.
  virtual Vector<S> newton_acceleration(const Vector<S>&, const Vector<S>&, const Vector<S>&, const S&,
                                        const std::optional<S>&, RankDecision<S>&) const {
    throw ModelStop("this model has no index-3 formulation (a contact model)");
  }
  virtual S project_velocity(const Vector<S>&, Vector<S>&) const { return S(0); }

  // ½ q̇ᵀM q̇; a model whose M is large and sparse computes it without the
  // dense mass().
  virtual S kinetic(const Vector<S>& q, const Vector<S>& qd) const { return qd.dot(mass(q) * qd) / S(2); }
  S energy(const Vector<S>& q, const Vector<S>& qd) const { return kinetic(q, qd) + potential(q); }
};

}  // namespace femc::dynamics
