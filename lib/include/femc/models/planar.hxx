#pragma once
// The bodies of planar.hpp's functions. The library instantiates them for
// the model scalars (lib/src/instantiate/models.cpp.in); include this file
// to build a planar model at another scalar type.
#include <cmath>
#include <utility>

#include "femc/errors.hpp"
#include "femc/models/planar.hpp"
#include "femc/scalar/traits.hpp"

namespace femc::models {

namespace planar_detail {

// A point of a body at a state: its position r, B s and R s (the columns and
// velocity-product terms of the formulas in planar.hpp), its velocity, and
// its body's angle and angular speed (0 for the ground).
template <class S>
struct PointState {
  Vec2<S> r, Bs, Rs, v;
  S theta = S(0), omega = S(0);
};

template <class S>
PointState<S> point_state(const Vector<S>& q, const Vector<S>* qd, int body, const Vec2<S>& s) {
  PointState<S> p;
  if (body == kGround) {
    p.r = s;
    p.Bs = p.Rs = p.v = Vec2<S>::Zero();
    return p;
  }
  using std::cos;
  using std::sin;
  const Index o = 3 * Index(body);
  p.theta = q(o + 2);
  const S c = cos(p.theta), sn = sin(p.theta);
  p.Rs << c * s(0) - sn * s(1), sn * s(0) + c * s(1);
  p.Bs << -sn * s(0) - c * s(1), c * s(0) - sn * s(1);  // R·(−s_y, s_x)
  p.r = Vec2<S>(q(o), q(o + 1)) + p.Rs;
  if (qd) {
    p.omega = (*qd)(o + 2);
    p.v = Vec2<S>((*qd)(o), (*qd)(o + 1)) + p.omega * p.Bs;
  } else {
    p.v = Vec2<S>::Zero();
  }
  return p;
}

// Adds the row ∂(coefficient·r_P)/∂q of a point of `body` to A's row `row`
// (translation columns: coefficient; angle column: coefficient·B s).
template <class S>
void add_point_row(const model_detail::JacobianEntries<S>& A, Index row, int body, const Vec2<S>& coefficient,
                   const Vec2<S>& Bs) {
  if (body == kGround) return;
  const Index o = 3 * Index(body);
  A.add(row, o, coefficient(0));
  A.add(row, o + 1, coefficient(1));
  A.add(row, o + 2, coefficient.dot(Bs));
}

template <class S>
void add_angle(const model_detail::JacobianEntries<S>& A, Index row, int body, const S& coefficient) {
  if (body != kGround) A.add(row, 3 * Index(body) + 2, coefficient);
}

using model_detail::ConstraintParts;

template <class S>
void evaluate_constraints(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>* qd,
                          ConstraintParts<S> out) {
  const Index m = constraint_rows(model), n = model.n();
  if (out.phi) *out.phi = Vector<S>::Zero(m);
  if (out.A) *out.A = Matrix<S>::Zero(m, n);
  if (out.A_triplets) out.A_triplets->clear();
  if (out.b) *out.b = Vector<S>::Zero(m);
  const model_detail::JacobianEntries<S> jacobian{out.A, out.A_triplets};
  Index row = 0;
  for (const PlanarJoint<S>& j : model.joints) {
    const PointState<S> p1 = point_state(q, qd, j.body1, j.point1), p2 = point_state(q, qd, j.body2, j.point2);
    const Vec2<S> d = p2.r - p1.r, dv = p2.v - p1.v;
    // θ̇₁² R₁s₁ − θ̇₂² R₂s₂: d̈ = (A part) + this.
    const Vec2<S> centripetal = p1.omega * p1.omega * p1.Rs - p2.omega * p2.omega * p2.Rs;
    auto angle_row = [&](Index r) {  // θ₂ − θ₁ − angle: b = 0
      if (out.phi) (*out.phi)(r) = p2.theta - p1.theta - j.angle;
      if (jacobian) {
        add_angle(jacobian, r, j.body1, S(-1));
        add_angle(jacobian, r, j.body2, S(1));
      }
    };
    switch (j.type) {
      case PlanarJointType::Revolute:
      case PlanarJointType::Weld:
        // φ = r_P1 − r_P2, b = θ̇₁² R₁s₁ − θ̇₂² R₂s₂.
        for (Index k = 0; k < 2; ++k) {
          const Vec2<S> e = Vec2<S>::Unit(k);
          if (out.phi) (*out.phi)(row + k) = -d(k);
          if (jacobian) {
            add_point_row(jacobian, row + k, j.body1, e, p1.Bs);
            add_point_row(jacobian, row + k, j.body2, Vec2<S>(-e), p2.Bs);
          }
          if (out.b) (*out.b)(row + k) = centripetal(k);
        }
        if (j.type == PlanarJointType::Weld) angle_row(row + 2);
        break;
      case PlanarJointType::Prismatic: {
        angle_row(row);
        // φ = n·d with n = R₁ n₁, n₁ = (−a_y, a_x) ⟂ the axis:
        // A = [−nᵀ, (B₁n₁)·d − n·B₁s₁ | nᵀ, n·B₂s₂],
        // b = θ̇₁² n·d − 2θ̇₁ (B₁n₁)·ḋ − n·(θ̇₁² R₁s₁ − θ̇₂² R₂s₂).
        const Vec2<S> n1(-j.axis(1), j.axis(0));
        const PointState<S> nn = point_state(q, qd, j.body1, n1);  // R₁n₁ = nn.Rs, B₁n₁ = nn.Bs
        const Vec2<S> nrm = j.body1 == kGround ? n1 : nn.Rs, Bn = nn.Bs;
        const Index r = row + 1;
        if (out.phi) (*out.phi)(r) = nrm.dot(d);
        if (jacobian) {
          add_point_row(jacobian, r, j.body1, Vec2<S>(-nrm), p1.Bs);
          add_angle(jacobian, r, j.body1, Bn.dot(d));
          add_point_row(jacobian, r, j.body2, nrm, p2.Bs);
        }
        if (out.b) (*out.b)(r) = p1.omega * p1.omega * nrm.dot(d) - S(2) * p1.omega * Bn.dot(dv) - nrm.dot(centripetal);
        break;
      }
      case PlanarJointType::Distance:
        // φ = ½(d·d − L²), A = dᵀ ∂d/∂q, b = −ḋ·ḋ − d·(θ̇₁² R₁s₁ − θ̇₂² R₂s₂).
        if (out.phi) (*out.phi)(row) = (d.dot(d) - j.length * j.length) / S(2);
        if (jacobian) {
          add_point_row(jacobian, row, j.body1, Vec2<S>(-d), p1.Bs);
          add_point_row(jacobian, row, j.body2, d, p2.Bs);
        }
        if (out.b) (*out.b)(row) = -dv.dot(dv) - d.dot(centripetal);
        break;
    }
    row += rows(j.type);
  }
}

}  // namespace planar_detail

template <class S>
Index constraint_rows(const PlanarModel<S>& model) {
  Index m = 0;
  for (const PlanarJoint<S>& j : model.joints) m += rows(j.type);
  return m;
}

template <class S>
void validate(const PlanarModel<S>& model) {
  using model_detail::item_field;
  if (model.bodies.empty()) throw InputError("bodies", "a model needs at least one body");
  const int nb = int(model.bodies.size());
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const PlanarBody<S>& b = model.bodies[i];
    const std::string field = item_field("bodies", i, b.name);
    if (!(b.mass > S(0))) throw InputError(field + ".mass", "must be positive, got " + format_scalar(b.mass));
    if (!(b.inertia > S(0)))
      throw InputError(field + ".inertia", "must be positive, got " + format_scalar(b.inertia));
  }
  auto check_bodies = [&](const std::string& field, int b1, int b2) {
    model_detail::check_joined_bodies(field, b1, b2, nb);
  };
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    const PlanarJoint<S>& j = model.joints[i];
    const std::string field = item_field("joints", i, j.name);
    check_bodies(field, j.body1, j.body2);
    if (j.type == PlanarJointType::Prismatic && j.axis.squaredNorm() == S(0))
      throw InputError(field + ".axis", "is zero");
    if (j.type == PlanarJointType::Distance && !(j.length > S(0)))
      throw InputError(field + ".length", "the distance must be positive, got " + format_scalar(j.length));
  }
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const PlanarForce<S>& f = model.forces[i];
    const std::string field = item_field("forces", i, f.name);
    if (f.type == PlanarForceType::Spring) {
      check_bodies(field, f.body1, f.body2);
      if (f.stiffness < S(0)) throw InputError(field + ".stiffness", "is negative: " + format_scalar(f.stiffness));
      if (f.length < S(0)) throw InputError(field + ".length", "is negative: " + format_scalar(f.length));
    } else {
      if (f.body1 < 0 || f.body1 >= nb)
        throw InputError(field, "body " + std::to_string(f.body1) + " does not exist (a force acts on a body)");
      if (f.type == PlanarForceType::Torque && (f.body2 < kGround || f.body2 >= nb || f.body2 == f.body1))
        throw InputError(field, "the reaction body " + std::to_string(f.body2) + " is not another body or the ground");
    }
  }
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const PlanarContact<S>& c = model.contacts[i];
    const std::string field = item_field("contacts", i, c.name);
    if (c.body < 0 || c.body >= nb)
      throw InputError(field, "body " + std::to_string(c.body) + " does not exist (a contact is a point of a body)");
    if (c.normal.squaredNorm() == S(0)) throw InputError(field + ".normal", "is zero");
    if (c.friction < S(0)) throw InputError(field + ".friction", "is negative: " + format_scalar(c.friction));
  }
}

template <class S>
std::vector<std::string> coordinate_names(const PlanarModel<S>& model) {
  std::vector<std::string> out;
  for (const PlanarBody<S>& b : model.bodies)
    for (const char* c : {"x_", "y_", "θ_"}) out.push_back(c + b.name);
  return out;
}

template <class S>
Matrix<S> mass_matrix(const PlanarModel<S>& model) {
  const Index n = model.n();
  Matrix<S> M = Matrix<S>::Zero(n, n);
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Index o = 3 * Index(i);
    M(o, o) = M(o + 1, o + 1) = model.bodies[i].mass;
    M(o + 2, o + 2) = model.bodies[i].inertia;
  }
  return M;
}

template <class S>
Vector<S> constraints(const PlanarModel<S>& model, const Vector<S>& q) {
  Vector<S> phi;
  planar_detail::evaluate_constraints<S>(model, q, nullptr, {&phi, nullptr, nullptr});
  return phi;
}

template <class S>
Matrix<S> constraint_jacobian(const PlanarModel<S>& model, const Vector<S>& q) {
  Matrix<S> A;
  planar_detail::evaluate_constraints<S>(model, q, nullptr, {nullptr, &A, nullptr});
  return A;
}

template <class S>
Vector<S> constraint_rhs(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  Vector<S> b;
  planar_detail::evaluate_constraints<S>(model, q, &qd, {nullptr, nullptr, &b});
  return b;
}

template <class S>
Vec2<S> point_position(const Vector<S>& q, int body, const Vec2<S>& offset) {
  return planar_detail::point_state<S>(q, nullptr, body, offset).r;
}

template <class S>
Vec2<S> point_velocity(const Vector<S>& q, const Vector<S>& qd, int body, const Vec2<S>& offset) {
  return planar_detail::point_state<S>(q, &qd, body, offset).v;
}

template <class S>
Vector<S> applied_forces(const PlanarModel<S>& model, const Vector<S>& q) {
  using planar_detail::point_state;
  Vector<S> Q = Vector<S>::Zero(model.n());
  auto add_at_point = [&](int body, const Vec2<S>& Bs, const Vec2<S>& F) {
    if (body == kGround) return;
    const Index o = 3 * Index(body);
    Q(o) += F(0);
    Q(o + 1) += F(1);
    Q(o + 2) += Bs.dot(F);
  };
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Index o = 3 * Index(i);
    Q(o) += model.bodies[i].mass * model.gravity(0);
    Q(o + 1) += model.bodies[i].mass * model.gravity(1);
  }
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const PlanarForce<S>& f = model.forces[i];
    switch (f.type) {
      case PlanarForceType::Torque:
        Q(3 * Index(f.body1) + 2) += f.torque;
        if (f.body2 != kGround) Q(3 * Index(f.body2) + 2) -= f.torque;
        break;
      case PlanarForceType::Force:
        add_at_point(f.body1, point_state<S>(q, nullptr, f.body1, f.point1).Bs, f.force);
        break;
      case PlanarForceType::Spring: {
        const auto p1 = point_state<S>(q, nullptr, f.body1, f.point1), p2 = point_state<S>(q, nullptr, f.body2, f.point2);
        const Vec2<S> d = p2.r - p1.r;
        using std::sqrt;
        const S l = sqrt(d.dot(d));
        if (l == S(0))
          throw InputError(model_detail::item_field("forces", i, f.name), "the spring's points coincide: no direction");
        const Vec2<S> pull = f.stiffness * (l - f.length) / l * d;  // on point 1, towards point 2
        add_at_point(f.body1, p1.Bs, pull);
        add_at_point(f.body2, p2.Bs, Vec2<S>(-pull));
        break;
      }
    }
  }
  return Q;
}

template <class S>
S potential(const PlanarModel<S>& model, const Vector<S>& q) {
  using planar_detail::point_state;
  S V(0);
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    V -= model.bodies[i].mass * model.gravity.dot(Vec2<S>(q(3 * Index(i)), q(3 * Index(i) + 1)));
  for (const PlanarForce<S>& f : model.forces) {
    switch (f.type) {
      case PlanarForceType::Torque:
        V -= f.torque * (q(3 * Index(f.body1) + 2) - (f.body2 == kGround ? S(0) : q(3 * Index(f.body2) + 2)));
        break;
      case PlanarForceType::Force:
        V -= f.force.dot(point_state<S>(q, nullptr, f.body1, f.point1).r);
        break;
      case PlanarForceType::Spring: {
        const Vec2<S> d = point_state<S>(q, nullptr, f.body2, f.point2).r - point_state<S>(q, nullptr, f.body1, f.point1).r;
        using std::sqrt;
        const S stretch = sqrt(d.dot(d)) - f.length;
        V += f.stiffness * stretch * stretch / S(2);
        break;
      }
    }
  }
  return V;
}

namespace planar_detail {
// n̂ and t̂ of a contact's line (PlanarContact).
template <class S>
std::pair<Vec2<S>, Vec2<S>> contact_frame(const PlanarContact<S>& c) {
  using std::sqrt;
  const Vec2<S> n = c.normal / S(sqrt(c.normal.squaredNorm()));
  return {n, Vec2<S>(n(1), -n(0))};
}
}  // namespace planar_detail

template <class S>
Vector<S> contact_gaps(const PlanarModel<S>& model, const Vector<S>& q) {
  Vector<S> g(Index(model.contacts.size()));
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const PlanarContact<S>& c = model.contacts[i];
    const Vec2<S> n = planar_detail::contact_frame(c).first;
    g(Index(i)) = n.dot(Vec2<S>(point_position(q, c.body, c.point) - c.origin));
  }
  return g;
}

template <class S>
contact::ContactData<S> contact_data(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  const Index k = Index(model.contacts.size()), n = model.n();
  contact::ContactData<S> d;
  d.WN = Matrix<S>::Zero(k, n);
  d.Wt = Matrix<S>::Zero(k, n);
  d.WbarN.resize(k);
  d.WbarT.resize(k);
  d.s.resize(k);
  d.mu.resize(k);
  for (Index i = 0; i < k; ++i) {
    const PlanarContact<S>& c = model.contacts[std::size_t(i)];
    const auto [nrm, tan] = planar_detail::contact_frame(c);
    const planar_detail::PointState<S> p = planar_detail::point_state(q, &qd, c.body, c.point);
    planar_detail::add_point_row<S>({&d.WN}, i, c.body, nrm, p.Bs);
    planar_detail::add_point_row<S>({&d.Wt}, i, c.body, tan, p.Bs);
    d.WbarN(i) = -p.omega * p.omega * nrm.dot(p.Rs);
    d.WbarT(i) = -p.omega * p.omega * tan.dot(p.Rs);
    d.mu(i) = c.friction;
    d.s(i) = contact::friction_sign<S>(tan.dot(p.v));
  }
  return d;
}

template <class S>
SparseMatrix<S> sparse_mass_matrix(const PlanarModel<S>& model) {
  std::vector<Eigen::Triplet<S, int>> t;
  t.reserve(model.n());
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const int o = 3 * int(i);
    t.emplace_back(o, o, model.bodies[i].mass);
    t.emplace_back(o + 1, o + 1, model.bodies[i].mass);
    t.emplace_back(o + 2, o + 2, model.bodies[i].inertia);
  }
  SparseMatrix<S> M(model.n(), model.n());
  M.setFromTriplets(t.begin(), t.end());
  return M;
}

namespace planar_detail {
template <class S>
SparseMatrix<S> from_triplets(const PlanarModel<S>& model, const std::vector<Eigen::Triplet<S, int>>& t) {
  SparseMatrix<S> A(constraint_rows(model), model.n());
  A.setFromTriplets(t.begin(), t.end());
  return A;
}
}  // namespace planar_detail

template <class S>
SparseMatrix<S> sparse_constraint_jacobian(const PlanarModel<S>& model, const Vector<S>& q) {
  std::vector<Eigen::Triplet<S, int>> t;
  planar_detail::evaluate_constraints<S>(model, q, nullptr, {nullptr, nullptr, nullptr, &t});
  return planar_detail::from_triplets(model, t);
}

template <class S>
SparseSystem<S> sparse_system_at(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  std::vector<Eigen::Triplet<S, int>> t;
  SparseSystem<S> sys;
  planar_detail::evaluate_constraints<S>(model, q, &qd, {nullptr, nullptr, &sys.b, &t});
  sys.A = planar_detail::from_triplets(model, t);
  sys.M = sparse_mass_matrix(model);
  sys.Q = applied_forces(model, q);
  sys.C = Vector<S>::Zero(model.n());
  return sys;
}

template <class S>
System<S> system_at(const PlanarModel<S>& model, const Vector<S>& q, const Vector<S>& qd) {
  Matrix<S> A;
  Vector<S> b;
  planar_detail::evaluate_constraints<S>(model, q, &qd, {nullptr, &A, &b});
  return make_system<S>(mass_matrix(model), std::move(A), std::move(b), applied_forces(model, q));
}

}  // namespace femc::models
