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

#include <mujoco/mujoco.h>

#include "femc/engines/four_bar_geometry.hpp"
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
};
Extracted extract(const Model& model);

// The augmented hard problem (i), exact in the extracted doubles: the mass's
// D block and the force's D∘a_ref are formed in rational arithmetic. C = 0,
// W = I.
System<rational> augmented(const Extracted& e);
// Hard Gauss (ii) with b = −J̇ v; C = 0, W = I.
System<double> hard(const Extracted& e);

// The hard system as a `femc solve` input (every double exactly,
// "data_precision": "double").
std::string to_solve_json(const System<double>& sys, const std::string& name, const std::string& description);

// A four-bar of four_bar_geometry.hpp as MJCF: three hinges about −y (the
// plane x–z, z up, plays the geometry's x–y) and a <connect> between the
// coupler's and the rocker's ends: 3 rows, rank 2, the y row identically
// zero. The model is written assembled at crank angle theta0 (MuJoCo's
// <connect> holds in the configuration the model is written in), with each
// joint's ref at that configuration, so qpos is the geometry's angles.
// Contacts off; solimp, solref and timestep as given (MuJoCo's defaults:
// "0.9 0.95 0.001", "0.02 1", 0.002).
struct SoftParameters {
  double solimp[3] = {0.9, 0.95, 0.001};
  double solref[2] = {0.02, 1};
  double timestep = 0.002;
  bool refsafe = true;  // MuJoCo raises solref's time constant to ≥ 2·timestep
};
std::string four_bar_mjcf(const SoftParameters& soft = {},
                          const four_bar_geometry::Lengths& lengths = four_bar_geometry::kCrankRocker,
                          double theta0 = 1.0);
// Loads it and sets the state at crank angle theta and crank speed omega:
// the angles of four_bar_geometry::assemble refined by Newton steps on
// MuJoCo's own efc_pos (to ≤ 1e-15), the two other speeds from J v = 0.
std::unique_ptr<Model> four_bar(double theta, double omega, const SoftParameters& soft = {},
                                const four_bar_geometry::Lengths& lengths = four_bar_geometry::kCrankRocker);

}  // namespace femc::engines::mujoco
