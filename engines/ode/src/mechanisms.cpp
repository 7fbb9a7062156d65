// The mechanisms of engines/common built in ODE: planar loops (the four-bars,
// the closed chain) and Bricard's mechanism, with maximal coordinates.
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <cmath>

#include "femc/engines/ode.hpp"
#include "femc/errors.hpp"

namespace femc::engines::ode {
namespace {

namespace loop = planar_loop;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

Mat3 rz(double angle) { return Eigen::AngleAxisd(angle, Vec3::UnitZ()).toRotationMatrix(); }

// Newton on ODE's own position errors: moving the bodies by δu changes e by
// −J δu (J u = −ė), so δu = J⁺e, minimum-norm (J has redundant rows), until
// |e|∞ ≤ 1e-15 or six steps. The rows are the adapter's rebuild, which equals
// ODE's (rows()).
void assemble(Mechanism& m) {
  for (int step = 0; step < 6; ++step) {
    const Rows r = rows(m);
    if (r.e.lpNorm<Eigen::Infinity>() <= 1e-15) break;
    Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
    cod.setThreshold(1e-10);
    cod.compute(r.J);
    m.set_state(moved(m.state(), cod.solve(r.e), 1.0));
  }
}

// The given hinges' rates ax₁·(ω₁ − ω₂) (dJointGetHingeAngleRate, hinge.cpp
// l.306–321) at the given speeds, J u = 0, minimum-norm: with the rank of
// [J; S] full (away from singular configurations) u is unique.
void set_speeds(Mechanism& m, const std::vector<std::size_t>& hinges, const std::vector<double>& speeds) {
  const Rows r = rows(m);
  const Index rows_J = r.J.rows(), k = Index(hinges.size());
  Matrix<double> JS = Matrix<double>::Zero(rows_J + k, m.n());
  JS.topRows(rows_J) = r.J;
  Vector<double> rhs = Vector<double>::Zero(rows_J + k);
  for (Index i = 0; i < k; ++i) {
    const Joint& j = m.joints()[hinges[std::size_t(i)]];
    dVector3 ax;
    dJointGetHingeAxis(j.id, ax);
    const Vec3 a(ax[0], ax[1], ax[2]);
    JS.row(rows_J + i).segment<3>(6 * Index(j.body1) + 3) = a.transpose();
    if (j.body2 >= 0) JS.row(rows_J + i).segment<3>(6 * Index(j.body2) + 3) = -a.transpose();
    rhs(rows_J + i) = speeds[std::size_t(i)];
  }
  Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
  cod.setThreshold(1e-10);
  cod.compute(JS);
  m.set_velocities(cod.solve(rhs));
}

// A frame of bricard.hpp as a rotation and an origin, a link's centre of mass.
using bricard::origin;
using bricard::rotation;
Vec3 com(const bricard::MassProperties& p) { return bricard::centre_of_mass(p); }

}  // namespace

std::unique_ptr<Mechanism> planar_loop(const loop::Loop& L, const std::vector<double>& leading_angles,
                                       const std::vector<double>& leading_speeds) {
  const std::vector<double> q = loop::assemble(L, leading_angles);
  const std::size_t k = L.serial.size();
  if (leading_speeds.size() != k - 1)
    throw InputError("leading_speeds", std::to_string(leading_speeds.size()) + " speeds for " +
                                           std::to_string(k - 1) + " leading joints");
  auto m = std::make_unique<Mechanism>(
      L.name, "planar loop (" + loop::describe(L) + "; 1 kg rods) in maximal coordinates: " + std::to_string(k + 1) +
                  " bodies, " + std::to_string(k + 1) + " hinges and a ball joint closing the loop (" +
                  std::to_string(5 * (k + 1) + 3) + " rows)");
  dWorldSetGravity(m->world(), 0, -loop::kGravity, 0);
  auto rod = [&](const std::string& name, double length) {
    const double t = loop::transverse_inertia(length);
    return m->add_body(name, loop::kMass, {loop::axial_inertia(), t, t, 0, 0, 0});
  };
  std::vector<int> links;
  for (std::size_t i = 0; i < k; ++i) links.push_back(rod("link" + std::to_string(i), L.serial[i]));
  const int rocker = rod("rocker", L.rocker);

  // Each rod's frame: x along the rod, origin at its centre; its pins at ∓L/2.
  const Mat3 I = Mat3::Identity();
  auto end = [](double length, double side) { return Vec3(side * length / 2, 0, 0); };
  m->add_hinge("pin0", links[0], end(L.serial[0], -1), I, -1, Vec3::Zero(), I);
  for (std::size_t i = 1; i < k; ++i)
    m->add_hinge("pin" + std::to_string(i), links[i], end(L.serial[i], -1), I, links[i - 1], end(L.serial[i - 1], 1), I);
  m->add_hinge("rocker pin", rocker, end(L.rocker, -1), I, -1, Vec3(L.ground, 0, 0), I);
  m->add_ball("closure", links[k - 1], end(L.serial[k - 1], 1), rocker, end(L.rocker, 1));

  // The bodies where planar_loop::assemble puts them (closed to rounding).
  std::vector<BodyState> s(k + 1);
  double angle = 0;
  Vec3 pin = Vec3::Zero();
  for (std::size_t i = 0; i < k; ++i) {
    angle += q[i];
    const Vec3 along(std::cos(angle), std::sin(angle), 0);
    s[i].position = pin + L.serial[i] / 2 * along;
    s[i].rotation = rz(angle);
    pin += L.serial[i] * along;
  }
  s[k].position = Vec3(L.ground, 0, 0) + L.rocker / 2 * Vec3(std::cos(q.back()), std::sin(q.back()), 0);
  s[k].rotation = rz(q.back());
  for (BodyState& b : s) b.linear_velocity = b.angular_velocity = Vec3::Zero();
  m->set_state(s);
  assemble(*m);
  std::vector<std::size_t> leading;
  for (std::size_t i = 0; i + 1 < k; ++i) leading.push_back(i);  // pin0 … pin(k−2)
  set_speeds(*m, leading, leading_speeds);
  return m;
}

std::unique_ptr<Mechanism> four_bar(double theta, double omega, const loop::Loop& L) {
  return planar_loop(L, {theta}, {omega});
}

std::unique_ptr<Mechanism> bricard(double speed0) {
  auto m = std::make_unique<Mechanism>(
      "Bricard", "Bricard's mechanism (Simbody's example) in maximal coordinates: 5 bodies (the cut link's welded "
                 "halves one body), 6 hinges, 30 rows of rank 29");
  dWorldSetGravity(m->world(), 0, -bricard::kGravity, 0);
  // The body of each pin's child link: the halves of the cut link (pins 2 and
  // 5, the same frame, kOddHalf each) are one body with kOdd.
  constexpr std::array<int, 6> body_of{0, 1, 2, 3, 4, 2};
  std::array<const bricard::MassProperties*, 5> props{};
  for (std::size_t i = 0; i < bricard::kPins.size(); ++i) props[std::size_t(body_of[i])] = &bricard::kPins[i].body;
  props[2] = &bricard::kOdd;
  const std::array<const char*, 5> names{"odd1", "even2", "odd3", "odd2", "even3"};
  for (std::size_t b = 0; b < props.size(); ++b) m->add_body(names[b], props[b]->mass, props[b]->inertia);

  // Each link's ODE frame: the link's frame moved to its centre of mass.
  const Mat3 R_G = rotation(bricard::kGroundedLink);
  const Vec3 p_G = origin(bricard::kGroundedLink);
  for (std::size_t i = 0; i < bricard::kPins.size(); ++i) {
    const bricard::Pin& pin = bricard::kPins[i];
    const int child = body_of[i];
    const Vec3 anchor1 = origin(pin.X_BM) - com(*props[std::size_t(child)]);
    if (pin.parent < 0) {
      // The grounded link is the static environment: the F frame in the world.
      m->add_hinge(pin.name, child, anchor1, rotation(pin.X_BM), -1, R_G * origin(pin.X_PF) + p_G,
                   R_G * rotation(pin.X_PF));
    } else {
      const int parent = body_of[std::size_t(pin.parent)];
      m->add_hinge(pin.name, child, anchor1, rotation(pin.X_BM), parent,
                   origin(pin.X_PF) - com(*props[std::size_t(parent)]), rotation(pin.X_PF));
    }
  }

  // The example's angles along the pins (X_PB = X_PF·Rz(q)·X_BM⁻¹); the cut
  // link placed by the first chain that reaches it (pin 2), the other (pin 5)
  // closed by the assembly.
  std::array<Mat3, 5> R;
  std::array<Vec3, 5> p;
  std::array<bool, 5> placed{};
  for (std::size_t i = 0; i < bricard::kPins.size(); ++i) {
    const bricard::Pin& pin = bricard::kPins[i];
    const int child = body_of[i];
    if (placed[std::size_t(child)]) continue;
    const Mat3 R_P = pin.parent < 0 ? R_G : R[std::size_t(body_of[std::size_t(pin.parent)])];
    const Vec3 p_P = pin.parent < 0 ? p_G : p[std::size_t(body_of[std::size_t(pin.parent)])];
    const Mat3 R_BM = rotation(pin.X_BM);
    const Mat3 R_PB = rotation(pin.X_PF) * rz(pin.q0) * R_BM.transpose();
    const Vec3 p_PB = origin(pin.X_PF) - R_PB * origin(pin.X_BM);
    R[std::size_t(child)] = R_P * R_PB;
    p[std::size_t(child)] = p_P + R_P * p_PB;
    placed[std::size_t(child)] = true;
  }
  std::vector<BodyState> s(5);
  for (std::size_t b = 0; b < 5; ++b) {
    s[b].rotation = R[b];
    s[b].position = p[b] + R[b] * com(*props[b]);
    s[b].linear_velocity = s[b].angular_velocity = Vec3::Zero();
  }
  m->set_state(s);
  assemble(*m);
  set_speeds(*m, {0}, {speed0});
  return m;
}

}  // namespace femc::engines::ode
