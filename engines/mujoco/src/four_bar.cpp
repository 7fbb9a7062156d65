#include <cmath>
#include <cstdio>

#include <Eigen/QR>

#include "femc/engines/four_bar_geometry.hpp"
#include "femc/engines/mujoco.hpp"

namespace femc::engines::mujoco {
namespace {

namespace geo = four_bar_geometry;

// Every double in MJCF in the digits that read back to it.
std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// A rod body of length L along its +x from the pin, turned by `angle` about
// −y and hinged there, with its joint's ref at that angle.
std::string rod_open(const std::string& name, double x, double L, double angle) {
  const double t = geo::transverse_inertia(L);
  return "<body name=\"" + name + "\" pos=\"" + num(x) + " 0 0\" axisangle=\"0 -1 0 " + num(angle) + "\">" +
         "<joint name=\"" + name + "\" type=\"hinge\" axis=\"0 -1 0\" ref=\"" + num(angle) + "\"/>" +
         "<inertial pos=\"" + num(L / 2) + " 0 0\" mass=\"" + num(geo::kMass) + "\" diaginertia=\"" +
         num(geo::axial_inertia()) + " " + num(t) + " " + num(t) + "\"/>";
}

}  // namespace

std::string four_bar_mjcf(const SoftParameters& soft, const geo::Lengths& L, double theta0) {
  const geo::Angles a = geo::assemble(theta0, L);
  std::string flags = "<flag contact=\"disable\"";
  if (!soft.refsafe) flags += " refsafe=\"disable\"";
  flags += "/>";
  return "<mujoco model=\"four-bar\">\n"
         "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
         "  <option timestep=\"" + num(soft.timestep) + "\" gravity=\"0 0 " + num(-geo::kGravity) +
         "\" jacobian=\"dense\">" + flags + "</option>\n"
         "  <worldbody>\n"
         "    " + rod_open("crank", 0, L.crank, a.crank) + "\n"
         "      " + rod_open("coupler", L.crank, L.coupler, a.coupler) + "</body>\n"
         "    </body>\n"
         "    " + rod_open("rocker", L.ground, L.rocker, a.rocker) + "</body>\n"
         "  </worldbody>\n"
         "  <equality>\n"
         "    <connect body1=\"coupler\" body2=\"rocker\" anchor=\"" + num(L.coupler) + " 0 0\" solimp=\"" +
         num(soft.solimp[0]) + " " + num(soft.solimp[1]) + " " + num(soft.solimp[2]) + "\" solref=\"" +
         num(soft.solref[0]) + " " + num(soft.solref[1]) + "\"/>\n"
         "  </equality>\n"
         "</mujoco>\n";
}

std::unique_ptr<Model> four_bar(double theta, double omega, const SoftParameters& soft, const geo::Lengths& L) {
  auto model = load_text(four_bar_mjcf(soft, L), "four-bar");
  const geo::Angles a = geo::assemble(theta, L);
  Vector<double> q(3), v = Vector<double>::Zero(3);
  q << a.crank, a.coupler, a.rocker;
  model->set_state(q, v);
  // Newton on MuJoCo's own position error r = efc_pos, minimum-norm steps
  // (J has rank 2): from rounding-level closure to MuJoCo's.
  auto J = [&] {
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    return Matrix<double>(Eigen::Map<const RowMajor>(model->d()->efc_J, model->d()->ne, 3));
  };
  auto r = [&] { return Vector<double>(Eigen::Map<const Vector<double>>(model->d()->efc_pos, model->d()->ne)); };
  for (int it = 0; it < 5 && r().lpNorm<Eigen::Infinity>() > 1e-15; ++it) {
    Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
    cod.setThreshold(1e-10);
    cod.compute(J());
    q -= cod.solve(r());
    model->set_state(q, v);
  }
  // The rocker's and coupler's speeds from J v = 0 at crank speed omega.
  const Matrix<double> Jq = J();
  Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
  cod.setThreshold(1e-10);
  cod.compute(Jq.rightCols(2));
  v(0) = omega;
  v.tail(2) = cod.solve(Vector<double>(-Jq.col(0) * omega));
  model->set_state(q, v);
  return model;
}

}  // namespace femc::engines::mujoco
