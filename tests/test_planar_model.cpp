// The planar model layer (lib/include/femc/models/planar.hpp) against the
// positions it describes, at 256-bit MPFR (label mechanisms): A against the
// Jacobian of φ, b against φ̈ along q(t) = q + q̇t + ½q̈t² (φ̈ = A q̈ − b),
// Q against −∇V, point velocities against differences of point positions,
// by central differences of step s = 10⁻²⁰: truncation O(s²) ≈ 10⁻⁴⁰,
// rounding O(u/s) ≈ 10⁻⁵⁷ (first) or O(u/s²) ≈ 10⁻³⁷ (second differences);
// every check is at 10⁻³⁰ on O(1) data, and a wrong term is O(1) (the
// velocity-product terms are shown to be: b = 0 fails). One model exercises
// every joint and force type, with points off the centres of mass and
// bodies joined to the ground on either side.
#include <gtest/gtest.h>

#include <functional>

#include "femc/models/planar.hpp"
#include "femc/solve.hpp"
#include "femc/systems/double_parallelogram.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "support/double_agreement.hpp"
#include "support/convert.hpp"

namespace femc::models {
namespace {

using R = mpfr_real;

R num(const char* text) { return ScalarTraits<R>::parse(text); }
Vec2<R> v2(const char* x, const char* y) { return Vec2<R>(num(x), num(y)); }

// Four bodies: every joint type and force type, on bodies and the ground.
PlanarModel<R> every_kind() {
  PlanarModel<R> m;
  m.name = "every kind";
  m.gravity = v2("0.3", "-9.81");
  m.bodies = {{"a", num("1.5"), num("0.2")}, {"b", num("0.7"), num("0.05")}, {"c", num("2"), num("0.9")},
              {"d", num("0.4"), num("0.01")}};
  auto joint = [](const char* name, PlanarJointType t, int b1, Vec2<R> p1, int b2, Vec2<R> p2) {
    PlanarJoint<R> j;
    j.name = name;
    j.type = t;
    j.body1 = b1;
    j.body2 = b2;
    j.point1 = p1;
    j.point2 = p2;
    return j;
  };
  m.joints.push_back(joint("ground pin", PlanarJointType::Revolute, kGround, v2("0.1", "-0.2"), 0, v2("-0.5", "0.05")));
  m.joints.push_back(joint("pin ab", PlanarJointType::Revolute, 0, v2("0.5", "0.1"), 1, v2("-0.3", "0.02")));
  PlanarJoint<R> slider = joint("slider bc", PlanarJointType::Prismatic, 1, v2("0.3", "-0.05"), 2, v2("0.2", "0.4"));
  slider.axis = v2("0.6", "0.8");
  slider.angle = num("0.25");
  m.joints.push_back(slider);
  PlanarJoint<R> ground_slider = joint("ground slider", PlanarJointType::Prismatic, 3, v2("0.1", "0"), kGround,
                                       v2("1", "2"));
  ground_slider.axis = v2("1", "0.5");
  m.joints.push_back(ground_slider);
  PlanarJoint<R> weld = joint("weld cd", PlanarJointType::Weld, 2, v2("-0.1", "0.3"), 3, v2("0.05", "-0.2"));
  weld.angle = num("-0.7");
  m.joints.push_back(weld);
  PlanarJoint<R> rod = joint("rod", PlanarJointType::Distance, 0, v2("0.2", "0.3"), 2, v2("-0.4", "0.1"));
  rod.length = num("1.3");
  m.joints.push_back(rod);

  PlanarForce<R> motor;
  motor.name = "motor";
  motor.type = PlanarForceType::Torque;
  motor.body1 = 1;
  motor.body2 = 0;
  motor.torque = num("0.033");
  PlanarForce<R> push;
  push.name = "push";
  push.type = PlanarForceType::Force;
  push.body1 = 2;
  push.point1 = v2("0.3", "-0.1");
  push.force = v2("1.5", "-0.4");
  PlanarForce<R> spring;
  spring.name = "spring";
  spring.type = PlanarForceType::Spring;
  spring.body1 = 3;
  spring.point1 = v2("0.2", "0.1");
  spring.body2 = kGround;
  spring.point2 = v2("-0.5", "1.1");
  spring.stiffness = num("4530");
  spring.length = num("0.07785");
  m.forces = {motor, push, spring};
  return m;
}

Vector<R> vec(std::initializer_list<const char*> xs) {
  Vector<R> v(Index(xs.size()));
  Index i = 0;
  for (const char* x : xs) v(i++) = num(x);
  return v;
}

class PlanarModelTest : public ::testing::Test {
 protected:
  MpfrPrecision bits{256};
  R s = num("1e-20");
  R tol = num("1e-30");
  PlanarModel<R> model = every_kind();
  // A state off the constraint manifold (the formulas hold everywhere).
  Vector<R> q = vec({"0.3", "-0.1", "0.7", "1.1", "0.2", "-0.4", "0.5", "0.9", "2.1", "-0.3", "1.4", "0.6"});
  Vector<R> qd = vec({"-1", "0.5", "-0.3", "0.8", "1.2", "2.5", "-0.7", "0.1", "-1.9", "0.4", "0.6", "-2.2"});
  Vector<R> qdd = vec({"0.2", "-0.6", "1.3", "0.1", "-0.4", "0.9", "0.5", "-1.1", "0.3", "0.7", "-0.2", "0.05"});

  Vector<R> path(const Vector<R>& x0, R t) const { return x0 + t * qd + t * t / R(2) * qdd; }
  double worst(const Matrix<R>& X) const { return test::as_double(R(X.cwiseAbs().maxCoeff())); }
};

TEST_F(PlanarModelTest, ValidModelPasses) {
  EXPECT_NO_THROW(validate(model));
  EXPECT_EQ(model.n(), 12);
  EXPECT_EQ(constraint_rows(model), 2 + 2 + 2 + 2 + 3 + 1);
}

TEST_F(PlanarModelTest, JacobianIsTheDerivativeOfTheConstraints) {
  const Matrix<R> A = constraint_jacobian(model, q);
  Matrix<R> J(A.rows(), A.cols());
  for (Index j = 0; j < q.size(); ++j) {
    Vector<R> e = Vector<R>::Zero(q.size());
    e(j) = s;
    J.col(j) = (constraints(model, Vector<R>(q + e)) - constraints(model, Vector<R>(q - e))) / (R(2) * s);
  }
  EXPECT_LE(worst(A - J), test::as_double(tol));
}

// φ̈ = A q̈ − b along q(t); b's velocity-product terms are O(1) here, so
// leaving them out (b = 0) must fail the same check.
TEST_F(PlanarModelTest, RightHandSideGivesTheSecondDerivativeOfTheConstraints) {
  const Vector<R> phi_dd =
      (constraints(model, path(q, s)) - R(2) * constraints(model, q) + constraints(model, path(q, -s))) / (s * s);
  const Vector<R> b = constraint_rhs(model, q, qd);
  const Matrix<R> A = constraint_jacobian(model, q);
  EXPECT_LE(worst(Vector<R>(A * qdd - b - phi_dd)), test::as_double(tol));
  EXPECT_GT(worst(Vector<R>(A * qdd - phi_dd)), 1e-3) << "b = 0 must fail";
  // system_at assembles the same pieces.
  const System<R> sys = system_at(model, q, qd);
  EXPECT_EQ(worst(Matrix<R>(sys.A - A)), 0.0);
  EXPECT_EQ(worst(Vector<R>(sys.b - b)), 0.0);
}

TEST_F(PlanarModelTest, AppliedForceIsMinusTheGradientOfThePotential) {
  const Vector<R> Q = applied_forces(model, q);
  Vector<R> grad(q.size());
  for (Index j = 0; j < q.size(); ++j) {
    Vector<R> e = Vector<R>::Zero(q.size());
    e(j) = s;
    grad(j) = (potential(model, Vector<R>(q + e)) - potential(model, Vector<R>(q - e))) / (R(2) * s);
  }
  EXPECT_LE(worst(Vector<R>(Q + grad)), test::as_double(tol));
  // The check sees a wrong force: the spring's sign flipped.
  PlanarModel<R> wrong = model;
  wrong.forces[2].stiffness = -wrong.forces[2].stiffness;
  EXPECT_GT(worst(Vector<R>(applied_forces(wrong, q) + grad)), 1.0);
}

TEST_F(PlanarModelTest, PointVelocityIsTheDerivativeOfItsPosition) {
  const Vec2<R> offset = v2("0.3", "-0.7");
  for (int body : {0, 2, 3}) {
    const Vec2<R> v = point_velocity(q, qd, body, offset);
    const Vec2<R> d = (point_position(Vector<R>(q + s * qd), body, offset) -
                       point_position(Vector<R>(q - s * qd), body, offset)) / (R(2) * s);
    EXPECT_LE(worst(Vec2<R>(v - d)), test::as_double(tol)) << body;
  }
}

// Contacts: W_N = ∂g_N/∂q, g̈_N = W_N q̈ + W̄_N along q(t), the slip speed
// ẋ_t = W_t q̇ = t̂·ṙ and its rate W_t q̈ + W̄_t, s = −sgn ẋ_t. One contact on
// the floor, one on a tilted line whose normal (3, 4) is not unit (n̂ = (0.6,
// 0.8) exactly), both at points off the centres of mass.
TEST_F(PlanarModelTest, ContactDataIsTheDerivativeOfTheGaps) {
  PlanarModel<R> m = model;
  PlanarContact<R> foot;
  foot.name = "foot";
  foot.body = 0;
  foot.point = v2("-0.4", "0.15");
  foot.friction = num("0.3");
  PlanarContact<R> wall;
  wall.name = "wall";
  wall.body = 2;
  wall.point = v2("0.25", "-0.6");
  wall.origin = v2("1.5", "-0.5");
  wall.normal = v2("3", "4");
  wall.friction = num("0.7");
  m.contacts = {foot, wall};
  EXPECT_NO_THROW(validate(m));
  const contact::ContactData<R> c = contact_data(m, q, qd);
  Matrix<R> J(2, q.size());
  for (Index j = 0; j < q.size(); ++j) {
    Vector<R> e = Vector<R>::Zero(q.size());
    e(j) = s;
    J.col(j) = (contact_gaps(m, Vector<R>(q + e)) - contact_gaps(m, Vector<R>(q - e))) / (R(2) * s);
  }
  EXPECT_LE(worst(Matrix<R>(c.WN - J)), test::as_double(tol));
  const Vector<R> g_dd = (contact_gaps(m, path(q, s)) - R(2) * contact_gaps(m, q) + contact_gaps(m, path(q, -s))) / (s * s);
  EXPECT_LE(worst(Vector<R>(c.WN * qdd + c.WbarN - g_dd)), test::as_double(tol));
  EXPECT_GT(worst(Vector<R>(c.WN * qdd - g_dd)), 1e-3) << "W̄_N = 0 must fail";
  // The slip speed at time t along the path, and its rate.
  auto slip = [&](const R& t) {
    Vector<R> v(2);
    const Vector<R> qt = path(q, t), qdt = qd + t * qdd;
    v(0) = point_velocity(qt, qdt, foot.body, foot.point)(0);
    v(1) = Vec2<R>(num("0.8"), num("-0.6")).dot(point_velocity(qt, qdt, wall.body, wall.point));
    return v;
  };
  EXPECT_LE(worst(Vector<R>(c.Wt * qd - slip(R(0)))), test::as_double(tol));
  const Vector<R> slip_rate = (slip(s) - slip(R(-s))) / (R(2) * s);
  EXPECT_LE(worst(Vector<R>(c.Wt * qdd + c.WbarT - slip_rate)), test::as_double(tol));
  EXPECT_GT(worst(Vector<R>(c.Wt * qdd - slip_rate)), 1e-3) << "W̄_t = 0 must fail";
  for (Index i = 0; i < 2; ++i) EXPECT_EQ(c.s(i), slip(R(0))(i) > R(0) ? R(-1) : R(1)) << i;
  EXPECT_EQ(c.mu(0), foot.friction);
  EXPECT_EQ(c.mu(1), wall.friction);
  // The gap itself: n̂·(r − origin).
  const Vec2<R> r = point_position(q, wall.body, wall.point);
  EXPECT_LE(test::as_double(R(abs(R(contact_gaps(m, q)(1) - (num("0.6") * (r(0) - num("1.5")) +
                                                                    num("0.8") * (r(1) + num("0.5"))))))),
            test::as_double(tol));
}

TEST_F(PlanarModelTest, MassMatrixIsDiagonalInBodyCoordinates) {
  const Matrix<R> M = mass_matrix(model);
  // ½ q̇ᵀ M q̇ = Σ ½ m |ṙ_c|² + ½ I θ̇², ṙ_c the centre of mass's velocity.
  R T(0);
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Vec2<R> vc = point_velocity(q, qd, int(i), Vec2<R>(Vec2<R>::Zero()));
    T += model.bodies[i].mass * vc.squaredNorm() / R(2) +
         model.bodies[i].inertia * qd(3 * Index(i) + 2) * qd(3 * Index(i) + 2) / R(2);
  }
  EXPECT_EQ(test::as_double(R(qd.dot(M * qd) / R(2) - T)), 0.0);
}

// At double, the same formulas evaluated in double agree with the 256-bit
// ones to 64·u relative to the largest entry (support/double_agreement.hpp).
TEST_F(PlanarModelTest, DoubleEvaluatesTheSameModel) {
  PlanarModel<double> md;
  md.gravity = model.gravity.unaryExpr([](const R& x) { return test::as_double(x); });
  for (const auto& b : model.bodies) md.bodies.push_back({b.name, test::as_double(b.mass), test::as_double(b.inertia)});
  auto d2 = [](const Vec2<R>& x) { return Vec2<double>(test::as_double(x(0)), test::as_double(x(1))); };
  for (const auto& j : model.joints)
    md.joints.push_back({j.name, j.type, j.body1, j.body2, d2(j.point1), d2(j.point2), d2(j.axis),
                         test::as_double(j.angle), test::as_double(j.length)});
  for (const auto& f : model.forces)
    md.forces.push_back({f.name, f.type, f.body1, f.body2, d2(f.point1), d2(f.point2), test::as_double(f.torque),
                         d2(f.force), test::as_double(f.stiffness), test::as_double(f.length)});
  Vector<double> qd_d(q.size()), q_d(q.size());
  Vector<R> q_r(q.size()), qd_r(q.size());
  for (Index i = 0; i < q.size(); ++i) {
    q_d(i) = test::as_double(q(i));
    qd_d(i) = test::as_double(qd(i));
    q_r(i) = R(q_d(i));
    qd_r(i) = R(qd_d(i));
  }
  // The 256-bit model with its data rounded to double, as the double model holds it.
  PlanarModel<R> mr = model;
  mr.gravity = md.gravity.cast<R>();
  for (std::size_t i = 0; i < mr.bodies.size(); ++i) {
    mr.bodies[i].mass = R(md.bodies[i].mass);
    mr.bodies[i].inertia = R(md.bodies[i].inertia);
  }
  for (std::size_t i = 0; i < mr.joints.size(); ++i) {
    auto& j = mr.joints[i];
    const auto& jd = md.joints[i];
    j.point1 = jd.point1.cast<R>();
    j.point2 = jd.point2.cast<R>();
    j.axis = jd.axis.cast<R>();
    j.angle = R(jd.angle);
    j.length = R(jd.length);
  }
  for (std::size_t i = 0; i < mr.forces.size(); ++i) {
    auto& f = mr.forces[i];
    const auto& fd = md.forces[i];
    f.point1 = fd.point1.cast<R>();
    f.point2 = fd.point2.cast<R>();
    f.torque = R(fd.torque);
    f.force = fd.force.cast<R>();
    f.stiffness = R(fd.stiffness);
    f.length = R(fd.length);
  }
  test::DoubleAgreement<R> agree("planar model, double against 256 bits");  // support/double_agreement.hpp
  agree.check(constraint_jacobian(md, q_d), constraint_jacobian(mr, q_r), "A");
  agree.check(constraint_rhs(md, q_d, qd_d), constraint_rhs(mr, q_r, qd_r), "b");
  agree.check(constraints(md, q_d), constraints(mr, q_r), "φ");
  agree.check(applied_forces(md, q_d), applied_forces(mr, q_r), "Q");
}

// The hand-derived double parallelogram (systems/double_parallelogram.hpp,
// crank angles and the coupler's centre and angle) rebuilt from bodies and
// joints: three cranks and a coupler, six pins. The coordinates differ (a
// crank's body coordinates are its centre and angle), so the two give the
// same motion, not the same matrices: at a state of the parallelogram
// motion at 256 bits, the cranks' θ̈, the coupler's (ẍ, ÿ, φ̈) and the ideal
// force on the coupler agree to 10⁻⁷⁰, and both find one redundant row
// (rank 5 of 6 by hand, 11 of 12 from the model). A crank's inertia taken
// about its pivot instead of its centre fails five of the checks; the
// coupler only translates on this motion, so its inertia does not enter.
TEST_F(PlanarModelTest, DoubleParallelogramFromBodiesMovesAsTheHandDerivedOne) {
  const R L = num("1.5"), a = num("0.8"), mc = num("2"), mb = num("3"), g = num("9.81");
  const systems::DoubleParallelogram<R> hand{L, a, mc, mb, g};
  const R theta = num("0.7"), omega = num("-1.3");
  Vector<R> qh, qdh;
  hand.parallelogram_state(theta, omega, qh, qdh);
  const Solution<R> sh = solve(hand.at(qh, qdh));

  PlanarModel<R> m;
  m.gravity = Vec2<R>(R(0), R(-g));
  Vector<R> q(12), qd(12);
  const Vec2<R> e(cos(theta), sin(theta)), n(-sin(theta), cos(theta));
  for (int i = 0; i < 3; ++i) {
    m.bodies.push_back({"crank" + std::to_string(i), mc, R(mc * L * L / R(12))});
    const Vec2<R> pivot(R(i) * a, R(0));
    PlanarJoint<R> ground;
    ground.body1 = kGround;
    ground.point1 = pivot;
    ground.body2 = i;
    ground.point2 = Vec2<R>(R(-L / R(2)), R(0));
    PlanarJoint<R> pin;
    pin.body1 = i;
    pin.point1 = Vec2<R>(R(L / R(2)), R(0));
    pin.body2 = 3;
    pin.point2 = Vec2<R>(hand.offset(i), R(0));
    m.joints.push_back(ground);
    m.joints.push_back(pin);
    q.segment<3>(3 * i) << pivot + L / R(2) * e, theta;
    qd.segment<3>(3 * i) << L / R(2) * omega * n, omega;
  }
  m.bodies.push_back({"coupler", mb, hand.coupler_inertia()});
  q.segment<3>(9) = qh.segment<3>(3);
  qd.segment<3>(9) = qdh.segment<3>(3);
  ASSERT_LE(worst(constraints(m, q)), test::as_double(tol));
  const Solution<R> sm = solve(system_at(m, q, qd));
  const double close = 1e-70;
  for (int i = 0; i < 3; ++i) EXPECT_LE(test::as_double(abs(R(sm.qdd(3 * i + 2) - sh.qdd(i)))), close) << i;
  EXPECT_LE(worst(Vector<R>(sm.qdd.segment<3>(9) - sh.qdd.segment<3>(3))), close);
  EXPECT_LE(worst(Vector<R>(sm.QN.segment<3>(9) - sh.QN.segment<3>(3))), close);
  EXPECT_GT(worst(sh.QN), 1.0) << "the pins carry force";
  EXPECT_EQ(sh.diagnostics.rank.rank, 5);
  EXPECT_EQ(sm.diagnostics.rank.rank, 11);
}

TEST_F(PlanarModelTest, BadModelsNameTheItem) {
  auto message = [](const PlanarModel<R>& m) {
    try {
      validate(m);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  PlanarModel<R> m = model;
  m.bodies[1].mass = num("0");
  EXPECT_EQ(message(m), "bodies[1] (b).mass: must be positive, got 0");
  m = model;
  m.bodies[2].inertia = num("-1");
  EXPECT_EQ(message(m), "bodies[2] (c).inertia: must be positive, got -1");
  m = model;
  m.joints[1].body2 = 7;
  EXPECT_EQ(message(m), "joints[1] (pin ab): body 7 does not exist");
  m = model;
  m.joints[1].body2 = 0;
  EXPECT_EQ(message(m), "joints[1] (pin ab): joins body 0 to itself");
  m = model;
  m.joints[0].body2 = kGround;
  EXPECT_EQ(message(m), "joints[0] (ground pin): joins the ground to itself");
  m = model;
  m.joints[2].axis = Vec2<R>::Zero();
  EXPECT_EQ(message(m), "joints[2] (slider bc).axis: is zero");
  m = model;
  m.joints[5].length = num("0");
  EXPECT_EQ(message(m), "joints[5] (rod).length: the distance must be positive, got 0");
  m = model;
  m.forces[2].stiffness = num("-1");
  EXPECT_EQ(message(m), "forces[2] (spring).stiffness: is negative: -1");
  m = model;
  m.forces[0].body1 = kGround;
  EXPECT_EQ(message(m), "forces[0] (motor): body -1 does not exist (a force acts on a body)");
  m = model;
  m.bodies.clear();
  EXPECT_EQ(message(m), "bodies: a model needs at least one body");
}

}  // namespace
}  // namespace femc::models
