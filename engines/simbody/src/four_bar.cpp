#include <Eigen/QR>
#include <exception>

#include "femc/engines/four_bar_geometry.hpp"
#include "femc/engines/simbody.hpp"

namespace femc::engines::simbody {
namespace {

namespace geo = four_bar_geometry;

// A uniform rod of length L along its body's +x from the body origin (the
// pin): a cylinder of radius geo::kRadius.
SimTK::Body::Rigid rod(double L) {
  const SimTK::Vec3 com(L / 2, 0, 0);
  return SimTK::Body::Rigid(SimTK::MassProperties(
      geo::kMass, com, SimTK::UnitInertia::cylinderAlongX(geo::kRadius, L / 2).shiftFromCentroid(-com)));
}

}  // namespace

std::unique_ptr<Mechanism> four_bar(double theta, double omega, const geo::Lengths& L) {
  const geo::Angles a = geo::assemble(theta, L);
  auto m = std::make_unique<Mechanism>();
  m->name = "four-bar";
  m->description = "planar four-bar (" + geo::describe(L) + "; 1 kg rods) closed by a ball joint: 3 constraint rows";
  SimTK::Force::Gravity(m->forces, m->matter, -SimTK::YAxis, geo::kGravity);
  using SimTK::MobilizedBody;
  using SimTK::Transform;
  using SimTK::Vec3;
  MobilizedBody::Pin crank(m->matter.Ground(), Transform(), rod(L.crank), Transform());
  MobilizedBody::Pin coupler(crank, Transform(Vec3(L.crank, 0, 0)), rod(L.coupler), Transform());
  MobilizedBody::Pin rocker(m->matter.Ground(), Transform(Vec3(L.ground, 0, 0)), rod(L.rocker), Transform());
  SimTK::Constraint::Ball(coupler, Vec3(L.coupler, 0, 0), rocker, Vec3(L.rocker, 0, 0));

  m->state = m->system.realizeTopology();
  crank.setQ(m->state, a.crank);
  coupler.setQ(m->state, a.coupler);
  rocker.setQ(m->state, a.rocker);
  m->system.projectQ(m->state, 1e-14);
  crank.setU(m->state, omega);
  try {
    m->system.projectU(m->state, 1e-14);
  } catch (const std::exception&) {
    // Near a singular configuration Simbody's projection stalls above 1e-14
    // (seen: 4e-9 at crank angle 1e-4.5 of the change-point four-bar). The
    // speeds of G u = 0 at crank speed omega, minimum-norm in the other two.
    m->system.realize(m->state, SimTK::Stage::Position);
    SimTK::Matrix G;
    m->matter.calcG(m->state, G);
    const Matrix<double> Ge = to_eigen(G);
    Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
    cod.setThreshold(1e-10);
    cod.compute(Ge.rightCols(2));
    const Vector<double> rest = cod.solve(Vector<double>(-Ge.col(0) * omega));
    coupler.setU(m->state, rest(0));
    rocker.setU(m->state, rest(1));
  }
  return m;
}

}  // namespace femc::engines::simbody
