#pragma once
// Bricard's mechanism as every engine adapter builds it (issue "Real
// engines"): the one Simbody 3.7 ships as an example
// (examples/src/BricardMechanism/ExampleBricardMechanism.cpp, due to Moonki
// Jung and Michael Sherman), its numbers transcribed here, SI units.
//
// Six links in a closed loop of six pins. One link is welded to the ground;
// the link opposite it is cut in two halves, each on its own pin, and the
// halves are welded together: six pins (six coordinates, one per pin) and
// six weld rows. Grübler counts 6 − 6 = 0 degrees of freedom; Bricard's
// geometry (each link 2 m, consecutive pin axes at right angles) moves with
// one, so one weld row is redundant, and not any particular one: the
// Jacobian has rank 5 in exact arithmetic and is of full rank 6 to rounding
// in double (ENGINES.md: σ₆/σ₁ ≈ 1e-16).
//
// The pins are listed here parents first, in the order MuJoCo numbers the
// degrees of freedom of the nested bodies (the example creates the same
// bodies in another order), so that both engines have the same coordinates.
#include <Eigen/Core>
#include <array>

namespace femc::engines::bricard {

// A frame: rotation (rows) and origin, in its parent's frame.
struct Frame {
  std::array<double, 9> R;
  std::array<double, 3> p;
};
// A frame's rotation (R row-major) and origin, in double, as the adapters
// build their links from them (bricard_model.hpp reads them at the model's
// scalar).
inline Eigen::Matrix3d rotation(const Frame& f) {
  return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(f.R.data());
}
inline Eigen::Vector3d origin(const Frame& f) { return {f.p[0], f.p[1], f.p[2]}; }

// A link's mass properties: mass (kg), centre of mass in its frame (m),
// inertia about the centre of mass (kg m²) as xx, yy, zz, xy, xz, yz (the
// matrix's entries, as Simbody's Inertia and MJCF's fullinertia take them).
struct MassProperties {
  double mass;
  std::array<double, 3> com;
  std::array<double, 6> inertia;
};

// The inertia as the symmetric matrix and the centre of mass, in double,
// as the adapters give them to their engines.
inline Eigen::Matrix3d inertia(const MassProperties& p) {
  const auto& I = p.inertia;
  return (Eigen::Matrix3d() << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]).finished();
}
inline Eigen::Vector3d centre_of_mass(const MassProperties& p) { return {p.com[0], p.com[1], p.com[2]}; }

inline constexpr double kGravity = 9.8;  // along −y
inline constexpr double kMass = 20;
inline constexpr MassProperties kEven{kMass, {1.0, -0.16416667, -0.16416667},
                                      {3.334, 28.33366667, 28.33366667, -4.96666667, -1.6, -0.03333333}};
inline constexpr MassProperties kOdd{kMass, {1.0, 0.16416667, -0.16416667},
                                     {3.334, 28.33366667, 28.33366667, 4.96666667, -1.6, 0.03333333}};
// Each half of the cut link: half the mass and half the inertia.
constexpr MassProperties half(const MassProperties& p) {
  MassProperties h = p;
  h.mass /= 2;
  for (double& i : h.inertia) i /= 2;
  return h;
}
inline constexpr MassProperties kOddHalf = half(kOdd);

// The link welded to the ground: its frame in the ground's.
inline constexpr Frame kGroundedLink{{1, 0, 0, 0, -1, 0, 0, 0, -1}, {0, 0, 0}};

// A pin: the rotation about the common z axis of frame F, fixed in the
// parent, and frame M, fixed in the child (Simbody's MobilizedBody::Pin):
// X_PB(q) = X_PF · Rz(q) · X_BM⁻¹.
struct Pin {
  const char* name;
  int parent;  // −1: the grounded link; otherwise an index into kPins
  Frame X_PF, X_BM;
  MassProperties body;
  double q0;   // the assembled angle the example starts from (rad)
};

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr std::array<double, 9> kRz90{0, -1, 0, 1, 0, 0, 0, 0, 1};
inline constexpr std::array<double, 9> kTurn{0, -1, 0, 0, 0, 1, -1, 0, 0};
inline constexpr std::array<Pin, 6> kPins{{
    {"odd1", -1, {kRz90, {0, 0, 0}}, {kRz90, {0, 0, 0}}, kOdd, kPi},
    {"even2", 0, {kTurn, {2, 0, 0}}, {{0, -1, 0, -1, 0, 0, 0, 0, -1}, {0, 0, 0}}, kEven, -120 * kPi / 180},
    {"odd3_half2", 1, {kTurn, {2, 0, 0}}, {kRz90, {0, 0, 0}}, kOddHalf, 0},
    {"odd2", -1, {kTurn, {2, 0, 0}}, {kRz90, {0, 0, 0}}, kOdd, -120 * kPi / 180},
    {"even3", 3, {kTurn, {2, 0, 0}}, {{0, -1, 0, 0, 0, -1, 1, 0, 0}, {2, 0, 0}}, kEven, kPi},
    {"odd3_half1", 4, {{0, -1, 0, -1, 0, 0, 0, 0, -1}, {0, 0, 0}}, {kTurn, {2, 0, 0}}, kOddHalf, 120 * kPi / 180},
}};
// The weld joins the two halves' frames.
inline constexpr int kWeldA = 5, kWeldB = 2;
// The example's initial speed of the first pin (rad/s); the other speeds
// follow from the constraints.
inline constexpr double kSpeed0 = -11.2;

}  // namespace femc::engines::bricard
