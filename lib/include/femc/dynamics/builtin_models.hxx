#pragma once
// The built-in models (builtin_models.hpp) and make_builtin_model's body.
#include <cmath>

#include "femc/dynamics/bilateral_model.hpp"
#include "femc/dynamics/builtin_models.hpp"
#include "femc/systems/double_parallelogram.hpp"
#include "femc/systems/particle_with_coulomb_friction.hpp"
#include "femc/systems/sliding_bar.hpp"
#include "femc/systems/spherical_pendulum.hpp"
#include "femc/systems/two_bars.hpp"

namespace femc::dynamics {

namespace builtin {

template <class S>
S pi() {
  using std::acos;
  return acos(S(-1));
}

// E6 with what the trajectory code needs: φ = ½(|q|² − L²), so φ̈ = A q̈ − b
// for 004 (26)'s A = qᵀ, b = −|q̇|²; y points down, so V = −m g y.
template <class S>
struct Pendulum {
  systems::SphericalPendulum<S> p;
  System<S> at(const Vector<S>& q, const Vector<S>& qd) const { return p.at(q, qd); }
  Matrix<S> mass(const Vector<S>&) const { return p.m * Matrix<S>::Identity(3, 3); }
  S potential(const Vector<S>& q) const { return -p.m * p.g * q(1); }
  Vector<S> constraint(const Vector<S>& q) const {
    return Vector<S>::Constant(1, (q.squaredNorm() - p.L * p.L) / S(2));
  }
  Vector<S> constraint_rate(const Vector<S>& q, const Vector<S>& qd) const {
    return Vector<S>::Constant(1, q.dot(qd));
  }
};

// U6: the bead on the circle |q| = R with sliding friction. 002's friction
// −μ‖Qᴺ‖ q̇/‖q̇‖ is undefined at rest, and near rest it flips with the sign
// of q̇ from one trial state to the next: where the bead comes to rest for
// good the integrator shrinks its steps without end (found by the
// trajectories study). Below rest_speed (the contact tolerance, the speed
// below which the contact models treat a slip as sticking) the sliding
// direction is that of the impending motion, the tangential part Q_t of the
// applied force; if static friction can hold it, |Q_t| ≤ μ‖Qᴺ‖, the bead
// sticks and the model stops (002 models sliding only).
template <class S>
struct Bead {
  systems::ParticleWithCoulombFriction<S> p;
  S R;
  S rest_speed;
  System<S> at(const Vector<S>& q, const Vector<S>& qd) const {
    if (qd.norm() > rest_speed) return p.at(q, qd);
    System<S> sys = p.ideal_at(q, qd);
    const S normal = solve(sys).QN.norm();
    const Vector<S> Qt = sys.Q - (sys.Q.dot(q) / q.squaredNorm()) * q;
    if (Qt.norm() <= p.mu * normal)
      throw ModelStop("bead sticks: speed " + format_scalar(S(qd.norm())) + " ≤ " + format_scalar(rest_speed) +
                      " and static friction holds (|Q_t| = " + format_scalar(S(Qt.norm())) + " ≤ μ‖Qᴺ‖ = " +
                      format_scalar(S(p.mu * normal)) + "); 002's model is sliding only");
    sys.C = -p.mu * normal * Qt / Qt.norm();
    return sys;
  }
  Matrix<S> mass(const Vector<S>&) const { return p.m * Matrix<S>::Identity(p.dim, p.dim); }
  S potential(const Vector<S>& q) const { return p.m * p.g * q(p.dim - 1); }
  Vector<S> constraint(const Vector<S>& q) const {
    return Vector<S>::Constant(1, (q.squaredNorm() - R * R) / S(2));
  }
  Vector<S> constraint_rate(const Vector<S>& q, const Vector<S>& qd) const {
    return Vector<S>::Constant(1, q.dot(qd));
  }
};

template <class S>
struct Parallelogram {
  systems::DoubleParallelogram<S> p;
  System<S> at(const Vector<S>& q, const Vector<S>& qd) const { return p.at(q, qd); }
  Matrix<S> mass(const Vector<S>& q) const { return p.mass(q); }
  S potential(const Vector<S>& q) const { return p.potential(q); }
  Vector<S> constraint(const Vector<S>& q) const { return p.constraint(q); }
  Vector<S> constraint_rate(const Vector<S>& q, const Vector<S>& qd) const { return p.constraint_rate(q, qd); }
};

}  // namespace builtin

template <class S>
BuiltinModel<S> make_builtin_model(const std::string& name,
                                   ContactFormulation formulation,
                                   std::optional<S> contact_tolerance, std::optional<Method> method) {
  const S ctol = contact_tolerance ? *contact_tolerance : S(1) / S(1000000);
  Options<S> solve_options;
  if (method) solve_options.method = *method;
  auto no_method = [&] {
    if (method)
      throw InputError("method", "'" + name + "' is a contact system: each state solves its contact problem "
                                 "(--contact-model), not a FEMC problem, so a method (" + to_string(*method) +
                                 ") does not apply");
  };
  using std::cos;
  using std::sin;
  using std::sqrt;
  BuiltinModel<S> b;
  const S g = S(981) / S(100);
  if (name == "spherical-pendulum") {
    // m = 1, L = 1, released at (3/5, 4/5, 0) with speed 3/2 out of the plane.
    builtin::Pendulum<S> sys{{S(1), g, S(1)}};
    b.model = std::make_unique<BilateralModel<S, builtin::Pendulum<S>>>(name, sys, std::vector<std::string>{"x", "y", "z"},
                                                                        solve_options);
    b.q0 = Vector<S>(3);
    b.q0 << S(3) / S(5), S(4) / S(5), S(0);
    b.qd0 = Vector<S>(3);
    b.qd0 << S(0), S(0), S(3) / S(2);
    b.defaults.t_end = S(10);
    b.description = "E6, 004 Example 1: spherical pendulum, m = 1, L = 1, g = 9.81 (y down)";
  } else if (name == "bead-with-friction") {
    // 002 Section 4 uses m = 1, R = 1; μ = 1/5 and the start are stated here.
    builtin::Bead<S> sys{{2, S(1), g, S(1) / S(5)}, S(1), ctol};
    b.model = std::make_unique<BilateralModel<S, builtin::Bead<S>>>(name, sys, std::vector<std::string>{"x", "y"},
                                                                     solve_options);
    b.q0 = Vector<S>(2);
    b.q0 << S(1), S(0);
    b.qd0 = Vector<S>(2);
    b.qd0 << S(0), S(-3);
    b.defaults.t_end = S(1);
    b.description = "U6, 002 Section 4: bead on a vertical circle, m = 1, R = 1, mu = 0.2, g = 9.81";
  } else if (name == "double-parallelogram") {
    builtin::Parallelogram<S> sys{{S(1), S(1), S(1), S(2), g}};
    // Permanently redundant: σ_min(A) is 0 on the motion and of the size of
    // the drift ‖φ‖ off it, so the rank is decided drift-aware
    // (bilateral_model.hpp); the rank and its gap are recorded per step.
    auto m = std::make_unique<BilateralModel<S, builtin::Parallelogram<S>>>(
        name, sys, std::vector<std::string>{"theta1", "theta2", "theta3", "x", "y", "phi"}, solve_options);
    m->drift_rank_factor = S(1000);
    b.model = std::move(m);
    // Released at rest with the cranks 45° below the ground line: it swings
    // between θ = −π/4 and −3π/4 and never reaches the change points θ = 0,
    // π, where all links are collinear and the rank of A drops to 4.
    sys.p.parallelogram_state(-builtin::pi<S>() / S(4), S(0), b.q0, b.qd0);
    b.defaults.t_end = S(10);
    b.description = "planar double parallelogram: L = a = 1, crank mass 1, coupler mass 2, g = 9.81";
  } else if (name == "sliding-bar") {
    no_method();
    // m = 1, l = 1, μ = 1/2: the bar at θ = π/6 on the ground, sliding left.
    systems::SlidingBar<S> sys{S(1), S(1), g, S(1) / S(2)};
    auto m = std::make_unique<ContactModel<S, systems::SlidingBar<S>>>(
        name, sys, std::vector<std::string>{"x", "y", "theta"}, std::vector<std::string>{"A"}, formulation);
    m->gap_tolerance = m->speed_tolerance = b.defaults.gap_tolerance = ctol;
    b.model = std::move(m);
    const S th = builtin::pi<S>() / S(6);
    b.q0 = Vector<S>(3);
    b.q0 << S(0), sys.l * sin(th), th;
    b.qd0 = Vector<S>(3);
    b.qd0 << S(-1), S(0), S(0);
    b.defaults.t_end = S(7) / S(20);  // end B reaches the ground at t ≈ 0.39
    b.description = "Y3, 003 Example 4.1: sliding bar, m = 1, l = 1, mu = 0.5, g = 9.81";
  } else if (name == "two-bars") {
    no_method();
    // 003 Example 4.2's data: m = 2 kg, l = 2 m, μ = 0.2, θ₁ = θ₂ = π/4,
    // x = y = l sin(π/4), ẋ = −1, ẏ = 1, θ̇₁ = −0.1, θ̇₂ = 0.1 (g = 9.8 assumed).
    // Derived: with (x, y) the centre of AB both A and C start at height
    // ½l sin(π/4) ≈ 0.707 m and rise at 1.07 m/s; the bars fly, land
    // (plastic impact) and slide.
    systems::TwoBars<S> sys{S(2), S(2), S(98) / S(10), S(1) / S(5)};
    auto m = std::make_unique<ContactModel<S, systems::TwoBars<S>>>(
        name, sys, std::vector<std::string>{"x", "y", "theta1", "theta2"}, std::vector<std::string>{"A", "C"},
        formulation);
    m->gap_tolerance = m->speed_tolerance = b.defaults.gap_tolerance = ctol;
    b.model = std::move(m);
    const S q4 = builtin::pi<S>() / S(4);
    b.q0 = Vector<S>(4);
    b.q0 << sys.l * sin(q4), sys.l * sin(q4), q4, q4;
    b.qd0 = Vector<S>(4);
    b.qd0 << S(-1), S(1), S(-1) / S(10), S(1) / S(10);
    b.defaults.t_end = S(7) / S(10);  // the hinge reaches the ground at t ≈ 0.74
    b.description = "Y4, 003 Example 4.2: two hinged bars, m = 2, l = 2, mu = 0.2, g = 9.8";
  } else {
    std::string list;
    for (const auto& n : builtin_model_names()) list += (list.empty() ? "" : ", ") + n;
    throw InputError("system", "unknown system '" + name.substr(0, 40) + "' (built-in: " + list + ")");
  }
  b.defaults.dt = S(1) / S(100);
  return b;
}

}  // namespace femc::dynamics
