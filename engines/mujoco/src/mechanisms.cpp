// The mechanisms of engines/common written as MJCF: planar loops (the
// four-bars, the closed chain) and Bricard's mechanism.
#include <cmath>
#include <cstdio>

#include <Eigen/Geometry>
#include <Eigen/QR>

#include "femc/engines/mujoco.hpp"
#include "femc/errors.hpp"

namespace femc::engines::mujoco {
namespace {

namespace loop = planar_loop;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Every double in MJCF in the digits that read back to it.
std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
std::string nums(std::initializer_list<double> xs) {
  std::string out;
  for (double x : xs) out += (out.empty() ? "" : " ") + num(x);
  return out;
}

std::string option(const SoftParameters& soft, const std::string& gravity) {
  return "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
         "  <option timestep=\"" + num(soft.timestep) + "\" gravity=\"" + gravity + "\" jacobian=\"dense\">"
         "<flag contact=\"disable\"" + (soft.refsafe ? "" : " refsafe=\"disable\"") + "/></option>\n";
}

std::string softness(const SoftParameters& soft) {
  return " solimp=\"" + nums({soft.solimp[0], soft.solimp[1], soft.solimp[2]}) + "\" solref=\"" +
         nums({soft.solref[0], soft.solref[1]}) + "\"";
}

// A rod body of length L along its +x from the pin at (x, 0, 0), turned by
// `angle` about −y and hinged there, with its joint's ref at that angle
// (left open for its children).
std::string rod_open(const std::string& name, double x, double L, double angle) {
  const double t = loop::transverse_inertia(L);
  return "<body name=\"" + name + "\" pos=\"" + num(x) + " 0 0\" axisangle=\"0 -1 0 " + num(angle) + "\">" +
         "<joint name=\"" + name + "\" type=\"hinge\" axis=\"0 -1 0\" ref=\"" + num(angle) + "\"/>" +
         "<inertial pos=\"" + num(L / 2) + " 0 0\" mass=\"" + num(loop::kMass) + "\" diaginertia=\"" +
         nums({loop::axial_inertia(), t, t}) + "\"/>";
}

// Newton on MuJoCo's own position errors r = efc_pos from q, minimum-norm
// steps (the Jacobian may be rank-deficient), to ≤ 1e-15 or five steps; then
// the speeds: the leading ones as given, the others from J v = 0
// (minimum-norm).
void close(Model& model, Vector<double> q, const std::vector<double>& leading_speeds) {
  const Index n = model.nv();
  Vector<double> v = Vector<double>::Zero(n);
  model.set_state(q, v);
  auto J = [&] { return Matrix<double>(Eigen::Map<const RowMajor>(model.d()->efc_J, model.d()->ne, n)); };
  auto r = [&] { return Vector<double>(Eigen::Map<const Vector<double>>(model.d()->efc_pos, model.d()->ne)); };
  for (int it = 0; it < 5 && r().lpNorm<Eigen::Infinity>() > 1e-15; ++it) {
    Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
    cod.setThreshold(1e-10);
    cod.compute(J());
    q -= cod.solve(r());
    model.set_state(q, v);
  }
  const Matrix<double> Jq = J();
  const Index lead = Index(leading_speeds.size());
  for (Index i = 0; i < lead; ++i) v(i) = leading_speeds[std::size_t(i)];
  Eigen::CompleteOrthogonalDecomposition<Matrix<double>> cod;
  cod.setThreshold(1e-10);
  cod.compute(Jq.rightCols(n - lead));
  v.tail(n - lead) = cod.solve(Vector<double>(-Jq.leftCols(lead) * v.head(lead)));
  model.set_state(q, v);
}

// A frame of bricard.hpp as Eigen's.
using bricard::origin;
using bricard::rotation;

std::string pose(const Eigen::Vector3d& p, const Eigen::Matrix3d& R) {
  const Eigen::Quaterniond quat(R);
  return "pos=\"" + nums({p.x(), p.y(), p.z()}) + "\" quat=\"" + nums({quat.w(), quat.x(), quat.y(), quat.z()}) +
         "\"";
}

std::string inertial(const bricard::MassProperties& p) {
  const auto& I = p.inertia;
  return "<inertial pos=\"" + nums({p.com[0], p.com[1], p.com[2]}) + "\" mass=\"" + num(p.mass) +
         "\" fullinertia=\"" + nums({I[0], I[1], I[2], I[3], I[4], I[5]}) + "\"/>";
}

// Pin i's body and, nested, its children's.
std::string bricard_body(std::size_t i) {
  const bricard::Pin& pin = bricard::kPins[i];
  // X_PB at q0 = X_PF · Rz(q0) · X_BM⁻¹; the joint at M's origin about M's z.
  const Eigen::Matrix3d R_PF = rotation(pin.X_PF), R_BM = rotation(pin.X_BM);
  const Eigen::Matrix3d R_PB = R_PF * Eigen::AngleAxisd(pin.q0, Eigen::Vector3d::UnitZ()).toRotationMatrix() *
                               R_BM.transpose();
  const Eigen::Vector3d p_PB = origin(pin.X_PF) - R_PB * origin(pin.X_BM);
  const Eigen::Vector3d axis = R_BM.col(2), at = origin(pin.X_BM);
  std::string out = "<body name=\"" + std::string(pin.name) + "\" " + pose(p_PB, R_PB) + "><joint name=\"" +
                    pin.name + "\" type=\"hinge\" pos=\"" + nums({at.x(), at.y(), at.z()}) + "\" axis=\"" +
                    nums({axis.x(), axis.y(), axis.z()}) + "\" ref=\"" + num(pin.q0) + "\"/>" + inertial(pin.body);
  for (std::size_t j = 0; j < bricard::kPins.size(); ++j)
    if (bricard::kPins[j].parent == int(i)) out += bricard_body(j);
  return out + "</body>";
}

}  // namespace

std::string planar_loop_mjcf(const loop::Loop& L, const std::vector<double>& leading0, const SoftParameters& soft) {
  const std::vector<double> q = loop::assemble(L, leading0);
  std::string serial, close_tags;
  double x = 0;
  for (std::size_t i = 0; i < L.serial.size(); ++i) {
    serial += rod_open("link" + std::to_string(i), x, L.serial[i], q[i]);
    close_tags += "</body>";
    x = L.serial[i];
  }
  return "<mujoco model=\"" + L.name + "\">\n" + option(soft, "0 0 " + num(-loop::kGravity)) +
         "  <worldbody>\n"
         "    " + serial + close_tags + "\n"
         "    " + rod_open("rocker", L.ground, L.rocker, q.back()) + "</body>\n"
         "  </worldbody>\n"
         "  <equality>\n"
         "    <connect body1=\"link" + std::to_string(L.serial.size() - 1) + "\" body2=\"rocker\" anchor=\"" +
         num(L.serial.back()) + " 0 0\"" + softness(soft) + "/>\n"
         "  </equality>\n"
         "</mujoco>\n";
}

std::string four_bar_mjcf(const SoftParameters& soft, const loop::Loop& L, double theta0) {
  return planar_loop_mjcf(L, {theta0}, soft);
}

std::unique_ptr<Model> planar_loop(const loop::Loop& L, const std::vector<double>& leading_angles,
                                   const std::vector<double>& leading_speeds, const SoftParameters& soft) {
  auto model = load_text(planar_loop_mjcf(L, leading_angles, soft), L.name);
  const std::vector<double> q = loop::assemble(L, leading_angles);
  close(*model, Eigen::Map<const Vector<double>>(q.data(), Index(q.size())), leading_speeds);
  return model;
}

std::unique_ptr<Model> four_bar(double theta, double omega, const SoftParameters& soft, const loop::Loop& L) {
  return planar_loop(L, {theta}, {omega}, soft);
}

std::string bricard_mjcf(const SoftParameters& soft) {
  std::string children;
  for (std::size_t i = 0; i < bricard::kPins.size(); ++i)
    if (bricard::kPins[i].parent < 0) children += bricard_body(i);
  const Eigen::Matrix3d R0 = rotation(bricard::kGroundedLink);
  return "<mujoco model=\"Bricard\">\n" + option(soft, "0 " + num(-bricard::kGravity) + " 0") +
         "  <worldbody>\n"
         "    <body name=\"even1\" " + pose(origin(bricard::kGroundedLink), R0) + ">" + inertial(bricard::kEven) +
         children + "</body>\n"
         "  </worldbody>\n"
         "  <equality>\n"
         "    <weld body1=\"" + bricard::kPins[bricard::kWeldA].name + "\" body2=\"" +
         bricard::kPins[bricard::kWeldB].name + "\" relpose=\"0 0 0 1 0 0 0\"" + softness(soft) + "/>\n"
         "  </equality>\n"
         "</mujoco>\n";
}

std::unique_ptr<Model> bricard(double speed0, const SoftParameters& soft) {
  auto model = load_text(bricard_mjcf(soft), "Bricard");
  Vector<double> q(Index(bricard::kPins.size()));
  for (std::size_t i = 0; i < bricard::kPins.size(); ++i) q(Index(i)) = bricard::kPins[i].q0;
  close(*model, q, {speed0});
  return model;
}

Eigen::Matrix3d compiled_inertia(const Model& model, const std::string& body) {
  const mjModel* m = model.m();
  const int b = mj_name2id(m, mjOBJ_BODY, body.c_str());
  if (b < 0) throw InputError(model.name(), "has no body named " + body);
  double R[9];
  mju_quat2Mat(R, m->body_iquat + 4 * b);
  const Eigen::Matrix3d Rm = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(R);
  const Eigen::Vector3d principal(m->body_inertia[3 * b], m->body_inertia[3 * b + 1], m->body_inertia[3 * b + 2]);
  return Rm * principal.asDiagonal() * Rm.transpose();
}

std::vector<double> bricard_inertia_errors(const Model& model) {
  auto error = [&](const std::string& body, const bricard::MassProperties& p) {
    return (compiled_inertia(model, body) - bricard::inertia(p)).cwiseAbs().maxCoeff();
  };
  std::vector<double> out{error("even1", bricard::kEven)};
  for (const bricard::Pin& pin : bricard::kPins) out.push_back(error(pin.name, pin.body));
  return out;
}

}  // namespace femc::engines::mujoco
