// The planar loops of engines/common built in Bullet from btMultiBody trees,
// and one step read from inside Bullet's constraint solver.
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyFixedConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <BulletDynamics/Featherstone/btMultiBodyMLCPConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyPoint2Point.h>
#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btLemkeSolver.h>
#include <BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h>

#include <Eigen/Eigenvalues>
#include <array>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>

#include "femc/engines/bricard.hpp"
#include "femc/engines/richardson.hpp"
#include "femc/engines/bullet.hpp"
#include "femc/errors.hpp"

#ifndef BT_USE_DOUBLE_PRECISION
#error "the Bullet adapter needs Bullet's double build (bullet-float64.pc defines BT_USE_DOUBLE_PRECISION)"
#endif

namespace femc::engines::bullet {

std::string to_string(Topology t) {
  switch (t) {
    case Topology::two_multibodies: return "two multibodies";
    case Topology::one_multibody: return "one multibody";
    case Topology::floating_base: return "floating base";
  }
  return "?";
}

std::string to_string(SolverKind s) {
  switch (s) {
    case SolverKind::pgs: return "PGS";
    case SolverKind::mlcp_dantzig: return "MLCP Dantzig";
    case SolverKind::mlcp_lemke: return "MLCP Lemke";
    case SolverKind::mlcp_pgs: return "MLCP PGS";
  }
  return "?";
}

namespace {

namespace loop = planar_loop;

// Where a link of the loop lives: its multibody and link index.
struct LinkRef {
  int body, link;
};

}  // namespace

// The world, its multibodies, and the map from Bullet's velocity vectors to
// femc's u.
struct Mechanism::Impl {
  loop::Loop lengths;
  Settings settings;
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  std::unique_ptr<btMLCPSolverInterface> mlcp;
  std::unique_ptr<btMultiBodyConstraintSolver> solver;
  std::unique_ptr<btMultiBodyDynamicsWorld> world;
  btSphereShape sphere{0.01};
  std::vector<std::unique_ptr<btMultiBody>> bodies;
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders;
  std::unique_ptr<btMultiBodyConstraint> closure;
  LinkRef end{0, 0}, rocker{0, 0};  // the closure's two links (A, B): the chain's end and the rocker, or the weld's halves
  btVector3 pivot_end, pivot_rocker;  // its points in their links' frames
  // Bricard's weld (btMultiBodyFixedConstraint, 6 rows) instead of the
  // point-to-point: its frames in the two links' frames.
  bool weld = false;
  btMatrix3x3 frame_end, frame_rocker;
  std::vector<LinkRef> joints;  // planar_loop's order: the serial links, then the rocker
  std::vector<Index> offset;    // per multibody: its first column of u
  Extracted* capture = nullptr; // set during step(): the solver tap writes here

  ~Impl() {
    if (world) {
      if (closure) world->removeMultiBodyConstraint(closure.get());
      for (auto& c : colliders) world->removeCollisionObject(c.get());
      for (auto& b : bodies) world->removeMultiBody(b.get());
    }
  }

  bool fixed(int b) const { return bodies[std::size_t(b)]->hasFixedBase(); }
  // femc's column of entry k of multibody b's velocity vector, −1 for a
  // fixed base's six.
  Index column(int b, int k) const {
    if (fixed(b)) return k < 6 ? -1 : offset[std::size_t(b)] + k - 6;
    return offset[std::size_t(b)] + k;
  }
  Index n() const {
    const int last = int(bodies.size()) - 1;
    return offset.back() + bodies.back()->getNumDofs() + (fixed(last) ? 0 : 6);
  }
  int body_index(const btMultiBody* mb) const {
    for (std::size_t b = 0; b < bodies.size(); ++b)
      if (bodies[b].get() == mb) return int(b);
    throw MethodError("Bullet: a constraint row refers to a multibody the mechanism does not own");
  }

  btVector3 world_point(const LinkRef& r, const btVector3& local) const {
    return bodies[std::size_t(r.body)]->localPosToWorld(r.link, local);
  }
  Vector<double> q() const;
  void set_q(const Vector<double>& q);
  Vector<double> u() const;
  void set_u(const Vector<double>& u);
  Vector<double> position_error() const;

  void capture_rows(const btMultiBodyConstraintArray& rows, const btMultiBodyJacobianData& data);
  void capture_impulses(const btMultiBodyConstraintArray& rows);
};

namespace {

// Bullet's solver with a tap: the rows, unit responses, M⁻¹ and v* as the
// iterations start (after Bullet's setup), the impulses as they end, and, for
// the MLCP solvers, the system handed to the MLCP solver and its solution.
template <class Base>
class Tap : public Base {
 public:
  template <class... Args>
  explicit Tap(Mechanism::Impl* impl, Args&&... args) : Base(std::forward<Args>(args)...), impl_(impl) {}

 protected:
  btScalar solveGroupCacheFriendlyIterations(btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds,
                                             int numManifolds, btTypedConstraint** constraints, int numConstraints,
                                             const btContactSolverInfo& info, btIDebugDraw* draw) override {
    if (impl_->capture) impl_->capture_rows(this->m_multiBodyNonContactConstraints, this->m_data);
    const btScalar r = Base::solveGroupCacheFriendlyIterations(bodies, numBodies, manifolds, numManifolds, constraints,
                                                               numConstraints, info, draw);
    if (impl_->capture) impl_->capture_impulses(this->m_multiBodyNonContactConstraints);
    return r;
  }

 protected:
  Mechanism::Impl* impl_;
};

class MlcpTap : public Tap<btMultiBodyMLCPConstraintSolver> {
 public:
  using Tap::Tap;

 protected:
  bool solveMLCP(const btContactSolverInfo& info) override {
    Extracted* e = impl_->capture;
    if (e) {
      const int m = m_multiBodyA.rows();
      e->mlcp_A.resize(m, m);
      e->mlcp_b.resize(m);
      for (int i = 0; i < m; ++i) {
        e->mlcp_b(i) = m_multiBodyB[i];
        for (int j = 0; j < m; ++j) e->mlcp_A(i, j) = m_multiBodyA(i, j);
      }
    }
    const bool ok = btMultiBodyMLCPConstraintSolver::solveMLCP(info);
    if (e) {
      const int m = m_multiBodyX.rows();
      e->mlcp_x.resize(m);
      for (int i = 0; i < m; ++i) e->mlcp_x(i) = m_multiBodyX[i];
      e->fell_back = !ok;  // solveGroupCacheFriendlyIterations falls back to PGS on false (m_fallback++)
    }
    return ok;
  }
};

}  // namespace

void Mechanism::Impl::capture_rows(const btMultiBodyConstraintArray& rows, const btMultiBodyJacobianData& data) {
  Extracted& e = *capture;
  const Index N = n(), m = rows.size();
  e.n = N;
  e.m = m;
  e.unit_rounding = (weld ? 32 : 4) * double(N) * 0x1p-53;  // bullet.hpp: per mechanism class
  e.J = Matrix<double>::Zero(m, N);
  e.J_magnitude = Matrix<double>::Zero(m, N);
  e.unit = Matrix<double>::Zero(m, N);
  e.rhs.resize(m);
  e.jac_diag_inv.resize(m);
  e.lower.resize(m);
  e.upper.resize(m);
  for (int i = 0; i < m; ++i) {
    const btMultiBodySolverConstraint& c = rows[i];
    if (c.m_cfm != 0) throw MethodError("Bullet: a multibody row has m_cfm ≠ 0, which the adapter does not model");
    auto add = [&](const btMultiBody* mb, int jac) {
      if (!mb) throw MethodError("Bullet: a loop row with a rigid body or the world on one end");
      const int b = body_index(mb);
      for (int k = 0; k < 6 + mb->getNumDofs(); ++k) {
        const Index col = column(b, k);
        const double Jk = data.m_jacobians[jac + k], Uk = data.m_deltaVelocitiesUnitImpulse[jac + k];
        if (col < 0) {
          if (Uk != 0) throw MethodError("Bullet: a fixed base moves under a unit impulse");
          continue;
        }
        e.J(i, col) += Jk;
        e.J_magnitude(i, col) += std::abs(Jk);
        e.unit(i, col) += Uk;
      }
    };
    add(c.m_multiBodyA, c.m_jacAindex);
    add(c.m_multiBodyB, c.m_jacBindex);
    e.rhs(i) = c.m_rhs;
    e.jac_diag_inv(i) = c.m_jacDiagABInv;
    e.lower(i) = c.m_lowerLimit;
    e.upper(i) = c.m_upperLimit;
  }
  // M⁻¹, column by column, from the articulated-body quantities of this
  // step's free-motion pass (calcAccelerationDeltasMultiDof reads them).
  e.Minv = Matrix<double>::Zero(N, N);
  e.v_star.resize(N);
  btAlignedObjectArray<btScalar> scratch_r;
  btAlignedObjectArray<btVector3> scratch_v;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const btMultiBody& mb = *bodies[b];
    const int K = 6 + mb.getNumDofs();
    std::vector<btScalar> force(std::size_t(K), 0.0), out(std::size_t(K), 0.0);
    for (int k = 0; k < K; ++k) {
      const Index col = column(int(b), k);
      if (col >= 0) e.v_star(col) = mb.getVelocityVector()[k];
      if (col < 0) continue;
      std::fill(force.begin(), force.end(), 0.0);
      force[std::size_t(k)] = 1;
      mb.calcAccelerationDeltasMultiDof(force.data(), out.data(), scratch_r, scratch_v);
      for (int r = 0; r < K; ++r) {
        const Index row = column(int(b), r);
        if (row >= 0) e.Minv(row, col) = out[std::size_t(r)];
      }
    }
  }
}

void Mechanism::Impl::capture_impulses(const btMultiBodyConstraintArray& rows) {
  Extracted& e = *capture;
  e.lambda.resize(rows.size());
  for (int i = 0; i < rows.size(); ++i) e.lambda(i) = rows[i].m_appliedImpulse;
}


Mechanism::Mechanism(std::unique_ptr<Impl> impl, std::string name, Settings s)
    : impl_(std::move(impl)), name_(std::move(name)), settings_(s) {}
Mechanism::~Mechanism() = default;

Index Mechanism::n() const { return impl_->n(); }
Vector<double> Mechanism::q() const { return impl_->q(); }
void Mechanism::set_q(const Vector<double>& q) { impl_->set_q(q); }
Vector<double> Mechanism::u() const { return impl_->u(); }
void Mechanism::set_u(const Vector<double>& u) { impl_->set_u(u); }
Vector<double> Mechanism::position_error() const { return impl_->position_error(); }

std::vector<double> Mechanism::base_pose() const {
  std::vector<double> out;
  for (const auto& b : impl_->bodies)
    if (!b->hasFixedBase()) {
      const btVector3 p = b->getBasePos();
      const btQuaternion r = b->getWorldToBaseRot();
      out.insert(out.end(), {p.x(), p.y(), p.z(), r.x(), r.y(), r.z(), r.w()});
    }
  return out;
}

void Mechanism::set_base_pose(const std::vector<double>& pose) {
  std::size_t expected = 0;
  for (const auto& b : impl_->bodies) expected += b->hasFixedBase() ? 0 : 7;
  if (pose.size() != expected)
    throw InputError("pose", std::to_string(pose.size()) + " numbers, not " + std::to_string(expected) +
                                 " (7 per floating base)");
  for (std::size_t i = 0; i < pose.size(); ++i)
    if (!std::isfinite(pose[i]))
      throw InputError("pose", "entry " + std::to_string(i) + " is " + std::to_string(pose[i]) + ", not finite");
  for (std::size_t k = 0; k < pose.size(); k += 7) {
    const double norm = std::hypot(std::hypot(pose[k + 3], pose[k + 4]), std::hypot(pose[k + 5], pose[k + 6]));
    if (!(norm > 0))  // base_pose() gives Bullet's own quaternion, unit to its rounding
      throw InputError("pose", "the quaternion at entry " + std::to_string(k + 3) + " is zero: no rotation");
  }
  std::size_t k = 0;
  for (auto& b : impl_->bodies)
    if (!b->hasFixedBase()) {
      b->setBasePos(btVector3(pose[k], pose[k + 1], pose[k + 2]));
      b->setWorldToBaseRot(btQuaternion(pose[k + 3], pose[k + 4], pose[k + 5], pose[k + 6]));
      k += 7;
    }
  impl_->set_q(impl_->q());  // the links' cached transforms and the colliders follow the base
}

Vector<double> Mechanism::Impl::q() const {
  Vector<double> out(Index(joints.size()));
  for (std::size_t j = 0; j < joints.size(); ++j)
    out(Index(j)) = bodies[std::size_t(joints[j].body)]->getJointPos(joints[j].link);
  return out;
}

void Mechanism::Impl::set_q(const Vector<double>& q) {
  if (q.size() != Index(joints.size()))
    throw InputError("q", "a loop of " + std::to_string(joints.size()) + " joints takes as many angles, not " +
                              std::to_string(q.size()));
  for (std::size_t j = 0; j < joints.size(); ++j)
    bodies[std::size_t(joints[j].body)]->setJointPos(joints[j].link, q(Index(j)));
  btAlignedObjectArray<btQuaternion> rot;
  btAlignedObjectArray<btVector3> pos;
  for (auto& b : bodies) b->updateCollisionObjectWorldTransforms(rot, pos);
}

Vector<double> Mechanism::Impl::u() const {
  Vector<double> out(n());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const btMultiBody& mb = *bodies[b];
    for (int k = 0; k < 6 + mb.getNumDofs(); ++k) {
      const Index c = column(int(b), k);
      if (c >= 0) out(c) = mb.getVelocityVector()[k];
    }
  }
  return out;
}

void Mechanism::Impl::set_u(const Vector<double>& u) {
  if (u.size() != n()) throw InputError("u", std::to_string(n()) + " coordinates, not " + std::to_string(u.size()));
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    btMultiBody& mb = *bodies[b];
    if (!mb.hasFixedBase()) {
      const Index o = offset[b];
      mb.setBaseOmega(btVector3(u(o), u(o + 1), u(o + 2)));
      mb.setBaseVel(btVector3(u(o + 3), u(o + 4), u(o + 5)));
    }
    for (int k = 0; k < mb.getNumDofs(); ++k) mb.setJointVel(k, u(column(int(b), 6 + k)));
  }
}

// posError of the closure's rows as Bullet's createConstraintRows forms
// them. The point-to-point: n·(p_A − p_B) with n = −e_i, p_A the serial
// chain's end, p_B the rocker's (btMultiBodyPoint2Point.cpp). The weld
// (btMultiBodyFixedConstraint.cpp l.140–186 at 3.24): (p_A − p_B)·e_i, then
// the XYZ Euler angles of frame_A⁻¹·frame_B (matrixToEulerXYZ), each frame
// mapped to the world by localFrameToWorld.
Vector<double> Mechanism::Impl::position_error() const {
  const btVector3 d = world_point(end, pivot_end) - world_point(rocker, pivot_rocker);
  if (!weld) return Vector<double>((Vector<double>(3) << -d.x(), -d.y(), -d.z()).finished());
  const btMatrix3x3 A = bodies[std::size_t(end.body)]->localFrameToWorld(end.link, frame_end);
  const btMatrix3x3 B = bodies[std::size_t(rocker.body)]->localFrameToWorld(rocker.link, frame_rocker);
  btVector3 angles;
  btGeneric6DofSpring2Constraint::matrixToEulerXYZ(A.inverse() * B, angles);
  return Vector<double>((Vector<double>(6) << d.x(), d.y(), d.z(), angles.x(), angles.y(), angles.z()).finished());
}

Extracted Mechanism::step() {
  Extracted e;
  e.settings = settings_;
  e.v = impl_->u();
  impl_->capture = &e;
  struct Reset {
    Impl* impl;
    ~Reset() { impl->capture = nullptr; }
  } reset{impl_.get()};
  e.position_error = position_error();
  const int steps = impl_->world->stepSimulation(settings_.h, 0);
  if (steps != 1) throw MethodError("Bullet: stepSimulation(h, 0) took " + std::to_string(steps) + " steps, not 1");
  if (e.J.rows() == 0) throw MethodError("Bullet: the constraint solver did not see the loop's rows (no island?)");
  e.v_next = impl_->u();
  return e;
}

namespace {

btVector3 rod_inertia(double L) {
  return btVector3(loop::axial_inertia(), loop::transverse_inertia(L), loop::transverse_inertia(L));
}

// The closure's Jacobian in the joint angles, from Bullet's own positions:
// ∂(p_A − p_B)/∂q_j = z × (p − o_j), o_j joint j's world position (its
// link's pivot), p_A on the serial chain, p_B on the rocker. Rows x, y.
Matrix<double> closure_jacobian(const Mechanism::Impl& m, const loop::Loop& L) {
  const std::size_t k = L.serial.size();
  const btVector3 pA = m.world_point(m.end, m.pivot_end), pB = m.world_point(m.rocker, m.pivot_rocker);
  Matrix<double> J = Matrix<double>::Zero(2, Index(k + 1));
  for (std::size_t j = 0; j <= k; ++j) {
    const LinkRef& r = m.joints[j];
    const double Lj = j < k ? L.serial[j] : L.rocker;
    const btVector3 o = m.world_point(r, btVector3(-Lj / 2, 0, 0));
    const btVector3 d = (j < k ? pA : pB) - o;
    const double sign = j < k ? 1 : -1;
    J(0, Index(j)) = -sign * d.y();
    J(1, Index(j)) = sign * d.x();
  }
  return J;
}

// The world and its solver (Settings), gravity along −y.
void start(Mechanism::Impl& m, const Settings& s, double gravity) {
  if (!(s.max_applied_impulse > 0))  // +∞ lifts the cap
    throw InputError("max_applied_impulse", "a positive impulse cap (N·s), not " + std::to_string(s.max_applied_impulse));
  m.settings = s;
  switch (s.solver) {
    case SolverKind::pgs:
      m.solver = std::make_unique<Tap<btMultiBodyConstraintSolver>>(&m);
      break;
    case SolverKind::mlcp_dantzig: m.mlcp = std::make_unique<btDantzigSolver>(); break;
    case SolverKind::mlcp_lemke: m.mlcp = std::make_unique<btLemkeSolver>(); break;
    case SolverKind::mlcp_pgs: m.mlcp = std::make_unique<btSolveProjectedGaussSeidel>(); break;
  }
  if (m.mlcp) m.solver = std::make_unique<MlcpTap>(&m, m.mlcp.get());
  m.world = std::make_unique<btMultiBodyDynamicsWorld>(&m.dispatcher, &m.broadphase, m.solver.get(), &m.configuration);
  m.world->setGravity(btVector3(0, -gravity, 0));
  btContactSolverInfo& info = m.world->getSolverInfo();
  info.m_numIterations = s.iterations;
  info.m_erp = s.erp;
}

// Each multibody finalized and added to the world, u's columns numbered,
// and a collider per link (and a floating base), colliding with nothing
// (group and mask 0): without one, a link's island is −1 and the constraint
// is solved in no island.
void finish(Mechanism::Impl& m) {
  Index offset = 0;
  for (auto& b : m.bodies) {
    b->finalizeMultiDof();
    m.offset.push_back(offset);
    offset += b->getNumDofs() + (b->hasFixedBase() ? 0 : 6);
    m.world->addMultiBody(b.get());
    for (int l = b->hasFixedBase() ? 0 : -1; l < b->getNumLinks(); ++l) {
      auto col = std::make_unique<btMultiBodyLinkCollider>(b.get(), l);
      col->setCollisionShape(&m.sphere);
      col->setActivationState(DISABLE_DEACTIVATION);
      m.world->addCollisionObject(col.get(), 0, 0);
      if (l < 0)
        b->setBaseCollider(col.get());
      else
        b->getLink(l).m_collider = col.get();
      m.colliders.push_back(std::move(col));
    }
  }
}

}  // namespace

std::unique_ptr<Mechanism> planar_loop(const loop::Loop& L, const std::vector<double>& leading_angles,
                                       const std::vector<double>& leading_speeds, const Settings& s) {
  if (!(s.h > 0) || !std::isfinite(s.h)) throw InputError("h", "a positive step, not " + std::to_string(s.h));
  if (s.iterations < 1) throw InputError("iterations", "at least 1, not " + std::to_string(s.iterations));
  auto impl = std::make_unique<Mechanism::Impl>();
  Mechanism::Impl& m = *impl;
  m.lengths = L;
  start(m, s, loop::kGravity);
  const std::size_t k = L.serial.size();
  const btQuaternion identity(0, 0, 0, 1);
  const btVector3 z(0, 0, 1);
  auto make = [&](int links, bool floating) {
    auto mb = floating ? std::make_unique<btMultiBody>(links, loop::kMass, rod_inertia(L.ground), false, false)
                       : std::make_unique<btMultiBody>(links, 0.0, btVector3(0, 0, 0), true, false);
    mb->setLinearDamping(s.linear_damping);
    mb->setAngularDamping(s.angular_damping);
    mb->setMaxCoordinateVelocity(s.max_coordinate_velocity);
    return mb;
  };
  // The chain: link 0 pinned at O, link j at link j−1's end.
  auto chain = [&](btMultiBody& mb, int first, int parent, const btVector3& at) {
    for (std::size_t j = 0; j < k; ++j) {
      const int i = first + int(j);
      const btVector3 pivot = j == 0 ? at : btVector3(L.serial[j - 1] / 2, 0, 0);
      mb.setupRevolute(i, loop::kMass, rod_inertia(L.serial[j]), j == 0 ? parent : i - 1, identity, z, pivot,
                       btVector3(L.serial[j] / 2, 0, 0), true);
      m.joints.push_back({-1, i});
    }
  };
  const btVector3 rocker_com(L.rocker / 2, 0, 0);
  switch (s.topology) {
    case Topology::two_multibodies: {
      m.bodies.push_back(make(int(k), false));
      m.bodies.push_back(make(1, false));
      chain(*m.bodies[0], 0, -1, btVector3(0, 0, 0));
      for (auto& j : m.joints) j.body = 0;
      m.bodies[1]->setupRevolute(0, loop::kMass, rod_inertia(L.rocker), -1, identity, z, btVector3(L.ground, 0, 0),
                                 rocker_com, true);
      m.joints.push_back({1, 0});
      break;
    }
    case Topology::one_multibody:
    case Topology::floating_base: {
      const bool floating = s.topology == Topology::floating_base;
      m.bodies.push_back(make(int(k) + 1, floating));
      // A floating base's origin is the ground rod's centre.
      const double x0 = floating ? -L.ground / 2 : 0;
      chain(*m.bodies[0], 0, -1, btVector3(x0, 0, 0));
      for (auto& j : m.joints) j.body = 0;
      m.bodies[0]->setupRevolute(int(k), loop::kMass, rod_inertia(L.rocker), -1, identity, z,
                                 btVector3(x0 + L.ground, 0, 0), rocker_com, true);
      m.joints.push_back({0, int(k)});
      if (floating) m.bodies[0]->setBasePos(btVector3(L.ground / 2, 0, 0));
      break;
    }
  }
  finish(m);
  m.end = m.joints[k - 1];
  m.rocker = m.joints[k];
  m.pivot_end = btVector3(L.serial.back() / 2, 0, 0);
  m.pivot_rocker = btVector3(L.rocker / 2, 0, 0);
  m.closure = std::make_unique<btMultiBodyPoint2Point>(m.bodies[std::size_t(m.end.body)].get(), m.end.link,
                                                       m.bodies[std::size_t(m.rocker.body)].get(), m.rocker.link,
                                                       m.pivot_end, m.pivot_rocker);
  m.closure->setMaxAppliedImpulse(s.max_applied_impulse);
  m.world->addMultiBodyConstraint(m.closure.get());
  // Assembly: planar_loop's closed angles, then Newton on Bullet's own
  // closure error (x, y rows) to ≤ 1e-15 or six steps.
  const std::vector<double> q0 = loop::assemble(L, leading_angles);
  Vector<double> q = Eigen::Map<const Vector<double>>(q0.data(), Index(q0.size()));
  m.set_q(q);
  for (int it = 0; it < 6; ++it) {
    const Vector<double> e = m.position_error().head(2);
    if (e.lpNorm<Eigen::Infinity>() <= 1e-15) break;
    // posError = −(p_A − p_B): Newton on p_A − p_B = −e.
    Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
    cod.setThreshold(1e-10);
    cod.compute(closure_jacobian(m, L));
    q -= cod.solve(Vector<double>(-e));
    m.set_q(q);
  }
  // Speeds: the leading joints' as given, the others from J u = 0.
  if (leading_speeds.size() != k - 1)
    throw InputError("leading_speeds", std::to_string(k - 1) + " speeds, not " + std::to_string(leading_speeds.size()));
  const Matrix<double> J = closure_jacobian(m, L);
  Matrix<double> JS = Matrix<double>::Zero(2 + Index(k - 1), Index(k + 1));
  Vector<double> rhs = Vector<double>::Zero(JS.rows());
  JS.topRows(2) = J;
  for (std::size_t j = 0; j + 1 < k; ++j) {
    JS(2 + Index(j), Index(j)) = 1;
    rhs(2 + Index(j)) = leading_speeds[j];
  }
  Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
  cod.setThreshold(1e-10);
  cod.compute(JS);
  const Vector<double> qd = cod.solve(rhs);
  Vector<double> u = Vector<double>::Zero(m.n());
  for (std::size_t j = 0; j <= k; ++j) u(m.column(m.joints[j].body, 6 + m.joints[j].link)) = qd(Index(j));
  m.set_u(u);
  std::string name = L.name + " (" + to_string(s.topology) + ", " + to_string(s.solver) + ")";
  return std::make_unique<Mechanism>(std::move(impl), std::move(name), s);
}

namespace {

using Mat3 = Eigen::Matrix3d;
using Vec3 = Eigen::Vector3d;

using bricard::origin;
using bricard::rotation;
btVector3 bt(const Vec3& v) { return btVector3(v.x(), v.y(), v.z()); }
btMatrix3x3 bt(const Mat3& R) {
  return btMatrix3x3(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2));
}
btQuaternion quaternion(const Mat3& R) {
  btQuaternion q;
  bt(R).getRotation(q);
  return q;
}

// A Bricard link as btMultiBody holds it: its frame L at the centre of mass
// c, on the principal axes S (columns, det +1) of its inertia I about c in
// the link frame B of bricard.hpp, I = S diag(moments) Sᵀ (btMultiBody takes
// a diagonal inertia).
struct PrincipalFrame {
  Mat3 S = Mat3::Identity();
  Vec3 c = Vec3::Zero(), moments = Vec3::Zero();
};
PrincipalFrame principal(const bricard::MassProperties& p) {
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(bricard::inertia(p));
  PrincipalFrame f;
  f.S = eig.eigenvectors();
  if (f.S.determinant() < 0) f.S.col(0) = -f.S.col(0);
  f.moments = eig.eigenvalues();
  f.c = bricard::centre_of_mass(p);
  return f;
}

}  // namespace

std::vector<double> bricard_inertia_errors() {
  std::vector<double> out;
  for (const bricard::Pin& pin : bricard::kPins) {
    const PrincipalFrame f = principal(pin.body);
    out.push_back((f.S * f.moments.asDiagonal() * f.S.transpose() - bricard::inertia(pin.body)).cwiseAbs().maxCoeff());
  }
  return out;
}

std::unique_ptr<Mechanism> bricard(const Settings& s, double speed0) {
  if (!std::isfinite(speed0)) throw InputError("speed0", "a finite first-pin speed, not " + std::to_string(speed0));
  if (!(s.h > 0) || !std::isfinite(s.h)) throw InputError("h", "a positive step, not " + std::to_string(s.h));
  if (s.iterations < 1) throw InputError("iterations", "at least 1, not " + std::to_string(s.iterations));
  if (s.topology == Topology::floating_base)
    throw InputError("topology", "Bricard's mechanism is built on a fixed base (two multibodies or one), not floating");
  auto impl = std::make_unique<Mechanism::Impl>();
  Mechanism::Impl& m = *impl;
  start(m, s, bricard::kGravity);

  // The grounded link is the fixed base, its frame the link frame of
  // kGroundedLink (mass and inertia 0: a fixed base's are not used). Two
  // multibodies: pins 0–2 on one, 3–5 on the other (each branch of the loop
  // from the grounded link); one multibody: the six pins as its links.
  const bool two = s.topology == Topology::two_multibodies;
  const std::array<LinkRef, 6> where = two ? std::array<LinkRef, 6>{{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}}
                                           : std::array<LinkRef, 6>{{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}}};
  for (int b = 0; b < (two ? 2 : 1); ++b) {
    auto mb = std::make_unique<btMultiBody>(two ? 3 : 6, 0.0, btVector3(0, 0, 0), true, false);
    mb->setLinearDamping(s.linear_damping);
    mb->setAngularDamping(s.angular_damping);
    mb->setMaxCoordinateVelocity(s.max_coordinate_velocity);
    mb->setBasePos(bt(origin(bricard::kGroundedLink)));
    mb->setWorldToBaseRot(quaternion(rotation(bricard::kGroundedLink).transpose()));
    m.bodies.push_back(std::move(mb));
  }
  // Pin i: X_PB(q) = X_PF·Rz(q)·X_BM⁻¹ in bricard.hpp's link frames. In the
  // principal frames, the child's rotation from its parent's is
  // S_cᵀR_M Rz(−q) R_Fᵀ S_p = Rot(a, −q)·C0 with a = S_cᵀR_M e_z and
  // C0 = S_cᵀR_M R_Fᵀ S_p (Bullet's rotParentToThis at q = 0, btMultiBodyLink.h
  // updateCacheMultiDof: Rot(axis, −q)·zeroRot), the pivot F's origin at
  // e = S_pᵀ(o_F − c_p) from the parent's centre of mass and the child's
  // centre of mass at d = S_cᵀ(c_c − o_M) from the pivot: Bullet's joint
  // position is bricard.hpp's angle.
  const PrincipalFrame ground;
  std::array<PrincipalFrame, 6> L;
  for (std::size_t i = 0; i < bricard::kPins.size(); ++i) {
    const bricard::Pin& pin = bricard::kPins[i];
    L[i] = principal(pin.body);
    const PrincipalFrame& P = pin.parent < 0 ? ground : L[std::size_t(pin.parent)];
    const Mat3 R_F = rotation(pin.X_PF), R_M = rotation(pin.X_BM);
    const Mat3 C0 = L[i].S.transpose() * R_M * R_F.transpose() * P.S;
    const Vec3 a = L[i].S.transpose() * R_M.col(2);
    const Vec3 e = P.S.transpose() * (origin(pin.X_PF) - P.c);
    const Vec3 d = L[i].S.transpose() * (L[i].c - origin(pin.X_BM));
    const int parent = pin.parent < 0 ? -1 : where[std::size_t(pin.parent)].link;
    m.bodies[std::size_t(where[i].body)]->setupRevolute(where[i].link, pin.body.mass, bt(L[i].moments), parent,
                                                        quaternion(C0), bt(a), bt(e), bt(d), true);
    m.joints.push_back(where[i]);
  }
  finish(m);
  // The weld at the halves' common link frame B (Simbody's Weld(Transform(),
  // Transform())): in each half's principal frame, B's origin −Sᵀc and axes Sᵀ.
  m.weld = true;
  m.end = where[std::size_t(bricard::kWeldA)];
  m.rocker = where[std::size_t(bricard::kWeldB)];
  const PrincipalFrame& HA = L[std::size_t(bricard::kWeldA)];
  const PrincipalFrame& HB = L[std::size_t(bricard::kWeldB)];
  m.pivot_end = bt(Vec3(-(HA.S.transpose() * HA.c)));
  m.pivot_rocker = bt(Vec3(-(HB.S.transpose() * HB.c)));
  m.frame_end = bt(Mat3(HA.S.transpose()));
  m.frame_rocker = bt(Mat3(HB.S.transpose()));
  m.closure = std::make_unique<btMultiBodyFixedConstraint>(m.bodies[std::size_t(m.end.body)].get(), m.end.link,
                                                           m.bodies[std::size_t(m.rocker.body)].get(), m.rocker.link,
                                                           m.pivot_end, m.pivot_rocker, m.frame_end, m.frame_rocker);
  m.closure->setMaxAppliedImpulse(s.max_applied_impulse);
  m.world->addMultiBodyConstraint(m.closure.get());
  // At the example's angles, at rest: they close the loop to double's
  // rounding (femc's 256-bit assembly is within 2.3e-16 rad of them).
  Vector<double> q(6);
  for (std::size_t i = 0; i < 6; ++i) q(Index(i)) = bricard::kPins[i].q0;
  m.set_q(q);
  m.set_u(Vector<double>::Zero(m.n()));
  const double closure = m.position_error().lpNorm<Eigen::Infinity>();
  if (!(closure <= 1e-12))
    throw MethodError("Bullet: Bricard's loop does not close at the example's angles (|posError|∞ = " +
                      std::to_string(closure) + ")");
  auto out = std::make_unique<Mechanism>(std::move(impl), "Bricard (" + to_string(s.topology) + ", " + to_string(s.solver) + ")", s);
  if (speed0 == 0) return out;
  // The one motion: u along the null vector of the weld's rows, Bullet's own
  // J (m_jacobians) at the start, read from one step of a twin at rest (the
  // rows are formed at the step's starting positions; one PGS iteration:
  // the rows do not depend on the solver), scaled to the first pin's speed.
  // At the example's angles the rows have rank 5 to double (σ₆/σ₁ at
  // rounding, σ₅/σ₁ = 0.34): the null vector is their sixth right singular
  // vector.
  Settings twin = s;
  twin.solver = SolverKind::pgs;
  twin.iterations = 1;
  const Extracted rest = bricard(twin, 0.0)->step();
  const Eigen::JacobiSVD<Matrix<double>> svd(rest.J, Eigen::ComputeFullV);
  const Vector<double> nu = svd.matrixV().col(5);
  if (!(std::abs(nu(0)) > 1e-3))
    throw MethodError("Bullet: Bricard's one motion does not turn the first pin (|ν₀| = " + std::to_string(nu(0)) + ")");
  Vector<double> u = nu * (speed0 / nu(0));
  u(0) = speed0;  // exactly the speed asked for
  out->set_u(u);
  return out;
}

VelocityProduct velocity_product(Mechanism& m) {
  if (m.settings().topology == Topology::floating_base)
    throw InputError("topology", "J̇u by differences of q + s·u needs a fixed base, not a floating one");
  Mechanism::Impl& impl = *m.impl_;
  if (impl.weld) throw InputError("mechanism", "J̇u by differences is the planar loops' (their closure's Jacobian), not Bricard's");
  const Vector<double> q0 = m.q(), u = m.u();
  const double s = 1e-3 / std::max(1.0, u.lpNorm<Eigen::Infinity>());
  double scale = 1;
  auto Ju_at = [&](double t) {
    impl.set_q(q0 + t * u);
    Vector<double> out = Vector<double>::Zero(3);
    // Bullet's rows are posError = n·(p_A − p_B) with n = −e_i: J = −∂(p_A − p_B)/∂q
    // (the z row identically zero).
    out.head(2) = -closure_jacobian(impl, impl.lengths) * u;
    scale = std::max(scale, out.lpNorm<Eigen::Infinity>());
    return out;
  };
  auto D = [&](double h) { return Vector<double>((Ju_at(h) - Ju_at(-h)) / (2 * h)); };
  const richardson::Extrapolated r = richardson::extrapolate(D, s);
  impl.set_q(q0);
  VelocityProduct out;
  out.Jdot_u = r.value;
  out.error = r.truncation + richardson::rounding(1, scale, s);
  return out;
}

std::unique_ptr<Mechanism> four_bar(double theta, double omega, const Settings& s, const loop::Loop& lengths) {
  return planar_loop(lengths, {theta}, {omega}, s);
}

Defaults defaults() {
  const btContactSolverInfo info;
  btMultiBody mb(1, 1.0, btVector3(1, 1, 1), false, true);
  mb.setupRevolute(0, 1.0, btVector3(1, 1, 1), -1, btQuaternion(0, 0, 0, 1), btVector3(0, 0, 1), btVector3(0, 0, 0),
                   btVector3(0, 0, 0), true);
  btMultiBodyPoint2Point p2p(&mb, 0, nullptr, btVector3(0, 0, 0), btVector3(0, 0, 0));
  return {info.m_erp,
          info.m_globalCfm,
          info.m_timeStep,
          info.m_numIterations,
          info.m_solverMode,
          mb.getLinearDamping(),
          mb.getAngularDamping(),
          mb.getMaxCoordinateVelocity(),
          p2p.getMaxAppliedImpulse(),
          mb.getUseGyroTerm(),
          mb.getCanSleep(),
          btGetVersion()};
}

}  // namespace femc::engines::bullet
