#pragma once
// ODE 0.16 as a solver under test (issue "Real engines"): a mechanism built
// in ODE, the problem ODE's step solves, rebuilt from the joints' public
// geometry, and ODE's answer.
//
// ODE works in maximal coordinates: every body has six velocity coordinates,
// the velocity of its centre of mass (ODE's body position) and its angular
// velocity, both in the world frame, u = (v₁, ω₁, v₂, ω₂, …), n = 6·bodies.
// Joints between bodies close loops. Sources read (ODE at commit b52fe07b of
// the thomasmarsh/ODE mirror, whose installed headers are byte-identical to
// Debian's 0.16.2, engines/UPSTREAM.md):
//
// Rows (getInfo2, written by each joint; joints/joint.h is not installed).
//   Ball part, 3 rows (joints/joint.cpp l.111–157, setBall): with a₁ = R₁·anchor1
//   and a₂ = R₂·anchor2 the anchors' offsets from the bodies' positions p,
//     J₁ = [I  −[a₁]×],  J₂ = [−I  [a₂]×],  e = (a₂ + p₂) − (a₁ + p₁),
//   so J u = ẋ₁ − ẋ₂ = −ė for the anchor points x. A ball joint (joints/ball.cpp
//   l.57–67) is these three rows with its own ERP and CFM, copied from the
//   world's when the joint is created (l.37–38).
//   Hinge, 5 rows (joints/hinge.cpp l.54–147): the ball part with the world's
//   ERP, and two angular rows: ax₁ = R₁·axis1, (p, q) = dPlaneSpace(ax₁),
//     J₁ = [0  pᵀ], J₂ = [0  −pᵀ] (and q),  e_p = (ax₁ × ax₂)·p (and q),
//   ax₂ = R₂·axis2. Stops at ±∞ and fmax = 0 (ODE's defaults) add no row.
//   A joint to the static environment has no J₂ and keeps anchor2, axis2 in
//   world coordinates (joint.cpp l.311–316, 350–356).
//   getInfo2 writes c = (ERP/h)·e (k = fps·erp); every row starts with the
//   world's CFM (step.cpp l.1064–1066).
// The step (dWorldStep, step.cpp): c and cfm are multiplied by 1/h
// (l.1098–1103); A = J M⁻¹ Jᵀ + diag(cfm/h) (l.1160–1168, 1183–1222, and
// MultiplyAddJinvMxJToA); rhs = c/h − J (v/h + M⁻¹ f) (l.1239–1249,
// 1379–1410); A λ = rhs is solved (l.1459); then
//   v⁺ = v + h M⁻¹ (f + Jᵀλ)   (l.1535–1574),
// with M⁻¹ = blockdiag(invMass·I₃, R·invI·Rᵀ) (l.637–638; invI by
// dInvertPDMatrix, ode.cpp l.498) and f the force accumulators plus gravity
// m·g (l.595–620) and, for a body in gyroscopic mode (ODE's default,
// ode.cpp l.281), the implicit gyroscopic torque of l.642–706:
//   τ_g = (I·Ĩ⁻¹ − 1)·L/h,  L = I ω,  Ĩ = I − h[L]×,  I = R·mass.I·Rᵀ.
// In acceleration form, a = (v⁺ − v)/h solves the soft problem
//   M a = f + Jᵀλ,   J a + (cfm/h) λ = a_ref,   a_ref = (ERP/h²) e − J v/h,
// λ in newtons (the impulse is hλ): (J M⁻¹Jᵀ + cfm/h)(hλ) = (ERP/h)e − J v
// − h J M⁻¹ f. dJointFeedback receives, per joint, f₁ t₁ = J₁ᵀλ and
// f₂ t₂ = J₂ᵀλ over the joint's rows (MultiplyAddJxLambdaToCForce,
// l.458–505).
// With every row bilateral (hinges and balls without stops or motors), nub =
// m and dxSolveLCP does an LDLᵀ factorization and solve without pivoting
// (lcp.cpp l.814–846): Dantzig's pivoting never runs, and its "LCP internal
// error" cannot occur.
//
// (i) As MuJoCo's (engines/mujoco/.../mujoco.hpp), the soft problem is the
// Gauss problem of a larger hard one (augmented()): unknowns (a, s), mass
// diag(M_ode, D), D = h/cfm, force (f, D a_ref), constraint [J  −I](a, s) = 0;
// its multipliers are ODE's λ with ODE's sign.
// (ii) Hard Gauss (hard()): M = blockdiag(m I₃, R·mass.I·Rᵀ), A = J,
// b = −J̇u, Q = gravity − ω × (I ω) (the explicit gyroscopic torque).
//
// ODE hides J, the right-hand side and λ; the adapter rebuilds the rows from
// ODE's public getters (anchors, axes, body poses) and ODE's own dPlaneSpace,
// and the tests check the rebuild against what ODE's step returns: the
// joints' feedback and the velocity change.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <ode/ode.h>

#include "femc/engines/bricard.hpp"
#include "femc/engines/planar_loop.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"

namespace femc::engines::ode {

enum class JointKind { hinge, ball };

// A joint of a mechanism and the geometry ODE stores for it (body2 = −1: the
// static environment, ODE's body 0): the anchors and, for a hinge, the axes
// in each body's frame (in the world's for a static body 2), exactly as ODE
// keeps them (add_hinge, add_ball). rows() checks them against ODE's getters
// at every state.
struct Joint {
  std::string name;
  JointKind kind;
  dJointID id;
  int body1, body2;
  Eigen::Vector3d anchor1, anchor2;
  Eigen::Vector3d axis1 = Eigen::Vector3d::Zero(), axis2 = Eigen::Vector3d::Zero();
};

// Which of ODE's steppers.
enum class Stepper { world_step, quick_step };
struct StepOptions {
  Stepper stepper = Stepper::world_step;
  // dWorldQuickStep: its iteration count and over-relaxation, set on the
  // world before the step and kept (0: leave the world's, ODE's 20 and 1.3
  // unless changed), and the seed of the global generator its row reordering
  // draws from (quickstep.cpp l.2457), set before the step so that the step
  // is reproducible.
  int quick_iterations = 0;
  double quick_w = 0;
  unsigned long seed = 0;
};

// A body's pose and velocity in the world frame.
struct BodyState {
  Eigen::Vector3d position, linear_velocity, angular_velocity;
  Eigen::Matrix3d rotation;
};

// An ODE world that owns a mechanism's bodies and joints (dWorldDestroy frees
// them). Gravity, ERP, CFM and every other world and body setting are ODE's
// defaults unless set through this class.
class Mechanism {
 public:
  Mechanism(std::string name, std::string description);
  ~Mechanism();
  Mechanism(const Mechanism&) = delete;
  Mechanism& operator=(const Mechanism&) = delete;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  dWorldID world() const { return world_; }
  const std::vector<dBodyID>& bodies() const { return bodies_; }
  const std::vector<Joint>& joints() const { return joints_; }
  Index n() const { return 6 * Index(bodies_.size()); }
  // The step dWorldStep is called with (s); the extraction's h.
  double step_size() const { return h_; }
  void set_step_size(double h);
  double time() const { return time_; }
  // One step of the chosen stepper (dWorldStep or dWorldQuickStep) with
  // stepsize step_size(); time() advances by it. Throws MethodError when ODE
  // reports failure (it returns 0 only when it cannot allocate).
  void step(const StepOptions& options = {});

  // A body with its centre of mass at the body's origin (as dBodySetMass
  // requires, ode.cpp l.491–495): mass (kg) and inertia about the centre of
  // mass in the body's axes, xx, yy, zz, xy, xz, yz (kg m²). Returns its index.
  int add_body(const std::string& name, double mass, const std::array<double, 6>& inertia);
  const std::string& body_name(int b) const { return body_names_[std::size_t(b)]; }

  // A hinge between body1 and body2 (−1: the static environment). The joint
  // frame is given in each body's frame: its origin (anchor, from the body's
  // centre of mass) and orientation (a signed permutation matrix; the hinge
  // axis is its z axis). For a static body 2 they are the frame's world
  // origin and orientation. ODE derives its stored, body-fixed anchors and
  // axes from a world point and axis and the bodies' current poses
  // (joint.cpp setAnchors, setAxes); the adapter poses the two bodies for the
  // call so that every product ODE forms is exact (orientations from signed
  // permutations, the joint frame at the world's origin), so ODE stores
  // exactly the anchors and axes given, not values rounded at some
  // configuration. The two bodies are moved: place every body after adding
  // the joints. Feedback is enabled. Throws InputError for an orientation
  // that is not a signed permutation.
  void add_hinge(const std::string& name, int body1, const Eigen::Vector3d& anchor1, const Eigen::Matrix3d& frame1,
                 int body2, const Eigen::Vector3d& anchor2, const Eigen::Matrix3d& frame2);
  // A ball joint between two bodies, anchors as for add_hinge.
  void add_ball(const std::string& name, int body1, const Eigen::Vector3d& anchor1, int body2,
                const Eigen::Vector3d& anchor2);

  // ERP and CFM of every row: the world's (the hinges' rows) and each ball
  // joint's own copy (ball.cpp l.37–38: dWorldSetERP/CFM alone would leave
  // the balls' rows at the values they were created with). cfm > 0.
  void set_softness(double erp, double cfm);

  std::vector<BodyState> state() const;
  // dBodySetPosition, dBodySetRotation (ODE orthogonalizes R, ode.cpp
  // l.358–374: read it back with state()), the velocities.
  void set_state(const std::vector<BodyState>& s);
  Vector<double> velocities() const;  // u
  void set_velocities(const Vector<double>& u);

  // The feedback ODE wrote for joint j in the last step.
  const dJointFeedback& feedback(std::size_t j) const { return feedback_[j]; }

 private:
  void pose(int body, const Eigen::Matrix3d& R, const Eigen::Vector3d& p);
  void check_joint(const std::string& name, int body1, int body2) const;
  dJointID attach(dJointID j, int body1, int body2);

  std::string name_, description_;
  dWorldID world_;
  std::vector<dBodyID> bodies_;
  std::vector<std::string> body_names_;
  std::vector<Joint> joints_;
  // dJointSetFeedback keeps a pointer: the storage never moves (reserved for
  // kMaxJoints; add_hinge/add_ball refuse more).
  std::vector<dJointFeedback> feedback_;
  double h_ = 0.002;
  double time_ = 0;

 public:
  static constexpr std::size_t kMaxJoints = 64;
};

// Each body moved along u for time t: x + t·v, exp(t[ω]×)·R (velocities as
// in `from`). The probe path of the tests and the assembly's Newton step.
std::vector<BodyState> moved(const std::vector<BodyState>& from, const Vector<double>& u, double t);

// The rows ODE builds at the mechanism's current state, rebuilt with ODE's
// own inline formulas (odemath.h: dMultiply0_331, dSetCrossMatrixMinus/Plus,
// dCalcVectorCross3, dCalcVectorDot3) and ODE's dPlaneSpace on the joints'
// stored geometry and the bodies' poses, in the order of joint.cpp and
// hinge.cpp: the same numbers as ODE's unless the adapter's compiler rounds
// these expressions differently (it would contract a·b + c into an FMA under
// -march=native, FEMC_NATIVE; ODE's Debian build does not). The world
// anchors and axis₁ so formed are checked against ODE's getters
// (dJointGetHingeAnchor, …Anchor2, …Axis, dJointGetBallAnchor, …Anchor2);
// a difference beyond their rounding throws MethodError.
struct Rows {
  Matrix<double> J;             // m × n
  Vector<double> e;             // ODE's position errors (J u = −ė); c = (ERP/h)·e
  Vector<double> erp, cfm;      // per row
  Vector<double> Jdot_u;        // J̇u at the current velocities (rows attached to body 1)
  // What the rows may differ from ODE's by, entrywise, should the compilers
  // round differently: twice each formula's own first-order rounding bound
  // (lever arms R·anchor: 2γ₃|R||anchor|; e of a ball row: 2γ₄ of its
  // terms' magnitudes; an angular row's e: 2γ₆).
  Matrix<double> J_rounding;
  Vector<double> e_rounding;
  struct JointRows {
    Index first, count;  // the joint's rows
    int body1, body2;    // its bodies (body2 = −1: static)
  };
  std::vector<JointRows> joints;  // per joint of the mechanism, in its order
};
// Throws InputError for a joint the adapter cannot express (a hinge with
// stops or a motor: ODE adds a row the rebuild does not write).
Rows rows(const Mechanism& mechanism);

// The data of one step at the mechanism's state, and ODE's answer: extract()
// reads the state, calls the stepper once (the mechanism moves on by h) and
// reads the velocities after it and the joints' feedback.
struct Extracted {
  double h = 0;
  Rows rows;
  Matrix<double> M;           // blockdiag(m I₃, R·mass.I·Rᵀ)
  Matrix<double> Minv;        // ODE's: blockdiag(invMass I₃, R·invI·Rᵀ), formed as step.cpp forms it
  Matrix<double> Minv_rounding;  // as Rows::J_rounding: 2γ₆|R||invI||R|ᵀ
  Vector<double> v;           // u before the step
  Vector<double> f;           // ODE's force: accumulators, gravity, implicit gyroscopic torque
  Vector<double> f_rounding;  // as Rows::J_rounding, for the gyroscopic torque (first order, step_bound)
  Vector<double> Q;           // gravity − ω × (I ω): the hard problem's force
  Vector<double> gyroscopic_gap;  // ODE's τ_g against −ω × (I ω), per coordinate (0 on the linear ones)
  // ODE's answer.
  Vector<double> v_next;      // u after the step
  Vector<double> accel;       // (v⁺ − v)/h
  Vector<double> force;       // the constraint force ODE applied to each body, summed from dJointFeedback
  Vector<double> lambda;      // per row (N), recovered from each joint's (f₁, t₁) through the rows' J₁
  Vector<double> lambda_residual;  // per joint: |J₁ᵀλ − (f₁, t₁)|∞ of that recovery
  std::vector<dJointFeedback> feedback;
};
Extracted extract(Mechanism& mechanism, const StepOptions& options = {});

// a_ref = (ERP/h²)·e − J v/h, in double: the target ODE's soft rows pull J a
// towards (the stiff limit, cfm → 0, of its problem).
Vector<double> target(const Extracted& e);

// (i) The soft problem as an exact hard Gauss problem (header): M_ode the
// exact inverse of each 3×3 block of Minv's symmetric part (ODE's Minv is
// symmetric to its rounding; its asymmetric part is counted in step_bound),
// D = h/cfm, a_ref exact in the extracted doubles. C = 0, W = I.
System<rational> augmented(const Extracted& e);

// Its solution: femc at 256 bits (method cod, the data at face value) on
// augmented(e). The exact method's rational LU would take minutes on the
// 100-plus unknowns of a mechanism in maximal coordinates; at 256 bits femc's
// own error (κ·2⁻²⁵⁶) is far below any bound here.
struct SoftSolution {
  Vector<double> accel;   // a
  Vector<double> lambda;  // ODE's λ (N)
  Vector<double> force;   // Jᵀλ
};
SoftSolution solve_soft(const Extracted& e);

// The first-order error law of dWorldStep's solve on these data (u = 2⁻⁵³,
// γ_k = k·u/(1 − k·u), Higham, Accuracy and Stability, §3.5 and Thm 10.3):
// with G = M⁻¹JᵀA⁻¹, K = JᵀA⁻¹, P = M⁻¹ − G J M⁻¹ (the sensitivities of the
// exact soft solution to its right-hand side, to f and to M⁻¹ through
// I − G J),
//   |â − a| ≤ |G|(|ΔA||λ| + |Δr|) + |P|Δf + |I − GJ|ΔM⁻¹(|f| + |J|ᵀ|λ|)
//             + |P||ΔJ|ᵀ|λ| + |G||ΔJ|(|a| + |v|/h)
//             + γ_{m+6}|M⁻¹|(|f| + |J|ᵀ|λ|) + 2u(|v⁺| + |v|)/h + 2u|a|,
//   |ΔA| ≤ γ₁₆|J||M⁻¹||J|ᵀ + γ_{3m+1}|L||L|ᵀ   (forming A; LDLᵀ, L the Cholesky factor of A),
//   |Δr| ≤ γ₁₆(ERP|e|/h² + |J|(|v|/h + |M⁻¹||f|)) + ERP·Δe/h²,
// Δe, ΔJ, ΔM⁻¹, Δf the rebuild's rounding (Rows, Extracted). The last line
// of the first inequality is ODE's velocity update and our (v⁺ − v)/h. The
// force bound: |F̂ − Jᵀλ| ≤ |K|(|ΔA||λ| + |Δr|) + γ_m|J|ᵀ|λ| + |ΔJ|ᵀ|λ|.
// The matrices G, K, P are computed in double from A's Cholesky factor: a
// first-order estimate (their own error is of order κ(A)·u relative). A not
// positive definite in double: ∞.
struct StepBound {
  double accel = 0, force = 0;  // absolute, ∞-norm
};
StepBound step_bound(const Extracted& e, const SoftSolution& exact);

// (ii) Hard Gauss: M, A = J, b = −J̇u, Q; C = 0, W = I.
System<double> hard(const Extracted& e);

// The rebuild against dJointFeedback (the tests and the campaign): each
// joint's λ recovered from (f₁, t₁) through the rows' body-1 block predicts
// (f₂, t₂) through the body-2 block. Largest |predicted − ODE's|∞ over the
// joints with a body 2, and its tolerance: ODE's sums and our recovery,
// 32·(rows + 6)·u·κ₁·(|J₂|ᵀ|λ| + |f₂, t₂| + |J₁|ᵀ|λ|), κ₁ the condition
// number of the joint's body-1 block (σ₁/σ_min). Reads e.rows.J, so a wrong
// row fails it.
struct FeedbackCheck {
  double gap = 0, tolerance = 0;
  double recovery_residual = 0, recovery_tolerance = 0;  // |J₁ᵀλ − (f₁, t₁)|∞ over the joints
};
FeedbackCheck check_feedback(const Extracted& e);

// ODE's velocity change against M⁻¹(f + F) with F the force summed from its
// feedback: checks Minv and f without the rows. |a − Minv(f + F)|∞ and its
// tolerance γ_{m+6}|Minv|(|f| + |F|) + 2u(|v⁺| + |v|)/h + 2u|a| + |Minv|Δf + ΔMinv(|f| + |F|).
struct VelocityCheck {
  double gap = 0, tolerance = 0;
};
VelocityCheck check_velocity_change(const Extracted& e);

// A system as a `femc solve` input: every number exactly, "data_precision":
// "double".
std::string to_solve_json(const System<double>& sys, const std::string& name, const std::string& description);
std::string to_solve_json(const System<rational>& sys, const std::string& name, const std::string& description);

// ODE's settings that change the motion and that a user does not set, read
// from ODE's getters on a mechanism (engines/UPSTREAM.md §5).
struct Defaults {
  double erp, cfm;                  // the world's
  int quick_iterations;
  double quick_w;
  bool gyroscopic;                  // every body's
  bool auto_disable;
  double linear_damping, angular_damping, max_angular_speed;
  double lo_stop, hi_stop, fmax;    // the first hinge's
  std::string configuration;        // dGetConfiguration()
};
Defaults defaults(const Mechanism& mechanism);

// A planar loop of planar_loop.hpp in ODE: one body per link (a uniform rod,
// its frame's x along the rod, origin at its centre), hinges about z between
// consecutive serial links and to the static environment at O and D, and a
// ball joint between the last serial link's end and the rocker's (3 rows;
// with the out-of-plane rows of the hinges one row is redundant). Gravity
// along −y. Assembled at the leading angles by Newton steps on ODE's own
// position errors (to ≤ 1e-15 or six steps), the leading joints at the given
// relative speeds (rad/s), every other velocity from J u = 0 (minimum norm;
// unique away from singular configurations).
std::unique_ptr<Mechanism> planar_loop(const planar_loop::Loop& loop, const std::vector<double>& leading_angles,
                                       const std::vector<double>& leading_speeds);
// The four-bar: the crank at angle theta, speed omega.
std::unique_ptr<Mechanism> four_bar(double theta, double omega,
                                    const planar_loop::Loop& lengths = planar_loop::kCrankRocker);

// Bricard's mechanism of bricard.hpp: the grounded link is the static
// environment; the cut link's two halves, welded with the identity relative
// pose in Simbody and MuJoCo, are one body here (their frames coincide; the
// two halves make kOdd), so the loop closes with a sixth hinge between bodies
// as ODE closes loops: 5 bodies, 6 hinges, 30 rows of rank 29 in exact
// arithmetic. Assembled from the example's angles by Newton steps on ODE's
// own errors, the first pin at speed0 and the others from J u = 0.
std::unique_ptr<Mechanism> bricard(double speed0 = bricard::kSpeed0);

}  // namespace femc::engines::ode
