// The spatial model layer (lib/include/femc/models/spatial.hpp) at 256-bit
// MPFR (label mechanisms). As for the planar layer (test_planar_model.cpp):
// A against the Jacobian of φ, b against φ̈ along q(t) = q + q̇t + ½q̈t²,
// the conservative Q against −∇V, point velocities against differences of
// positions, by central differences of step s = 10⁻²⁰ (truncation O(s²) ≈
// 10⁻⁴⁰, rounding O(u/s²) ≈ 10⁻³⁷), every check at 10⁻³⁰ on O(1) data, where
// a wrong term is O(1). Then the dynamics, which differences cannot check:
// the Euler-parameter mass and inertial forces of Udwadia and Schutte give
// Euler's equations for a free body, for any J₀; a planar double pendulum
// built in space moves as the planar layer says.
#include <gtest/gtest.h>

#include <Eigen/LU>  // determinant
#include <string>

#include "femc/io/json_spatial_model.hpp"
#include "femc/models/planar.hpp"
#include "femc/models/spatial.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "support/double_agreement.hpp"
#include "support/convert.hpp"

namespace femc::models {
namespace {

using R = mpfr_real;

R num(const char* text) { return ScalarTraits<R>::parse(text); }

// Four bodies, every joint type and force type, points off the centres of
// mass, a full inertia matrix, joints to the ground on either side. The data
// are dyadic, so double holds them exactly.
const char* kEveryKind = R"({
  "kind": "spatial", "name": "every kind", "gravity": ["0.25", "-9.8125", "0.5"],
  "bodies": [
    {"name": "a", "mass": "1.5", "inertia": ["0.25", "0.5", "0.375", "0.0625", "-0.03125", "0.015625"], "position": ["0", "0", "0"]},
    {"name": "b", "mass": "0.75", "inertia": ["0.125", "0.0625", "0.09375"], "position": ["0", "0", "0"]},
    {"name": "c", "mass": "2", "inertia": ["0.5", "0.875", "0.625", "-0.125", "0.0625", "0.25"], "position": ["0", "0", "0"]},
    {"name": "d", "mass": "0.375", "inertia": ["0.03125", "0.046875", "0.0234375"], "position": ["0", "0", "0"]}
  ],
  "joints": [
    {"name": "ball", "type": "spherical", "body1": "ground", "point1": ["0.125", "-0.25", "0.5"], "body2": "a", "point2": ["-0.5", "0.0625", "0.25"]},
    {"name": "hinge ab", "type": "revolute", "body1": "a", "point1": ["0.5", "0.125", "-0.25"], "body2": "b", "point2": ["-0.375", "0", "0.125"],
     "axis1": ["0.5", "0.25", "1"], "axis2": ["1", "0.5", "-0.25"]},
    {"name": "cross bc", "type": "universal", "body1": "b", "point1": ["0.25", "-0.125", "0"], "body2": "c", "point2": ["0", "0.5", "-0.25"],
     "axis1": ["1", "0", "0.5"], "axis2": ["0", "1", "0.25"]},
    {"name": "sleeve", "type": "cylindrical", "body1": "c", "point1": ["0.125", "0.25", "0.5"], "body2": "ground", "point2": ["1", "2", "-0.5"],
     "axis1": ["0", "0.75", "1"], "axis2": ["0.5", "0", "1"]},
    {"name": "slider ad", "type": "prismatic", "body1": "a", "point1": ["0.25", "-0.5", "0"], "body2": "d", "point2": ["0.125", "0.375", "-0.125"],
     "axis1": ["1", "-0.5", "0.25"], "rotation": {"axis": ["1", "2", "2"], "degrees": "30"}},
    {"name": "weld cd", "type": "weld", "body1": "c", "point1": ["-0.125", "0.25", "0"], "body2": "d", "point2": ["0.0625", "-0.25", "0.125"],
     "rotation": {"quaternion": ["0.5", "0.5", "-0.5", "0.5"]}},
    {"name": "rod bd", "type": "distance", "body1": "b", "point1": ["0.25", "0.25", "0"], "body2": "d", "point2": ["-0.5", "0.125", "0.25"], "length": "1.25"}
  ],
  "forces": [
    {"name": "push", "type": "force", "body": "c", "point": ["0.25", "-0.125", "0.5"], "force": ["1.5", "-0.375", "0.25"]},
    {"name": "strut", "type": "spring-damper", "body1": "d", "point1": ["0.125", "0.0625", "0"], "body2": "ground", "point2": ["-0.5", "1.125", "0.25"],
     "stiffness": "4530", "damping": "12.5", "length": "0.078125"}
  ]
})";

template <class S>
SpatialModel<S> every_kind() {
  return to_spatial_model<S>(read_spatial_model_text(kEveryKind));
}

Vector<R> vec(std::initializer_list<const char*> xs) {
  Vector<R> v(Index(xs.size()));
  Index i = 0;
  for (const char* x : xs) v(i++) = num(x);
  return v;
}

class SpatialModelTest : public ::testing::Test {
 protected:
  MpfrPrecision bits{256};
  R s = num("1e-20");
  R tol = num("1e-30");
  SpatialModel<R> model = every_kind<R>();
  // A state off the constraint manifold (the formulas hold everywhere; the
  // Euler parameters are not unit).
  Vector<R> q = vec({"0.3", "-0.1", "0.7", "0.9", "0.2", "-0.4", "0.1",    //
                     "1.1", "0.2", "-0.4", "0.5", "-0.6", "0.3", "0.7",   //
                     "0.5", "0.9", "2.1", "0.2", "0.8", "0.1", "-0.5",    //
                     "-0.3", "1.4", "0.6", "0.6", "0.3", "-0.7", "0.2"});
  Vector<R> qd = vec({"-1", "0.5", "-0.3", "0.4", "-0.2", "0.3", "0.6",   //
                      "0.8", "1.2", "2.5", "-0.7", "0.1", "0.9", "-0.4",  //
                      "-0.7", "0.1", "-1.9", "0.3", "-0.8", "0.2", "0.5",  //
                      "0.4", "0.6", "-2.2", "-0.1", "0.7", "0.3", "-0.6"});
  Vector<R> qdd = vec({"0.2", "-0.6", "1.3", "0.5", "0.1", "-0.9", "0.2",  //
                       "0.1", "-0.4", "0.9", "-0.3", "0.6", "0.2", "0.1",  //
                       "0.5", "-1.1", "0.3", "0.4", "-0.2", "0.7", "0.3",  //
                       "0.7", "-0.2", "0.05", "0.8", "-0.5", "0.1", "0.4"});

  Vector<R> path(const Vector<R>& x0, R t) const { return x0 + t * qd + t * t / R(2) * qdd; }
  static double worst(const Matrix<R>& X) { return test::as_double(R(X.cwiseAbs().maxCoeff())); }
};

TEST_F(SpatialModelTest, ValidModelPasses) {
  EXPECT_NO_THROW(validate(model));
  EXPECT_EQ(model.n(), 28);
  EXPECT_EQ(constraint_rows(model), 4 + 3 + 5 + 4 + 4 + 5 + 6 + 1);
}

TEST_F(SpatialModelTest, JacobianIsTheDerivativeOfTheConstraints) {
  const Matrix<R> A = constraint_jacobian(model, q);
  Matrix<R> J(A.rows(), A.cols());
  for (Index j = 0; j < q.size(); ++j) {
    Vector<R> e = Vector<R>::Zero(q.size());
    e(j) = s;
    J.col(j) = (constraints(model, Vector<R>(q + e)) - constraints(model, Vector<R>(q - e))) / (R(2) * s);
  }
  EXPECT_LE(worst(A - J), test::as_double(tol));
  EXPECT_GT(worst(A), 0.5);
}

// φ̈ = A q̈ − b along q(t); b's velocity-product terms are O(1) here, so
// leaving them out (b = 0) must fail the same check.
TEST_F(SpatialModelTest, RightHandSideGivesTheSecondDerivativeOfTheConstraints) {
  const Vector<R> phi_dd =
      (constraints(model, path(q, s)) - R(2) * constraints(model, q) + constraints(model, path(q, -s))) / (s * s);
  const Vector<R> b = constraint_rhs(model, q, qd);
  const Matrix<R> A = constraint_jacobian(model, q);
  EXPECT_LE(worst(Vector<R>(A * qdd - b - phi_dd)), test::as_double(tol));
  EXPECT_GT(worst(Vector<R>(A * qdd - phi_dd)), 1e-2) << "b = 0 must fail";
  const System<R> sys = system_at(model, q, qd);
  EXPECT_EQ(worst(Matrix<R>(sys.A - A)), 0.0);
  EXPECT_EQ(worst(Vector<R>(sys.b - b)), 0.0);
}

// At rest (q̇ = 0) neither the inertial terms nor the damper act: Q = −∇V.
TEST_F(SpatialModelTest, ForceAtRestIsMinusTheGradientOfThePotential) {
  const Vector<R> Q = applied_forces(model, q, Vector<R>(Vector<R>::Zero(q.size())));
  Vector<R> grad(q.size());
  for (Index j = 0; j < q.size(); ++j) {
    Vector<R> e = Vector<R>::Zero(q.size());
    e(j) = s;
    grad(j) = (potential(model, Vector<R>(q + e)) - potential(model, Vector<R>(q - e))) / (R(2) * s);
  }
  EXPECT_LE(worst(Vector<R>(Q + grad)), test::as_double(tol));
  SpatialModel<R> wrong = model;
  wrong.forces[1].stiffness = -wrong.forces[1].stiffness;
  EXPECT_GT(worst(Vector<R>(applied_forces(wrong, q, Vector<R>(Vector<R>::Zero(q.size()))) + grad)), 1.0);
}

// The damper's power is −c·ℓ̇²: it only takes energy out.
TEST_F(SpatialModelTest, DamperPowerIsMinusDampingTimesRateSquared) {
  const SpatialForce<R>& f = model.forces[1];
  auto length = [&](const Vector<R>& x) {
    return R((point_position(model, x, f.body2, f.point2) - point_position(model, x, f.body1, f.point1)).norm());
  };
  const R rate = (length(Vector<R>(q + s * qd)) - length(Vector<R>(q - s * qd))) / (R(2) * s);
  const R power = qd.dot(damping_forces(model, q, qd));
  EXPECT_LE(test::as_double(abs(R(power + f.damping * rate * rate))), test::as_double(tol));
  EXPECT_GT(test::as_double(R(f.damping * rate * rate)), 1.0);
}

TEST_F(SpatialModelTest, PointVelocityIsTheDerivativeOfItsPosition) {
  const Vec3<R> offset(num("0.3"), num("-0.7"), num("0.2"));
  for (int body : {0, 2, 3}) {
    const Vec3<R> v = point_velocity(model, q, qd, body, offset);
    const Vec3<R> d = (point_position(model, Vector<R>(q + s * qd), body, offset) -
                       point_position(model, Vector<R>(q - s * qd), body, offset)) / (R(2) * s);
    EXPECT_LE(worst(Vec3<R>(v - d)), test::as_double(tol)) << body;
  }
}

// On |p| = 1 the Euler parameters describe rotations: R(p) orthogonal, ω =
// 2 E ṗ the angular velocity (Ṙ = ω̃ R), ½ q̇ᵀ M q̇ = ½ m|ṙ|² + ½ ω'ᵀ J ω'.
TEST_F(SpatialModelTest, EulerParametersOnTheUnitSphereAreRotations) {
  Quaternion<R> p = q.segment<4>(3).normalized();
  Quaternion<R> pd = qd.segment<4>(3);
  pd -= p * p.dot(pd);  // on the tangent space: pᵀṗ = 0
  const Mat3<R> Rm = rotation_matrix<R>(p);
  EXPECT_LE(worst(Mat3<R>(Rm.transpose() * Rm - Mat3<R>::Identity())), test::as_double(tol));
  EXPECT_LE(test::as_double(abs(R(Rm.determinant() - R(1)))), test::as_double(tol));
  const Mat3<R> Rdot = (rotation_matrix<R>(Quaternion<R>(p + s * pd)) - rotation_matrix<R>(Quaternion<R>(p - s * pd))) /
                       (R(2) * s);
  const Vec3<R> w = angular_velocity<R>(p, pd);
  Mat3<R> wx;
  wx << R(0), -w(2), w(1), w(2), R(0), -w(0), -w(1), w(0), R(0);
  EXPECT_LE(worst(Mat3<R>(Rdot - wx * Rm)), test::as_double(tol));
  EXPECT_LE(worst(Quaternion<R>(quaternion_rate<R>(p, w) - pd)), test::as_double(tol));

  Vector<R> x = q, xd = qd;
  x.segment<4>(3) = p;
  xd.segment<4>(3) = pd;
  const Matrix<R> M = mass_matrix(model, x);
  const Vector<R> v = xd.segment<7>(0);
  const Vec3<R> wb = Rm.transpose() * w;  // ω' in the body frame
  const R T = model.bodies[0].mass * xd.segment<3>(0).squaredNorm() / R(2) + wb.dot(model.bodies[0].inertia * wb) / R(2);
  EXPECT_LE(test::as_double(abs(R(v.dot(M.block(0, 0, 7, 7) * v) / R(2) - T))), test::as_double(tol));
}

// A free body: the FEMC solution with the unit-norm row gives Euler's
// equations J ω̇' + ω' × J ω' = 0 and r̈ = g, and the same p̈ with another J₀
// (Udwadia and Schutte 2010). Leaving out the gyroscopic term fails.
TEST_F(SpatialModelTest, FreeBodyFollowsEulersEquationsForAnyJ0) {
  SpatialModel<R> one;
  one.gravity = model.gravity;
  one.bodies = {model.bodies[2]};  // the full inertia matrix
  Vector<R> x(7), xd(7);
  x << num("0.1"), num("0.2"), num("0.3"), q.segment<4>(14).normalized();
  const Vec3<R> w(num("1.5"), num("-2.25"), num("0.75"));
  xd << num("1"), num("-2"), num("0.5"), quaternion_rate<R>(x.segment<4>(3), w);
  const System<R> sys = system_at(one, x, xd);
  const Solution<R> sol = solve(sys);
  const Vector<R> a = sol.qdd;
  // −4J₀(ṗᵀṗ)p in Q is J₀ p pᵀ p̈ on the unit sphere: the unit-norm row then
  // carries no force (that term is along the row, so the motion alone
  // cannot show it).
  EXPECT_LE(worst(sol.QN), test::as_double(tol));
  const Quaternion<R> p = x.segment<4>(3);
  const Mat3<R> J = one.bodies[0].inertia;
  const Vec3<R> wb = rotation_matrix<R>(p).transpose() * w;
  Eigen::Matrix<R, 3, 4> G;
  G << -p(1), p(0), p(3), -p(2), -p(2), -p(3), p(0), p(1), -p(3), p(2), -p(1), p(0);
  const Vec3<R> wdot = R(2) * G * a.segment<4>(3);  // ω̇' = 2 G p̈ (Ġ ṗ = 0)
  EXPECT_LE(worst(Vec3<R>(J * wdot + wb.cross(Vec3<R>(J * wb)))), test::as_double(tol));
  EXPECT_GT(worst(Vec3<R>(J * wdot)), 0.1) << "the gyroscopic term is not small here";
  EXPECT_LE(worst(Vec3<R>(a.segment<3>(0) - one.gravity)), test::as_double(tol));

  // J₀ → J₀ + 7: M gains 4·7·p pᵀ, Q loses 4·7·(ṗᵀṗ) p; p̈ does not change.
  System<R> other = sys;
  const Quaternion<R> pd = xd.segment<4>(3);
  other.M.block(3, 3, 4, 4) += R(28) * p * p.transpose();
  other.Q.segment<4>(3) -= R(28) * pd.dot(pd) * p;
  EXPECT_LE(worst(Vector<R>(solve(other).qdd - a)), test::as_double(tol));
}

// A double pendulum swinging in the plane z = 0, built with revolute joints
// about z, moves as the planar layer's pendulum: r̈ and ω̇_z = θ̈ agree.
TEST_F(SpatialModelTest, PlanarMechanismBuiltInSpaceMovesAsInThePlane) {
  PlanarModel<R> flat;
  flat.gravity = Vec2<R>(R(0), num("-9.81"));
  flat.bodies = {{"l1", num("2"), num("0.7")}, {"l2", num("1.5"), num("0.3")}};
  PlanarJoint<R> j0, j1;
  j0.body1 = kGround;
  j0.body2 = 0;
  j0.point2 = Vec2<R>(num("-0.5"), R(0));
  j1.body1 = 0;
  j1.point1 = Vec2<R>(num("0.5"), R(0));
  j1.body2 = 1;
  j1.point2 = Vec2<R>(num("-0.4"), R(0));
  flat.joints = {j0, j1};

  SpatialModel<R> space;
  space.gravity = Vec3<R>(R(0), num("-9.81"), R(0));
  for (const auto& b : flat.bodies) {
    const Mat3<R> J = Vec3<R>(num("0.9"), num("0.8"), b.inertia).asDiagonal();  // only J_zz acts
    space.bodies.push_back({b.name, b.mass, J});
  }
  for (const auto& j : flat.joints) {
    SpatialJoint<R> s3;
    s3.type = SpatialJointType::Revolute;
    s3.body1 = j.body1;
    s3.body2 = j.body2;
    s3.point1 = Vec3<R>(j.point1(0), j.point1(1), R(0));
    s3.point2 = Vec3<R>(j.point2(0), j.point2(1), R(0));
    space.joints.push_back(s3);
  }
  // θ₁ = 0.4, θ₂ = −0.9, θ̇₁ = 1.3, θ̇₂ = −0.6: the centres from the joints.
  const R t1 = num("0.4"), t2 = num("-0.9"), w1 = num("1.3"), w2 = num("-0.6");
  Vector<R> qp(6), qdp(6);
  const Vec2<R> c1 = -Vec2<R>(cos(t1), sin(t1)) * j0.point2(0);
  const Vec2<R> e1 = Vec2<R>(cos(t1), sin(t1)), e2 = Vec2<R>(cos(t2), sin(t2));
  const Vec2<R> c2 = c1 + e1 * num("0.5") + e2 * num("0.4");
  const Vec2<R> n1(-sin(t1), cos(t1)), n2(-sin(t2), cos(t2));
  const Vec2<R> v1 = w1 * num("0.5") * n1, v2 = v1 + w1 * num("0.5") * n1 + w2 * num("0.4") * n2;
  qp << c1, t1, c2, t2;
  qdp << v1, w1, v2, w2;
  Vector<R> qs(14), qds(14);
  for (int i = 0; i < 2; ++i) {
    const R th = qp(3 * i + 2), om = qdp(3 * i + 2);
    const Quaternion<R> p = axis_angle<R>(Vec3<R>::UnitZ(), th);
    qs.segment<7>(7 * i) << qp(3 * i), qp(3 * i + 1), R(0), p;
    qds.segment<7>(7 * i) << qdp(3 * i), qdp(3 * i + 1), R(0), quaternion_rate<R>(p, Vec3<R>(R(0), R(0), om));
  }
  ASSERT_LE(worst(constraints(flat, qp)), test::as_double(tol));
  ASSERT_LE(worst(constraints(space, qs)), test::as_double(tol));
  const Vector<R> ap = solve(system_at(flat, qp, qdp)).qdd;
  const Vector<R> as = solve(system_at(space, qs, qds)).qdd;
  for (int i = 0; i < 2; ++i) {
    const Quaternion<R> p = qs.segment<4>(7 * i + 3);
    const Vec3<R> wdot = angular_velocity<R>(p, Quaternion<R>(as.segment<4>(7 * i + 3)));  // ω̇ = 2 E p̈
    EXPECT_LE(worst(Vector<R>(as.segment<2>(7 * i) - ap.segment<2>(3 * i))), test::as_double(tol)) << i;
    EXPECT_LE(test::as_double(abs(R(as(7 * i + 2)))), test::as_double(tol)) << i;
    EXPECT_LE(test::as_double(abs(R(wdot(2) - ap(3 * i + 2)))), test::as_double(tol)) << i;
    EXPECT_LE(worst(Vector<R>(wdot.head<2>())), test::as_double(tol)) << i;
  }
  EXPECT_GT(test::as_double(abs(ap(2))), 0.5);
}

// At double, the same formulas agree with the 256-bit ones to 64·u relative
// to the largest entry (support/double_agreement.hpp; the data are dyadic:
// both hold them exactly; the joints' rotations are computed at each
// precision).
TEST_F(SpatialModelTest, DoubleEvaluatesTheSameModel) {
  const SpatialModel<double> md = every_kind<double>();
  Vector<double> q_d(q.size()), qd_d(q.size());
  Vector<R> q_r(q.size()), qd_r(q.size());
  for (Index i = 0; i < q.size(); ++i) {
    q_d(i) = test::as_double(q(i));
    qd_d(i) = test::as_double(qd(i));
    q_r(i) = R(q_d(i));
    qd_r(i) = R(qd_d(i));
  }
  test::DoubleAgreement<R> agree("spatial model, double against 256 bits");  // support/double_agreement.hpp
  agree.check(constraint_jacobian(md, q_d), constraint_jacobian(model, q_r), "A");
  agree.check(constraint_rhs(md, q_d, qd_d), constraint_rhs(model, q_r, qd_r), "b");
  agree.check(constraints(md, q_d), constraints(model, q_r), "φ");
  agree.check(applied_forces(md, q_d, qd_d), applied_forces(model, q_r, qd_r), "Q");
  agree.check(mass_matrix(md, q_d), mass_matrix(model, q_r), "M");
}

TEST_F(SpatialModelTest, BadModelsNameTheItem) {
  auto message = [](const SpatialModel<R>& m) {
    try {
      validate(m);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  SpatialModel<R> m = model;
  m.bodies[1].mass = num("0");
  EXPECT_EQ(message(m), "bodies[1] (b).mass: must be positive, got 0");
  m = model;
  m.bodies[0].inertia(0, 1) = num("0.75");
  EXPECT_EQ(message(m), "bodies[0] (a).inertia: is not symmetric");
  m = model;
  m.bodies[0].inertia(0, 1) = m.bodies[0].inertia(1, 0) = num("0.75");  // J_xy² > J_xx J_yy
  EXPECT_EQ(message(m), "bodies[0] (a).inertia: is not positive definite");
  m = model;
  m.joints[1].body2 = 7;
  EXPECT_EQ(message(m), "joints[1] (hinge ab): body 7 does not exist");
  m = model;
  m.joints[1].body2 = 0;
  EXPECT_EQ(message(m), "joints[1] (hinge ab): joins body 0 to itself");
  m = model;
  m.joints[1].axis2.setZero();
  EXPECT_EQ(message(m), "joints[1] (hinge ab).axis2: is zero");
  m = model;
  m.joints[4].rotation(0, 0) += num("0.01");
  EXPECT_EQ(message(m), "joints[4] (slider ad).rotation: is not a rotation");
  m = model;
  m.joints[6].length = num("0");
  EXPECT_EQ(message(m), "joints[6] (rod bd).length: the distance must be positive, got 0");
  m = model;
  m.forces[1].damping = num("-1");
  EXPECT_EQ(message(m), "forces[1] (strut).damping: is negative: -1");
}

}  // namespace
}  // namespace femc::models
