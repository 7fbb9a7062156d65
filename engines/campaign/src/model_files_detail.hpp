#pragma once
// What model_files_planar.cpp and model_files_bricard.cpp share: femc's
// 256-bit quantities in double, the null space of a Jacobian as an
// orthogonal projector (a basis-free comparison of the motions the
// constraints allow), and the record of a check.
#include <Eigen/SVD>
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "femc/engines/model_files.hpp"
#include "femc/linalg.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::engines::model_files {

inline constexpr double kEps = 0x1p-52;
inline constexpr long kBits = 256;

// A 256-bit matrix or vector in double, by the claims' conversion (prop::as_double).
template <class X>
Matrix<double> as_double_matrix(const X& x) {
  return x.unaryExpr([](const mpfr_real& v) { return prop::as_double(v); });
}

// The orthogonal projector onto the null space of X taken at rank r, in
// double, and X's gap σ_r/σ₁ (what Wedin's bound divides by).
inline Matrix<double> null_projector(const Matrix<double>& X, Index r, double* gap) {
  if (r < 1 || r > std::min(X.rows(), X.cols())) throw std::logic_error("null_projector: rank out of range");
  Eigen::JacobiSVD<Matrix<double>> svd(X, Eigen::ComputeFullV);
  *gap = svd.singularValues()(r - 1) / svd.singularValues()(0);
  const Matrix<double> N = svd.matrixV().rightCols(X.cols() - r);
  return N * N.transpose();
}

inline double max_abs(const Matrix<double>& X) { return X.size() ? X.cwiseAbs().maxCoeff() : 0.0; }

// The checks of one engine, mechanism and state, in order.
struct Recorder {
  std::vector<ModelFileCheck>& out;
  std::string engine, mechanism, state;
  void operator()(const std::string& quantity, double error, double tolerance,
                  std::optional<double> wrong_error = std::nullopt, const std::string& wrong = "") const {
    out.push_back({engine, mechanism, state, quantity, error, tolerance, wrong_error, wrong});
  }
};

// A hard engine's answer against femc's q̈ of its exact joint-space system
// at rank r: twice the rounded-data bound (verify/exact_data.hpp), and an
// answer off by 1e-6 of |q̈|∞ as the wrong one.
inline void record_answer(const Recorder& record, const Vector<double>& answer, const Vector<double>& qdd,
                          const System<rational>& joint_system, Index r) {
  const double qdd_inf = qdd.lpNorm<Eigen::Infinity>();
  const double bound = 2 * prop::rounded_data_bound_per_u(joint_system, r, qdd_inf) * 0x1p-53;
  Vector<double> wrong = answer;
  wrong(0) += 1e-6 * qdd_inf;
  record("u̇", (answer - qdd).lpNorm<Eigen::Infinity>(), bound, (wrong - qdd).lpNorm<Eigen::Infinity>(),
         "answer off by 1e-6");
}

void planar_checks(const std::string& engine, std::vector<ModelFileCheck>& out);
void bricard_checks(const std::string& engine, std::vector<ModelFileCheck>& out);
void bricard_assembly_checks(std::vector<ModelFileCheck>& out);

}  // namespace femc::engines::model_files
