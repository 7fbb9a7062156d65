#pragma once
// A planar model file as a system to integrate (`femc simulate MODEL.json`):
// the model layer (models/planar.hpp) behind the BilateralModel of
// bilateral_model.hpp, its state from the file put on the constraints at the
// working precision (models::assemble), the rank decided drift-aware as for
// the built-in redundant linkage.
#include <memory>

#include "femc/dynamics/bilateral_model.hpp"
#include "femc/dynamics/builtin_models.hpp"
#include "femc/io/json_model.hpp"
#include "femc/models/planar.hpp"

namespace femc::dynamics {

// The system type BilateralModel asks for (see bilateral_model.hpp).
template <class S>
struct PlanarMechanism {
  models::PlanarModel<S> model;
  Matrix<S> M = models::mass_matrix(model);  // constant in body coordinates

  System<S> at(const Vector<S>& q, const Vector<S>& qd) const { return models::system_at(model, q, qd); }
  Matrix<S> mass(const Vector<S>&) const { return M; }
  S potential(const Vector<S>& q) const { return models::potential(model, q); }
  Vector<S> constraint(const Vector<S>& q) const { return models::constraints(model, q); }
  Vector<S> constraint_rate(const Vector<S>& q, const Vector<S>& qd) const {
    return models::constraint_jacobian(model, q) * qd;
  }
};

// The file's initial state put on the constraints: |φ|∞ ≤ 64·u (SI units:
// metres), else InputError naming the model (its initial positions do not
// close the joints, at any precision).
template <class S>
void assembled_initial_state(const models::PlanarModel<S>& model, const PlanarModelText& text, Vector<S>& q,
                             Vector<S>& qd) {
  initial_state<S>(text, q, qd);
  const S tol = S(64) * unit_roundoff<S>();
  const S left = models::assemble(model, q, qd, tol);
  if (left > tol)
    throw InputError(text.name.empty() ? "model" : text.name,
                     "the initial positions do not assemble: |φ|∞ = " + format_scalar(left) + " after Newton's steps");
}

// The model of a file, assembled, as a BuiltinModel for simulate().
template <class S>
BuiltinModel<S> make_planar_model(const PlanarModelText& text) {
  BuiltinModel<S> b;
  PlanarMechanism<S> sys{to_planar_model<S>(text)};
  assembled_initial_state(sys.model, text, b.q0, b.qd0);
  auto m = std::make_unique<BilateralModel<S, PlanarMechanism<S>>>(text.name, sys, models::coordinate_names(sys.model));
  m->drift_rank_factor = S(1000);
  b.model = std::move(m);
  if (!text.t_end.empty()) b.defaults.t_end = detail::parse_entry<S>(text.t_end, "t_end");
  b.description = text.description;
  return b;
}

}  // namespace femc::dynamics
