// The ODE world a mechanism lives in: bodies, joints with the geometry ODE
// stores for them, the state, the step.
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>
#include <cstring>

#include "femc/engines/ode.hpp"
#include "femc/errors.hpp"

namespace femc::engines::ode {
namespace {

// dInitODE2 once per process; the basic per-thread data in every thread that
// builds a mechanism (odeinit.h: "required to be called for every thread that
// is going to use ODE"). The adapter is compiled with dReal = double
// (precision.h defines dDOUBLE unless dIDESINGLE); a single-precision
// library would misread every array: refused by its own configuration string
// (ode.cpp l.2270–2276, dCheckConfiguration l.2286).
void ensure_initialized() {
  static const bool library = [] {
    if (dInitODE2(0) == 0) throw MethodError("ODE: dInitODE2 failed");
    if (dCheckConfiguration("ODE_double_precision") == 0)
      throw MethodError(std::string("ODE: the library is not built for double precision (its configuration: ") +
                        dGetConfiguration() + ")");
    return true;
  }();
  (void)library;
  thread_local const bool thread_data = dAllocateODEDataForThread(dAllocateFlagBasicData) != 0;
  if (!thread_data) throw MethodError("ODE: dAllocateODEDataForThread failed");
}

// ODE's 3×4 row-major rotation storage (dMatrix3).
void to_ode(const Eigen::Matrix3d& R, dMatrix3 out) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out[4 * i + j] = R(i, j);
    out[4 * i + 3] = 0;
  }
}

Eigen::Matrix3d from_ode(const dReal* R) {
  Eigen::Matrix3d out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out(i, j) = R[4 * i + j];
  return out;
}

Eigen::Vector3d vec3(const dReal* x) { return Eigen::Vector3d(x[0], x[1], x[2]); }

// Every entry −1, 0 or 1, one nonzero per row and column, determinant +1:
// then R·x, Rᵀ·x and products of such matrices are exact in floating point.
bool signed_permutation(const Eigen::Matrix3d& R) {
  for (int i = 0; i < 3; ++i) {
    int row = 0, col = 0;
    for (int j = 0; j < 3; ++j) {
      if (R(i, j) != 0 && std::abs(R(i, j)) != 1) return false;
      row += R(i, j) != 0;
      col += R(j, i) != 0;
    }
    if (row != 1 || col != 1) return false;
  }
  return R.determinant() == 1;
}

}  // namespace

Mechanism::Mechanism(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)), world_(nullptr), feedback_(kMaxJoints) {
  ensure_initialized();
  world_ = dWorldCreate();
}

// dWorldDestroy destroys the world's bodies and every joint not in a joint
// group (objects.h); every joint here is created with group 0.
Mechanism::~Mechanism() { dWorldDestroy(world_); }

void Mechanism::set_step_size(double h) {
  if (!(h > 0) || !std::isfinite(h)) throw InputError("step_size", "must be a positive number");
  h_ = h;
}

int Mechanism::add_body(const std::string& name, double mass, const std::array<double, 6>& I) {
  dMass m;  // its constructor zeroes it (mass.h)
  dMassSetParameters(&m, mass, 0, 0, 0, I[0], I[1], I[2], I[3], I[4], I[5]);
  // dBodySetMass asserts dMassCheck (ode.cpp l.489), and the Debian build's
  // asserts abort: refuse first.
  if (dMassCheck(&m) == 0) throw InputError(name, "mass and inertia are not positive definite");
  dBodyID b = dBodyCreate(world_);
  dBodySetMass(b, &m);
  bodies_.push_back(b);
  body_names_.push_back(name);
  return int(bodies_.size()) - 1;
}

void Mechanism::pose(int body, const Eigen::Matrix3d& R, const Eigen::Vector3d& p) {
  dMatrix3 m;
  to_ode(R, m);
  dBodySetRotation(bodies_[std::size_t(body)], m);
  dBodySetPosition(bodies_[std::size_t(body)], p.x(), p.y(), p.z());
}

void Mechanism::check_joint(const std::string& name, int body1, int body2) const {
  const int nb = int(bodies_.size());
  if (body1 < 0 || body1 >= nb || body2 < -1 || body2 >= nb || body1 == body2)
    throw InputError(name, "joins bodies " + std::to_string(body1) + " and " + std::to_string(body2) +
                               ": body 1 must be a body, body 2 another body or −1 (the static environment)");
  if (joints_.size() == kMaxJoints)
    throw InputError(name, "more than " + std::to_string(kMaxJoints) + " joints in one mechanism");
}

// Attaching after creating and before setting anchors: dJointAttach re-derives
// the stored geometry from the world's (joint.cpp setRelativeValues, called
// at ode.cpp l.1435); the anchors and axes set next overwrite it. body1 is
// never the static environment, so ODE never swaps the bodies (dJOINT_REVERSE,
// ode.cpp l.1402–1408) and node[0] is body1.
dJointID Mechanism::attach(dJointID j, int body1, int body2) {
  dJointAttach(j, bodies_[std::size_t(body1)], body2 < 0 ? nullptr : bodies_[std::size_t(body2)]);
  dJointSetFeedback(j, &feedback_[joints_.size()]);
  return j;
}

// The joint frame is put at the world's origin with the world's orientation
// (a static body 2: at its own world pose), each body posed so that its side
// of the joint frame lies there: R_b = (world frame)·frame_bᵀ, p_b = x − R_b·anchor_b.
// ODE then forms anchor_b = R_bᵀ(x − p_b) (setAnchors, joint.cpp l.289–320)
// and axis_b = R_bᵀ·normalize(w) (setAxes, l.325–360) in floating point; with
// x = 0, signed-permutation rotations and w a coordinate axis each of these
// operations is exact, so ODE stores the values given. For a static body 2,
// dJointSetHingeAnchorDelta stores anchor2 = x + delta = the world point
// exactly (hinge.cpp l.161–197) where dJointSetHingeAnchor would store x.
void Mechanism::add_hinge(const std::string& name, int body1, const Eigen::Vector3d& anchor1,
                          const Eigen::Matrix3d& frame1, int body2, const Eigen::Vector3d& anchor2,
                          const Eigen::Matrix3d& frame2) {
  check_joint(name, body1, body2);
  if (!signed_permutation(frame1) || !signed_permutation(frame2))
    throw InputError(name, "a hinge's frames must be signed permutation matrices (exact in floating point)");
  dJointID j = attach(dJointCreateHinge(world_, nullptr), body1, body2);
  Joint joint{name, JointKind::hinge, j, body1, body2, anchor1, anchor2, frame1.col(2), Eigen::Vector3d::Zero()};
  if (body2 >= 0) {
    const Eigen::Matrix3d R1 = frame1.transpose(), R2 = frame2.transpose();
    pose(body1, R1, -(R1 * anchor1));
    pose(body2, R2, -(R2 * anchor2));
    dJointSetHingeAnchor(j, 0, 0, 0);
    dJointSetHingeAxis(j, 0, 0, 1);
    joint.axis2 = frame2.col(2);  // R2ᵀ·e_z
  } else {
    const Eigen::Matrix3d R1 = frame2 * frame1.transpose();
    pose(body1, R1, -(R1 * anchor1));
    dJointSetHingeAnchorDelta(j, 0, 0, 0, anchor2.x(), anchor2.y(), anchor2.z());
    const Eigen::Vector3d w = frame2.col(2);
    dJointSetHingeAxis(j, w.x(), w.y(), w.z());
    joint.axis2 = w;  // a static body 2 keeps the world axis as given (joint.cpp l.350–356)
  }
  joints_.push_back(joint);
}

// dJointSetBallAnchor stores both anchors from one world point as above. For
// a static body 2, dJointSetBallAnchor2 then stores the world point as given
// (ball.cpp l.82–91; for a body 2 that moves it would store the given
// numbers as body-2 coordinates, untransformed: not used here).
void Mechanism::add_ball(const std::string& name, int body1, const Eigen::Vector3d& anchor1, int body2,
                         const Eigen::Vector3d& anchor2) {
  check_joint(name, body1, body2);
  dJointID j = attach(dJointCreateBall(world_, nullptr), body1, body2);
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  pose(body1, I, -anchor1);
  if (body2 >= 0) pose(body2, I, -anchor2);
  dJointSetBallAnchor(j, 0, 0, 0);
  if (body2 < 0) dJointSetBallAnchor2(j, anchor2.x(), anchor2.y(), anchor2.z());
  joints_.push_back(Joint{name, JointKind::ball, j, body1, body2, anchor1, anchor2});
}

void Mechanism::set_softness(double erp, double cfm) {
  if (!(erp >= 0) || !std::isfinite(erp)) throw InputError("erp", "must be a number ≥ 0");
  if (!(cfm > 0) || !std::isfinite(cfm))
    throw InputError("cfm", "must be a positive number (with CFM = 0 a redundant row makes ODE's A singular)");
  dWorldSetERP(world_, erp);
  dWorldSetCFM(world_, cfm);
  for (const Joint& j : joints_)
    if (j.kind == JointKind::ball) {
      dJointSetBallParam(j.id, dParamERP, erp);
      dJointSetBallParam(j.id, dParamCFM, cfm);
    }
}

std::vector<BodyState> Mechanism::state() const {
  std::vector<BodyState> out;
  for (dBodyID b : bodies_)
    out.push_back(BodyState{vec3(dBodyGetPosition(b)), vec3(dBodyGetLinearVel(b)), vec3(dBodyGetAngularVel(b)),
                            from_ode(dBodyGetRotation(b))});
  return out;
}

void Mechanism::set_state(const std::vector<BodyState>& s) {
  if (s.size() != bodies_.size())
    throw InputError("state", std::to_string(s.size()) + " bodies, the mechanism has " + std::to_string(bodies_.size()));
  for (std::size_t i = 0; i < s.size(); ++i) {
    pose(int(i), s[i].rotation, s[i].position);
    const Eigen::Vector3d& v = s[i].linear_velocity;
    const Eigen::Vector3d& w = s[i].angular_velocity;
    dBodySetLinearVel(bodies_[i], v.x(), v.y(), v.z());
    dBodySetAngularVel(bodies_[i], w.x(), w.y(), w.z());
  }
}

Vector<double> Mechanism::velocities() const {
  Vector<double> u(n());
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    u.segment<3>(6 * Index(i)) = vec3(dBodyGetLinearVel(bodies_[i]));
    u.segment<3>(6 * Index(i) + 3) = vec3(dBodyGetAngularVel(bodies_[i]));
  }
  return u;
}

void Mechanism::set_velocities(const Vector<double>& u) {
  if (u.size() != n()) throw InputError("u", std::to_string(u.size()) + " entries, the mechanism " + std::to_string(n()));
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Index o = 6 * Index(i);
    dBodySetLinearVel(bodies_[i], u(o), u(o + 1), u(o + 2));
    dBodySetAngularVel(bodies_[i], u(o + 3), u(o + 4), u(o + 5));
  }
}

// The feedback storage is zeroed first: ODE writes f₂, t₂ only for a joint
// with a second body (step.cpp l.458–505), and nothing for a joint whose
// rows it skipped.
void Mechanism::step(const StepOptions& options) {
  std::memset(feedback_.data(), 0, feedback_.size() * sizeof(dJointFeedback));
  int ok = 0;
  if (options.stepper == Stepper::quick_step) {
    if (options.quick_iterations > 0) dWorldSetQuickStepNumIterations(world_, options.quick_iterations);
    if (options.quick_w > 0) dWorldSetQuickStepW(world_, options.quick_w);
    dRandSetSeed(options.seed);
    ok = dWorldQuickStep(world_, h_);
  } else {
    ok = dWorldStep(world_, h_);
  }
  if (ok == 0) throw MethodError("ODE: the step failed (it could not allocate its working memory)");
  time_ += h_;
}

std::vector<BodyState> moved(const std::vector<BodyState>& from, const Vector<double>& u, double t) {
  if (u.size() != 6 * Index(from.size()))
    throw InputError("u", std::to_string(u.size()) + " entries for " + std::to_string(from.size()) + " bodies");
  std::vector<BodyState> out = from;
  for (std::size_t i = 0; i < from.size(); ++i) {
    const Eigen::Vector3d v = u.segment<3>(6 * Index(i)), w = u.segment<3>(6 * Index(i) + 3);
    out[i].position = from[i].position + t * v;
    const double angle = t * w.norm();
    if (angle != 0) out[i].rotation = Eigen::AngleAxisd(angle, w.normalized()).toRotationMatrix() * from[i].rotation;
  }
  return out;
}

Defaults defaults(const Mechanism& m) {
  Defaults d{};
  d.erp = dWorldGetERP(m.world());
  d.cfm = dWorldGetCFM(m.world());
  d.quick_iterations = dWorldGetQuickStepNumIterations(m.world());
  d.quick_w = dWorldGetQuickStepW(m.world());
  d.auto_disable = dWorldGetAutoDisableFlag(m.world()) != 0;
  d.gyroscopic = !m.bodies().empty();
  for (dBodyID b : m.bodies()) d.gyroscopic = d.gyroscopic && dBodyGetGyroscopicMode(b) != 0;
  if (!m.bodies().empty()) {
    d.linear_damping = dBodyGetLinearDamping(m.bodies()[0]);
    d.angular_damping = dBodyGetAngularDamping(m.bodies()[0]);
    d.max_angular_speed = dBodyGetMaxAngularSpeed(m.bodies()[0]);
  }
  d.lo_stop = d.hi_stop = d.fmax = std::nan("");
  for (const Joint& j : m.joints())
    if (j.kind == JointKind::hinge) {
      d.lo_stop = dJointGetHingeParam(j.id, dParamLoStop);
      d.hi_stop = dJointGetHingeParam(j.id, dParamHiStop);
      d.fmax = dJointGetHingeParam(j.id, dParamFMax);
      break;
    }
  d.configuration = dGetConfiguration();
  return d;
}

}  // namespace femc::engines::ode
