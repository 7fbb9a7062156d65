#pragma once
// Spatial mechanisms at any precision (issue "Mechanisms"): rigid bodies in
// space, joints, forces; at a state (q, q̇, t) the model gives the FEMC
// problem M q̈ = Q + Qᶜ, A q̈ = b of that instant, in the scalar type S.
//
// Coordinates. Each body i has seven: the centre of mass r_i = (x, y, z) in
// the ground frame and the Euler parameters p_i = (p0, p1, p2, p3) of its
// orientation (a unit quaternion; Haug 1989 ch. 9, Nikravesh 1988 ch. 6).
// Chosen, as in the plane (planar.hpp), over joint coordinates: every joint
// is a constraint on two bodies, so Bricard's redundancy (A04) and the
// governor's closed loops (A05) are properties of A; and over angles, because
// Euler parameters have no singular orientation and every quantity below is a
// polynomial in q, exact to the working precision.
//
// Rotation. R(p) = (p0² − e·e) I + 2 e eᵀ + 2 p0 ẽ (e = (p1, p2, p3)) is
// quadratic in p: R(p) s = B(p, p) s with the symmetric bilinear form
//   B(p, r) s = (p0 r0 − e_p·e_r) s + (e_p·s) e_r + (e_r·s) e_p
//               + p0 (e_r × s) + r0 (e_p × s),
// so a body vector R(p) s has the derivative ∂(R s)/∂p_k = 2 B(p, u_k) s
// (u_k the unit quaternions), the velocity 2 B(p, ṗ) s and the
// acceleration 2 B(p, p̈) s + 2 B(ṗ, ṗ) s. Every constraint is built from
// such vectors (points, axes), so A = ∂φ/∂q and b = −(∂(A q̇)/∂q) q̇ follow
// from three rules (spatial.hxx): a vector equation, a dot product, a squared
// distance. R is a rotation on |p| = 1; each body carries the unit-norm
// constraint ½(pᵀp − 1) = 0 (row pᵀ, b = −ṗᵀṗ), the first rows of A.
//
// Mass and inertial forces (Udwadia and Schutte, "An alternative derivation
// of the quaternion equations of motion for rigid-body rotational dynamics",
// J. Appl. Mech. 77 (2010) 044505). With G(p) = [−e, −ẽ + p0 I] the body-frame
// angular velocity is ω' = 2 G ṗ, and Euler's equations J ω̇' + ω' × J ω' = n'
// become, per body,
//   M_p = 4 Gᵀ J G + 4 J₀ p pᵀ = 4 Eᵀ J* E,   J* = diag(J₀, J),  E = [pᵀ; G],
//   Q_p = 2 Gᵀ (n' − ω' × J ω') − 4 J₀ (ṗᵀṗ) p,
// for any J₀ > 0 (Udwadia and Schutte's result: the motion does not depend on
// it; femc uses J₀ = trace(J)/3, and tests/test_spatial_model.cpp solves with
// two values). 4GᵀJG alone is singular (G p = 0): the J₀ term makes M
// positive definite, and its force −4J₀(ṗᵀṗ)p, which is what J₀ p pᵀ p̈
// equals on the unit-norm constraint, leaves that constraint's multiplier 0
// for a free body. The translational block is m I, with no velocity terms.
// Forces at a point act through the point's Jacobian: Q = (∂r_P/∂q)ᵀ F.
#include <string>
#include <vector>

#include "femc/linalg.hpp"
#include "femc/models/model_fields.hpp"
#include "femc/system.hpp"

namespace femc::models {

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using Quaternion = Eigen::Matrix<S, 4, 1>;  // (p0, p1, p2, p3), p0 the scalar part

template <class S>
struct SpatialBody {
  std::string name;
  S mass;            // > 0
  Mat3<S> inertia;   // about the centre of mass, in the body frame: symmetric positive definite
};

enum class SpatialJointType {
  Spherical,    // the points coincide: 3 rows
  Revolute,     // spherical, and axis2 (body 2) stays parallel to axis1 (body 1): 5 rows
  Universal,    // spherical, and axis2 stays perpendicular to axis1: 4 rows
  Cylindrical,  // axis2 stays parallel to axis1 and point2 on the line through
                // point1 along axis1: 4 rows
  Prismatic,    // R₁ᵀR₂ stays `rotation` and point2 on the line through
                // point1 along axis1: 5 rows
  Weld,         // the points coincide and R₁ᵀR₂ stays `rotation`: 6 rows
  Distance,     // the points stay `length` apart: 1 row, ½(|d|² − L²)
};

template <class S>
struct SpatialJoint {
  std::string name;
  SpatialJointType type = SpatialJointType::Spherical;
  int body1 = kGround, body2 = kGround;  // indices into the bodies, or kGround
  Vec3<S> point1 = Vec3<S>::Zero(), point2 = Vec3<S>::Zero();  // in each body's frame
  Vec3<S> axis1 = Vec3<S>::UnitZ(), axis2 = Vec3<S>::UnitZ();   // in each body's frame
  Mat3<S> rotation = Mat3<S>::Identity();  // Prismatic, Weld: R₁ᵀR₂ kept at this
  S length = S(0);                         // Distance
};

enum class SpatialForceType {
  Force,         // a constant force (ground frame) at point1 of body1
  SpringDamper,  // between point1 of body1 and point2 of body2: tension
                 // stiffness·(ℓ − length) + damping·ℓ̇ pulls the points together
};

template <class S>
struct SpatialForce {
  std::string name;
  SpatialForceType type = SpatialForceType::Force;
  int body1 = kGround, body2 = kGround;
  Vec3<S> point1 = Vec3<S>::Zero(), point2 = Vec3<S>::Zero();
  Vec3<S> force = Vec3<S>::Zero();
  S stiffness = S(0), damping = S(0), length = S(0);
};

template <class S>
struct SpatialModel {
  std::string name;
  std::vector<SpatialBody<S>> bodies;
  std::vector<SpatialJoint<S>> joints;
  std::vector<SpatialForce<S>> forces;
  Vec3<S> gravity = Vec3<S>::Zero();

  Index n() const { return 7 * Index(bodies.size()); }
};

inline Index rows(SpatialJointType type) {
  switch (type) {
    case SpatialJointType::Spherical:
      return 3;
    case SpatialJointType::Revolute:
    case SpatialJointType::Prismatic:
      return 5;
    case SpatialJointType::Universal:
    case SpatialJointType::Cylindrical:
      return 4;
    case SpatialJointType::Weld:
      return 6;
    case SpatialJointType::Distance:
      return 1;
  }
  return 0;
}
// One unit-norm row per body, then every joint's rows.
template <class S>
Index constraint_rows(const SpatialModel<S>& model);

// Checks the model: at least one body, positive masses, symmetric positive
// definite inertias, joints and forces naming existing bodies and not
// joining a body to itself, nonzero axes, an orthogonal `rotation` with
// determinant 1, a positive distance, non-negative stiffness, damping and
// rest length. Throws InputError naming the item.
template <class S>
void validate(const SpatialModel<S>& model);

// x_, y_, z_, p0_, p1_, p2_, p3_ of each body.
template <class S>
std::vector<std::string> coordinate_names(const SpatialModel<S>& model);

// J₀ of a body (see the header comment): trace(J)/3.
template <class S>
S quaternion_inertia(const SpatialBody<S>& body);

// M(q): per body diag(m I, 4 Eᵀ J* E).
template <class S>
Matrix<S> mass_matrix(const SpatialModel<S>& model, const Vector<S>& q);

template <class S>
Vector<S> constraints(const SpatialModel<S>& model, const Vector<S>& q);
template <class S>
Matrix<S> constraint_jacobian(const SpatialModel<S>& model, const Vector<S>& q);
// b = −(∂(A q̇)/∂q) q̇, so that φ̈ = A q̈ − b (the joints are scleronomic).
template <class S>
Vector<S> constraint_rhs(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd);

// Q = Qᵛ + Q^c + Q^d: the inertial terms of the Euler parameters (above),
// the conservative forces (gravity, constant forces, springs: −∇V) and the
// dampers.
template <class S>
Vector<S> applied_forces(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd);
// The dampers' part alone (the power q̇ᵀQ^d is what the energy loses).
template <class S>
Vector<S> damping_forces(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd);
// V: −Σ m g·r − Σ F·r_P + Σ ½k(ℓ − L)².
template <class S>
S potential(const SpatialModel<S>& model, const Vector<S>& q);

template <class S>
System<S> system_at(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd);

// A point of a body (or of the ground) in the ground frame, and its velocity.
template <class S>
Vec3<S> point_position(const SpatialModel<S>& model, const Vector<S>& q, int body, const Vec3<S>& offset);
template <class S>
Vec3<S> point_velocity(const SpatialModel<S>& model, const Vector<S>& q, const Vector<S>& qd, int body,
                       const Vec3<S>& offset);

// R(p) (a rotation when |p| = 1), the quaternion of a rotation by `angle`
// about `axis` (normalized here), ω = 2E(p)ṗ in the ground frame and its
// inverse ṗ = ½E(p)ᵀω on |p| = 1 (E = [−e, ẽ + p0 I]).
template <class S>
Mat3<S> rotation_matrix(const Quaternion<S>& p);
template <class S>
Quaternion<S> axis_angle(const Vec3<S>& axis, const S& angle);
template <class S>
Vec3<S> angular_velocity(const Quaternion<S>& p, const Quaternion<S>& pd);
template <class S>
Quaternion<S> quaternion_rate(const Quaternion<S>& p, const Vec3<S>& omega);

}  // namespace femc::models

#include "femc/models/assemble.hpp"
