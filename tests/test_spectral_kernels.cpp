// The spectral decompositions of method literal (decomposition/
// symmetric_eigen.hpp, thin_svd.hpp), which keep their storage between
// calls (methods/literal.hpp; tests/test_workspace.cpp counts the
// allocations).
// - SymmetricEigen runs Eigen's SelfAdjointEigenSolver step for step: the
//   same bits, at double, long double and MPFR.
// - ThinSvd is backward stable: ‖X − UΣVᵀ‖_F ≤ γ_{pk}‖X‖_F and
//   ‖UᵀU − I‖_F, ‖VᵀV − I‖_F ≤ γ_{pk} (p × k the tall one of X and Xᵀ).
//   The bound is the shape of Higham's Thm 19.4 for the Householder QR,
//   γ̃_{pk} = c·pk·u, taken with c = 1; the Jacobi sweeps add O(k)u each. So
//   it is a measured bound, not a theorem: the printed ratios (0.05–0.75)
//   say how much room it leaves. The singular values then agree with Eigen's
//   JacobiSVD's to ‖ΔX‖₂ + ‖ΔX'‖₂ ≤ 2γ_{pk}‖X‖_F (Weyl). The residuals are
//   formed in a wider type: long double (64 bits of significand against
//   double's 53) and MPFR at 512 bits for 256. An exactly rank-deficient X
//   (integer factors, exact in S) keeps its zero singular values at
//   rounding level.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <type_traits>

#include "femc/decomposition/symmetric_eigen.hpp"
#include "femc/decomposition/thin_svd.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "support/gamma.hpp"

namespace femc {
namespace {

Matrix<double> integers(Index rows, Index cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> entry(-9, 9);
  Matrix<double> X(rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) X(i, j) = entry(rng);
  return X;
}

// A rows × cols matrix of exact rank r (r = min(rows, cols): full rank) from
// integer factors: its entries are integers of at most 4 digits, exact at
// every type.
template <class S>
Matrix<S> test_matrix(Index rows, Index cols, Index r, unsigned seed) {
  const Matrix<double> X = integers(rows, r, seed) * integers(r, cols, seed + 1);
  return X.cast<S>();
}

template <class S>
Matrix<S> symmetric(Index n, unsigned seed) {
  const Matrix<double> G = integers(n, n, seed);
  const Matrix<double> X = G + G.transpose();
  return X.cast<S>();
}

template <class S>
void eigen_matches_eigens(const char* type) {
  for (Index n : {0, 1, 2, 3, 7, 30, 60}) {
    const Matrix<S> X = symmetric<S>(n, 100 + unsigned(n));
    SymmetricEigen<S> ours;
    ASSERT_TRUE(ours.compute(X));
    if (n == 0) {
      EXPECT_EQ(ours.eigenvalues().size(), 0);
      continue;
    }
    const Eigen::SelfAdjointEigenSolver<Matrix<S>> eigens(X);
    EXPECT_TRUE(ours.eigenvalues() == eigens.eigenvalues()) << type << " n = " << n;
    EXPECT_TRUE(ours.eigenvectors() == eigens.eigenvectors()) << type << " n = " << n;
    ASSERT_TRUE(ours.compute(symmetric<S>(n, 200)));  // storage reused for another X
    ASSERT_TRUE(ours.compute(X));
    EXPECT_TRUE(ours.eigenvalues() == eigens.eigenvalues()) << type << " n = " << n << ", recomputed";
    EXPECT_TRUE(ours.eigenvectors() == eigens.eigenvectors()) << type << " n = " << n << ", recomputed";
  }
}

TEST(SymmetricEigen, SameBitsAsSelfAdjointEigenSolver) {
  eigen_matches_eigens<double>("double");
  eigen_matches_eigens<long double>("long double");
  MpfrPrecision bits(256);
  eigen_matches_eigens<mpfr_real>("mpfr 256");
}

// X in the wider type: long double for double, 512 bits for MPFR's 256
// (exact; the caller holds MpfrPrecision(512) for the sums).
template <class Wide, class S>
Matrix<Wide> widened(const Matrix<S>& X) {
  if constexpr (std::is_same_v<S, mpfr_real>) {
    Matrix<S> Y = X;
    for (Index k = 0; k < Y.size(); ++k) Y.data()[k].setPrecision(512);
    return Y;
  } else {
    return X.template cast<Wide>();
  }
}

// ‖X − UΣVᵀ‖_F/‖X‖_F over γ_{pk} (p = max(m, n)), formed in the wider type.
template <class S, class Wide>
double reconstruction_ratio(const Matrix<S>& X, const Matrix<S>& Us, const Vector<S>& sigmas, const Matrix<S>& Vs) {
  const double bound = double(test::gamma<S>(std::max(X.rows(), X.cols()) * std::min(X.rows(), X.cols())));
  std::optional<MpfrPrecision> wide;
  if constexpr (std::is_same_v<S, mpfr_real>) wide.emplace(512);
  const Matrix<Wide> Xw = widened<Wide>(X), U = widened<Wide>(Us), V = widened<Wide>(Vs);
  const Vector<Wide> sigma = widened<Wide>(Matrix<S>(sigmas)).col(0);
  return double((Xw - U * sigma.asDiagonal() * V.transpose()).norm() / Xw.norm()) / bound;
}

// The residuals of a computed SVD against γ_{pk}, formed in the wider type.
// Returns the largest ratio to its bound. The singular
// values alone (no U, V) are the same rotations' and so the same bits.
template <class S, class Wide>
double svd_check(const Matrix<S>& X, Index rank, const std::string& what) {
  ThinSvd<S> values_only;
  EXPECT_TRUE(values_only.compute(X, false)) << what;
  ThinSvd<S> svd;
  EXPECT_TRUE(svd.compute(X, true)) << what;
  EXPECT_TRUE(values_only.singularValues() == svd.singularValues()) << what << ": σ without U, V";
  const Eigen::JacobiSVD<Matrix<S>> eigens(X);  // its own preconditioner
  const Index m = X.rows(), n = X.cols(), k = std::min(m, n);
  const double bound = double(test::gamma<S>(std::max(m, n) * k));
  const double residual = reconstruction_ratio<S, Wide>(X, svd.matrixU(), svd.singularValues(), svd.matrixV());
  std::optional<MpfrPrecision> wide;
  if constexpr (std::is_same_v<S, mpfr_real>) wide.emplace(512);
  const Matrix<Wide> U = widened<Wide>(svd.matrixU()), V = widened<Wide>(svd.matrixV());
  const Vector<Wide> sigma = widened<Wide>(Matrix<S>(svd.singularValues())).col(0);
  const Vector<Wide> theirs = widened<Wide>(Matrix<S>(eigens.singularValues())).col(0);
  const Wide normX = widened<Wide>(X).norm();
  auto ratio = [&](const Wide& x) { return double(x) / bound; };
  const double orthoU = ratio((U.transpose() * U - Matrix<Wide>::Identity(k, k)).norm());
  const double orthoV = ratio((V.transpose() * V - Matrix<Wide>::Identity(k, k)).norm());
  const double agreement = ratio((sigma - theirs).cwiseAbs().maxCoeff() / normX) / 2;  // Weyl: 2γ_pk
  EXPECT_LE(residual, 1) << what << ": ‖X − UΣVᵀ‖_F/‖X‖_F over γ_pk";
  EXPECT_LE(orthoU, 1) << what << ": ‖UᵀU − I‖_F over γ_pk";
  EXPECT_LE(orthoV, 1) << what << ": ‖VᵀV − I‖_F over γ_pk";
  EXPECT_LE(agreement, 1) << what << ": σ against JacobiSVD's, over 2γ_pk‖X‖_F";
  for (Index i = 1; i < k; ++i) EXPECT_GE(sigma(i - 1), sigma(i)) << what << ": σ not descending";
  for (Index i = rank; i < k; ++i)  // an exact rank r leaves σ_{r+1…k} at rounding level
    EXPECT_LE(ratio(sigma(i) / normX), 1) << what << ": σ_" << i + 1 << " of an exact rank " << rank;
  return std::max({residual, orthoU, orthoV, agreement});
}

template <class S, class Wide>
void svd_is_backward_stable(const char* type) {
  struct Shape {
    Index rows, cols, rank;
  };
  for (const Shape& s : {Shape{1, 1, 1}, Shape{5, 12, 5}, Shape{12, 5, 5}, Shape{12, 12, 12}, Shape{6, 12, 3},
                         Shape{12, 6, 2}, Shape{24, 60, 24}, Shape{60, 24, 11}, Shape{50, 50, 49}}) {
    const std::string what = std::string(type) + " " + std::to_string(s.rows) + "×" + std::to_string(s.cols) +
                             " rank " + std::to_string(s.rank);
    const double worst = svd_check<S, Wide>(test_matrix<S>(s.rows, s.cols, s.rank, 7), s.rank, what);
    std::printf("%s: the residuals reach %.3g of γ_pk\n", what.c_str(), worst);
  }
  // Empty matrices: no singular value, U and V without columns.
  ThinSvd<S> svd;
  ASSERT_TRUE(svd.compute(Matrix<S>(0, 4), true));
  EXPECT_EQ(svd.singularValues().size(), 0);
  EXPECT_EQ(svd.matrixV().rows(), 4);
  EXPECT_EQ(svd.matrixV().cols(), 0);
  // A non-finite entry is refused.
  Matrix<S> bad = test_matrix<S>(4, 6, 4, 3);
  bad(2, 3) = S(1) / S(0);
  EXPECT_FALSE(svd.compute(bad, true));
}

TEST(ThinSvd, BackwardStableWithinGammaPK_double) { svd_is_backward_stable<double, long double>("double"); }
TEST(ThinSvd, BackwardStableWithinGammaPK_mpfr256) {
  MpfrPrecision bits(256);
  svd_is_backward_stable<mpfr_real, mpfr_real>("mpfr 256");
}

// The check can fail: one entry of U moved by a relative 10⁵u (10⁻¹¹)
// breaks the reconstruction bound of svd_check, in double and under MPFR.
template <class S, class Wide>
void corrupted_factor_fails() {
  const Matrix<S> X = test_matrix<S>(12, 30, 12, 9);
  ThinSvd<S> svd;
  ASSERT_TRUE(svd.compute(X, true));
  const double computed = reconstruction_ratio<S, Wide>(X, svd.matrixU(), svd.singularValues(), svd.matrixV());
  EXPECT_LE(computed, 1);
  Matrix<S> U = svd.matrixU();
  U(6, 0) *= S(1) + S(1e5) * unit_roundoff<S>();
  const double corrupted = reconstruction_ratio<S, Wide>(X, U, svd.singularValues(), svd.matrixV());
  EXPECT_GT(corrupted, 1);
  std::printf("corrupted U: %.3g of γ_pk (the computed U: %.3g)\n", corrupted, computed);
}
TEST(ThinSvd, ACorruptedFactorFailsTheCheck) {
  corrupted_factor_fails<double, long double>();
  MpfrPrecision bits(256);
  corrupted_factor_fails<mpfr_real, mpfr_real>();
}

}  // namespace
}  // namespace femc
