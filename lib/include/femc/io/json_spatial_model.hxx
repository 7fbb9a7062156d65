#pragma once
// The bodies of json_spatial_model.hpp's templates, instantiated by the
// library for the model scalars (lib/src/instantiate/models.cpp.in).
#include "femc/io/json_model.hxx"
#include "femc/io/json_spatial_model.hpp"
#include "femc/models/spatial.hxx"

namespace femc {

namespace detail {
template <class S>
models::Vec3<S> to_vec3(const std::vector<std::string>& t, const std::string& field) {
  return models::Vec3<S>(parse_entry<S>(t[0], field + "[0]"), parse_entry<S>(t[1], field + "[1]"),
                         parse_entry<S>(t[2], field + "[2]"));
}

template <class S>
models::Quaternion<S> to_quaternion(const OrientationText& t, const std::string& field) {
  if (!t.quaternion.empty()) {
    models::Quaternion<S> p;
    for (Index k = 0; k < 4; ++k)
      p(k) = parse_entry<S>(t.quaternion[std::size_t(k)], field + ".quaternion[" + std::to_string(k) + "]");
    if (p.squaredNorm() == S(0)) throw InputError(field + ".quaternion", "is zero");
    return p.normalized();
  }
  const models::Vec3<S> axis = to_vec3<S>(t.axis, field + ".axis");
  const S degrees = parse_entry<S>(t.degrees, field + ".degrees");
  if (degrees == S(0)) return models::Quaternion<S>::UnitX();  // (1, 0, 0, 0): whatever the axis
  if (axis.squaredNorm() == S(0)) throw InputError(field + ".axis", "is zero");
  using std::acos;
  return models::axis_angle<S>(axis, S(degrees * acos(S(-1)) / S(180)));
}
}  // namespace detail

// Every number read at the working precision of S; the model validated.
template <class S>
models::SpatialModel<S> to_spatial_model(const SpatialModelText& t) {
  using detail::parse_entry;
  using detail::to_vec3;
  models::SpatialModel<S> m;
  m.name = t.name;
  m.gravity = to_vec3<S>(t.gravity, "gravity");
  for (std::size_t i = 0; i < t.bodies.size(); ++i) {
    const auto& b = t.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "].";
    (void)detail::to_quaternion<S>(b.orientation, f + "orientation");  // a zero quaternion is a bad model
    models::SpatialBody<S> body{b.name, parse_entry<S>(b.mass, f + "mass"), models::Mat3<S>::Zero()};
    for (Index k = 0; k < 3; ++k)
      body.inertia(k, k) = parse_entry<S>(b.inertia[std::size_t(k)], f + "inertia[" + std::to_string(k) + "]");
    if (b.inertia.size() == 6)
      for (Index k = 0; k < 3; ++k) {  // Jxy, Jyz, Jzx
        const S x = parse_entry<S>(b.inertia[std::size_t(3 + k)], f + "inertia[" + std::to_string(3 + k) + "]");
        body.inertia(k, (k + 1) % 3) = body.inertia((k + 1) % 3, k) = x;
      }
    m.bodies.push_back(body);
  }
  for (std::size_t i = 0; i < t.joints.size(); ++i) {
    const auto& j = t.joints[i];
    const std::string f = "joints[" + std::to_string(i) + "].";
    models::SpatialJoint<S> out;
    out.name = j.name;
    out.type = j.type;
    out.body1 = j.body1;
    out.body2 = j.body2;
    out.point1 = to_vec3<S>(j.point1, f + "point1");
    out.point2 = to_vec3<S>(j.point2, f + "point2");
    out.axis1 = to_vec3<S>(j.axis1, f + "axis1");
    out.axis2 = to_vec3<S>(j.axis2, f + "axis2");
    out.rotation = models::rotation_matrix<S>(detail::to_quaternion<S>(j.rotation, f + "rotation"));
    out.length = parse_entry<S>(j.length, f + "length");
    m.joints.push_back(out);
  }
  for (std::size_t i = 0; i < t.forces.size(); ++i) {
    const auto& x = t.forces[i];
    const std::string f = "forces[" + std::to_string(i) + "].";
    models::SpatialForce<S> out;
    out.name = x.name;
    out.type = x.type;
    out.body1 = x.body1;
    out.body2 = x.body2;
    out.point1 = to_vec3<S>(x.point1, f + "point1");
    out.point2 = to_vec3<S>(x.point2, f + "point2");
    out.force = to_vec3<S>(x.force, f + "force");
    out.stiffness = parse_entry<S>(x.stiffness, f + "stiffness");
    out.damping = parse_entry<S>(x.damping, f + "damping");
    out.length = parse_entry<S>(x.length, f + "length");
    m.forces.push_back(out);
  }
  models::validate(m);
  return m;
}

// The state the file gives, at the working precision of S, before any
// projection onto the constraints: ṗ = ½ E(p)ᵀ ω.
template <class S>
void initial_state(const SpatialModelText& t, Vector<S>& q, Vector<S>& qd) {
  using detail::to_vec3;
  const Index n = 7 * Index(t.bodies.size());
  q.resize(n);
  qd.resize(n);
  for (std::size_t i = 0; i < t.bodies.size(); ++i) {
    const auto& b = t.bodies[i];
    const std::string f = "bodies[" + std::to_string(i) + "].";
    const Index o = 7 * Index(i);
    const models::Quaternion<S> p = detail::to_quaternion<S>(b.orientation, f + "orientation");
    q.template segment<3>(o) = to_vec3<S>(b.position, f + "position");
    q.template segment<4>(o + 3) = p;
    qd.template segment<3>(o) = to_vec3<S>(b.velocity, f + "velocity");
    qd.template segment<4>(o + 3) = models::quaternion_rate<S>(p, to_vec3<S>(b.angular_velocity, f + "angular_velocity"));
  }
}

// A state file's coordinates (7 per body: x, y, z, p0..p3) at the working
// precision of S.
template <class S>
void state_from_text(const ModelStateText& t, const models::SpatialModel<S>& model, Vector<S>& q, Vector<S>& qd) {
  detail::coordinates_from_text<S>(t, model.bodies.size(), 7, q, qd);
}

}  // namespace femc
