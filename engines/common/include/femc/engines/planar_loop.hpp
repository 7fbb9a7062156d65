#pragma once
// The planar closed loops that every engine adapter builds (issue "Real
// engines"), so that the engines are verified on the same mechanisms: a
// serial chain of links pinned at the ground pivot O = (0, 0), a rocker
// pinned at D = (ground, 0), and the chain's free end R joined to the
// rocker's end. The four-bar is the loop whose serial chain has two links
// (crank O→P, coupler P→R); the closed chain has five.
//
// Uniform 1 kg rods of radius 1 cm; gravity 9.81 m/s² along the plane's −y.
// Coordinates, in every engine: the first serial link's angle from +x, each
// further serial link's angle relative to the one before it, the rocker's
// angle from +x (one pin each). The joint order is the serial links', then
// the rocker's.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "femc/errors.hpp"

namespace femc::engines::planar_loop {

inline constexpr double kMass = 1.0, kRadius = 0.01, kGravity = 9.81;

// Link lengths (m).
struct Loop {
  double ground;
  std::vector<double> serial;  // from O; at least two links
  double rocker;               // from D
  std::string name;
};

// Grashof (0.4 + 1.2 < 1 + 0.9): the crank turns fully and the loop's
// Jacobian keeps rank 2 at every crank angle.
inline const Loop kCrankRocker{1.0, {0.4, 1.2}, 0.9, "crank-rocker"};
// A change-point four-bar (0.5 + 1 = 1 + 0.5): at θ = 0 all four links lie
// on the x axis, the loop's Jacobian drops to rank 1 and the open and
// crossed branches meet. Near θ = 0 its smallest singular value is O(θ).
inline const Loop kChangePoint{1.0, {0.5, 1.0}, 0.5, "change-point"};
// A chain of five 0.5 m links from O closed by a 0.5 m rocker at D, 1 m
// away: six pins, two independent closure rows, four degrees of freedom. It
// hangs and swings under gravity.
inline const Loop kClosedChain{1.0, {0.5, 0.5, 0.5, 0.5, 0.5}, 0.5, "closed chain"};
// The closed chain's leading angles where the campaigns start it (at rest).
inline const std::vector<double> kClosedChainStart{-1.2, -0.5, 0.2, 0.9};

// A rod's moment of inertia about a transverse axis through its centre:
// a solid cylinder of length L and radius kRadius, m(L²/12 + r²/4).
inline double transverse_inertia(double L) { return kMass * (L * L / 12 + kRadius * kRadius / 4); }
// About its own axis: m r²/2.
inline double axial_inertia() { return kMass * kRadius * kRadius / 2; }

// "ground 1, links 0.4, 1.2, rocker 0.9 m"
inline std::string describe(const Loop& L) {
  auto f = [](double x) {
    std::string s = std::to_string(x);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  };
  std::string links;
  for (double l : L.serial) links += (links.empty() ? "" : ", ") + f(l);
  return "ground " + f(L.ground) + ", links " + links + ", rocker " + f(L.rocker) + " m";
}

// The joint angles at which the loop closes, given the absolute angles of
// all serial links but the last (rad, from +x): the last link and the rocker
// close the triangle from the chain's end P to D, on the open branch (R
// above the line from P to D). Closes to rounding; each engine then
// assembles to its own tolerance. For a four-bar, `leading` is the crank
// angle alone.
inline std::vector<double> assemble(const Loop& L, const std::vector<double>& leading) {
  const std::size_t k = L.serial.size();
  if (k < 2 || leading.size() != k - 1)
    throw InputError("leading", "a loop of " + std::to_string(k) + " serial links takes " + std::to_string(k - 1) +
                                    " leading angles, not " + std::to_string(leading.size()));
  double px = 0, py = 0;
  for (std::size_t i = 0; i + 1 < k; ++i) {
    px += L.serial[i] * std::cos(leading[i]);
    py += L.serial[i] * std::sin(leading[i]);
  }
  const double coupler = L.serial.back();
  const double dx = L.ground - px, dy = -py, e = std::hypot(dx, dy);
  if (e > coupler + L.rocker || e < std::abs(coupler - L.rocker))  // touching: a folded configuration
    throw InputError("leading", "the loop does not close at leading angle " + std::to_string(leading.back()));
  const double along = (coupler * coupler - L.rocker * L.rocker + e * e) / (2 * e);
  const double h = std::sqrt(std::max(0.0, coupler * coupler - along * along));
  const double rx = px + (along * dx - h * dy) / e, ry = py + (along * dy + h * dx) / e;
  std::vector<double> q;
  double previous = 0;
  for (std::size_t i = 0; i + 1 < k; ++i) {
    q.push_back(leading[i] - previous);
    previous = leading[i];
  }
  q.push_back(std::atan2(ry - py, rx - px) - previous);
  q.push_back(std::atan2(ry, rx - L.ground));
  return q;
}

}  // namespace femc::engines::planar_loop
