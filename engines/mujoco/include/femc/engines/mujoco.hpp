#pragma once
// MuJoCo 2.2.2 as a solver under test (issue "Real engines"): a mechanism
// loaded from MJCF, the data MuJoCo computes its accelerations from, and
// MuJoCo's answer.
//
// MuJoCo's equality constraints are soft. After mj_forward its acceleration
// minimizes (MuJoCo's documentation, "Computation"; checked on the headers'
// fields below)
//   ‖x − a₀‖²_M + (J x − a_ref)ᵀ D (J x − a_ref),   a₀ = M⁻¹Q,
// with M = mj_fullM(qM), J = efc_J (dense), Q = qfrc_smooth (gravity,
// passive, actuation, minus the velocity-product forces), D = efc_D (= 1/efc_R,
// from solimp) and a_ref = efc_aref = −B·(J v) − K·imp·r (from solref, solimp
// and the position error r = efc_pos). Its constraint force is
// efc_force = −D (J x − a_ref).
//
// (i) The same x is the Gauss solution of a larger hard problem, which femc
// solves exactly (augmented()):
//   unknowns (x, s) ∈ ℝⁿ⁺ᵐ, mass diag(M, D), applied force (Q, D a_ref),
//   constraint [J  −I](x, s) = 0  (full row rank whatever J's rank);
// its multipliers λ (constraint force Aᵀλ = (Jᵀλ, −λ)) satisfy
// D s = D a_ref − λ, so λ = −D (J x − a_ref) = efc_force, with the same sign.
//
// (ii) Hard Gauss (hard()): M, A = J, Q as above and b = −J̇ v, the
// velocity-product term MuJoCo never forms (2.2.2 has no mj_jacDot); the
// adapter takes it by a Richardson-extrapolated central difference of efc_J
// along the motion. Its stiff limit (D → ∞) targets J x = a_ref instead,
// which is 0 on the constraint manifold.
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "femc/engines/bricard.hpp"
#include "femc/engines/planar_loop.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"

namespace femc::engines::mujoco {

// A compiled MuJoCo model and its data (owned), with the equality rows made
// dense (opt.jacobian = mjJAC_DENSE).
class Model {
 public:
  Model(mjModel* m, std::string name);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const std::string& name() const { return name_; }
  mjModel* m() const { return m_; }
  mjData* d() const { return d_; }
  int nv() const { return m_->nv; }
  // Sets qpos (nq) and qvel (nv) and runs mj_forward.
  void set_state(const Vector<double>& qpos, const Vector<double>& qvel);
  Vector<double> qpos() const;
  Vector<double> qvel() const;

 private:
  mjModel* m_;
  mjData* d_;
  std::string name_;
};

// Loads MJCF from a file or from text. A model MuJoCo cannot compile, or one
// whose constraints the adapter cannot express (see extract), throws
// InputError naming the file and MuJoCo's reason.
std::unique_ptr<Model> load_file(const std::string& path);
std::unique_ptr<Model> load_text(const std::string& mjcf, const std::string& name);

// What MuJoCo computes at the model's current state and the data it computes
// it from. Only equality constraint rows are expressed: a state with contact,
// limit or friction-loss rows throws InputError.
struct Extracted {
  Matrix<double> M, J;              // mj_fullM(qM); efc_J (ne × nv)
  Vector<double> Q;                 // qfrc_smooth
  Vector<double> D, aref, pos;      // efc_D, efc_aref, efc_pos
  Vector<double> Jdot_v;            // J̇ v by differences (header)
  double Jdot_v_error = 0;          // its Richardson error estimate, ∞-norm
  Vector<double> qacc, efc_force;   // MuJoCo's answer
  // Where MuJoCo's solver starts: the better of these two (its warmstart).
  Vector<double> qacc_warmstart, qacc_smooth;
};
Extracted extract(const Model& model);

// The first-order bound on |qacc − x|∞, x the exact soft solution of the
// extracted data, for MuJoCo's Newton solver (its default) on equality rows.
// The cost is quadratic with Hessian H = M + JᵀDJ; from x₀ (the better of
// qacc_warmstart and qacc_smooth) MuJoCo forms the gradient
// g = M x₀ − Q + JᵀD(J x₀ − a_ref), forms H, factors it by Cholesky, solves
// H d = g and steps x₀ − α d, α from an exact line search. With
// γ_k = k·u/(1 − k·u), to first order in u (Higham, Accuracy and Stability,
// §3.5 for the products, Thm 10.4 for the Cholesky solve, L the computed
// factor):
//   |ĝ − g| ≤ γ_{n+k+1}·(|M||x₀| + |Q| + |J|ᵀD(|J||x₀| + |a_ref|)),
//   (H + ΔH) d̂ = ĝ with |ΔH| ≤ γ_{k+1}(|M| + |J|ᵀD|J|) + γ_{3n+1}|L||Lᵀ|,
//   |α̂ − α| ≤ γ_{n+k}·α,
// so |x̂ − x| ≤ |H⁻¹|(|ĝ − g| + |ΔH||d|) + γ_{n+k}|d|, d = x₀ − x; the bound
// is taken from the start point MuJoCo picks (the lower cost; both where
// the costs tie to their rounding, γ_{2(n+k)+4} times the cost's terms in
// absolute value, and the larger bound). Rounding in M, J, D, a_ref, Q
// themselves is not counted: they are the data.
double newton_bound(const Extracted& e, const Vector<double>& x);
// The bound on |efc_force − λ|∞ that follows, λ = −D(J x − a_ref) the exact
// multipliers: MuJoCo forms efc_force = −D(J qacc − a_ref), so
//   |efc_force − λ| ≤ max D·(‖J‖∞·qacc_bound + 2nε(‖J‖∞|qacc|∞ + |a_ref|∞)),
// qacc_bound = newton_bound(e, x).
double force_bound(const Extracted& e, double qacc_bound);

// The augmented hard problem (i), exact in the extracted doubles: the mass's
// D block and the force's D∘a_ref are formed in rational arithmetic. C = 0,
// W = I.
System<rational> augmented(const Extracted& e);
// Hard Gauss (ii) with b = −J̇ v; C = 0, W = I.
System<double> hard(const Extracted& e);

// The hard system as a `femc solve` input (every double exactly,
// "data_precision": "double").
std::string to_solve_json(const System<double>& sys, const std::string& name, const std::string& description);

// Solver softness and timestep written into a model (MuJoCo's defaults:
// solimp "0.9 0.95 0.001", solref "0.02 1", timestep 0.002).
struct SoftParameters {
  double solimp[3] = {0.9, 0.95, 0.001};
  double solref[2] = {0.02, 1};
  double timestep = 0.002;
  bool refsafe = true;  // MuJoCo raises solref's time constant to ≥ 2·timestep
};

// A planar loop of planar_loop.hpp as MJCF: hinges about −y (the plane x–z,
// z up, plays the geometry's x–y), the serial links nested, and a <connect>
// between the last serial link's end and the rocker's: 3 rows, rank 2, the y
// row identically zero. The model is written assembled at the leading
// angles `leading0` (MuJoCo's <connect> holds in the configuration the model
// is written in), with each joint's ref at that configuration, so qpos is the
// geometry's angles. Contacts off; solimp, solref and timestep as given.
std::string planar_loop_mjcf(const planar_loop::Loop& loop, const std::vector<double>& leading0,
                             const SoftParameters& soft = {});
// Loads it and sets the state at the leading angles and speeds: the angles
// of planar_loop::assemble refined by Newton steps on MuJoCo's own efc_pos
// (to ≤ 1e-15), the other speeds from J v = 0.
std::unique_ptr<Model> planar_loop(const planar_loop::Loop& loop, const std::vector<double>& leading_angles,
                                   const std::vector<double>& leading_speeds, const SoftParameters& soft = {});
// The four-bars: the loop's crank at angle theta (theta0 for the model's
// written configuration), speed omega.
std::string four_bar_mjcf(const SoftParameters& soft = {}, const planar_loop::Loop& lengths = planar_loop::kCrankRocker,
                          double theta0 = 1.0);
std::unique_ptr<Model> four_bar(double theta, double omega, const SoftParameters& soft = {},
                                const planar_loop::Loop& lengths = planar_loop::kCrankRocker);

// Bricard's mechanism of bricard.hpp as MJCF: the grounded link a body
// without a joint, six hinges at the example's assembled angles (their
// refs), the two halves of the cut link joined by a <weld> with the identity
// relative pose: 6 rows, rank 5 in exact arithmetic. Loaded, closed by
// Newton steps on efc_pos, the first hinge at speed `speed0` and the others
// from J v = 0.
std::string bricard_mjcf(const SoftParameters& soft = {});
std::unique_ptr<Model> bricard(double speed0 = bricard::kSpeed0, const SoftParameters& soft = {});

// A body's inertia about its centre of mass, in the body's frame, as the
// compiled model holds it: R diag(body_inertia) Rᵀ, R = body_iquat's rotation.
// MuJoCo diagonalizes a fullinertia when it compiles the model; this against
// the matrix written is its diagonalization error.
Eigen::Matrix3d compiled_inertia(const Model& model, const std::string& body);
// For Bricard's model: per link (the grounded one, then kPins' order), the
// largest entry of |compiled_inertia − the fullinertia written|.
std::vector<double> bricard_inertia_errors(const Model& model);

}  // namespace femc::engines::mujoco
