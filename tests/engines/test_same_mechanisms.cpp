// The engines are verified on the same mechanisms (engines/common): each
// mechanism, built in Simbody and in MuJoCo and set to the same coordinates
// (MuJoCo's assembled q, read into Simbody without projection), has the same
// mass matrix, the same gravity force at rest and the same constraint null
// space. A transcription error in either builder (a frame, a mass, an axis)
// fails it; so does, for the check's own sake, a mass off by 1e-6.
//
// Tolerances: M and Q are computed from the same q by two O(n) recursions,
// each within a few ε of its exact value relative to |M|∞ (|Q|∞): 16·n·ε.
// MuJoCo adds one error of its own: it stores a fullinertia diagonalized
// (body_inertia, body_iquat), to about 1e-11 relative (Bricard's links;
// mujoco::compiled_inertia). Each link's ΔI enters M through unit pin axes,
// a_iᵀ ΔI a_j, at most ‖ΔI‖₂ ≤ 3·max|ΔI| per link: M's tolerance adds
// Σ_links 3·max|ΔI|.
// The null spaces of the two Jacobians (different rows, the same row space
// in exact arithmetic) differ by at most ‖ΔJ‖/σ_r (Wedin), ΔJ each engine's
// rounding, 16·n·ε·σ₁ per engine: 32·n·ε·σ₁/σ_r, σ_r the smallest singular
// value kept, at the data's precision.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <functional>
#include <iostream>

#include "femc/engines/mujoco.hpp"
#include "femc/engines/simbody.hpp"

namespace femc::engines {
namespace {

constexpr double kEps = 0x1p-52;

struct Pair {
  std::string name;
  std::unique_ptr<simbody::Mechanism> simbody;
  std::unique_ptr<mujoco::Model> mujoco;
};

std::vector<Pair> pairs() {
  std::vector<Pair> out;
  out.push_back({"crank-rocker", simbody::four_bar(1.0, 0.0), mujoco::four_bar(1.0, 0.0)});
  out.push_back({"closed chain",
                 simbody::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, {0, 0, 0, 0}),
                 mujoco::planar_loop(planar_loop::kClosedChain, planar_loop::kClosedChainStart, {0, 0, 0, 0})});
  out.push_back({"Bricard", simbody::bricard(0.0), mujoco::bricard(0.0)});
  return out;
}

// Simbody's mechanism at MuJoCo's coordinates, at rest.
simbody::Extracted simbody_at(simbody::Mechanism& m, const Vector<double>& q) {
  for (Index i = 0; i < q.size(); ++i) m.state.updQ()[int(i)] = q(i);
  m.state.updU() = 0;
  return simbody::extract(m);
}

TEST(SameMechanisms, BothEnginesHaveTheSameMassGravityAndMotions) {
  for (Pair& p : pairs()) {
    const Vector<double> q = p.mujoco->qpos();
    const mujoco::Extracted m = mujoco::extract(*p.mujoco);
    const simbody::Extracted s = simbody_at(*p.simbody, q);
    const Index n = q.size();
    ASSERT_EQ(s.system.n(), n) << p.name;

    double inertia_error = 0;
    if (p.name == "Bricard")
      for (double e : mujoco::bricard_inertia_errors(*p.mujoco)) inertia_error += 3 * e;
    const double M_tol = 16 * n * kEps * m.M.cwiseAbs().maxCoeff() + inertia_error;
    const double M_err = (s.system.M - m.M).cwiseAbs().maxCoeff();
    const double Q_tol = 16 * n * kEps * m.Q.lpNorm<Eigen::Infinity>();
    const double Q_err = (s.system.Q - m.Q).lpNorm<Eigen::Infinity>();
    // The motions the constraints allow: the null space of the Jacobian, of
    // dimension n − r (r = 2 for the planar loops, 5 for Bricard), compared
    // through its orthogonal projector (basis-free).
    const Index r = p.name == "Bricard" ? 5 : 2;
    Eigen::JacobiSVD<Matrix<double>> sv_s(s.system.A, Eigen::ComputeFullV), sv_m(m.J, Eigen::ComputeFullV);
    const Matrix<double> Ns = sv_s.matrixV().rightCols(n - r), Nm = sv_m.matrixV().rightCols(n - r);
    const double gap = std::min(sv_s.singularValues()(r - 1) / sv_s.singularValues()(0),
                                sv_m.singularValues()(r - 1) / sv_m.singularValues()(0));
    const double N_err = (Ns * Ns.transpose() - Nm * Nm.transpose()).cwiseAbs().maxCoeff();
    const double N_tol = 32 * n * kEps / gap;
    std::cout << p.name << ": |ΔM| " << M_err << " (tolerance " << M_tol << ", of which MuJoCo's inertia "
              << inertia_error << "), |ΔQ| " << Q_err << " (" << Q_tol
              << "), |Δ null-space projector| " << N_err << " (" << N_tol << ", σ_r/σ₁ " << gap << ")\n";
    EXPECT_LE(M_err, M_tol) << p.name;
    EXPECT_LE(Q_err, Q_tol) << p.name;
    EXPECT_LE(N_err, N_tol) << p.name;

    // The check can fail: one mass entry off by 1e-6 (relative to |M|∞).
    Matrix<double> wrong = m.M;
    wrong(0, 0) += 1e-6 * m.M.cwiseAbs().maxCoeff();
    EXPECT_GT((s.system.M - wrong).cwiseAbs().maxCoeff(), M_tol) << p.name;
  }
}

}  // namespace
}  // namespace femc::engines
