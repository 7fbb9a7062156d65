#pragma once
// A model file as a system to integrate (`femc simulate MODEL.json`): the
// model layer (models/planar.hpp, models/spatial.hpp) behind the
// BilateralModel of bilateral_model.hpp, its state from the file put on the
// constraints at the working precision (models::assemble), the rank decided
// drift-aware as for the built-in redundant linkage.
//
// make_mechanism_model, model_system and model_sparse_system have their
// bodies in mechanism.hxx, instantiated by the library for the model
// scalars (double, long double, float128, MPFR: lib/src/instantiate/
// models.cpp.in); the rest is here, for any scalar.
#include <memory>
#include <optional>
#include <type_traits>
#include <variant>

#include "femc/dynamics/builtin_models.hpp"
#include "femc/io/model_file.hpp"
#include "femc/models/planar.hpp"
#include "femc/models/spatial.hpp"

namespace femc::dynamics {

// The FEMC problem of a model at a state, stored sparse: a planar model's
// sparse system (no dense matrix); a spatial model's dense one stored sparse.
template <class S, class ModelT>
SparseSystem<S> sparse_system_of(const ModelT& model, const Vector<S>& q, const Vector<S>& qd) {
  if constexpr (std::is_same_v<ModelT, models::PlanarModel<S>>) return models::sparse_system_at(model, q, qd);
  else return to_sparse(models::system_at(model, q, qd));
}

// The system type BilateralModel asks for (see bilateral_model.hpp), for a
// PlanarModel<S> or a SpatialModel<S>.
// A planar model's M and A are formed sparse wherever the dense matrices
// are not needed (the energy, the constraints' rate, and the solve when the
// method is `sparse`), so that a large mechanism runs without an n × n
// matrix; a spatial model's are dense.
template <class S, class ModelT>
struct Mechanism {
  ModelT model;
  static constexpr bool kPlanar = std::is_same_v<ModelT, models::PlanarModel<S>>;

  System<S> at(const Vector<S>& q, const Vector<S>& qd) const { return models::system_at(model, q, qd); }
  SparseSystem<S> sparse_at(const Vector<S>& q, const Vector<S>& qd) const { return sparse_system_of(model, q, qd); }
  Matrix<S> mass(const Vector<S>& q) const { return models::mass_matrix(model, q); }
  S kinetic(const Vector<S>& q, const Vector<S>& qd) const {
    if constexpr (kPlanar) return qd.dot(models::sparse_mass_matrix(model) * qd) / S(2);
    else return qd.dot(mass(q) * qd) / S(2);
  }
  S potential(const Vector<S>& q) const { return models::potential(model, q); }
  Vector<S> constraint(const Vector<S>& q) const { return models::constraints(model, q); }
  Vector<S> constraint_rate(const Vector<S>& q, const Vector<S>& qd) const {
    if constexpr (kPlanar) return models::sparse_constraint_jacobian(model, q) * qd;
    else return models::constraint_jacobian(model, q) * qd;
  }
  // The forces that do work without a potential (dampers): their power is
  // carried in the energy balance with the non-ideal constraint forces.
  Vector<S> nonconservative(const Vector<S>& q, const Vector<S>& qd) const {
    return models::damping_forces(model, q, qd);
  }
};

// The file's initial state put on the constraints: |φ|∞ ≤ 64·u (SI units:
// metres), else InputError naming the model (its initial positions do not
// close the joints, at any precision). Newton's steps solve with cod, or
// with `sparse` when that is the method (models::assemble).
template <class S, class ModelT, class Text>
void assembled_initial_state(const ModelT& model, const Text& text, Vector<S>& q, Vector<S>& qd,
                             Method method = Method::Cod) {
  initial_state<S>(text, q, qd);
  const S tol = S(64) * unit_roundoff<S>();
  const S left = models::assemble(model, q, qd, tol, 50, method);
  if (left > tol)
    throw InputError(text.name.empty() ? "model" : text.name,
                     "the initial positions do not assemble: |φ|∞ = " + format_scalar(left) + " after Newton's steps");
}

// A model file's model, for the joints' problem. Contacts (planar files)
// give the contact problem (models::contact_data with
// contact/unilateral_problem_with_joints.hpp), which `femc solve` and
// `femc simulate` do not integrate yet: such a file is refused rather than
// solved without its contacts.
template <class S>
models::PlanarModel<S> to_model(const PlanarModelText& text) {
  if (!text.contacts.empty())
    throw InputError("contacts", std::to_string(text.contacts.size()) +
                                     " contact(s): femc solve and femc simulate take models without contacts "
                                     "(the contact problem is the library's, models::contact_data)");
  return to_planar_model<S>(text);
}
template <class S>
models::SpatialModel<S> to_model(const SpatialModelText& text) { return to_spatial_model<S>(text); }

// The model of a file, assembled, as a BuiltinModel for simulate(); each
// state solved with `method` (default: Options' cod). Its defaults (t_end,
// formulation, step) are the file's.
template <class S>
BuiltinModel<S> make_mechanism_model(const ModelText& file, std::optional<Method> method = std::nullopt);

// at(model, q, qd) for a model file's model at a given state (as given), or
// at the file's initial state put on the constraints.
template <class S, class At>
auto at_model_state(const ModelText& file, const ModelStateText* state, At&& at, Method method = Method::Cod) {
  return std::visit(
      [&](const auto& text) {
        const auto model = to_model<S>(text);
        Vector<S> q, qd;
        if (state) state_from_text<S>(*state, model, q, qd);
        else assembled_initial_state(model, text, q, qd, method);
        return at(model, q, qd);
      },
      file);
}

// The FEMC problem of a model file at a state (at_model_state).
template <class S>
System<S> model_system(const ModelText& file, const ModelStateText* state);

// The same, stored sparse: a planar model's sparse system (no dense matrix,
// the initial state assembled by sparse solves too); a spatial model's dense
// system stored sparse.
template <class S>
SparseSystem<S> model_sparse_system(const ModelText& file, const ModelStateText* state);

}  // namespace femc::dynamics
