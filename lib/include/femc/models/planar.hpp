#pragma once
// Planar mechanisms at any precision (issue "Mechanisms"): rigid bodies in
// the plane, joints, forces; at a state (q, q̇, t) the model gives the FEMC
// problem M q̈ = Q + Qᶜ, A q̈ = b of that instant, in the scalar type S.
//
// Coordinates. Each body i has the body coordinates q_i = (x_i, y_i, θ_i):
// its centre of mass in the ground frame and the angle of its frame
// (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems,
// 1989, ch. 5–6). Chosen over relative joint coordinates because
//   - M is constant and block-diagonal, diag(m_i, m_i, I_i): no
//     velocity-product terms in Q, nothing to derive per mechanism, and the
//     same structure the sparse solver of the issue "Large mechanisms" needs;
//   - every joint is a constraint with rows on two bodies only, so
//     redundancy (A04), singular configurations (A02) and closed loops are
//     all properties of A, which is what femc's theory is about; there is
//     no tree to cut and no closure to choose;
//   - each quantity is a short formula in sin θ and cos θ, exact to the
//     working precision (checked against central differences at 256 bits,
//     tests/test_planar_model.cpp).
// The price is more coordinates (3 per body) and more constraint rows.
//
// With R(θ) the rotation and B(θ) = dR/dθ = R(θ)·[[0, −1], [1, 0]], a point
// with body-frame offset s (from the centre of mass) of body i is at
//   r = r_i + R(θ_i) s,  ṙ = ṙ_i + θ̇_i B_i s,  r̈ = r̈_i + θ̈_i B_i s − θ̇_i² R_i s.
// A joint's constraint φ(q) = 0 has rows A = ∂φ/∂q and b = −(∂(A q̇)/∂q) q̇
// (φ̈ = A q̈ − b), given per joint type in planar.hxx. The ground is body −1,
// its points given in the ground frame.
#include <string>
#include <vector>

#include "femc/contact/unilateral_problem.hpp"
#include "femc/linalg.hpp"
#include "femc/models/model_fields.hpp"
#include "femc/sparse_system.hpp"
#include "femc/system.hpp"

namespace femc::models {

template <class S>
using Vec2 = Eigen::Matrix<S, 2, 1>;

template <class S>
struct PlanarBody {
  std::string name;
  S mass;     // > 0
  S inertia;  // about the centre of mass, > 0
};

enum class PlanarJointType {
  Revolute,   // the two points coincide: 2 rows
  Prismatic,  // the bodies keep their relative angle and the second point
              // stays on the line through the first along `axis` (body 1's
              // frame): 2 rows
  Weld,       // the points coincide and the relative angle is kept: 3 rows
  Distance,   // the points stay `length` apart: 1 row, ½(|d|² − L²)
};

template <class S>
struct PlanarJoint {
  std::string name;
  PlanarJointType type = PlanarJointType::Revolute;
  int body1 = kGround, body2 = kGround;  // indices into the bodies, or kGround
  Vec2<S> point1 = Vec2<S>::Zero(), point2 = Vec2<S>::Zero();  // in each body's frame
  Vec2<S> axis = Vec2<S>::UnitX();  // Prismatic: the sliding direction in body 1's frame
  S angle = S(0);                   // Prismatic, Weld: θ₂ − θ₁ kept at this value
  S length = S(0);                  // Distance
};

enum class PlanarForceType {
  Torque,  // a constant torque on body1 (and −torque on body2 unless ground)
  Force,   // a constant force (ground frame) at point1 of body1
  Spring,  // a linear spring between point1 of body1 and point2 of body2:
           // tension stiffness·(ℓ − length) pulls the points together
};

template <class S>
struct PlanarForce {
  std::string name;
  PlanarForceType type = PlanarForceType::Torque;
  int body1 = kGround, body2 = kGround;
  Vec2<S> point1 = Vec2<S>::Zero(), point2 = Vec2<S>::Zero();
  S torque = S(0);
  Vec2<S> force = Vec2<S>::Zero();
  S stiffness = S(0), length = S(0);
};

// A point of a body that touches a fixed line of the ground (a foot on the
// floor): a unilateral contact with Coulomb friction (003 Section 3). With
// n̂ = normal/|normal| pointing to the free side and t̂ = (n̂_y, −n̂_x) the
// line's direction (t̂ = (1, 0) for the floor n = (0, 1)), a point
// r = r_i + R(θ_i)s has
//   g_N = n̂·(r − origin) ≥ 0,     W_N = n̂·∂r/∂q,  W̄_N = −θ̇_i² n̂·R s,
//   ẋ_t = t̂·ṙ = W_t q̇,            W_t = t̂·∂r/∂q,  W̄_t = −θ̇_i² t̂·R s
// (r̈ = r̈_i + θ̈_i B s − θ̇_i² R s), the ContactData of
// contact/unilateral_problem.hpp.
template <class S>
struct PlanarContact {
  std::string name;
  int body = kGround;                   // a body (not the ground)
  Vec2<S> point = Vec2<S>::Zero();      // in the body's frame
  Vec2<S> origin = Vec2<S>::Zero();     // a point of the line, ground frame
  Vec2<S> normal = Vec2<S>::UnitY();    // nonzero, towards the free side
  S friction = S(0);                    // μ ≥ 0
};

template <class S>
struct PlanarModel {
  std::string name;
  std::vector<PlanarBody<S>> bodies;
  std::vector<PlanarJoint<S>> joints;
  std::vector<PlanarForce<S>> forces;
  std::vector<PlanarContact<S>> contacts;
  Vec2<S> gravity = Vec2<S>::Zero();

  Index n() const { return 3 * Index(bodies.size()); }
};

// The number of constraint rows of a joint and of the model.
inline Index rows(PlanarJointType type) {
  switch (type) {
    case PlanarJointType::Revolute:
    case PlanarJointType::Prismatic:
      return 2;
    case PlanarJointType::Weld:
      return 3;
    case PlanarJointType::Distance:
      return 1;
  }
  return 0;
}
template <class S>
Index constraint_rows(const PlanarModel<S>& model);

// Checks the model: at least one body, positive masses and inertias, joints
// and forces naming existing bodies and not joining a body to itself, a
// nonzero prismatic axis, a non-negative distance or spring length, a
// non-negative stiffness, contacts on existing bodies with a nonzero normal
// and μ ≥ 0. Throws InputError naming the item
// ("joints[2] (hinge B): body2 7 does not exist").
template <class S>
void validate(const PlanarModel<S>& model);

// The coordinate names: x_<body>, y_<body>, θ_<body>.
template <class S>
std::vector<std::string> coordinate_names(const PlanarModel<S>& model);

// M = diag(m_i, m_i, I_i).
template <class S>
Matrix<S> mass_matrix(const PlanarModel<S>& model);
// The same, in the signature of a state-dependent mass (spatial.hpp).
template <class S>
Matrix<S> mass_matrix(const PlanarModel<S>& model, const Vector<S>&) {
  return mass_matrix(model);
}

// φ(q): every joint's rows, in the joints' order.
template <class S>
Vector<S> constraints(const PlanarModel<S>& model, const Vector<S>& q);
// A = ∂φ/∂q.
template <class S>
Matrix<S> constraint_jacobian(const PlanarModel<S>& model, const Vector<S>& q);
// b = −(∂(A q̇)/∂q) q̇, so that φ̈ = A q̈ − b (the joints are scleronomic).
template <class S>
Vector<S> constraint_rhs(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd);

// Q: gravity, torques, forces and springs (body coordinates at the centre
// of mass: no velocity-product terms).
template <class S>
Vector<S> applied_forces(const PlanarModel<S>& model, const Vector<S>& q);
// The forces that do work without a potential: none in the planar layer
// (no dampers), so zero; the signature of spatial.hpp's, for the code that
// serves both layers (dynamics/mechanism.hpp).
template <class S>
Vector<S> damping_forces(const PlanarModel<S>& model, const Vector<S>&, const Vector<S>&) {
  return Vector<S>::Zero(model.n());
}
// V with Q = −∇V: −Σ m_i g·r_i − Σ τ(θ₁ − θ₂) − Σ F·r_P + Σ ½k(ℓ − L)².
template <class S>
S potential(const PlanarModel<S>& model, const Vector<S>& q);

// The contacts' gaps g_N(q), in the contacts' order.
template <class S>
Vector<S> contact_gaps(const PlanarModel<S>& model, const Vector<S>& q);
// W_N, W̄_N, W_t, W̄_t, μ and the friction signs s = −sgn(W_t q̇) of every
// contact at (q, q̇) (see PlanarContact).
template <class S>
contact::ContactData<S> contact_data(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd);

// The FEMC problem of the instant (C = 0, W = I).
template <class S>
System<S> system_at(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd);

// The same stored sparse, for large mechanisms: O(bodies + joints) storage
// and work, no dense matrix (the method `sparse` solves it).
template <class S>
SparseSystem<S> sparse_system_at(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd);
template <class S>
SparseMatrix<S> sparse_mass_matrix(const PlanarModel<S>& model);
template <class S>
SparseMatrix<S> sparse_constraint_jacobian(const PlanarModel<S>& model, const Vector<S>& q);

// A point of a body (or of the ground) in the ground frame, and its velocity.
template <class S>
Vec2<S> point_position(const Vector<S>& q, int body, const Vec2<S>& offset);
template <class S>
Vec2<S> point_velocity(const Vector<S>& q, const Vector<S>& qd, int body, const Vec2<S>& offset);

}  // namespace femc::models

#include "femc/models/assemble.hpp"
