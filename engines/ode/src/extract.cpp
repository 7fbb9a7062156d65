// The rows, masses and forces ODE's step computes with, rebuilt; ODE's
// answer; the soft problem as femc solves it; the error law of the step.
#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <limits>

#include "femc/engines/ode.hpp"
#include "femc/errors.hpp"
#include "femc/io/system_text.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::engines::ode {
namespace {

constexpr double kU = 0x1p-53;  // unit roundoff of double
double gamma_k(double k) { return k * kU / (1 - k * kU); }

using Vec3 = Eigen::Vector3d;
Vec3 vec3(const dReal* x) { return Vec3(x[0], x[1], x[2]); }
void to_ode(const Vec3& x, dVector3 out) {
  out[0] = x.x();
  out[1] = x.y();
  out[2] = x.z();
  out[3] = 0;
}
Eigen::Matrix3d mat3(const dReal* R) {
  Eigen::Matrix3d out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out(i, j) = R[4 * i + j];
  return out;
}
// The pattern of −[a]× (dSetCrossMatrixMinus): which entries a's components
// occupy, with those components' magnitudes.
Eigen::Matrix3d cross_pattern(const Vec3& a) {
  Eigen::Matrix3d out;
  out << 0, a.z(), a.y(), a.z(), 0, a.x(), a.y(), a.x(), 0;
  return out;
}

// ODE adds a limit or motor row to a hinge when it has a motor (fmax > 0) or
// stops within ±π that it may reach (hinge.cpp l.54–74).
void require_plain_hinge(const Joint& j) {
  const double lo = dJointGetHingeParam(j.id, dParamLoStop), hi = dJointGetHingeParam(j.id, dParamHiStop);
  const double fmax = dJointGetHingeParam(j.id, dParamFMax);
  if (((lo >= -M_PI || hi <= M_PI) && lo <= hi) || fmax > 0)
    throw InputError(j.name, "has stops or a motor (dParamLoStop, dParamHiStop, dParamFMax): ODE adds a row the "
                             "adapter does not rebuild");
}

// The adapter's world point against ODE's getter: equal unless the two
// compilers round R·anchor + p differently.
void require_same(const Joint& j, const char* what, const dReal* ours, const dReal* odes, double scale) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(ours[k] - odes[k]) > 4 * gamma_k(4) * scale)
      throw MethodError("ODE: " + j.name + "'s " + what + " is " + std::to_string(odes[k]) + ", not where its stored "
                        "geometry as the adapter recorded it puts it (" + std::to_string(ours[k]) + ")");
}

Vector<double> magnitude(const Vector<double>& x) { return x.cwiseAbs(); }

}  // namespace

Rows rows(const Mechanism& mech) {
  const std::vector<Joint>& joints = mech.joints();
  Index m = 0;
  for (const Joint& j : joints) m += j.kind == JointKind::hinge ? 5 : 3;
  const Index n = mech.n();
  Rows r;
  r.J = Matrix<double>::Zero(m, n);
  r.J_rounding = Matrix<double>::Zero(m, n);
  r.e = r.erp = r.cfm = r.Jdot_u = r.e_rounding = Vector<double>::Zero(m);
  const double world_erp = dWorldGetERP(mech.world()), world_cfm = dWorldGetCFM(mech.world());
  Index row = 0;
  for (const Joint& j : joints) {
    const bool hinge = j.kind == JointKind::hinge;
    if (hinge) require_plain_hinge(j);
    const Index count = hinge ? 5 : 3;
    r.joints.push_back({row, count, j.body1, j.body2});
    const dBodyID b1 = mech.bodies()[std::size_t(j.body1)];
    const dBodyID b2 = j.body2 >= 0 ? mech.bodies()[std::size_t(j.body2)] : nullptr;
    const Index c1 = 6 * Index(j.body1), c2 = 6 * Index(j.body2);
    const dReal* p1 = dBodyGetPosition(b1);
    const dReal* R1 = dBodyGetRotation(b1);
    const Vec3 w1 = vec3(dBodyGetAngularVel(b1));
    const dReal* p2 = b2 ? dBodyGetPosition(b2) : nullptr;
    const dReal* R2 = b2 ? dBodyGetRotation(b2) : nullptr;
    const Vec3 w2 = b2 ? vec3(dBodyGetAngularVel(b2)) : Vec3(Vec3::Zero());

    // The ball part, as setBall forms it (joint.cpp l.111–157).
    dVector3 anchor1, anchor2, a1, a2 = {0, 0, 0, 0};
    to_ode(j.anchor1, anchor1);
    to_ode(j.anchor2, anchor2);
    dMultiply0_331(a1, R1, anchor1);
    if (b2) dMultiply0_331(a2, R2, anchor2);
    {  // ODE's getters (getAnchor, getAnchor2: joint.cpp l.363–392) against the same numbers
      dVector3 g1, g2, ours1, ours2;
      if (hinge) {
        dJointGetHingeAnchor(j.id, g1);
        dJointGetHingeAnchor2(j.id, g2);
      } else {
        dJointGetBallAnchor(j.id, g1);
        dJointGetBallAnchor2(j.id, g2);
      }
      for (int k = 0; k < 3; ++k) {
        ours1[k] = a1[k] + p1[k];
        ours2[k] = b2 ? a2[k] + p2[k] : anchor2[k];
      }
      require_same(j, "anchor", ours1, g1, vec3(a1).cwiseAbs().maxCoeff() + vec3(p1).cwiseAbs().maxCoeff());
      require_same(j, "second anchor", ours2, g2,
                   b2 ? vec3(a2).cwiseAbs().maxCoeff() + vec3(p2).cwiseAbs().maxCoeff() : 0.0);
    }
    double J1a[9] = {0}, J2a[9] = {0};
    dSetCrossMatrixMinus(J1a, a1, 3);
    if (b2) dSetCrossMatrixPlus(J2a, a2, 3);
    const double erp = hinge ? world_erp : dJointGetBallParam(j.id, dParamERP);
    const double cfm = hinge ? world_cfm : dJointGetBallParam(j.id, dParamCFM);
    const Eigen::Matrix3d absR1 = mat3(R1).cwiseAbs();
    const Vec3 arm1_rounding = 2 * gamma_k(3) * absR1 * j.anchor1.cwiseAbs();
    const Vec3 arm2_rounding =
        b2 ? Vec3(2 * gamma_k(3) * mat3(R2).cwiseAbs() * j.anchor2.cwiseAbs()) : Vec3(Vec3::Zero());
    const Vec3 va1 = vec3(a1), va2 = vec3(a2);
    const Vec3 jdot = w1.cross(w1.cross(va1)) - w2.cross(w2.cross(va2));
    for (int k = 0; k < 3; ++k) {
      const Index i = row + k;
      r.J(i, c1 + k) = 1;
      for (int c = 0; c < 3; ++c) r.J(i, c1 + 3 + c) = J1a[3 * k + c];
      r.J_rounding.row(i).segment<3>(c1 + 3) = cross_pattern(arm1_rounding).row(k);
      if (b2) {
        r.J(i, c2 + k) = -1;
        for (int c = 0; c < 3; ++c) r.J(i, c2 + 3 + c) = J2a[3 * k + c];
        r.J_rounding.row(i).segment<3>(c2 + 3) = cross_pattern(arm2_rounding).row(k);
      }
      // setBall's right-hand side without its factor k = ERP/h, evaluated in
      // its order (l.144, l.153).
      r.e(i) = b2 ? a2[k] + p2[k] - a1[k] - p1[k] : anchor2[k] - a1[k] - p1[k];
      r.e_rounding(i) = 2 * gamma_k(4) *
                        (std::abs(a1[k]) + std::abs(p1[k]) + std::abs(a2[k]) + (b2 ? std::abs(p2[k]) : std::abs(anchor2[k])));
      r.Jdot_u(i) = jdot(k);
      r.erp(i) = erp;
      r.cfm(i) = cfm;
    }

    if (hinge) {  // the two angular rows (hinge.cpp l.93–141)
      dVector3 axis1, axis2, ax1, ax2, p, q, b;
      to_ode(j.axis1, axis1);
      to_ode(j.axis2, axis2);
      dMultiply0_331(ax1, R1, axis1);
      {
        dVector3 g;
        dJointGetHingeAxis(j.id, g);  // getAxis, joint.cpp l.395–402
        require_same(j, "axis", ax1, g, 1.0);
      }
      dPlaneSpace(ax1, p, q);
      if (b2) {
        dMultiply0_331(ax2, R2, axis2);
      } else {
        for (int k = 0; k < 4; ++k) ax2[k] = axis2[k];
      }
      dCalcVectorCross3(b, ax1, ax2);
      const dReal* pq[2] = {p, q};
      for (int s = 0; s < 2; ++s) {
        const Index i = row + 3 + s;
        const Vec3 d = vec3(pq[s]);
        r.J.row(i).segment<3>(c1 + 3) = d.transpose();
        r.J_rounding.row(i).segment<3>(c1 + 3).setConstant(4 * gamma_k(3));
        if (b2) {
          r.J.row(i).segment<3>(c2 + 3) = -d.transpose();
          r.J_rounding.row(i).segment<3>(c2 + 3).setConstant(4 * gamma_k(3));
        }
        r.e(i) = dCalcVectorDot3(b, pq[s]);
        r.e_rounding(i) = 2 * gamma_k(6) * 3;
        // The row p·(ω₁ − ω₂) with p turning with body 1 (ṗ = ω₁ × p):
        // d/dt (J u) at constant u. On the velocity constraints (ω₁ − ω₂
        // along the axis) it does not depend on how p turns.
        r.Jdot_u(i) = w1.cross(d).dot(w1 - w2);
        r.erp(i) = world_erp;
        r.cfm(i) = world_cfm;
      }
    }
    row += count;
  }
  return r;
}

Extracted extract(Mechanism& mech, const StepOptions& options) {
  Extracted e;
  e.h = mech.step_size();
  e.rows = rows(mech);
  const Index n = mech.n();
  e.v = mech.velocities();
  e.M = e.Minv = e.Minv_rounding = Matrix<double>::Zero(n, n);
  e.f = e.f_rounding = e.Q = e.gyroscopic_gap = Vector<double>::Zero(n);
  dVector3 gravity;
  dWorldGetGravity(mech.world(), gravity);
  for (std::size_t bi = 0; bi < mech.bodies().size(); ++bi) {
    const dBodyID b = mech.bodies()[bi];
    const Index o = 6 * Index(bi);
    dMass mass;
    dBodyGetMass(b, &mass);
    const dReal* R = dBodyGetRotation(b);
    const dReal* w = dBodyGetAngularVel(b);
    const dReal* facc = dBodyGetForce(b);   // the accumulators before the step (forces a user added)
    const dReal* tacc = dBodyGetTorque(b);
    const Eigen::Matrix3d Rm = mat3(R), Ib = mat3(mass.I);

    e.M.block<3, 3>(o, o) = mass.mass * Eigen::Matrix3d::Identity();
    e.M.block<3, 3>(o + 3, o + 3) = Rm * Ib * Rm.transpose();

    // ODE's M⁻¹: invMass = 1/m, invI by dInvertPDMatrix from mass.I
    // (dBodySetMass, ode.cpp l.498–502), turned to the world as step.cpp
    // l.637–638 turns it.
    dMatrix3 invI = {0}, tmp = {0}, invIw = {0};
    if (dInvertPDMatrix(mass.I, invI, 3) == 0) dRSetIdentity(invI);
    dMultiply2_333(tmp, invI, R);
    dMultiply0_333(invIw, R, tmp);
    const double invMass = dRecip(mass.mass);
    e.Minv.block<3, 3>(o, o) = invMass * Eigen::Matrix3d::Identity();
    e.Minv.block<3, 3>(o + 3, o + 3) = mat3(invIw);
    e.Minv_rounding.block<3, 3>(o + 3, o + 3) =
        2 * gamma_k(6) * Rm.cwiseAbs() * mat3(invI).cwiseAbs() * Rm.cwiseAbs().transpose();

    // Gravity into the force accumulator (step.cpp l.595–620).
    const bool gravity_on = dBodyGetGravityMode(b) != 0;
    for (int k = 0; k < 3; ++k) {
      const double fk = gravity_on && gravity[k] != 0 ? facc[k] + mass.mass * gravity[k] : facc[k];
      e.f(o + k) = fk;
      e.Q(o + k) = fk;
    }
    // The world inertia and the angular momentum, as l.646–656 form them.
    dMatrix3 Iw = {0}, tmp2 = {0};
    dMultiply2_333(tmp2, mass.I, R);
    dMultiply0_333(Iw, R, tmp2);
    dVector3 L = {0, 0, 0, 0};
    dMultiply0_331(L, Iw, w);
    const Vec3 explicit_gyro = -vec3(w).cross(vec3(L));  // −ω × (I ω)
    Vec3 ode_gyro = Vec3::Zero();
    if (dBodyGetGyroscopicMode(b) != 0 && invMass > 0) {
      // The implicit gyroscopic torque (l.642–706; Lacoursière 2006).
      const double h = e.h;
      dMatrix3 Itild = {0};
      dSetCrossMatrixMinus(Itild, L, 4);
      for (int ii = 0; ii < 12; ++ii) Itild[ii] = Itild[ii] * h + Iw[ii];
      dVector3 Lh = {L[0], L[1], L[2], 0};
      dScaleVector3(Lh, dRecip(h));
      dMatrix3 itInv = {0};
      if (dInvertMatrix3(itInv, Itild) != 0) {
        dMatrix3 T = {0};
        dMultiply0_333(T, Iw, itInv);
        T[0] -= 1;
        T[5] -= 1;
        T[10] -= 1;
        dVector3 tau0 = {0, 0, 0, 0};
        dMultiply0_331(tau0, T, Lh);
        ode_gyro = vec3(tau0);
        // Should the compilers round these differently: the inverse's
        // first-order error |Ĩ⁻¹||ΔĨ||Ĩ⁻¹|, the products and the
        // subtraction, at twice their bounds.
        const Eigen::Matrix3d A = mat3(Iw).cwiseAbs(), B = mat3(itInv).cwiseAbs(), C = mat3(Itild).cwiseAbs();
        e.f_rounding.segment<3>(o + 3) =
            2 * gamma_k(12) * (A * B * C * B + A * B + Eigen::Matrix3d::Identity()) * vec3(Lh).cwiseAbs();
      }
    }
    for (int k = 0; k < 3; ++k) {
      e.f(o + 3 + k) = tacc[k] + ode_gyro(k);
      e.Q(o + 3 + k) = tacc[k] + explicit_gyro(k);
      e.gyroscopic_gap(o + 3 + k) = ode_gyro(k) - explicit_gyro(k);
    }
  }

  mech.step(options);

  e.v_next = mech.velocities();
  e.accel = (e.v_next - e.v) / e.h;
  const Rows& r = e.rows;
  e.force = Vector<double>::Zero(n);
  e.lambda = Vector<double>::Zero(r.J.rows());
  e.lambda_residual = Vector<double>::Zero(Index(mech.joints().size()));
  for (std::size_t ji = 0; ji < mech.joints().size(); ++ji) {
    const Joint& j = mech.joints()[ji];
    const dJointFeedback& fb = mech.feedback(ji);
    e.feedback.push_back(fb);
    const Index c1 = 6 * Index(j.body1);
    Vector<double> y(6);
    y << fb.f1[0], fb.f1[1], fb.f1[2], fb.t1[0], fb.t1[1], fb.t1[2];
    e.force.segment<6>(c1) += y;
    if (j.body2 >= 0) {
      Vector<double> y2(6);
      y2 << fb.f2[0], fb.f2[1], fb.f2[2], fb.t2[0], fb.t2[1], fb.t2[2];
      e.force.segment<6>(6 * Index(j.body2)) += y2;
    }
    // (f₁, t₁) = J₁ᵀλ over the joint's rows: λ by least squares (6 equations,
    // 3 or 5 unknowns; the residual is the part J₁ cannot explain).
    const Rows::JointRows& jr = r.joints[ji];
    const Matrix<double> J1t = r.J.block(jr.first, c1, jr.count, 6).transpose();
    const Vector<double> lambda = Eigen::ColPivHouseholderQR<Matrix<double>>(J1t).solve(y);
    e.lambda.segment(jr.first, jr.count) = lambda;
    e.lambda_residual(Index(ji)) = (J1t * lambda - y).lpNorm<Eigen::Infinity>();
  }
  return e;
}

Vector<double> target(const Extracted& e) {
  const Rows& r = e.rows;
  return Vector<double>(r.erp.cwiseProduct(r.e) / (e.h * e.h) - r.J * e.v / e.h);
}

System<rational> augmented(const Extracted& e) {
  const Rows& r = e.rows;
  const Index n = e.M.rows(), m = r.J.rows();
  auto q = [](double x) { return rational(x); };  // exact
  System<rational> s;
  s.M = Matrix<rational>::Zero(n + m, n + m);
  for (Index o = 0; o < n; o += 6) {
    for (Index k = 0; k < 3; ++k) s.M(o + k, o + k) = rational(1) / q(e.Minv(o + k, o + k));
    Eigen::Matrix<rational, 3, 3> B;  // Minv's angular block, its symmetric part
    for (Index i = 0; i < 3; ++i)
      for (Index j = 0; j < 3; ++j) B(i, j) = (q(e.Minv(o + 3 + i, o + 3 + j)) + q(e.Minv(o + 3 + j, o + 3 + i))) / 2;
    // Its inverse by cofactors, exactly.
    Eigen::Matrix<rational, 3, 3> C;
    C(0, 0) = B(1, 1) * B(2, 2) - B(1, 2) * B(2, 1);
    C(0, 1) = B(1, 2) * B(2, 0) - B(1, 0) * B(2, 2);
    C(0, 2) = B(1, 0) * B(2, 1) - B(1, 1) * B(2, 0);
    C(1, 0) = B(0, 2) * B(2, 1) - B(0, 1) * B(2, 2);
    C(1, 1) = B(0, 0) * B(2, 2) - B(0, 2) * B(2, 0);
    C(1, 2) = B(0, 1) * B(2, 0) - B(0, 0) * B(2, 1);
    C(2, 0) = B(0, 1) * B(1, 2) - B(0, 2) * B(1, 1);
    C(2, 1) = B(0, 2) * B(1, 0) - B(0, 0) * B(1, 2);
    C(2, 2) = B(0, 0) * B(1, 1) - B(0, 1) * B(1, 0);
    const rational det = B(0, 0) * C(0, 0) + B(0, 1) * C(0, 1) + B(0, 2) * C(0, 2);
    if (det <= 0) throw MethodError("ODE: a body's inverse inertia is not positive definite");
    for (Index i = 0; i < 3; ++i)
      for (Index j = 0; j < 3; ++j) s.M(o + 3 + i, o + 3 + j) = C(j, i) / det;  // adj(B) = Cᵀ
  }
  s.A = Matrix<rational>::Zero(m, n + m);
  s.Q = Vector<rational>::Zero(n + m);
  for (Index i = 0; i < n; ++i) s.Q(i) = q(e.f(i));
  const rational h = q(e.h);
  for (Index i = 0; i < m; ++i) {
    rational Jv = 0;
    for (Index k = 0; k < n; ++k) {
      s.A(i, k) = q(r.J(i, k));
      if (r.J(i, k) != 0) Jv += s.A(i, k) * q(e.v(k));
    }
    s.A(i, n + i) = -1;
    const rational D = h / q(r.cfm(i));
    const rational aref = q(r.erp(i)) * q(r.e(i)) / (h * h) - Jv / h;
    s.M(n + i, n + i) = D;
    s.Q(n + i) = D * aref;
  }
  s.b = Vector<rational>::Zero(m);
  s.C = Vector<rational>::Zero(n + m);
  s.W = Matrix<rational>::Identity(m, m);
  return s;
}

SoftSolution solve_soft(const Extracted& e) {
  const Index n = e.M.rows(), m = e.rows.J.rows();
  const System<rational> exact = augmented(e);
  MpfrPrecision bits(256);
  const System<mpfr_real> sys = prop::convert<mpfr_real>(exact);
  // The data at face value: [J −I] has full row rank, so there is no rank to
  // decide at the data's precision, and M is exactly symmetric; judged at
  // double's precision instead, M's definiteness test (k·u·‖M‖_F·‖M⁻¹‖₁ < 1,
  // system.hpp) would refuse a small CFM (‖M‖_F ≥ h/cfm).
  const Solution<mpfr_real> sol = solve(sys, Options<mpfr_real>{});
  SoftSolution out;
  out.accel.resize(n);
  out.force.resize(n);
  out.lambda.resize(m);
  for (Index i = 0; i < n; ++i) {
    out.accel(i) = sol.qdd(i).toDouble();
    out.force(i) = sol.Qc(i).toDouble();  // the first n entries of M q̈ − Q: Jᵀλ
  }
  for (Index i = 0; i < m; ++i) out.lambda(i) = sol.lambda(i).toDouble();
  return out;
}

StepBound step_bound(const Extracted& e, const SoftSolution& x) {
  const Rows& r = e.rows;
  const Matrix<double>& J = r.J;
  const Index n = J.cols(), m = J.rows();
  const double h = e.h, inf = std::numeric_limits<double>::infinity();
  Matrix<double> JMJ = J * e.Minv * J.transpose();
  JMJ.diagonal() += r.cfm / h;
  // Out of place: `A = (A + A.transpose()) / 2` aliases in Eigen (the lower
  // triangle came out right, the upper did not; LLT reads only the lower).
  const Matrix<double> A = (JMJ + JMJ.transpose()) / 2;
  const Eigen::LLT<Matrix<double>> llt(A);
  if (llt.info() != Eigen::Success) return {inf, inf};
  const Matrix<double> Ainv = llt.solve(Matrix<double>::Identity(m, m));
  const Matrix<double> K = J.transpose() * Ainv;                 // Jᵀ A⁻¹
  const Matrix<double> G = e.Minv * K;                           // M⁻¹ Jᵀ A⁻¹
  const Matrix<double> IGJ = Matrix<double>::Identity(n, n) - G * J;
  const Matrix<double> P = IGJ * e.Minv;                         // M⁻¹ − G J M⁻¹
  const Matrix<double> absJ = J.cwiseAbs(), absMinv = e.Minv.cwiseAbs(), absL = Matrix<double>(llt.matrixL()).cwiseAbs();
  const Matrix<double> absG = G.cwiseAbs(), absK = K.cwiseAbs(), absP = P.cwiseAbs();
  const Vector<double> lam = magnitude(x.lambda), a = magnitude(x.accel), v = magnitude(e.v), f = magnitude(e.f);
  const Matrix<double>& dJ = r.J_rounding;
  // M⁻¹'s part the exact problem does not carry: the rebuild's rounding and
  // the asymmetric part of ODE's R·invI·Rᵀ (augmented() uses the symmetric).
  const Matrix<double> dMinv = e.Minv_rounding + (e.Minv - e.Minv.transpose()).cwiseAbs() / 2;

  // ODE's own rounding: forming A (γ₁₆: JM⁻¹ then the sums over the
  // bodies, MultiplyAddJinvMxJToA) and its LDLᵀ (γ_{3m+1}|L||D||Lᵀ| =
  // γ_{3m+1}|L̃||L̃|ᵀ, L̃ the Cholesky factor); forming the right-hand side
  // (c/h − J(v/h + M⁻¹f), γ₁₆); the rebuild's rounding of e.
  const Matrix<double> dA = gamma_k(16) * absJ * absMinv * absJ.transpose() + gamma_k(3 * double(m) + 1) * absL * absL.transpose();
  const Vector<double> dr = gamma_k(16) * (r.erp.cwiseProduct(magnitude(r.e)) / (h * h) + absJ * (v / h + absMinv * f)) +
                            r.erp.cwiseProduct(r.e_rounding) / (h * h);
  const Vector<double> solve_err = dA * lam + dr;
  const Vector<double> F = f + absJ.transpose() * lam;
  // The data the adapter rebuilt, should it differ from ODE's: through the
  // exact solution's sensitivities (header).
  const Vector<double> data_err = absP * e.f_rounding + IGJ.cwiseAbs() * (dMinv * F) +
                                  absP * (dJ.transpose() * lam) + absG * (dJ * (a + v / h));
  // ODE's velocity update, v⁺ = v + h M⁻¹(f + Jᵀλ), and our (v⁺ − v)/h.
  const Vector<double> update = gamma_k(double(m) + 6) * absMinv * F +
                                2 * kU * (magnitude(e.v_next) + v) / h + 2 * kU * a;
  StepBound out;
  out.accel = (absG * solve_err + data_err + update).lpNorm<Eigen::Infinity>();
  const Vector<double> force_data = absK * (absJ * (absMinv * e.f_rounding + dMinv * F)) +
                                    dJ.transpose() * lam + absK * (dJ * (a + v / h) + absJ * (absMinv * (dJ.transpose() * lam)));
  out.force = (absK * solve_err + force_data + gamma_k(double(m)) * absJ.transpose() * lam).lpNorm<Eigen::Infinity>();
  return out;
}

System<double> hard(const Extracted& e) {
  return make_system<double>(e.M, e.rows.J, Vector<double>(-e.rows.Jdot_u), e.Q);
}

FeedbackCheck check_feedback(const Extracted& e) {
  const Rows& r = e.rows;
  FeedbackCheck out;
  double worst = -std::numeric_limits<double>::infinity();  // gap − tolerance
  for (std::size_t ji = 0; ji < r.joints.size(); ++ji) {
    const Rows::JointRows& jr = r.joints[ji];
    const dJointFeedback& fb = e.feedback[ji];
    const Vector<double> lambda = e.lambda.segment(jr.first, jr.count);
    const Matrix<double> J1 = r.J.block(jr.first, 6 * Index(jr.body1), jr.count, 6);
    const Eigen::JacobiSVD<Matrix<double>> svd(J1);
    const double kappa1 = svd.singularValues()(0) / svd.singularValues()(jr.count - 1);
    const double scale = (J1.cwiseAbs().transpose() * lambda.cwiseAbs()).lpNorm<Eigen::Infinity>();
    Vector<double> y1(6);
    y1 << fb.f1[0], fb.f1[1], fb.f1[2], fb.t1[0], fb.t1[1], fb.t1[2];
    const double c = 32 * double(jr.count + 6) * kU * kappa1;
    out.recovery_residual = std::max(out.recovery_residual, (J1.transpose() * lambda - y1).lpNorm<Eigen::Infinity>());
    out.recovery_tolerance = std::max(out.recovery_tolerance, c * (scale + y1.lpNorm<Eigen::Infinity>()));
    if (jr.body2 < 0) continue;
    const Matrix<double> J2 = r.J.block(jr.first, 6 * Index(jr.body2), jr.count, 6);
    Vector<double> y2(6);
    y2 << fb.f2[0], fb.f2[1], fb.f2[2], fb.t2[0], fb.t2[1], fb.t2[2];
    const double gap = (J2.transpose() * lambda - y2).lpNorm<Eigen::Infinity>();
    const double tol =
        c * ((J2.cwiseAbs().transpose() * lambda.cwiseAbs()).lpNorm<Eigen::Infinity>() + y2.lpNorm<Eigen::Infinity>() + scale);
    if (gap - tol > worst) {
      worst = gap - tol;
      out.gap = gap;
      out.tolerance = tol;
    }
  }
  return out;
}

VelocityCheck check_velocity_change(const Extracted& e) {
  const Index m = e.rows.J.rows();
  // Σ|terms| of the force summed from the feedback.
  Vector<double> F_abs = Vector<double>::Zero(e.force.size());
  for (std::size_t ji = 0; ji < e.feedback.size(); ++ji) {
    const Rows::JointRows& jr = e.rows.joints[ji];
    const dJointFeedback& fb = e.feedback[ji];
    for (int side = 0; side < 2; ++side) {
      const int body = side == 0 ? jr.body1 : jr.body2;
      if (body < 0) continue;
      const dReal* f = side == 0 ? fb.f1 : fb.f2;
      const dReal* t = side == 0 ? fb.t1 : fb.t2;
      for (int k = 0; k < 3; ++k) {
        F_abs(6 * Index(body) + k) += std::abs(f[k]);
        F_abs(6 * Index(body) + 3 + k) += std::abs(t[k]);
      }
    }
  }
  const Vector<double> predicted = e.Minv * (e.f + e.force);
  const Vector<double> F = magnitude(e.f) + F_abs;
  const Matrix<double> absMinv = e.Minv.cwiseAbs();
  const Vector<double> tol = gamma_k(double(m) + 6) * absMinv * F + 2 * kU * (magnitude(e.v_next) + magnitude(e.v)) / e.h +
                             2 * kU * magnitude(e.accel) + absMinv * e.f_rounding + e.Minv_rounding * F;
  VelocityCheck out;
  const Vector<double> gap = (e.accel - predicted).cwiseAbs();
  // The coordinate whose gap exceeds its own tolerance most (or comes nearest).
  Index worst = 0;
  (gap - tol).maxCoeff(&worst);
  out.gap = gap(worst);
  out.tolerance = tol(worst);
  return out;
}

std::string to_solve_json(const System<double>& sys, const std::string& name, const std::string& description) {
  SystemText text = to_system_text(sys);  // each double in its round-trip digits
  text.data_precision = "double";
  return system_json(text, name, description);
}

std::string to_solve_json(const System<rational>& sys, const std::string& name, const std::string& description) {
  SystemText text = to_system_text(sys);  // p/q strings, exact
  text.data_precision = "double";
  return system_json(text, name, description);
}

}  // namespace femc::engines::ode
