#pragma once
// Bullet 3.24 (its double build, bullet-float64) as a solver under test
// (issue "Three more engines"): a planar loop built from btMultiBody trees
// closed by btMultiBodyPoint2Point, the problem Bullet's constraint solver
// is given, read from inside the solver, and Bullet's answer.
//
// Sources read at bulletphysics/bullet3 tag 3.24 (engines/UPSTREAM.md; F/ is
// src/BulletDynamics/Featherstone/):
//
// Coordinates. A btMultiBody's velocity vector is (ω_base, v_base, q̇₁ … q̇_k)
// (F/btMultiBody.h, getVelocityVector). femc's u is every multibody's in
// turn, without the six base entries of a fixed base (they stay zero).
//
// The step (F/btMultiBodyDynamicsWorld.cpp, stepSimulation(h, 0): one step of
// h). solveExternalForces: gravity m·g on every link, then
// computeAccelerationsArticulatedBodyAlgorithmMultiDof integrates the free
// motion, v* = v + h·q̈_free (with the multibody's damping, 0.04 by default);
// then the constraint solver runs on v*, each impulse λ_i applied through the
// row's unit response M⁻¹J_iᵀ (m_deltaVelocitiesUnitImpulse, from
// calcAccelerationDeltasMultiDof); processDeltaVeeMultiDof2 adds the change
// to v*, each coordinate clamped to ±m_maxCoordinateVelocity (100).
//
// Rows (F/btMultiBodyPoint2Point.cpp createConstraintRows, F/btMultiBodyConstraint.cpp
// fillMultiBodyConstraint). Row i of a point-to-point joint has normal
// n = −e_i, posError = n·(p_A − p_B) and J = n·(∂p_A/∂q − ∂p_B/∂q) = ∂posError/∂q
// (J_A and J_B on each end's multibody; on one multibody they add). Its
// scale d = J_A M⁻¹J_Aᵀ + J_B M⁻¹J_Bᵀ (the two ends' terms, no cross term),
// m_jacDiagABInv = 1/d, or 0 when d ≤ SIMD_EPSILON: the row is disabled
// ("to handle singularity/redundant constraint"); m_rhs = (−ERP/h·posError
// − J v*)/d; impulses bounded by ±m_maxAppliedImpulse (100 N·s); m_cfm = 0.
//
// What the solver solves. Its fixed point (PGS, resolveSingleConstraintRowGeneric:
// Δλ_i = m_rhs_i − (J_iΔv)/d_i) and the MLCP's system (createMLCPFastMultiBody:
// b_i = m_rhs_i/m_jacDiagABInv_i) are the same equations on the enabled rows:
//   J (v* + Δv) = −(ERP/h)·posError,   Δv = M⁻¹Jᵀλ,
// that is, Δv is the Gauss solution of: minimize ΔvᵀMΔv subject to
// J Δv = b, b_i = m_rhs_i / m_jacDiagABInv_i (own_problem()).
//
// M is not exposed (no mass-matrix getter at 3.24): the adapter reads Bullet's
// M⁻¹ column by column from calcAccelerationDeltasMultiDof(e_k), at the
// step's own articulated-body quantities (inside the solver, tap below).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "femc/engines/bricard.hpp"
#include "femc/engines/planar_loop.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"

namespace femc::engines::bullet {

// How the planar loop's links are arranged into btMultiBody trees (issue 44
// (iv): loops between two multibodies and within one).
enum class Topology {
  // The serial chain one fixed-base multibody, the rocker another; the
  // point-to-point joint between them.
  two_multibodies,
  // One fixed-base multibody with two branches from its base: the serial
  // chain and the rocker; the point-to-point joint within it.
  one_multibody,
  // As one_multibody, with the ground link as a free-floating base (a 1 kg rod
  // of the ground's length, its centre as the base's origin): the loop's two
  // ends share the base's six coordinates.
  floating_base,
};
std::string to_string(Topology t);

// Bullet's constraint solvers for multibody rows.
enum class SolverKind {
  pgs,            // btMultiBodyConstraintSolver: projected Gauss–Seidel (Bullet's default)
  mlcp_dantzig,   // btMultiBodyMLCPConstraintSolver over btDantzigSolver
  mlcp_lemke,     // … over btLemkeSolver
  mlcp_pgs,       // … over btSolveProjectedGaussSeidel
};
std::string to_string(SolverKind s);

struct Settings {
  Topology topology = Topology::two_multibodies;
  SolverKind solver = SolverKind::pgs;
  double h = 1.0 / 60;        // Bullet's fixedTimeStep default (Dynamics/btDynamicsWorld.h)
  int iterations = 10;        // btContactSolverInfo::m_numIterations default
  double erp = 0.2;           // m_erp default
  // btMultiBody's own defaults unless set (F/btMultiBody.cpp l.120–124):
  // 0.04f, 0.04f, 100.f, float literals, so the damping is 0.04 rounded to
  // float (0.039999999105930328), not the double 0.04.
  double linear_damping = double(0.04f), angular_damping = double(0.04f), max_coordinate_velocity = 100;
  // The closure's impulse cap: every row's impulse is kept within ±this
  // (N·s per step; btMultiBodyConstraint's m_maxAppliedImpulse, 100 by
  // default, F/btMultiBodyConstraint.cpp l.16), which makes the rows'
  // problem a box-constrained one where the cap binds.
  double max_applied_impulse = 100;
};

class Mechanism;
struct VelocityProduct;
VelocityProduct velocity_product(Mechanism& m);  // below

// One step's problem, read from inside Bullet's solver, and its answer.
struct Extracted {
  Settings settings;
  Index n = 0, m = 0;              // femc's coordinates, rows
  Matrix<double> J;                // m × n: J_A + J_B, Bullet's m_jacobians
  // |J_A| + |J_B| entrywise: the scale of J's rounding. Where both ends lie
  // on the same coordinates (a floating base) J_A + J_B cancels, and a row
  // zero in exact arithmetic is left at the rounding of its two ends.
  Matrix<double> J_magnitude;
  Matrix<double> unit;             // m × n: Bullet's unit responses M⁻¹J_iᵀ (rows)
  // The unit responses' rounding: |unit − J M⁻¹ᵀ| ≤ unit_rounding·|J||M⁻¹|ᵀ
  // entrywise, one constant per mechanism class. Bullet forms each response
  // by its articulated-body recursion over J_i, rounded relative to the
  // recursion's own intermediate magnitudes, not to |J||M⁻¹|: the planar
  // loops (revolute joints about one axis) meet 4·n·u; Bricard's spatial
  // links need 16·n·ε = 32·n·u, the recursions' constant of
  // test_same_mechanisms.cpp (36·u relative at one entry, measured, n = 6).
  // test_bullet_adapter's InverseMassAgreesWithTheRowsUnitResponses and
  // BricardsWeldRows… hold each; the campaign's force bound reads it.
  double unit_rounding = 0;
  Matrix<double> Minv;             // n × n: calcAccelerationDeltasMultiDof(e_k), block per multibody
  Vector<double> rhs, jac_diag_inv, lower, upper;  // per row, Bullet's
  Vector<double> position_error;   // per row, n·(p_A − p_B) from Bullet's localPosToWorld
  Vector<double> v, v_star, v_next;  // before the step, at the solver (after the free motion), after
  Vector<double> lambda;           // the impulses Bullet applied (m_appliedImpulse after its iterations)
  // The MLCP solvers: the system Bullet handed its MLCP solver (m_multiBodyA,
  // m_multiBodyB), its solution, and whether it fell back to PGS
  // (getNumFallbacks rose during the step).
  Matrix<double> mlcp_A;
  Vector<double> mlcp_b, mlcp_x;
  bool fell_back = false;
  Vector<double> dv() const { return v_next - v_star; }  // Bullet's constraint velocity change
  // The first enabled row whose impulse Bullet left at its cap (lower,
  // upper: m_lowerLimit, m_upperLimit, ±max_applied_impulse), or −1. There
  // Bullet solves a box-constrained problem, not own_problem's equalities.
  Index capped_row() const {
    for (Index i = 0; i < m; ++i)
      if (jac_diag_inv(i) != 0 && (lambda(i) >= upper(i) || lambda(i) <= lower(i))) return i;
    return -1;
  }
};

// A planar loop of planar_loop.hpp in Bullet (btMultiBodyDynamicsWorld):
// each link a uniform rod (planar_loop's mass and inertias), its frame at its
// centre with x along the rod, revolute joints about z; the serial chain from
// O, the rocker from D, and a btMultiBodyPoint2Point between the chain's end
// and the rocker's (3 rows; the z row identically zero: Bullet disables it).
// Gravity −9.81 along y. Each link gets a collider (a 1 cm sphere) that
// collides with nothing: a link without one has island −1 and its
// constraint is solved in no island (UPSTREAM.md §5). Joint angles as
// planar_loop.hpp's, set at the leading angles (assembled, then Newton steps
// on Bullet's own position errors to ≤ 1e-15) and speeds (the others from
// J u = 0).
class Mechanism {
 public:
  ~Mechanism();
  Mechanism(const Mechanism&) = delete;
  Mechanism& operator=(const Mechanism&) = delete;

  const std::string& name() const { return name_; }
  const Settings& settings() const { return settings_; }
  Index n() const;  // femc's coordinates
  // The joint angles, in planar_loop's order (serial, rocker), and the
  // rates: u is femc's coordinates, a floating base's six velocity entries
  // (ω, v) first. q, u and base_pose are the whole state.
  Vector<double> q() const;
  Vector<double> u() const;
  void set_q(const Vector<double>& q);
  void set_u(const Vector<double>& u);
  // A floating base's pose, (x, y, z) of its origin and the quaternion (x, y,
  // z, w) of getWorldToBaseRot; empty for fixed bases.
  std::vector<double> base_pose() const;
  void set_base_pose(const std::vector<double>& pose);
  // Each row's posError = n·(p_A − p_B) at the current q, from Bullet's
  // localPosToWorld (3 rows).
  Vector<double> position_error() const;

  // One step (stepSimulation(h, 0)), reading the problem inside the solver.
  Extracted step();

  struct Impl;
  explicit Mechanism(std::unique_ptr<Impl> impl, std::string name, Settings s);

 private:
  friend VelocityProduct velocity_product(Mechanism& m);
  std::unique_ptr<Impl> impl_;
  std::string name_;
  Settings settings_;
};

std::unique_ptr<Mechanism> planar_loop(const planar_loop::Loop& loop, const std::vector<double>& leading_angles,
                                       const std::vector<double>& leading_speeds, const Settings& settings = {});
std::unique_ptr<Mechanism> four_bar(double theta, double omega, const Settings& settings = {},
                                    const planar_loop::Loop& lengths = planar_loop::kCrankRocker);

// Bricard's mechanism of bricard.hpp in Bullet, on the grounded link as a
// fixed base: two multibodies (pins 0–2 and 3–5, each branch of the loop
// from the grounded link) or one (the six pins its links); each link's frame
// at its centre of mass on its principal axes (btMultiBody takes a diagonal
// inertia: bricard_inertia_errors), joint positions bricard.hpp's angles, the
// cut link's halves joined by a btMultiBodyFixedConstraint at their common
// link frame (6 rows; rank 5 on the mechanism). At the example's angles (the
// loop closed to rounding there), the first pin at speed0 (rad/s; the
// example's kSpeed0 as the other engines' adapters, 0 at rest) and the
// others along the mechanism's one motion, the null vector of Bullet's own
// weld rows there; gravity −9.8 along y. A floating base is an InputError.
// position_error() gives the weld's six posErrors as Bullet forms them;
// velocity_product is the planar loops' only.
std::unique_ptr<Mechanism> bricard(const Settings& settings = {}, double speed0 = bricard::kSpeed0);
// Per link (kPins' order), the largest entry of |S diag(moments) Sᵀ − I| in
// double: the inertia Bullet is given against bricard.hpp's.
std::vector<double> bricard_inertia_errors();

// The Gauss problem Bullet's solver is given (header): M = (sym M⁻¹)⁻¹ on
// Bullet's M⁻¹ (the inverse at 256 bits, rounded to rational; M⁻¹'s
// asymmetry is its rounding, counted in answer_bound), A = J on the enabled
// rows (m_jacDiagABInv ≠ 0), b_i = m_rhs_i / m_jacDiagABInv_i exactly, Q = 0:
// its q̈ is Δv.
System<rational> own_problem(const Extracted& e);

// Its solution by femc (method cod at 256 bits, the rank decided at the
// data's precision, double: a row that is zero but for the rounding of its
// two ends' cancellation, as the z row on a floating base, is dropped as
// Bullet's own scale would drop it if it had the cross term).
struct OwnSolution {
  Vector<double> dv;      // Δv
  Vector<double> impulse; // Jᵀλ = M Δv
  Index rank = 0;         // of the enabled rows, decided at double
  // The rank-revealing ratios of femc's decision on J M^{-1/2} (the enabled
  // rows): d_r/d₁ and d_{r+1}/d₁ (0 when every row is kept), d the |R_ii| of
  // cod's pivoted QR, which track the singular values σ_i/σ₁.
  double sigma_ratio = 0;
  double sigma_next = 0;
};
OwnSolution solve_own(const Extracted& e);
// The same problem's solution with one direction fewer than femc's rank
// (the relative rank tolerance just above d_r/d₁, as a solver that never
// moves along the smallest direction answers); nullopt at rank 0, or where
// d_{r−1} is within 2 d_r (no rank r − 1 solution to tell apart).
std::optional<OwnSolution> solve_own_one_direction_dropped(const Extracted& e, const OwnSolution& at_rank);

// A first-order bound on |Δv̂ − Δv|∞ for an answer that solves the problem to
// rounding: with G = M⁻¹JᵀA⁺ (A = J M⁻¹Jᵀ on the enabled rows; in double as
// L·P⁺, M⁻¹ = LLᵀ, P = J L, P⁺ truncated at femc's rank, so that G's
// conditioning is κ(P), not κ(P)² = κ(A), and no threshold is chosen here),
// Bullet's answer Δv̂ = Σ λ_i·unit_i accumulated over its iterations, and b's
// rounding,
//   |Δv̂ − Δv| ≤ c·u·(|G|(|J||Δv̂| + |b|) + |unit|ᵀ|λ| + |Δv̂| + |Δv| + |v⁺|),
// c = 16(n + m): the products J Δv̂ and the accumulation of the unit
// responses (n + m terms each), a few units for forming b =
// m_rhs/m_jacDiagABInv, and Bullet's answer read as v⁺ − v*: v⁺ = v* + Δv̂
// is rounded at |v⁺|, which where the whole mechanism moves (a falling
// floating base) is far above |Δv|. A converged solver meets it; an
// unconverged one is reported against it. Its accumulation term counts the
// final |λ|, not the iterations' history: each of PGS's K·m additions
// Δv̂ += Δλ·unit_i errs by at most min(u|Δv̂|, |Δλ||unit_i|), so a rigorous
// term is Σ over the iterations of |Δλ||unit| (the impulses' path length),
// which the tap does not read; the campaign's impulse bound takes the worst
// case γ_{Km}|Δv̂|. Measured slack of this bound at 50000 iterations: 74–1630
// (test_bullet_adapter).
double answer_bound(const Extracted& e, const OwnSolution& exact);

// Bullet's MLCP matrix against J·unitᵀ, the matrix its rows define (both
// Bullet's numbers): max |mlcp_A − J unitᵀ| over the enabled rows and the
// rounding of that product, γ_{n+7}·|J||unit|ᵀ: Bullet sums each end's
// product over its multibody's getNumDofs() + 6 entries
// (computeDeltaVelocityInConstraintSpace), at most n + 6, and adds the two
// ends. Bullet forms A's diagonal and upper triangle, entry (i, j), i < j,
// as J_j·unit_i (the lower triangle of J·unitᵀ), and mirrors it: entry
// (i, j) is J_max(i,j)·unit_min(i,j) (extract.cpp), which the check follows.
struct MatrixCheck {
  double gap = 0, tolerance = 0;
  Index row = -1, col = -1;  // where the gap is largest
};
MatrixCheck check_mlcp_matrix(const Extracted& e);

// The velocity-product term J̇u of the closure's rows at the mechanism's
// state: the closure's Jacobian from Bullet's own positions (−z × (p − o_j)
// per joint, as the assembly uses it, in Bullet's sign) times u along the joints' motion
// q + s·u (a fixed base, where q̇ = u), differenced centrally at s =
// 10⁻³/max(1, |u|∞), s/2 and s/4 and extrapolated (femc/engines/
// richardson.hpp), with its error estimate: |r(s/2) − r(s)|/15 plus the
// rounding of the differenced values, 6·16ε·max(1, |J u|∞)/s. The
// state is restored. A floating base is an InputError (its pose's rate is
// not u).
struct VelocityProduct {
  Vector<double> Jdot_u;
  double error = 0;
};
VelocityProduct velocity_product(Mechanism& m);

// Bullet's settings that change the motion and that a user does not set,
// read from Bullet's getters (engines/UPSTREAM.md §5).
struct Defaults {
  double erp, global_cfm, h;
  int iterations, solver_mode;
  double linear_damping, angular_damping, max_coordinate_velocity, max_applied_impulse;
  bool gyro_term, can_sleep;
  int version;  // btGetVersion(), BT_BULLET_VERSION: 324 for 3.24
};
Defaults defaults();

}  // namespace femc::engines::bullet
