// Bricard's mechanism in every engine (Simbody, MuJoCo, ODE, Bullet), against femc's own model file of Simbody's geometry at 256
// bits, where the redundancy is exact (model_files.hpp).
//
// engines/common/…/bricard_model.hpp writes the mechanism as a spatial model
// file in both forms the engines use (the cut link's halves welded: Simbody,
// MuJoCo; one body closed by its second pin: ODE). femc assembles it at 256
// bits itself, by Newton steps on the weld's six rows in the pin angles q
// from the example's angles (minimum-norm steps: femc's solve with M = I,
// rank decided at τ = 1e-40), to |φ|∞ ≤ 1e-70; there the weld's rows have
// rank 5 to 256 bits (the "σ₆/σ₁" check) and the mechanism moves with one degree
// of freedom, as Bricard's geometry does. Every engine is then put at q*
// rounded to double (Simbody's Q, MuJoCo's qpos, ODE's body poses from x(q*)),
// so that the engines' data are the rounding of one exact configuration, and
// compared with femc's construction at q*:
//   Simbody, MuJoCo (pin angles): M = TᵀM T, Q = Tᵀ(Q − M Ṫq̇), the null
//   space of the engine's closure rows against that of the weld's rows of
//   A T (bricard_model.hpp's T = ∂x/∂q), Simbody's b and MuJoCo's −J̇v
//   (its rows differenced along v: the b of its rows made hard) against
//   b − A Ṫq̇ (through A⁺b: below), Simbody's u̇ against the model's q̈ = T⁺(ẍ − Ṫq̇);
//   ODE (maximal coordinates in space, u = (v, ω) per body): through
//   V = blockdiag(I, ½E(p)ᵀ) per body (ṗ = ½E(p)ᵀω), M_ode = VᵀM V and
//   Q_ode = Vᵀ(Q − M V̇u) exactly (the J₀ p pᵀ part of femc's M vanishes on
//   V, E p = 0),
//   and Null(J_ode) = W·Null(A), W = blockdiag(I, 2E(p)) (ω = 2E(p)ṗ);
//   Bullet (pin angles; it exposes M⁻¹, not M): M⁻¹, the free acceleration
//   v*/h = M⁻¹Q and the weld rows' null space (bullet_checks),
// at rest and moving (the one motion, the first pin at the example's
// kSpeed0). MuJoCo's and ODE's rows are soft: their answers are their
// campaigns'.
//
// Tolerances, as model_files_planar.cpp's:
//   M: 16·n·ε of |M|∞ (n coordinates: the engines' O(n) recursions), plus
//   for MuJoCo Σ_links 3·max|ΔI|, its compiled inertias' diagonalization
//   error (test_same_mechanisms.cpp); Q: 16·n·ε of the magnitudes it is
//   formed from (below), plus MuJoCo's inertias in the velocity terms;
//   the null spaces' projectors: 16·n·ε/gap (Wedin, one side exact), gap the
//   model's σ_r/σ₁ of the closure rows for the pin-angle engines, ODE's own
//   for ODE (as test_model_files.cpp);
//   Simbody's u̇: twice the rounded-data bound (verify/exact_data.hpp,
//   c = 16(n + m)²) of the exact joint-space system at q*, at rank 5;
//   b through A⁺b: Wedin's pseudoinverse perturbation (check_joint_engine),
//   with MuJoCo's differences' error estimate;
//   Bullet's M⁻¹ and M⁻¹Q: 16·n·ε of |M⁻¹| and of ‖M⁻¹‖∞ times Q's
//   magnitudes, its principal-axes inertia error to first order, and v*'s
//   readout (bullet_checks).
// The wrong models: the first link's centre of mass 1e-6 off its place for
// M and Q (in maximal coordinates, ODE's, neither depends on it: the first
// link 1e-6 heavier), the second pin's offset 1e-6 longer for the null
// space, b and u̇ off by 1e-6 relative.
#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <string>

#include "femc/engines/bricard_model.hpp"
#include "femc/io/json_spatial_model.hpp"
#include "femc/models/spatial.hpp"
#include "femc/solve.hpp"
#include "model_files_detail.hpp"
#ifdef FEMC_HAVE_SIMBODY
#include "femc/engines/simbody.hpp"
#endif
#ifdef FEMC_HAVE_MUJOCO
#include "femc/engines/mujoco.hpp"
#endif
#ifdef FEMC_HAVE_ODE
#include "femc/engines/ode.hpp"
#endif
#ifdef FEMC_HAVE_BULLET
#include "femc/engines/bullet.hpp"
#endif

namespace femc::engines::model_files {
namespace {

using bricard::Cut;
using bricard::Pins;

models::SpatialModel<mpfr_real> model_of(Cut cut, const Pins& pins) {
  return to_spatial_model<mpfr_real>(read_spatial_model_text(bricard::model_file(cut, pins)));
}

Options<mpfr_real> declared_rank_tolerance() {
  Options<mpfr_real> o;
  o.rank_tol = mpfr_real("1e-40");  // between the assembly's 1e-70 and the mechanism's σ₅/σ₁ (printed)
  return o;
}

// femc's assembly (header): q* at 256 bits, the closure's residual there and
// its smallest singular values relative to its largest; and the moving state
// (q*, q̇*): the one motion at the example's first-pin speed kSpeed0.
struct Assembled {
  Vector<mpfr_real> q, qd;
  double residual = 0, sigma6 = 0, sigma5 = 0, moved = 0;  // moved: |q* − q0|∞
};

Assembled assemble() {
  const Cut cut = Cut::welded_halves;
  const models::SpatialModel<mpfr_real> model = model_of(cut, bricard::kPins);
  const Index closure = bricard::closure_rows(cut);
  auto closure_jacobian = [&](const Vector<mpfr_real>& q) {
    return Matrix<mpfr_real>(models::constraint_jacobian(model, bricard::maximal_coordinates<mpfr_real>(cut, q))
                                 .bottomRows(closure) *
                             bricard::coordinate_map<mpfr_real>(cut, q));
  };
  Vector<mpfr_real> q(6);
  for (Index i = 0; i < 6; ++i) q(i) = mpfr_real(bricard::kPins[std::size_t(i)].q0);
  const Vector<mpfr_real> q0 = q;
  Vector<mpfr_real> phi;
  for (int it = 0; it < 30; ++it) {
    phi = models::constraints(model, bricard::maximal_coordinates<mpfr_real>(cut, q)).tail(closure);
    if (as_double_matrix(phi).cwiseAbs().maxCoeff() <= 1e-70) break;
    q -= solve(make_system<mpfr_real>(Matrix<mpfr_real>::Identity(6, 6), closure_jacobian(q), phi,
                                      Vector<mpfr_real>::Zero(6)),
               declared_rank_tolerance())
             .qdd;
  }
  const Eigen::JacobiSVD<Matrix<mpfr_real>> svd(closure_jacobian(q), Eigen::ComputeFullV);
  Assembled out;
  out.q = q;
  const Vector<mpfr_real> nu = svd.matrixV().col(5);
  out.qd = nu * (mpfr_real(bricard::kSpeed0) / nu(0));
  out.residual = as_double_matrix(phi).cwiseAbs().maxCoeff();
  out.sigma6 = prop::as_double(mpfr_real(svd.singularValues()(5) / svd.singularValues()(0)));
  out.sigma5 = prop::as_double(mpfr_real(svd.singularValues()(4) / svd.singularValues()(0)));
  out.moved = as_double_matrix(Vector<mpfr_real>(q - q0)).cwiseAbs().maxCoeff();
  return out;
}

// A state the engines are put at: q* and the pin rates (zero at rest).
struct State {
  std::string name;
  Vector<mpfr_real> q, qd;
};
std::vector<State> states(const Assembled& a) {
  return {{"at rest", a.q, Vector<mpfr_real>(Vector<mpfr_real>::Zero(6))},
          {"moving (first pin at " + decimal(bricard::kSpeed0) + " rad/s)", a.q, a.qd}};
}

// femc's construction of one form at a state: joint-space data (the tree
// pins' angles) and, in maximal coordinates, what ODE's comparison needs.
// Along the tree ẋ = T q̇ and ẍ = T q̈ + a, a = Ṫq̇, so the joint-space
// problem is M_j = TᵀM T, Q_j = Tᵀ(Q − M a), A_j = A T, b_j = b − A a (the
// closure's rows). a is taken by a central difference of T along q̇ at 256
// bits, h = 1e-30: truncation O(h²) ≈ 1e-60, rounding u/h ≈ 1e-47, both far
// below double's (the tree's rows, b − A a = 0 on them, check it).
struct Femc {
  Matrix<double> M, closure;  // M_j; A_j
  Vector<double> Q, b, qdd;   // Q_j; b_j; q̈ = T⁺(ẍ − a)
  Vector<double> particular;  // A_j⁺b_j at rank 5: the acceleration constraints' minimum-norm point
  double Q_scale = 0, b_scale = 0;  // |Tᵀ|(|Q| + |M||a|), |A||a| + |b| (∞): the magnitudes Q_j, b_j are formed from
  double tree_residual = 0;   // |A T| and |b − A a| over the tree's rows: 0 to 256 bits if T and a are right
  Index rank = 0;             // of the model's A, by femc's solve
  System<rational> joint_system;
  Matrix<double> VtMV, WT;    // VᵀM V (ODE's coordinates) and W T (ODE's velocity per pin rate)
  Vector<double> ode_Q, ode_u;  // VᵀQ − VᵀM V̇u (ODE's force) and u = W T q̇
  Matrix<double> Minv;          // M_j⁻¹ (Bullet exposes M⁻¹, not M)
  Vector<double> free_accel;    // M_j⁻¹Q_j
};

Femc femc_at(Cut cut, const State& at, const Pins& pins = bricard::kPins) {
  const models::SpatialModel<mpfr_real> model = model_of(cut, pins);
  const Index k = bricard::tree_pins(cut), closure = bricard::closure_rows(cut), n = model.n();
  const Vector<mpfr_real> q = at.q.head(k), qd = at.qd.head(k);
  const Vector<mpfr_real> x = bricard::maximal_coordinates<mpfr_real>(cut, q, pins);
  const Matrix<mpfr_real> T = bricard::coordinate_map<mpfr_real>(cut, q, pins);
  const Vector<mpfr_real> xd = T * qd;
  const mpfr_real h("1e-30");
  const Vector<mpfr_real> a =
      (bricard::coordinate_map<mpfr_real>(cut, Vector<mpfr_real>(q + h * qd), pins) -
       bricard::coordinate_map<mpfr_real>(cut, Vector<mpfr_real>(q - h * qd), pins)) *
      qd / (2 * h);
  const System<mpfr_real> sys = models::system_at(model, x, xd);
  const Matrix<mpfr_real> MT = T.transpose() * sys.M * T, AT = sys.A * T;
  const Vector<mpfr_real> QT = T.transpose() * (sys.Q - sys.M * a), bT = sys.b - sys.A * a;
  const Solution<mpfr_real> s = solve(sys, declared_rank_tolerance());
  // ODE's coordinates: V per body (7 × 6), W its inverse on |p| = 1, and V̇u
  // (V is linear in p: V̇u = (0, ½E(ṗ)ᵀω) per body).
  Matrix<mpfr_real> V = Matrix<mpfr_real>::Zero(n, 6 * k), W = Matrix<mpfr_real>::Zero(6 * k, n);
  Vector<mpfr_real> Vdot_u = Vector<mpfr_real>::Zero(n);
  for (Index b = 0; b < k; ++b) {
    const models::Quaternion<mpfr_real> p = x.segment<4>(7 * b + 3), pd = xd.segment<4>(7 * b + 3);
    V.block<3, 3>(7 * b, 6 * b).setIdentity();
    W.block<3, 3>(6 * b, 7 * b).setIdentity();
    for (int c = 0; c < 3; ++c)
      V.block<4, 1>(7 * b + 3, 6 * b + 3 + c) = models::quaternion_rate<mpfr_real>(p, models::Vec3<mpfr_real>::Unit(c));
    for (int c = 0; c < 4; ++c)
      W.block<3, 1>(6 * b + 3, 7 * b + 3 + c) =
          models::angular_velocity<mpfr_real>(p, models::Quaternion<mpfr_real>::Unit(c));
    Vdot_u.segment<4>(7 * b + 3) = models::quaternion_rate<mpfr_real>(pd, models::angular_velocity<mpfr_real>(p, pd));
  }
  auto abs_inf = [](const auto& X) { return Matrix<double>(as_double_matrix(X).cwiseAbs()); };
  Femc out;
  out.M = as_double_matrix(MT);
  out.Q = as_double_matrix(QT);
  out.b = as_double_matrix(Vector<mpfr_real>(bT.tail(closure)));
  out.closure = as_double_matrix(AT.bottomRows(closure));
  out.Q_scale = (abs_inf(T).transpose() * (abs_inf(sys.Q) + abs_inf(sys.M) * abs_inf(a))).maxCoeff();
  out.b_scale = (abs_inf(sys.A.bottomRows(closure)) * abs_inf(a) + abs_inf(sys.b.tail(closure))).maxCoeff();
  // ẍ − a = T q̈: the tree's pins hold.
  out.qdd = as_double_matrix(Vector<mpfr_real>(T.householderQr().solve(Vector<mpfr_real>(s.qdd - a))));
  out.tree_residual = std::max(abs_inf(AT.topRows(AT.rows() - closure)).maxCoeff(),
                               abs_inf(bT.head(bT.size() - closure)).maxCoeff());
  out.rank = s.diagnostics.rank.rank;
  const Eigen::PartialPivLU<Matrix<mpfr_real>> lu(MT);
  out.Minv = as_double_matrix(Matrix<mpfr_real>(lu.inverse()));
  out.free_accel = as_double_matrix(Vector<mpfr_real>(lu.solve(QT)));
  out.joint_system = make_system<rational>(prop::to_rational(Matrix<mpfr_real>((MT + MT.transpose()) / 2)),
                                           prop::to_rational(Matrix<mpfr_real>(AT.bottomRows(closure))),
                                           prop::to_rational(Vector<mpfr_real>(bT.tail(closure))),
                                           prop::to_rational(QT));
  out.particular = as_double_matrix(
      solve(make_system<mpfr_real>(Matrix<mpfr_real>::Identity(k, k), Matrix<mpfr_real>(AT.bottomRows(closure)),
                                   Vector<mpfr_real>(bT.tail(closure)), Vector<mpfr_real>::Zero(k)),
            declared_rank_tolerance())
          .qdd);
  out.VtMV = as_double_matrix(Matrix<mpfr_real>(V.transpose() * sys.M * V));
  out.ode_Q = as_double_matrix(Vector<mpfr_real>(V.transpose() * (sys.Q - sys.M * Vdot_u)));
  out.WT = as_double_matrix(Matrix<mpfr_real>(W * T));
  out.ode_u = as_double_matrix(Vector<mpfr_real>(W * xd));
  return out;
}

// The checks' deliberate mistakes (header).
Pins centre_off(Pins p = bricard::kPins) {
  p[0].body.com[0] *= 1 + 1e-6;
  return p;
}
Pins heavier() {
  Pins p = bricard::kPins;
  p[0].body.mass *= 1 + 1e-6;
  return p;
}
Pins offset_longer() {
  Pins p = bricard::kPins;
  p[1].X_PF.p[0] *= 1 + 1e-6;
  return p;
}

// A⁺b at rank r, in double (the SVD's first r triplets).
Vector<double> min_norm_point(const Matrix<double>& A, const Vector<double>& b, Index r) {
  Eigen::JacobiSVD<Matrix<double>> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Vector<double> c = svd.matrixU().leftCols(r).transpose() * b;
  return svd.matrixV().leftCols(r) * c.cwiseQuotient(svd.singularValues().head(r));
}

// An engine's inertias I + ΔI (per link the largest |ΔI| entry, an
// adapter's bricard_inertia_errors) move each entry of M in pin angles by
// at most δ = Σ_links 3·max|ΔI|: a pin's axis is a unit vector, so
// |aᵀΔI b| ≤ 3·max|ΔI| per link, and each link adds its own.
double inertia_perturbation(const std::vector<double>& per_link) {
  double delta = 0;
  for (double d : per_link) delta += 3 * d;
  return delta;
}

// The mechanism as an engine stores it: bricard.hpp's pins with the
// inertias the engine holds (per pin, in the link frame: MuJoCo's compiled
// R diag Rᵀ), so that its M and Q can be checked to its recursion's
// rounding apart from how far those inertias are from the model's (the
// checks with δ).
Pins with_inertias(const std::vector<Eigen::Matrix3d>& per_pin) {
  Pins p = bricard::kPins;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Eigen::Matrix3d I = (per_pin.at(i) + per_pin.at(i).transpose()) / 2;
    p[i].body.inertia = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
  }
  return p;
}
// How far a stored inertia, R diag Rᵀ formed in double, may be from the one
// the engine's recursion uses (diag on its own rotation R'): γ₃·λ_max per
// entry for the product (rows of R unit to rounding), and 2·2u·λ_max for
// R' − R, the rotation's own rounding (a quaternion to a matrix), which
// enters twice: 8u·λ_max, λ_max ≤ ‖I‖∞. Through inertia_perturbation into M.
double stored_inertia_rounding(const std::vector<Eigen::Matrix3d>& per_pin) {
  std::vector<double> per_link;
  for (const Eigen::Matrix3d& I : per_pin) per_link.push_back(8 * 0x1p-53 * I.cwiseAbs().rowwise().sum().maxCoeff());
  return inertia_perturbation(per_link);
}

// An engine in pin angles at a state: its M, Q, closure rows J, the b of
// its hard rows and (Simbody) u̇.
struct JointEngine {
  std::string name;
  Matrix<double> M, J;
  Vector<double> Q, b, udot;  // udot empty for a soft engine
  double inertia_error = 0;   // MuJoCo's Σ 3·max|ΔI| (header)
  // b's error beyond its rounding, ∞-norm: MuJoCo's b is −J̇v by differences
  // of its own rows (it never forms it), with their Richardson estimate.
  double b_error = 0;
  // The inertias the engine stores, per pin (MuJoCo's compiled ones): M and
  // Q are also checked against femc's mechanism with them (with_inertias).
  std::vector<Eigen::Matrix3d> stored_inertias = {};
};

// The engine's M and Q against femc's from `pins` (the model's, or the
// inertias the engine stores), their inertias within δ per entry of M
// (inertia_perturbation) of the engine's. Recorded as "M" and "Q" with
// `suffix`.
void check_mass_and_force(const Recorder& record, const JointEngine& e, const State& at, const Pins& pins,
                          double delta, const std::string& suffix) {
  const Index n = 6;
  const Femc f = femc_at(Cut::welded_halves, at, pins), g = femc_at(Cut::welded_halves, at, centre_off(pins));
  const double M_tol = 16 * n * kEps * max_abs(f.M) + delta;
  // The inertias enter Q's velocity terms, −Σ J_ωᵀ(ΔI α + ω × ΔI ω) per
  // link, with |ω| ≤ s and |α| ≤ s², s = |q̇|₁ (unit pin axes): at most 2 s² Σ‖ΔI‖₂.
  const double s = as_double_matrix(at.qd).lpNorm<1>();
  const double Q_tol = 16 * n * kEps * f.Q_scale + 2 * s * s * delta;
  record("M" + suffix, max_abs(e.M - f.M), M_tol, max_abs(e.M - g.M), "centre of mass 1e-6 off");
  record("Q" + suffix, (e.Q - f.Q).lpNorm<Eigen::Infinity>(), Q_tol, (e.Q - g.Q).lpNorm<Eigen::Infinity>(),
         "centre of mass 1e-6 off");
}

void check_joint_engine(const JointEngine& e, const State& at, std::vector<ModelFileCheck>& out) {
  const Recorder record{out, e.name, "Bricard", at.name};
  const Femc f = femc_at(Cut::welded_halves, at);
  const Index n = 6, r = 5;
  // T and Ṫq̇ are the tree's, and femc's A at q* (6 unit-norm, 30 pin, 6 weld
  // rows) has rank 41, or the checks below mean nothing.
  record("tree map", f.tree_residual, 1e-40);
  record("femc's rank − 41", std::abs(double(f.rank - 41)), 0);
  check_mass_and_force(record, e, at, bricard::kPins, e.inertia_error, "");
  if (!e.stored_inertias.empty())
    check_mass_and_force(record, e, at, with_inertias(e.stored_inertias), stored_inertia_rounding(e.stored_inertias),
                         " (its stored inertias)");
  // The engine's rows are any R·A_j + E, E its rounding relative to its own
  // rows: Wedin's denominator is the engine's gap.
  double gap_e, gap_f, gap;
  const Matrix<double> Pe = null_projector(e.J, r, &gap_e), Pf = null_projector(f.closure, r, &gap_f);
  const double N_tol = 16 * n * kEps / gap_e;
  const Femc h = femc_at(Cut::welded_halves, at, offset_longer());
  record("null space", max_abs(Pe - Pf), N_tol, max_abs(Pe - null_projector(h.closure, r, &gap)),
         "pin offset 1e-6 longer");
  if (e.b.size() == 0) return;
  // b. The engine's rows are not femc's (any R·A_j has the same null space),
  // and its b is R·b_j then: what both must share is the set of
  // accelerations {q̈ : A q̈ = b}, compared through its minimum-norm point
  // A⁺b (rank 5). The engine's A and b are R·A_j and R·b_j rounded by its
  // O(n) recursions: E = 16·n·ε·max|A_e| and Δb = 16·n·ε·‖R‖∞·b_scale
  // entrywise (b_scale the magnitudes b_j is formed from, R = A_e A_j⁺ read
  // off the two), and to first order (Wedin, μ = √2 for A of rank 5 < 6)
  //   ‖Δ(A⁺b)‖₂ ≤ μ‖E‖₂‖b_e‖₂/σ₅² + ‖Δb‖₂/σ₅,  ‖E‖₂ ≤ n·max|E|, ‖Δb‖₂ ≤ √n·max|Δb|,
  // σ₅ the engine's; its A⁺b is formed in double by an SVD, whose own error
  // (ε·σ₁/σ₅·|A⁺b|) the factor 16·n covers; a b by differences adds
  // √m·b_error/σ₅. At rest b = 0 on both sides, exactly.
  const Vector<double> sv = Eigen::JacobiSVD<Matrix<double>>(e.J).singularValues();
  const double sigma5 = sv(r - 1);
  Matrix<double> R(e.J.rows(), f.closure.rows());  // A_e A_j⁺ at rank 5, column by column
  for (Index k = 0; k < R.cols(); ++k)
    R.col(k) = e.J * min_norm_point(f.closure, Vector<double>(Vector<double>::Unit(f.closure.rows(), k)), r);
  const double R_inf = R.cwiseAbs().rowwise().sum().maxCoeff();
  const double E2 = n * 16 * n * kEps * max_abs(e.J);
  const double db2 =
      std::sqrt(double(n)) * 16 * n * kEps * R_inf * f.b_scale + std::sqrt(double(e.J.rows())) * e.b_error;
  const double b_tol = std::sqrt(2.0) * E2 * e.b.norm() / (sigma5 * sigma5) + db2 / sigma5;
  if (at.qd.isZero()) {
    record("b (at rest)", std::max(e.b.lpNorm<Eigen::Infinity>(), f.b.lpNorm<Eigen::Infinity>()), 0);
  } else {
    Vector<double> wrong_b = e.b;
    wrong_b(0) += 1e-6 * R_inf * f.b_scale;
    record("A⁺b", (min_norm_point(e.J, e.b, r) - f.particular).norm(), b_tol,
           (min_norm_point(e.J, wrong_b, r) - f.particular).norm(), "b off by 1e-6");
  }
  if (e.udot.size() == 0) return;
  record_answer(record, e.udot, f.qdd, f.joint_system, r);
}

// femc's own assembly, on which every engine's Bricard checks rest: the
// closure's residual at q* in both forms, its rank 5 to 256 bits (σ₆/σ₁ at
// 256 bits' level, σ₅/σ₁ well away from it), and the moving state's rates
// on the weld's rows (in double: the product's rounding, 16·n·ε·|A|·|q̇|).
void check_assembly(const Assembled& a, std::vector<ModelFileCheck>& out) {
  const Recorder record{out, "femc", "Bricard", "femc's assembly"};
  record("|φ| at q* (halves welded)", a.residual, 1e-70);
  {
    const models::SpatialModel<mpfr_real> one = model_of(Cut::one_body, bricard::kPins);
    const Vector<mpfr_real> x = bricard::maximal_coordinates<mpfr_real>(Cut::one_body, Vector<mpfr_real>(a.q.head(5)));
    record("|φ| at q* (one body)", max_abs(as_double_matrix(Vector<mpfr_real>(models::constraints(one, x)))), 1e-70);
  }
  // q* is the example's configuration (where the engines start), not
  // another one on the mechanism: within 1e-12 rad of its angles.
  record("|q* − q0|∞ (rad)", a.moved, 1e-12);
  record("σ₆/σ₁ at q*", a.sigma6, 1e-60);
  record("σ₁/σ₅ at q*", 1 / a.sigma5, 1e3);
  for (const State& at : states(a)) {
    const Femc welded = femc_at(Cut::welded_halves, at), one = femc_at(Cut::one_body, at);
    const Recorder in{out, "femc", "Bricard", "femc's assembly: " + at.name};
    const Vector<double> qd = as_double_matrix(at.qd);
    in("closure rows · q̇", (welded.closure * qd).lpNorm<Eigen::Infinity>(),
       16 * 6 * kEps * max_abs(welded.closure) * qd.lpNorm<Eigen::Infinity>());
    in("tree map (halves welded)", welded.tree_residual, 1e-40);
    in("tree map (one body)", one.tree_residual, 1e-40);
    in("femc's one-body rank − 34", std::abs(double(one.rank - 34)), 0);
  }
}

[[maybe_unused]] Vector<double> rounded(const Vector<mpfr_real>& x) { return as_double_matrix(x); }

#ifdef FEMC_HAVE_SIMBODY
void simbody_checks(const Assembled& a, std::vector<ModelFileCheck>& out) {
  for (const State& at : states(a)) {
    auto m = simbody::bricard(0.0);
    const Vector<double> q = rounded(at.q), qd = rounded(at.qd);
    for (Index i = 0; i < q.size(); ++i) {
      m->state.updQ()[int(i)] = q(i);
      m->state.updU()[int(i)] = qd(i);
    }
    const simbody::Extracted e = simbody::extract(*m);
    check_joint_engine({"Simbody", e.system.M, e.system.A, e.system.Q, e.system.b, e.udot}, at, out);
  }
}
#endif

#ifdef FEMC_HAVE_MUJOCO
void mujoco_checks(const Assembled& a, std::vector<ModelFileCheck>& out) {
  for (const State& at : states(a)) {
    auto m = mujoco::bricard(0.0);
    m->set_state(rounded(at.q), rounded(at.qd));
    const mujoco::Extracted e = mujoco::extract(*m);
    const double inertia_error = inertia_perturbation(mujoco::bricard_inertia_errors(*m));
    std::vector<Eigen::Matrix3d> stored;
    for (const bricard::Pin& pin : bricard::kPins) stored.push_back(mujoco::compiled_inertia(*m, pin.name));
    // MuJoCo's hard rows' b: −J̇v (its weld rows differenced along v; its
    // aref leaves J̇v out, 2.2.2's finding in its campaign).
    check_joint_engine({"MuJoCo", e.M, e.J, e.Q, Vector<double>(-e.Jdot_v), Vector<double>(), inertia_error,
                        e.Jdot_v_error, stored},
                       at, out);
  }
}
#endif

#ifdef FEMC_HAVE_ODE
void ode_checks(const Assembled& a, std::vector<ModelFileCheck>& out) {
  const Cut cut = Cut::one_body;
  const Index bodies = bricard::body_count(cut), n = 6 * bodies;
  for (const State& at : states(a)) {
    const Recorder record{out, "ODE", "Bricard", at.name};
    const Femc f = femc_at(cut, at);
    const Vector<mpfr_real> x = bricard::maximal_coordinates<mpfr_real>(cut, Vector<mpfr_real>(at.q.head(bodies)));
    std::vector<ode::BodyState> s(static_cast<std::size_t>(bodies));
    for (Index b = 0; b < bodies; ++b) {
      ode::BodyState& st = s[std::size_t(b)];
      st.position = as_double_matrix(Vector<mpfr_real>(x.segment<3>(7 * b)));
      st.rotation = as_double_matrix(models::rotation_matrix<mpfr_real>(x.segment<4>(7 * b + 3)));
      st.linear_velocity = f.ode_u.segment<3>(6 * b);
      st.angular_velocity = f.ode_u.segment<3>(6 * b + 3);
    }
    auto m = ode::bricard(0.0);
    m->set_state(s);
    const ode::Extracted e = ode::extract(*m);
    record("tree map", f.tree_residual, 1e-40);
    if (e.M.rows() != n) {
      record("bodies: ODE's − model's", std::abs(double(e.M.rows() / 6 - bodies)), 0);
      continue;
    }
    const double M_tol = 16 * n * kEps * max_abs(f.VtMV);
    // Q = gravity − ω × (I ω): 16·n·ε of |m g| + |I||ω|² per body, bounded by
    // |M|(|g| + |u|²) in ∞.
    const double Q_tol = 16 * n * kEps * max_abs(f.VtMV) * (bricard::kGravity + f.ode_u.squaredNorm());
    // The model's one motion in ODE's velocities: W T ν, ν the closing pin's
    // null vector in the pin angles.
    auto motion = [&](const Femc& g) {
      Eigen::JacobiSVD<Matrix<double>> svd(g.closure, Eigen::ComputeFullV);
      const Vector<double> w = (g.WT * svd.matrixV().col(bodies - 1)).normalized();
      return Matrix<double>(w * w.transpose());
    };
    double gap_e;
    const Matrix<double> Pe = null_projector(e.rows.J, n - 1, &gap_e);
    const double N_tol = 16 * n * kEps / gap_e;
    // In maximal coordinates M and gravity's force do not depend on where
    // the centre of mass lies in its link: the first link 1e-6 heavier.
    const Femc g = femc_at(cut, at, heavier()), h = femc_at(cut, at, offset_longer());
    record("VᵀMV", max_abs(e.M - f.VtMV), M_tol, max_abs(e.M - g.VtMV), "first link 1e-6 heavier");
    record("Vᵀ(Q − M V̇u)", (e.Q - f.ode_Q).lpNorm<Eigen::Infinity>(), Q_tol,
           (e.Q - g.ode_Q).lpNorm<Eigen::Infinity>(), "first link 1e-6 heavier");
    record("null space", max_abs(Pe - motion(f)), N_tol, max_abs(Pe - motion(h)), "pin offset 1e-6 longer");
  }
}
#endif

#ifdef FEMC_HAVE_BULLET
// Bullet in both fixed-base topologies, at rest and moving: its M⁻¹ and
// free acceleration v*/h = M⁻¹Q (read inside one step; Q with the velocity
// terms, Q_j = Tᵀ(Q − M Ṫq̇)) against M_j⁻¹ and M_j⁻¹Q_j, and its weld
// rows' null space. Bullet's damping is set to 0 and its velocity clamp
// off: they are its modelling choices (its campaign measures the damping),
// not the mechanism's dynamics, which these checks compare. Bullet's links
// are on principal axes computed in double (bullet::bricard_inertia_errors;
// its ΔI is of rounding size, so that, unlike MuJoCo's, a check against
// its stored inertias would be no sharper: tried, M⁻¹Q's share 0.00035
// against 0.00041):
// its inertia is I + ΔI, which moves M by at most δ = Σ_links 3·max|ΔI| per
// entry and M⁻¹, to first order, by ‖M⁻¹‖∞²·n·δ per entry (‖ΔM‖∞ ≤ n·δ);
// M⁻¹Q by ‖M⁻¹‖∞·n·δ·‖M⁻¹Q‖∞ (Δ(M⁻¹Q) = −M⁻¹ΔM·M⁻¹Q), and by ‖M⁻¹‖∞·2s²δ through the velocity
// terms (ΔI in −J_ωᵀ(ΔI α + ω × ΔI ω), |ω| ≤ s, |α| ≤ s², s = |q̇|₁, as
// MuJoCo's). Added to 16·n·ε of |M⁻¹| and of ‖M⁻¹‖∞ times Q_scale (the
// magnitudes Q_j is formed from: Bullet's recursion forms the links' forces,
// not Q_j), and, for v*/h, the readout: v* = v + h·a is rounded at |v*| and
// the difference v* − v at |v* − v|, 2u(|v*|∞ + |v|∞)/h with u = ε/2
// (with the product h·a's and the division's u|a| each, inside the 16·n·ε).
void bullet_checks(const Assembled& a, std::vector<ModelFileCheck>& out) {
  const Index n = 6, r = 5;
  const double delta = inertia_perturbation(bullet::bricard_inertia_errors());
  for (const State& at : states(a)) {
    const Femc f = femc_at(Cut::welded_halves, at), h = femc_at(Cut::welded_halves, at, offset_longer());
    const Femc g = femc_at(Cut::welded_halves, at, centre_off());
    const double Minv_inf = f.Minv.cwiseAbs().rowwise().sum().maxCoeff();
    const double s1 = as_double_matrix(at.qd).lpNorm<1>();
    for (bullet::Topology t : {bullet::Topology::two_multibodies, bullet::Topology::one_multibody}) {
      bullet::Settings s;
      s.topology = t;
      s.linear_damping = s.angular_damping = 0;
      s.max_coordinate_velocity = INFINITY;
      const auto m = bullet::bricard(s, 0.0);  // its state is set below
      m->set_q(rounded(at.q));
      m->set_u(rounded(at.qd));
      const bullet::Extracted e = m->step();
      const Vector<double> free_accel = (e.v_star - e.v) / s.h;
      const Recorder record{out, "Bullet (" + bullet::to_string(t) + ")", "Bricard", at.name};
      record("tree map", f.tree_residual, 1e-40);
      const double readout = kEps * (e.v_star.lpNorm<Eigen::Infinity>() + e.v.lpNorm<Eigen::Infinity>()) / s.h;
      const double M_tol = 16 * n * kEps * max_abs(f.Minv) + Minv_inf * Minv_inf * n * delta;
      const double Q_tol = 16 * n * kEps * Minv_inf * f.Q_scale +
                           Minv_inf * n * delta * f.free_accel.lpNorm<Eigen::Infinity>() +
                           Minv_inf * 2 * s1 * s1 * delta + readout;
      record("M⁻¹", max_abs(e.Minv - f.Minv), M_tol, max_abs(e.Minv - g.Minv), "centre of mass 1e-6 off");
      record("M⁻¹Q", (free_accel - f.free_accel).lpNorm<Eigen::Infinity>(), Q_tol,
             (free_accel - g.free_accel).lpNorm<Eigen::Infinity>(), "centre of mass 1e-6 off");
      double gap_e, gap;
      const Matrix<double> Pe = null_projector(e.J, r, &gap_e);
      const double N_tol = 16 * n * kEps / gap_e;
      record("null space", max_abs(Pe - null_projector(f.closure, r, &gap)), N_tol,
             max_abs(Pe - null_projector(h.closure, r, &gap)), "pin offset 1e-6 longer");
    }
  }
}
#endif

}  // namespace

void bricard_checks(const std::string& engine, std::vector<ModelFileCheck>& out) {
  MpfrPrecision bits(kBits);
#ifdef FEMC_HAVE_SIMBODY
  if (engine == "simbody") simbody_checks(assemble(), out);
#endif
#ifdef FEMC_HAVE_MUJOCO
  if (engine == "mujoco") mujoco_checks(assemble(), out);
#endif
#ifdef FEMC_HAVE_ODE
  if (engine == "ode") ode_checks(assemble(), out);
#endif
#ifdef FEMC_HAVE_BULLET
  if (engine == "bullet") bullet_checks(assemble(), out);
#endif
  (void)engine;
  (void)out;
}

void bricard_assembly_checks(std::vector<ModelFileCheck>& out) {
  MpfrPrecision bits(kBits);
  check_assembly(assemble(), out);
}

}  // namespace femc::engines::model_files
