#include <cmath>

#include "femc/engines/simbody.hpp"
#include "femc/errors.hpp"

namespace femc::engines::simbody {
namespace {

constexpr double kGround = 1.0, kCrank = 0.4, kCoupler = 1.2, kRocker = 0.9, kMass = 1.0, kG = 9.81;

// A uniform rod of length L along its body's +x from the body origin (the
// pin), thin (radius 1 cm).
SimTK::Body::Rigid rod(double L) {
  const SimTK::Vec3 com(L / 2, 0, 0);
  return SimTK::Body::Rigid(SimTK::MassProperties(
      kMass, com, SimTK::UnitInertia::cylinderAlongX(0.01, L / 2).shiftFromCentroid(-com)));
}

}  // namespace

std::unique_ptr<Mechanism> four_bar(double theta, double omega) {
  // The open branch: the rocker's end R at |R − D| = r, |R − P| = c, above
  // the line from the crank's end P to the rocker's pivot D.
  const double px = kCrank * std::cos(theta), py = kCrank * std::sin(theta);
  const double dx = kGround - px, dy = -py, e = std::hypot(dx, dy);
  if (!(e < kCoupler + kRocker) || !(e > std::abs(kCoupler - kRocker)))
    throw InputError("theta", "the four-bar does not close at crank angle " + std::to_string(theta));
  const double along = (kCoupler * kCoupler - kRocker * kRocker + e * e) / (2 * e);
  const double h = std::sqrt(kCoupler * kCoupler - along * along);
  const double rx = px + (along * dx - h * dy) / e, ry = py + (along * dy + h * dx) / e;

  auto m = std::make_unique<Mechanism>();
  m->name = "four-bar";
  m->description = "planar four-bar (ground 1, crank 0.4, coupler 1.2, rocker 0.9 m; 1 kg rods) closed by a ball "
                   "joint: 3 constraint rows, rank 2";
  SimTK::Force::Gravity(m->forces, m->matter, -SimTK::YAxis, kG);
  using SimTK::MobilizedBody;
  using SimTK::Transform;
  using SimTK::Vec3;
  MobilizedBody::Pin crank(m->matter.Ground(), Transform(), rod(kCrank), Transform());
  MobilizedBody::Pin coupler(crank, Transform(Vec3(kCrank, 0, 0)), rod(kCoupler), Transform());
  MobilizedBody::Pin rocker(m->matter.Ground(), Transform(Vec3(kGround, 0, 0)), rod(kRocker), Transform());
  SimTK::Constraint::Ball(coupler, Vec3(kCoupler, 0, 0), rocker, Vec3(kRocker, 0, 0));

  m->state = m->system.realizeTopology();
  const double coupler_angle = std::atan2(ry - py, rx - px);
  crank.setQ(m->state, theta);
  coupler.setQ(m->state, coupler_angle - theta);  // relative to the crank
  rocker.setQ(m->state, std::atan2(ry, rx - kGround));
  m->system.projectQ(m->state, 1e-14);
  crank.setU(m->state, omega);
  m->system.projectU(m->state, 1e-14);
  return m;
}

}  // namespace femc::engines::simbody
