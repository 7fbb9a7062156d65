#pragma once
// The planar four-bars that every engine adapter builds (issue "Real
// engines"), so that the engines are verified on the same mechanisms: ground
// pivots O = (0, 0) and D = (ground, 0); crank O→P, coupler P→R, rocker D→R;
// uniform 1 kg rods of radius 1 cm; gravity 9.81 m/s² along the plane's −y.
//
// Coordinates, in every engine: the crank's angle θ from +x, the coupler's
// angle relative to the crank, the rocker's angle from +x (three pins).
#include <algorithm>
#include <cmath>
#include <string>

#include "femc/errors.hpp"

namespace femc::engines::four_bar_geometry {

inline constexpr double kMass = 1.0, kRadius = 0.01, kGravity = 9.81;

// Link lengths (m).
struct Lengths {
  double ground, crank, coupler, rocker;
};
// Grashof (0.4 + 1.2 < 1 + 0.9): the crank turns fully and the loop's
// Jacobian keeps rank 2 at every crank angle.
inline constexpr Lengths kCrankRocker{1.0, 0.4, 1.2, 0.9};
// A change-point four-bar (0.5 + 1 = 1 + 0.5): at θ = 0 all four links lie
// on the x axis, the loop's Jacobian drops to rank 1 and the open and
// crossed branches meet. Near θ = 0 its smallest singular value is O(θ).
inline constexpr Lengths kChangePoint{1.0, 0.5, 1.0, 0.5};

// A rod's moment of inertia about a transverse axis through its centre:
// a solid cylinder of length L and radius kRadius, m(L²/12 + r²/4).
inline double transverse_inertia(double L) { return kMass * (L * L / 12 + kRadius * kRadius / 4); }
// About its own axis: m r²/2.
inline double axial_inertia() { return kMass * kRadius * kRadius / 2; }

// "ground 1, crank 0.4, coupler 1.2, rocker 0.9 m"
inline std::string describe(const Lengths& L) {
  auto f = [](double x) {
    std::string s = std::to_string(x);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  };
  return "ground " + f(L.ground) + ", crank " + f(L.crank) + ", coupler " + f(L.coupler) + ", rocker " +
         f(L.rocker) + " m";
}

// The three joint angles at which the loop closes.
struct Angles {
  double crank, coupler, rocker;  // coupler relative to the crank
};

// The open branch at crank angle theta (rad): the rocker's end R above the
// line from the crank's end P to D. Closes to rounding; each engine then
// assembles to its own tolerance.
inline Angles assemble(double theta, const Lengths& L = kCrankRocker) {
  const double px = L.crank * std::cos(theta), py = L.crank * std::sin(theta);
  const double dx = L.ground - px, dy = -py, e = std::hypot(dx, dy);
  if (e > L.coupler + L.rocker || e < std::abs(L.coupler - L.rocker))  // touching: a folded configuration
    throw InputError("theta", "the four-bar does not close at crank angle " + std::to_string(theta));
  const double along = (L.coupler * L.coupler - L.rocker * L.rocker + e * e) / (2 * e);
  const double h = std::sqrt(std::max(0.0, L.coupler * L.coupler - along * along));
  const double rx = px + (along * dx - h * dy) / e, ry = py + (along * dy + h * dx) / e;
  return {theta, std::atan2(ry - py, rx - px) - theta, std::atan2(ry, rx - L.ground)};
}

}  // namespace femc::engines::four_bar_geometry
