#pragma once
// Simbody 3.7 as a solver under test (issue "Real engines"): a mechanism
// built in Simbody, the Gauss data Simbody computes its accelerations from,
// and Simbody's answer.
//
// At a state (q, u, t) realized to Stage::Acceleration, Simbody solves
//   M u̇ + Gᵀλ_s = f,   G u̇ = b
// (generalized speeds u; Simbody's multipliers λ_s have the opposite sign of
// femc's λ, whose constraint force is Aᵀλ). The adapter reads, with
// Simbody's own operators (checked against its headers):
//   M = calcM, A = G = calcG, b = −calcBiasForAccelerationConstraints
//   (the velocity-product term −Ġu included), and
//   Q = −calcResidualForceIgnoringConstraints(applied forces, u̇ = 0)
//   = applied − velocity-dependent inertial forces;
// C = 0 and W = I (Simbody's constraints do no work). Every number is a
// double as Simbody computed it: the data's precision is double, and a
// permanently redundant row is redundant only to rounding
// (femc/data_precision.hpp).
#include <memory>
#include <string>
#include <vector>

#include <Simbody.h>

#include "femc/engines/bricard.hpp"
#include "femc/engines/planar_loop.hpp"
#include "femc/system.hpp"

namespace femc::engines::simbody {

// A mechanism built in Simbody and the state it is sampled at.
struct Mechanism {
  std::string name, description;
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::State state;
};

// What Simbody computes at a mechanism's state and the data it computes it from.
struct Extracted {
  System<double> system;  // M, A, b, Q as above; C = 0, W = I
  Vector<double> udot;    // Simbody's accelerations u̇
  Vector<double> lambda;  // Simbody's multipliers in femc's sign (−λ_s)
};

// Simbody's vectors and matrices as femc's (copies).
Vector<double> to_eigen(const SimTK::Vector& x);
Matrix<double> to_eigen(const SimTK::Matrix& X);

// Realizes a copy of the mechanism's state to Stage::Acceleration and reads
// the above.
Extracted extract(const Mechanism& mechanism);

// The extracted system as a `femc solve` input: every double in the digits
// that read back to it exactly, "data_precision": "double".
std::string to_solve_json(const Extracted& e, const std::string& name, const std::string& description);

// A planar loop of planar_loop.hpp in Simbody (pins about z, gravity along
// −y), closed by a ball joint (Constraint::Ball) between the last serial
// link's end and the rocker's: 3 rows, of which the z row is identically zero
// for planar motion (a permanently redundant row; rank 2 of 3 away from
// singular configurations). At the leading angles (rad) on the open branch,
// assembled by Simbody to 1e-14, with the leading joints' speeds (rad/s)
// projected by Simbody onto the velocity constraints (minimum-norm in all
// speeds, so the leading speeds change too).
std::unique_ptr<Mechanism> planar_loop(const planar_loop::Loop& loop, const std::vector<double>& leading_angles,
                                       const std::vector<double>& leading_speeds);
// The four-bar: the loop's crank at angle theta, speed omega.
std::unique_ptr<Mechanism> four_bar(double theta, double omega,
                                    const planar_loop::Loop& lengths = planar_loop::kCrankRocker);

// Bricard's mechanism of bricard.hpp: six pins, the cut link's halves joined
// by Constraint::Weld (6 rows, rank 5 in exact arithmetic), at the example's
// assembled angles, assembled by Simbody to 1e-14, with the first pin's speed
// `speed0` projected onto the velocity constraints.
std::unique_ptr<Mechanism> bricard(double speed0 = bricard::kSpeed0);

}  // namespace femc::engines::simbody
