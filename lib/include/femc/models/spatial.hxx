#pragma once
// The bodies of spatial.hpp's functions. The library instantiates them for
// the model scalars (lib/src/instantiate/models.cpp.in); include this file
// to build a spatial model at another scalar type.
#include <array>
#include <cmath>

#include <Eigen/Cholesky>

#include "femc/errors.hpp"
#include "femc/models/spatial.hpp"
#include "femc/scalar/traits.hpp"

namespace femc::models {

namespace spatial_detail {

template <class S>
using Block = Eigen::Matrix<S, 3, 7>;

// B(p, r) s of spatial.hpp: the symmetric bilinear form with R(p) s = B(p, p) s.
template <class S>
Vec3<S> bilinear(const Quaternion<S>& p, const Quaternion<S>& r, const Vec3<S>& s) {
  const Vec3<S> ep = p.template tail<3>(), er = r.template tail<3>();
  return (p(0) * r(0) - ep.dot(er)) * s + ep.dot(s) * er + er.dot(s) * ep + p(0) * er.cross(s) +
         r(0) * ep.cross(s);
}

template <class S>
Quaternion<S> euler_parameters(const Vector<S>& q, int body) {
  return q.template segment<4>(7 * Index(body) + 3);
}

// G(p) = [−e, −ẽ + p0 I] (ω' = 2 G ṗ) and E(p) = [−e, ẽ + p0 I] (ω = 2 E ṗ).
template <class S>
Eigen::Matrix<S, 3, 4> body_g(const Quaternion<S>& p) {
  Eigen::Matrix<S, 3, 4> G;
  G << -p(1), p(0), p(3), -p(2),  //
      -p(2), -p(3), p(0), p(1),   //
      -p(3), p(2), -p(1), p(0);
  return G;
}
template <class S>
Eigen::Matrix<S, 3, 4> ground_e(const Quaternion<S>& p) {
  Eigen::Matrix<S, 3, 4> E;
  E << -p(1), p(0), -p(3), p(2),  //
      -p(2), p(3), p(0), -p(1),   //
      -p(3), -p(2), p(1), p(0);
  return E;
}

// A vector x(q) along a motion: ẋ = Σ J_k q̇_k, ẍ = Σ J_k q̈_k + w, with J_k
// the 3×7 block of body k (at most two bodies; none for a ground vector).
template <class S>
struct Tracked {
  Vec3<S> x = Vec3<S>::Zero(), v = Vec3<S>::Zero(), w = Vec3<S>::Zero();
  std::vector<std::pair<int, Block<S>>> blocks;
};

// R(p) s of a body (translation: false) or r + R(p) s (true); for the ground
// the constant s.
template <class S>
Tracked<S> body_vector(const Vector<S>& q, const Vector<S>* qd, int body, const Vec3<S>& s, bool translation) {
  Tracked<S> t;
  if (body == kGround) {
    t.x = s;
    return t;
  }
  const Index o = 7 * Index(body);
  const Quaternion<S> p = euler_parameters(q, body);
  t.x = bilinear<S>(p, p, s);
  Block<S> J = Block<S>::Zero();
  for (int k = 0; k < 4; ++k) J.col(3 + k) = S(2) * bilinear<S>(p, Quaternion<S>::Unit(k), s);
  if (qd) {
    const Quaternion<S> pd = euler_parameters(*qd, body);
    t.v = S(2) * bilinear<S>(p, pd, s);
    t.w = S(2) * bilinear<S>(pd, pd, s);
  }
  if (translation) {
    t.x += q.template segment<3>(o);
    if (qd) t.v += qd->template segment<3>(o);
    J.template leftCols<3>().setIdentity();
  }
  t.blocks.push_back({body, J});
  return t;
}

template <class S>
Tracked<S> difference(const Tracked<S>& a, const Tracked<S>& b) {  // a − b
  Tracked<S> t{a.x - b.x, a.v - b.v, a.w - b.w, a.blocks};
  for (const auto& [body, J] : b.blocks) t.blocks.push_back({body, Block<S>(-J)});
  return t;
}

using model_detail::ConstraintParts;
using model_detail::item_field;

// Writes rows of the three rules, advancing `row`.
template <class S>
class RowWriter {
 public:
  RowWriter(ConstraintParts<S> out, Index row) : out_(out), row_(row) {}
  Index row() const { return row_; }

  // x(q) = 0: φ = x, A = J, b = −w.
  void vector(const Tracked<S>& t) {
    for (int k = 0; k < 3; ++k) {
      if (out_.phi) (*out_.phi)(row_) = t.x(k);
      if (out_.A)
        for (const auto& [body, J] : t.blocks) out_.A->block(row_, 7 * Index(body), 1, 7) += J.row(k);
      if (out_.b) (*out_.b)(row_) = -t.w(k);
      ++row_;
    }
  }
  // x·y = 0: A = yᵀJ_x + xᵀJ_y, b = −(y·w_x + 2 ẋ·ẏ + x·w_y).
  void dot(const Tracked<S>& x, const Tracked<S>& y) {
    if (out_.phi) (*out_.phi)(row_) = x.x.dot(y.x);
    if (out_.A) {
      for (const auto& [body, J] : x.blocks) out_.A->block(row_, 7 * Index(body), 1, 7) += y.x.transpose() * J;
      for (const auto& [body, J] : y.blocks) out_.A->block(row_, 7 * Index(body), 1, 7) += x.x.transpose() * J;
    }
    if (out_.b) (*out_.b)(row_) = -(y.x.dot(x.w) + S(2) * x.v.dot(y.v) + x.x.dot(y.w));
    ++row_;
  }
  // ½(d·d − L²) = 0: A = dᵀJ_d, b = −(ḋ·ḋ + d·w).
  void half_square(const Tracked<S>& d, const S& length) {
    if (out_.phi) (*out_.phi)(row_) = (d.x.dot(d.x) - length * length) / S(2);
    if (out_.A)
      for (const auto& [body, J] : d.blocks) out_.A->block(row_, 7 * Index(body), 1, 7) += d.x.transpose() * J;
    if (out_.b) (*out_.b)(row_) = -(d.v.dot(d.v) + d.x.dot(d.w));
    ++row_;
  }

 private:
  ConstraintParts<S> out_;
  Index row_;
};

// Two unit vectors perpendicular to `axis` and to each other (a fixed
// choice per axis: the coordinate axis least aligned with it is crossed).
template <class S>
std::array<Vec3<S>, 2> perpendiculars(const Vec3<S>& axis) {
  using std::abs;
  Index k = 0;
  for (Index i = 1; i < 3; ++i)
    if (abs(axis(i)) < abs(axis(k))) k = i;
  const Vec3<S> a = axis.normalized();
  const Vec3<S> b = a.cross(Vec3<S>::Unit(k)).normalized();
  return {b, a.cross(b)};
}

template <class S>
void evaluate_constraints(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>* qd,
                          ConstraintParts<S> out) {
  const Index m = constraint_rows(model), n = model.n();
  if (out.phi) *out.phi = Vector<S>::Zero(m);
  if (out.A) *out.A = Matrix<S>::Zero(m, n);
  if (out.b) *out.b = Vector<S>::Zero(m);
  // The unit norm of each body's Euler parameters: ½(pᵀp − 1), row pᵀ, b = −ṗᵀṗ.
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Quaternion<S> p = euler_parameters(q, int(i));
    const Index r = Index(i);
    if (out.phi) (*out.phi)(r) = (p.dot(p) - S(1)) / S(2);
    if (out.A) out.A->block(r, 7 * r + 3, 1, 4) = p.transpose();
    if (out.b) {
      const Quaternion<S> pd = euler_parameters(*qd, int(i));
      (*out.b)(r) = -pd.dot(pd);
    }
  }
  RowWriter<S> w(out, Index(model.bodies.size()));
  for (const SpatialJoint<S>& j : model.joints) {
    auto point = [&](int body, const Vec3<S>& s) { return body_vector<S>(q, qd, body, s, true); };
    auto direction = [&](int body, const Vec3<S>& s) { return body_vector<S>(q, qd, body, s, false); };
    const Tracked<S> d = difference(point(j.body2, j.point2), point(j.body1, j.point1));
    auto orientation_rows = [&] {  // R₂ Cᵀ = R₁ by three dot products (Haug 1989, §9.3)
      const Mat3<S> Ct = j.rotation.transpose();
      for (int k = 0; k < 3; ++k)
        w.dot(direction(j.body1, Vec3<S>::Unit(k)), direction(j.body2, Vec3<S>(Ct.col((k + 1) % 3))));
    };
    auto parallel_rows = [&] {  // axis2 ⟂ both perpendiculars of axis1
      const Tracked<S> a2 = direction(j.body2, j.axis2);
      for (const Vec3<S>& e : perpendiculars(j.axis1)) w.dot(direction(j.body1, e), a2);
    };
    auto line_rows = [&] {  // d ⟂ both perpendiculars of axis1
      for (const Vec3<S>& e : perpendiculars(j.axis1)) w.dot(direction(j.body1, e), d);
    };
    switch (j.type) {
      case SpatialJointType::Spherical:
        w.vector(d);
        break;
      case SpatialJointType::Revolute:
        w.vector(d);
        parallel_rows();
        break;
      case SpatialJointType::Universal:
        w.vector(d);
        w.dot(direction(j.body1, j.axis1), direction(j.body2, j.axis2));
        break;
      case SpatialJointType::Cylindrical:
        parallel_rows();
        line_rows();
        break;
      case SpatialJointType::Prismatic:
        orientation_rows();
        line_rows();
        break;
      case SpatialJointType::Weld:
        w.vector(d);
        orientation_rows();
        break;
      case SpatialJointType::Distance:
        w.half_square(d, j.length);
        break;
    }
  }
}

// The spring-damper's pull on point 1, towards point 2 (split as asked).
template <class S>
struct SpringDamperState {
  Tracked<S> d;
  Vec3<S> spring, damper;
};
template <class S>
SpringDamperState<S> spring_damper(const Vector<S>& q, const Vector<S>& qd, const SpatialForce<S>& f,
                                   const std::string& field) {
  SpringDamperState<S> s;
  s.d = difference(body_vector<S>(q, &qd, f.body2, f.point2, true), body_vector<S>(q, &qd, f.body1, f.point1, true));
  using std::sqrt;
  const S l = sqrt(s.d.x.dot(s.d.x));
  if (l == S(0)) throw InputError(field, "the spring's points coincide: no direction");
  const Vec3<S> e = s.d.x / l;
  s.spring = f.stiffness * (l - f.length) * e;
  s.damper = f.damping * e.dot(s.d.v) * e;
  return s;
}

// Adds (∂x/∂q)ᵀ F for a tracked vector x.
template <class S>
void add_generalized(Vector<S>& Q, const Tracked<S>& x, const Vec3<S>& F) {
  for (const auto& [body, J] : x.blocks) Q.template segment<7>(7 * Index(body)) += J.transpose() * F;
}

}  // namespace spatial_detail

template <class S>
Index constraint_rows(const SpatialModel<S>& model) {
  Index m = Index(model.bodies.size());
  for (const SpatialJoint<S>& j : model.joints) m += rows(j.type);
  return m;
}

template <class S>
void validate(const SpatialModel<S>& model) {
  using model_detail::item_field;
  if (model.bodies.empty()) throw InputError("bodies", "a model needs at least one body");
  const int nb = int(model.bodies.size());
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const SpatialBody<S>& b = model.bodies[i];
    const std::string field = item_field("bodies", i, b.name);
    if (!(b.mass > S(0))) throw InputError(field + ".mass", "must be positive, got " + format_scalar(b.mass));
    if (!(b.inertia - b.inertia.transpose()).isZero(S(0)))
      throw InputError(field + ".inertia", "is not symmetric");
    Eigen::LDLT<Mat3<S>> ldlt(b.inertia);
    bool positive = ldlt.info() == Eigen::Success;
    for (Index k = 0; positive && k < 3; ++k) positive = ldlt.vectorD()(k) > S(0);
    if (!positive) throw InputError(field + ".inertia", "is not positive definite");
  }
  auto check_bodies = [&](const std::string& field, int b1, int b2) {
    model_detail::check_joined_bodies(field, b1, b2, nb);
  };
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    const SpatialJoint<S>& j = model.joints[i];
    const std::string field = item_field("joints", i, j.name);
    check_bodies(field, j.body1, j.body2);
    const bool axis1 = j.type != SpatialJointType::Spherical && j.type != SpatialJointType::Weld &&
                       j.type != SpatialJointType::Distance;
    const bool axis2 = j.type == SpatialJointType::Revolute || j.type == SpatialJointType::Universal ||
                       j.type == SpatialJointType::Cylindrical;
    if (axis1 && j.axis1.squaredNorm() == S(0)) throw InputError(field + ".axis1", "is zero");
    if (axis2 && j.axis2.squaredNorm() == S(0)) throw InputError(field + ".axis2", "is zero");
    if (j.type == SpatialJointType::Prismatic || j.type == SpatialJointType::Weld) {
      // Built from a quaternion or an axis and angle at the working precision:
      // orthogonal to a few units of roundoff.
      const S off = (j.rotation.transpose() * j.rotation - Mat3<S>::Identity()).cwiseAbs().maxCoeff();
      if (!(off <= S(64) * unit_roundoff<S>()) || !(j.rotation.determinant() > S(0)))
        throw InputError(field + ".rotation", "is not a rotation");
    }
    if (j.type == SpatialJointType::Distance && !(j.length > S(0)))
      throw InputError(field + ".length", "the distance must be positive, got " + format_scalar(j.length));
  }
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const SpatialForce<S>& f = model.forces[i];
    const std::string field = item_field("forces", i, f.name);
    if (f.type == SpatialForceType::SpringDamper) {
      check_bodies(field, f.body1, f.body2);
      if (f.stiffness < S(0)) throw InputError(field + ".stiffness", "is negative: " + format_scalar(f.stiffness));
      if (f.damping < S(0)) throw InputError(field + ".damping", "is negative: " + format_scalar(f.damping));
      if (f.length < S(0)) throw InputError(field + ".length", "is negative: " + format_scalar(f.length));
    } else if (f.body1 < 0 || f.body1 >= nb) {
      throw InputError(field, "body " + std::to_string(f.body1) + " does not exist (a force acts on a body)");
    }
  }
}

template <class S>
std::vector<std::string> coordinate_names(const SpatialModel<S>& model) {
  std::vector<std::string> out;
  for (const SpatialBody<S>& b : model.bodies)
    for (const char* c : {"x_", "y_", "z_", "p0_", "p1_", "p2_", "p3_"}) out.push_back(c + b.name);
  return out;
}

template <class S>
S quaternion_inertia(const SpatialBody<S>& body) {
  return body.inertia.trace() / S(3);
}

template <class S>
Matrix<S> mass_matrix(const SpatialModel<S>& model, const Vector<S>& q) {
  const Index n = model.n();
  Matrix<S> M = Matrix<S>::Zero(n, n);
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const SpatialBody<S>& body = model.bodies[i];
    const Index o = 7 * Index(i);
    M.block(o, o, 3, 3).diagonal().setConstant(body.mass);
    const Quaternion<S> p = spatial_detail::euler_parameters(q, int(i));
    const Eigen::Matrix<S, 3, 4> G = spatial_detail::body_g(p);
    M.block(o + 3, o + 3, 4, 4) =
        S(4) * (G.transpose() * body.inertia * G + quaternion_inertia(body) * p * p.transpose());
  }
  return M;
}

template <class S>
Vector<S> constraints(const SpatialModel<S>& model, const Vector<S>& q) {
  Vector<S> phi;
  spatial_detail::evaluate_constraints<S>(model, q, nullptr, {&phi, nullptr, nullptr});
  return phi;
}

template <class S>
Matrix<S> constraint_jacobian(const SpatialModel<S>& model, const Vector<S>& q) {
  Matrix<S> A;
  spatial_detail::evaluate_constraints<S>(model, q, nullptr, {nullptr, &A, nullptr});
  return A;
}

template <class S>
Vector<S> constraint_rhs(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  Vector<S> b;
  spatial_detail::evaluate_constraints<S>(model, q, &qd, {nullptr, nullptr, &b});
  return b;
}

template <class S>
Vector<S> damping_forces(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  Vector<S> Q = Vector<S>::Zero(model.n());
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const SpatialForce<S>& f = model.forces[i];
    if (f.type != SpatialForceType::SpringDamper || f.damping == S(0)) continue;
    const auto s = spatial_detail::spring_damper(q, qd, f, model_detail::item_field("forces", i, f.name));
    // The pull on point 1 is +damper, on point 2 −damper: Q = −(∂d/∂q)ᵀ damper.
    spatial_detail::add_generalized<S>(Q, s.d, Vec3<S>(-s.damper));
  }
  return Q;
}

template <class S>
Vector<S> applied_forces(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  using namespace spatial_detail;
  Vector<S> Q = Vector<S>::Zero(model.n());
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const SpatialBody<S>& body = model.bodies[i];
    const Index o = 7 * Index(i);
    Q.template segment<3>(o) += body.mass * model.gravity;
    // Qᵛ_p = −2 Gᵀ (ω' × J ω') − 4 J₀ (ṗᵀṗ) p.
    const Quaternion<S> p = euler_parameters(q, int(i)), pd = euler_parameters(qd, int(i));
    const Eigen::Matrix<S, 3, 4> G = body_g(p);
    const Vec3<S> w = S(2) * G * pd;
    const Vec3<S> gyro = w.cross(Vec3<S>(body.inertia * w));
    Q.template segment<4>(o + 3) -= S(2) * G.transpose() * gyro + S(4) * quaternion_inertia(body) * pd.dot(pd) * p;
  }
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const SpatialForce<S>& f = model.forces[i];
    switch (f.type) {
      case SpatialForceType::Force:
        add_generalized<S>(Q, body_vector<S>(q, nullptr, f.body1, f.point1, true), f.force);
        break;
      case SpatialForceType::SpringDamper: {
        const auto s = spring_damper(q, qd, f, item_field("forces", i, f.name));
        add_generalized<S>(Q, s.d, Vec3<S>(-(s.spring + s.damper)));
        break;
      }
    }
  }
  return Q;
}

template <class S>
S potential(const SpatialModel<S>& model, const Vector<S>& q) {
  using spatial_detail::body_vector;
  S V(0);
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    V -= model.bodies[i].mass * model.gravity.dot(q.template segment<3>(7 * Index(i)));
  for (const SpatialForce<S>& f : model.forces) {
    switch (f.type) {
      case SpatialForceType::Force:
        V -= f.force.dot(body_vector<S>(q, nullptr, f.body1, f.point1, true).x);
        break;
      case SpatialForceType::SpringDamper: {
        const Vec3<S> d =
            body_vector<S>(q, nullptr, f.body2, f.point2, true).x - body_vector<S>(q, nullptr, f.body1, f.point1, true).x;
        using std::sqrt;
        const S stretch = sqrt(d.dot(d)) - f.length;
        V += f.stiffness * stretch * stretch / S(2);
        break;
      }
    }
  }
  return V;
}

template <class S>
System<S> system_at(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  Matrix<S> A;
  Vector<S> b;
  spatial_detail::evaluate_constraints<S>(model, q, &qd, {nullptr, &A, &b});
  return make_system<S>(mass_matrix(model, q), std::move(A), std::move(b), applied_forces(model, q, qd));
}

template <class S>
Vec3<S> point_position(const SpatialModel<S>&, const Vector<S>& q, int body, const Vec3<S>& offset) {
  return spatial_detail::body_vector<S>(q, nullptr, body, offset, true).x;
}

template <class S>
Vec3<S> point_velocity(const SpatialModel<S>&, const Vector<S>& q, const Vector<S>& qd, int body,
                       const Vec3<S>& offset) {
  return spatial_detail::body_vector<S>(q, &qd, body, offset, true).v;
}

template <class S>
Mat3<S> rotation_matrix(const Quaternion<S>& p) {
  Mat3<S> R;
  for (int k = 0; k < 3; ++k) R.col(k) = spatial_detail::bilinear<S>(p, p, Vec3<S>::Unit(k));
  return R;
}

template <class S>
Quaternion<S> axis_angle(const Vec3<S>& axis, const S& angle) {
  using std::cos;
  using std::sin;
  Quaternion<S> p;
  p(0) = cos(angle / S(2));
  p.template tail<3>() = sin(angle / S(2)) * axis.normalized();
  return p;
}

template <class S>
Vec3<S> angular_velocity(const Quaternion<S>& p, const Quaternion<S>& pd) {
  return S(2) * spatial_detail::ground_e(p) * pd;
}

template <class S>
Quaternion<S> quaternion_rate(const Quaternion<S>& p, const Vec3<S>& omega) {
  return spatial_detail::ground_e(p).transpose() * omega / S(2);
}

}  // namespace femc::models
