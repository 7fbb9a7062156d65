#pragma once
// The built-in systems of `femc simulate`, each with the initial state and
// parameters of its paper (or stated here when the paper gives none):
//   spherical-pendulum    E6, 004 Example 1          (ideal: E conserved)
//   bead-with-friction    U6, 002 Section 4          (Qᵂ = sliding friction)
//   double-parallelogram  redundant linkage          (rank-deficient A throughout)
//   sliding-bar           Y3, 003 Example 4.1        (unilateral contact, friction)
//   two-bars              Y4, 003 Example 4.2        (two contacts, the paper's data)
//
// builtin_models.hxx holds the models and make_builtin_model's body; the
// library instantiates it for double, long double, float128 and mpfr_real.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "femc/dynamics/contact_model.hpp"
#include "femc/dynamics/simulate.hpp"
#include "femc/options.hpp"

namespace femc::dynamics {

inline const std::vector<std::string>& builtin_model_names() {
  static const std::vector<std::string> names = {"spherical-pendulum", "bead-with-friction",
                                                 "double-parallelogram", "sliding-bar", "two-bars"};
  return names;
}

template <class S>
struct BuiltinModel {
  std::unique_ptr<Model<S>> model;
  Vector<S> q0, qd0;
  SimulationOptions<S> defaults;
  std::string description;
};

// Throws InputError("system", …) for an unknown name.
// Contact models close a contact at gap ≤ contact_tolerance and approach
// speed ≤ contact_tolerance (SI units; default 10⁻⁶), and treat slip speeds
// below it as sticking candidates.
// `method` is the method of the FEMC solve at each state of a system with
// equality constraints (default: Options' cod); a contact system solves a
// contact problem instead, and refuses it (InputError "method").
template <class S>
BuiltinModel<S> make_builtin_model(const std::string& name,
                                   ContactFormulation formulation = ContactFormulation::GaussQp,
                                   std::optional<S> contact_tolerance = std::nullopt,
                                   std::optional<Method> method = std::nullopt);

}  // namespace femc::dynamics
