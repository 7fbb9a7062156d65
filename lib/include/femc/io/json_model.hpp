#pragma once
// Reading a planar mechanism from a model file (JSON; docs: models/README.md).
//
//   {"kind": "planar", "name": ..., "description": ..., "sources": [...],
//    "gravity": [gx, gy],
//    "bodies": [{"name", "mass", "inertia", "position": [x, y], "angle",
//                "velocity": [vx, vy], "angular_velocity"}],
//    "joints": [{"name", "type": revolute | prismatic | weld | distance,
//                "body1", "point1": [x, y], "body2", "point2", "axis", "angle", "length"}],
//    "forces": [{"name", "type": torque | force | spring, "body", "reaction", "torque",
//                "point", "force", "body1", "point1", "body2", "point2", "stiffness", "length"}],
//    "contacts": [{"name", "body", "point": [x, y], "origin": [x, y], "normal": [nx, ny], "friction"}],
//    "t_end": ..., "formulation": "projected" | "index-3" | "index-1", "step": ...}
//
// Bodies are named; "ground" is the fixed frame. A body's position is its
// centre of mass, its points are offsets from it in its own frame. Every
// number is a JSON number or a decimal (or p/q) string, kept as text and
// read exactly at the working precision. A malformed file, an unknown key,
// a joint naming a missing body, a non-positive mass: InputError naming the
// item ("joints[2] (B).body2: 'rockr' is not a body").
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "femc/io/json_system.hpp"
#include "femc/models/planar.hpp"

namespace femc {

using Vec2Text = std::array<std::string, 2>;

struct PlanarModelText {
  std::string name, description;
  std::vector<std::string> sources;
  Vec2Text gravity{"0", "0"};
  struct Body {
    std::string name, mass, inertia, angle = "0", angular_velocity = "0";
    Vec2Text position{"0", "0"}, velocity{"0", "0"};
  };
  struct Joint {
    std::string name;
    models::PlanarJointType type = models::PlanarJointType::Revolute;
    int body1 = models::kGround, body2 = models::kGround;
    Vec2Text point1{"0", "0"}, point2{"0", "0"}, axis{"1", "0"};
    std::string angle = "0", length = "0";
  };
  struct Force {
    std::string name;
    models::PlanarForceType type = models::PlanarForceType::Torque;
    int body1 = models::kGround, body2 = models::kGround;
    Vec2Text point1{"0", "0"}, point2{"0", "0"}, force{"0", "0"};
    std::string torque = "0", stiffness = "0", length = "0";
  };
  struct Contact {
    std::string name;
    int body = models::kGround;
    Vec2Text point{"0", "0"}, origin{"0", "0"}, normal{"0", "1"};
    std::string friction = "0";
  };
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Force> forces;
  std::vector<Contact> contacts;
  std::string t_end;  // empty when absent
  // Simulation defaults (empty when absent): "projected" | "index-3" |
  // "index-1", and index-3's step (dynamics/simulate.hpp).
  std::string formulation, step;
};

// Parses and checks the document's structure and names. Throws InputError.
PlanarModelText read_planar_model_text(std::string_view json);

// A state of a model (`femc solve MODEL.json --state STATE.json`):
//   {"q": [...], "qd": [...]}, the coordinates in the order
// models::coordinate_names gives (x, y, θ of each body in the file's order),
// each number kept as text.
struct ModelStateText {
  std::vector<std::string> q, qd;
};
ModelStateText read_model_state_text(std::string_view json);

// Whether a document is a model file ("kind" present at the top level), so
// that a command taking either a system or a model can tell them apart.
bool is_model_document(std::string_view json);

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
