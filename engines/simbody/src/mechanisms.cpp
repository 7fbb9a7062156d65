// The mechanisms of engines/common built in Simbody: planar loops (the
// four-bars, the closed chain) and Bricard's mechanism.
#include <Eigen/QR>

#include "femc/engines/simbody.hpp"

namespace femc::engines::simbody {
namespace {

namespace loop = planar_loop;

// A uniform rod of length L along its body's +x from the body origin (the
// pin): a cylinder of radius loop::kRadius.
SimTK::Body::Rigid rod(double L) {
  const SimTK::Vec3 com(L / 2, 0, 0);
  return SimTK::Body::Rigid(SimTK::MassProperties(
      loop::kMass, com, SimTK::UnitInertia::cylinderAlongX(loop::kRadius, L / 2).shiftFromCentroid(-com)));
}

// Assembles the mechanism's state (its q set near the loop's closure) by
// Simbody's projection, then sets the speeds: the leading ones as given, the
// others from G u = 0, minimum-norm (unique for one degree of freedom). Not
// Simbody's projectU: it moves the given speeds too (the minimum change of
// the whole u), so the crank would not turn at the speed asked, nor at the
// one the MuJoCo adapter sets; near a singular configuration it also stalls
// above 1e-14 (seen: 4e-9 at crank angle 1e-4.5 of the change-point four-bar).
void close(Mechanism& m, const std::vector<double>& speeds) {
  m.system.projectQ(m.state, 1e-14);
  m.system.realize(m.state, SimTK::Stage::Position);
  SimTK::Matrix G;
  m.matter.calcG(m.state, G);
  const Matrix<double> Ge = to_eigen(G);
  const Index lead = Index(speeds.size()), rest = Ge.cols() - lead;
  Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
  cod.setThreshold(1e-10);
  cod.compute(Ge.rightCols(rest));
  Vector<double> u_lead(lead);
  for (Index i = 0; i < lead; ++i) u_lead(i) = speeds[std::size_t(i)];
  const Vector<double> u_rest = cod.solve(Vector<double>(-Ge.leftCols(lead) * u_lead));
  for (Index i = 0; i < lead; ++i) m.state.updU()[int(i)] = u_lead(i);
  for (Index i = 0; i < rest; ++i) m.state.updU()[int(lead + i)] = u_rest(i);
}

SimTK::Transform transform(const bricard::Frame& f) {
  const auto& R = f.R;
  return SimTK::Transform(SimTK::Rotation(SimTK::Mat33(R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8])),
                          SimTK::Vec3(f.p[0], f.p[1], f.p[2]));
}

SimTK::Body::Rigid body(const bricard::MassProperties& p) {
  const SimTK::Vec3 com(p.com[0], p.com[1], p.com[2]);
  const auto& I = p.inertia;
  const SimTK::Inertia central(I[0], I[1], I[2], I[3], I[4], I[5]);
  return SimTK::Body::Rigid(SimTK::MassProperties(p.mass, com, central.shiftFromMassCenter(-com, p.mass)));
}

}  // namespace

std::unique_ptr<Mechanism> planar_loop(const loop::Loop& L, const std::vector<double>& leading_angles,
                                       const std::vector<double>& leading_speeds) {
  const std::vector<double> q = loop::assemble(L, leading_angles);
  auto m = std::make_unique<Mechanism>();
  m->name = L.name;
  m->description = "planar loop (" + loop::describe(L) + "; 1 kg rods) closed by a ball joint: 3 constraint rows";
  SimTK::Force::Gravity(m->forces, m->matter, -SimTK::YAxis, loop::kGravity);
  using SimTK::MobilizedBody;
  using SimTK::Transform;
  using SimTK::Vec3;
  std::vector<MobilizedBody::Pin> pins;
  pins.reserve(L.serial.size());  // each pin's parent is the one before it: no reallocation
  MobilizedBody* parent = &m->matter.Ground();
  double offset = 0;
  for (double length : L.serial) {
    pins.emplace_back(*parent, Transform(Vec3(offset, 0, 0)), rod(length), Transform());
    parent = &pins.back();
    offset = length;
  }
  MobilizedBody::Pin rocker(m->matter.Ground(), Transform(Vec3(L.ground, 0, 0)), rod(L.rocker), Transform());
  SimTK::Constraint::Ball(pins.back(), Vec3(L.serial.back(), 0, 0), rocker, Vec3(L.rocker, 0, 0));

  m->state = m->system.realizeTopology();
  for (std::size_t i = 0; i < pins.size(); ++i) pins[i].setQ(m->state, q[i]);
  rocker.setQ(m->state, q.back());
  close(*m, leading_speeds);
  return m;
}

std::unique_ptr<Mechanism> four_bar(double theta, double omega, const loop::Loop& L) {
  return planar_loop(L, {theta}, {omega});
}

std::unique_ptr<Mechanism> bricard(double speed0) {
  auto m = std::make_unique<Mechanism>();
  m->name = "Bricard";
  m->description = "Bricard's mechanism (Simbody's example): six pins, the cut link's halves welded, 6 rows of rank 5";
  SimTK::Force::Gravity(m->forces, m->matter, -SimTK::YAxis, bricard::kGravity);
  using SimTK::MobilizedBody;
  MobilizedBody::Weld grounded(m->matter.Ground(), transform(bricard::kGroundedLink), body(bricard::kEven),
                                     SimTK::Transform());
  std::vector<MobilizedBody::Pin> pins;
  pins.reserve(bricard::kPins.size());  // parents are referenced: no reallocation
  for (const bricard::Pin& p : bricard::kPins) {
    MobilizedBody& parent = p.parent < 0 ? static_cast<MobilizedBody&>(grounded) : pins[std::size_t(p.parent)];
    pins.emplace_back(parent, transform(p.X_PF), body(p.body), transform(p.X_BM));
  }
  SimTK::Constraint::Weld(pins[bricard::kWeldA], SimTK::Transform(), pins[bricard::kWeldB], SimTK::Transform());

  m->state = m->system.realizeTopology();
  for (std::size_t i = 0; i < pins.size(); ++i) pins[i].setQ(m->state, bricard::kPins[i].q0);
  close(*m, {speed0});
  return m;
}

}  // namespace femc::engines::simbody
