#pragma once
// The bodies of mechanism.hpp's make_mechanism_model, model_system and
// model_sparse_system (instantiated by the library for the model scalars:
// lib/src/instantiate/models.cpp.in).
#include "femc/dynamics/bilateral_model.hpp"
#include "femc/dynamics/mechanism.hpp"

namespace femc::dynamics {

// The model of a file, assembled, as a BuiltinModel for simulate(); each
// state solved with `method` (default: Options' cod).
template <class S>
BuiltinModel<S> make_mechanism_model(const ModelText& file, std::optional<Method> method) {
  return std::visit(
      [&](const auto& text) {
        BuiltinModel<S> b;
        auto model = to_model<S>(text);
        Options<S> solve_options;
        if (method) solve_options.method = *method;
        assembled_initial_state(model, text, b.q0, b.qd0, solve_options.method);
        using Sys = Mechanism<S, decltype(model)>;
        std::vector<std::string> names = models::coordinate_names(model);
        auto m = std::make_unique<BilateralModel<S, Sys>>(text.name, Sys{std::move(model)}, std::move(names),
                                                          solve_options);
        m->drift_rank_factor = S(1000);
        b.model = std::move(m);
        if (!text.t_end.empty()) b.defaults.t_end = femc::detail::parse_entry<S>(text.t_end, "t_end");
        if (text.formulation == "index-3") b.defaults.formulation = Formulation::Index3;
        if (text.formulation == "index-1") b.defaults.formulation = Formulation::Index1;
        if (!text.step.empty()) {
          b.defaults.step = femc::detail::parse_entry<S>(text.step, "step");
          if (!(b.defaults.step > S(0))) throw InputError("step", "must be positive, got " + text.step.substr(0, 40));
        }
        b.description = text.description;
        return b;
      },
      file);
}

// The FEMC problem of a model file at a state (at_model_state).
template <class S>
System<S> model_system(const ModelText& file, const ModelStateText* state) {
  return at_model_state<S>(file, state, [](const auto& model, const Vector<S>& q, const Vector<S>& qd) {
    return models::system_at(model, q, qd);
  });
}

// The same, stored sparse: a planar model's sparse system (no dense matrix,
// the initial state assembled by sparse solves too); a spatial model's dense
// system stored sparse.
template <class S>
SparseSystem<S> model_sparse_system(const ModelText& file, const ModelStateText* state) {
  return at_model_state<S>(
      file, state,
      [](const auto& model, const Vector<S>& q, const Vector<S>& qd) { return sparse_system_of(model, q, qd); },
      Method::Sparse);
}

}  // namespace femc::dynamics
