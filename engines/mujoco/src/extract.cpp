#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>
#include <vector>

#include "femc/engines/mujoco.hpp"
#include "femc/engines/richardson.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/verify/process_solver.hpp"
#include "femc/verify/system_json.hpp"

namespace femc::engines::mujoco {
namespace {

// The first k entries of a MuJoCo array.
Vector<double> read(const mjtNum* x, int k) { return Eigen::Map<const Vector<double>>(x, k); }

// efc_J (dense, row-major) with the rows checked to be equality rows.
Matrix<double> jacobian(const Model& model) {
  const mjModel* m = model.m();
  const mjData* d = model.d();
  if (d->nefc != d->ne) {
    throw InputError(model.name(), "has " + std::to_string(d->nefc - d->ne) +
                                       " constraint rows that are not equality constraints (contacts, joint limits "
                                       "or friction loss) at this state; the adapter expresses equality rows only");
  }
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const RowMajor>(d->efc_J, d->ne, m->nv);
}

// J(q(t)) v along q(t) = q ⊕ t v (mj_integratePos), in a scratch copy of
// the data.
Vector<double> jacobian_times_v_at(const Model& model, double t, mjData* scratch) {
  const mjModel* m = model.m();
  mj_copyData(scratch, m, model.d());
  mj_integratePos(m, scratch->qpos, model.d()->qvel, t);
  mj_forward(m, scratch);
  if (scratch->ne != model.d()->ne) throw InputError(model.name(), "the number of equality rows changes along the motion");
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMajor> J(scratch->efc_J, scratch->ne, m->nv);
  return J * read(model.d()->qvel, m->nv);
}

}  // namespace

Extracted extract(const Model& model) {
  const mjModel* m = model.m();
  const mjData* d = model.d();
  const int n = m->nv, k = d->ne;
  Extracted e;
  e.J = jacobian(model);
  e.M.resize(n, n);
  {
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    RowMajor dense(n, n);
    mj_fullM(m, dense.data(), d->qM);
    e.M = dense;
  }
  e.Q = read(d->qfrc_smooth, n);
  e.D = read(d->efc_D, k);
  e.aref = read(d->efc_aref, k);
  e.pos = read(d->efc_pos, k);
  e.qacc = read(d->qacc, n);
  e.efc_force = read(d->efc_force, k);
  e.qacc_warmstart = read(d->qacc_warmstart, n);
  e.qacc_smooth = read(d->qacc_smooth, n);

  // J̇ v = d/dt (J(q(t)) v) at t = 0, by central differences and
  // Richardson's extrapolation (femc/engines/richardson.hpp), the
  // differenced values rounded to 16ε·|J||v| (the recursions' constant:
  // MuJoCo's efc_J, the product J v and the positions q ± h'v). The step is
  // 1e-3 for unit speeds and shorter for faster motions (the truncation
  // error grows with |v|∞³).
  mjData* scratch = mj_makeData(m);
  const double h = 1e-3 / std::max(1.0, read(d->qvel, n).lpNorm<Eigen::Infinity>());
  auto D = [&](double step) {
    return Vector<double>((jacobian_times_v_at(model, step, scratch) - jacobian_times_v_at(model, -step, scratch)) /
                          (2 * step));
  };
  richardson::Extrapolated r;
  try {
    r = richardson::extrapolate(D, h);
  } catch (...) {
    mj_deleteData(scratch);
    throw;
  }
  mj_deleteData(scratch);
  e.Jdot_v = r.value;
  const double scale = (e.J.cwiseAbs() * read(d->qvel, n).cwiseAbs()).lpNorm<Eigen::Infinity>();
  e.Jdot_v_error = r.truncation + richardson::rounding(1, scale, h);
  return e;
}

double newton_bound(const Extracted& e, const Vector<double>& x) {
  const Index n = e.M.rows(), k = e.J.rows();
  auto gamma = [](double m) { return m * 0x1p-53 / (1 - m * 0x1p-53); };
  const Matrix<double> absM = e.M.cwiseAbs(), absJ = e.J.cwiseAbs();
  const Matrix<double> JtDJ = e.J.transpose() * e.D.asDiagonal() * e.J;
  const Matrix<double> H = e.M + JtDJ;
  const Eigen::LLT<Matrix<double>> llt(H);
  if (llt.info() != Eigen::Success) return std::numeric_limits<double>::infinity();  // H not SPD: no bound
  const Matrix<double> absL = Matrix<double>(llt.matrixL()).cwiseAbs();
  const Matrix<double> Hinv = llt.solve(Matrix<double>::Identity(n, n)).cwiseAbs();
  const Matrix<double> absH_parts = absM + absJ.transpose() * e.D.asDiagonal() * absJ;
  const Matrix<double> dH = gamma(double(k + 1)) * absH_parts + gamma(double(3 * n + 1)) * absL * absL.transpose();
  // MuJoCo starts from the start point of lower cost (2.2.2's warmstart():
  // ½(x₀ − a₀)ᵀ(M x₀ − Q) plus the constraint cost, which is the cost below
  // up to a constant); where the two costs are within their rounding of each
  // other, either may be it. The rounding's scale counts |a₀| = |qacc_smooth|
  // with |x₀|, as MuJoCo's formula does.
  auto cost = [&](const Vector<double>& x0) {
    const Vector<double> r = e.J * x0 - e.aref;
    return 0.5 * x0.dot(e.M * x0) - e.Q.dot(x0) + 0.5 * r.dot(e.D.cwiseProduct(r));
  };
  auto cost_scale = [&](const Vector<double>& x0) {
    const Vector<double> ax0 = x0.cwiseAbs() + e.qacc_smooth.cwiseAbs(), r = absJ * ax0 + e.aref.cwiseAbs();
    return ax0.dot(absM * ax0) + e.Q.cwiseAbs().dot(ax0) + r.dot(e.D.cwiseProduct(r));
  };
  const double cw = cost(e.qacc_warmstart), cs = cost(e.qacc_smooth);
  const double tie = gamma(double(2 * (n + k) + 4)) * std::max(cost_scale(e.qacc_warmstart), cost_scale(e.qacc_smooth));
  std::vector<const Vector<double>*> starts;
  if (cw <= cs + tie) starts.push_back(&e.qacc_warmstart);
  if (cs <= cw + tie) starts.push_back(&e.qacc_smooth);
  double worst = 0;
  for (const Vector<double>* x0 : starts) {
    const Vector<double> ax0 = x0->cwiseAbs(), d = (*x0 - x).cwiseAbs();
    const Vector<double> dg =
        gamma(double(n + k + 1)) * (absM * ax0 + e.Q.cwiseAbs() +
                                    absJ.transpose() * (e.D.asDiagonal() * (absJ * ax0 + e.aref.cwiseAbs())));
    const Vector<double> E = Hinv * (dg + dH * d) + gamma(double(n + k)) * d;
    worst = std::max(worst, E.lpNorm<Eigen::Infinity>());
  }
  return worst;
}

double force_bound(const Extracted& e, double qacc_bound) {
  const double J = e.J.cwiseAbs().rowwise().sum().maxCoeff();
  const double n = double(e.M.rows());
  return e.D.maxCoeff() *
         (J * qacc_bound + 2 * n * 0x1p-52 * (J * e.qacc.lpNorm<Eigen::Infinity>() + e.aref.lpNorm<Eigen::Infinity>()));
}

System<rational> augmented(const Extracted& e) {
  const Index n = e.M.rows(), k = e.J.rows();
  auto q = [](double x) { return rational(x); };  // exact
  System<rational> s;
  s.M = Matrix<rational>::Zero(n + k, n + k);
  s.M.topLeftCorner(n, n) = e.M.unaryExpr(q);
  s.A = Matrix<rational>::Zero(k, n + k);
  s.A.leftCols(n) = e.J.unaryExpr(q);
  s.Q.resize(n + k);
  s.Q.head(n) = e.Q.unaryExpr(q);
  for (Index i = 0; i < k; ++i) {
    s.M(n + i, n + i) = q(e.D(i));
    s.A(i, n + i) = -1;
    s.Q(n + i) = q(e.D(i)) * q(e.aref(i));
  }
  s.b = Vector<rational>::Zero(k);
  s.C = Vector<rational>::Zero(n + k);
  s.W = Matrix<rational>::Identity(k, k);
  return s;
}

System<double> hard(const Extracted& e) {
  return make_system<double>(e.M, e.J, Vector<double>(-e.Jdot_v), e.Q);
}

std::string to_solve_json(const System<double>& sys, const std::string& name, const std::string& description) {
  SystemText text = verify::to_system_text(sys);  // each double in its round-trip digits
  text.data_precision = "double";
  return verify::system_json(text, name, description);
}

}  // namespace femc::engines::mujoco
