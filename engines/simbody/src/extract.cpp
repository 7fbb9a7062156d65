#include "femc/engines/simbody.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/verify/process_solver.hpp"
#include "femc/verify/system_json.hpp"

namespace femc::engines::simbody {

Matrix<double> to_eigen(const SimTK::Matrix& X) {
  Matrix<double> out(X.nrow(), X.ncol());
  for (int i = 0; i < X.nrow(); ++i)
    for (int j = 0; j < X.ncol(); ++j) out(i, j) = X(i, j);
  return out;
}

Vector<double> to_eigen(const SimTK::Vector& x) {
  Vector<double> out(x.size());
  for (int i = 0; i < x.size(); ++i) out(i) = x[i];
  return out;
}

Extracted extract(const Mechanism& mech) {
  SimTK::State s = mech.state;
  mech.system.realize(s, SimTK::Stage::Acceleration);
  const int nu = s.getNU();
  SimTK::Matrix M, G;
  mech.matter.calcM(s, M);
  mech.matter.calcG(s, G);
  SimTK::Vector bias, residual;
  mech.matter.calcBiasForAccelerationConstraints(s, bias);
  mech.matter.calcResidualForceIgnoringConstraints(s, mech.system.getMobilityForces(s, SimTK::Stage::Dynamics),
                                                   mech.system.getRigidBodyForces(s, SimTK::Stage::Dynamics),
                                                   SimTK::Vector(nu, 0.0), residual);
  Extracted e;
  System<double>& sys = e.system;
  sys.M = to_eigen(M);
  sys.A = to_eigen(G);
  sys.b = -to_eigen(bias);
  sys.Q = -to_eigen(residual);
  sys.C = Vector<double>::Zero(nu);
  sys.W = Matrix<double>::Identity(sys.A.rows(), sys.A.rows());
  e.udot = to_eigen(s.getUDot());
  e.lambda = -to_eigen(s.getMultipliers());
  return e;
}

std::string to_solve_json(const Extracted& e, const std::string& name, const std::string& description) {
  SystemText text = verify::to_system_text(e.system);  // each double in its round-trip digits
  text.data_precision = "double";
  return verify::system_json(text, name, description);
}

}  // namespace femc::engines::simbody
