#pragma once
// The bodies of json_model.hpp's templates. The library instantiates them
// for the model scalars (lib/src/instantiate/models.cpp.in); include this
// file to read a model file at another scalar type.
#include <utility>

#include "femc/io/json_model.hpp"
#include "femc/models/planar.hxx"

namespace femc {

namespace detail {
template <class S>
models::Vec2<S> to_vec2(const Vec2Text& t, const std::string& field) {
  return models::Vec2<S>(parse_entry<S>(t[0], field + "[0]"), parse_entry<S>(t[1], field + "[1]"));
}
}  // namespace detail

// Every number read at the working precision of S; the model validated.
template <class S>
models::PlanarModel<S> to_planar_model(const PlanarModelText& t) {
  using detail::parse_entry;
  using detail::to_vec2;
  models::PlanarModel<S> m;
  m.name = t.name;
  m.gravity = to_vec2<S>(t.gravity, "gravity");
  for (std::size_t i = 0; i < t.bodies.size(); ++i) {
    const auto& b = t.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "].";
    m.bodies.push_back({b.name, parse_entry<S>(b.mass, f + "mass"), parse_entry<S>(b.inertia, f + "inertia")});
  }
  for (std::size_t i = 0; i < t.joints.size(); ++i) {
    const auto& j = t.joints[i];
    const std::string f = "joints[" + std::to_string(i) + "].";
    models::PlanarJoint<S> out;
    out.name = j.name;
    out.type = j.type;
    out.body1 = j.body1;
    out.body2 = j.body2;
    out.point1 = to_vec2<S>(j.point1, f + "point1");
    out.point2 = to_vec2<S>(j.point2, f + "point2");
    out.axis = to_vec2<S>(j.axis, f + "axis");
    out.angle = parse_entry<S>(j.angle, f + "angle");
    out.length = parse_entry<S>(j.length, f + "length");
    m.joints.push_back(out);
  }
  for (std::size_t i = 0; i < t.forces.size(); ++i) {
    const auto& x = t.forces[i];
    const std::string f = "forces[" + std::to_string(i) + "].";
    models::PlanarForce<S> out;
    out.name = x.name;
    out.type = x.type;
    out.body1 = x.body1;
    out.body2 = x.body2;
    out.point1 = to_vec2<S>(x.point1, f + "point1");
    out.point2 = to_vec2<S>(x.point2, f + "point2");
    out.force = to_vec2<S>(x.force, f + "force");
    out.torque = parse_entry<S>(x.torque, f + "torque");
    out.stiffness = parse_entry<S>(x.stiffness, f + "stiffness");
    out.length = parse_entry<S>(x.length, f + "length");
    m.forces.push_back(out);
  }
  for (std::size_t i = 0; i < t.contacts.size(); ++i) {
    const auto& x = t.contacts[i];
    const std::string f = "contacts[" + std::to_string(i) + "].";
    models::PlanarContact<S> out;
    out.name = x.name;
    out.body = x.body;
    out.point = to_vec2<S>(x.point, f + "point");
    out.origin = to_vec2<S>(x.origin, f + "origin");
    out.normal = to_vec2<S>(x.normal, f + "normal");
    out.friction = parse_entry<S>(x.friction, f + "friction");
    m.contacts.push_back(out);
  }
  models::validate(m);
  return m;
}

// The state the file gives (each body's position, angle and velocities), at
// the working precision of S, before any projection onto the constraints.
template <class S>
void initial_state(const PlanarModelText& t, Vector<S>& q, Vector<S>& qd) {
  using detail::parse_entry;
  using detail::to_vec2;
  const Index n = 3 * Index(t.bodies.size());
  q.resize(n);
  qd.resize(n);
  for (std::size_t i = 0; i < t.bodies.size(); ++i) {
    const auto& b = t.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "].";
    const Index o = 3 * Index(i);
    q.template segment<2>(o) = to_vec2<S>(b.position, f + "position");
    q(o + 2) = parse_entry<S>(b.angle, f + "angle");
    qd.template segment<2>(o) = to_vec2<S>(b.velocity, f + "velocity");
    qd(o + 2) = parse_entry<S>(b.angular_velocity, f + "angular_velocity");
  }
}

namespace detail {
// A state file's coordinates, `per_body` for each of `bodies` (InputError
// naming "state.q" when the length differs).
template <class S>
void coordinates_from_text(const ModelStateText& t, std::size_t bodies, std::size_t per_body, Vector<S>& q,
                           Vector<S>& qd) {
  const std::size_t n = per_body * bodies;
  for (const auto& [v, key] : {std::pair{&t.q, "q"}, std::pair{&t.qd, "qd"}})
    if (v->size() != n)
      throw InputError(std::string("state.") + key, std::to_string(v->size()) + " entries for a model of " +
                                                        std::to_string(bodies) + " bodies (" + std::to_string(n) +
                                                        " coordinates)");
  q.resize(Index(n));
  qd.resize(Index(n));
  for (std::size_t i = 0; i < n; ++i) {
    q(Index(i)) = parse_entry<S>(t.q[i], "state.q[" + std::to_string(i) + "]");
    qd(Index(i)) = parse_entry<S>(t.qd[i], "state.qd[" + std::to_string(i) + "]");
  }
}
}  // namespace detail

// A state file's coordinates at the working precision of S, for `model`
// (x, y, θ per body).
template <class S>
void state_from_text(const ModelStateText& t, const models::PlanarModel<S>& model, Vector<S>& q, Vector<S>& qd) {
  detail::coordinates_from_text<S>(t, model.bodies.size(), 3, q, qd);
}

}  // namespace femc
