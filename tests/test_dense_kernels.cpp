// The dense kernels of methods cod and nullspace (decomposition/
// dense_cholesky.hpp, householder_qr.hpp): LAPACK's blocked routines in
// double, Eigen's algorithms for the other types.
// - double: each factorization is backward stable within the bound of its
//   error analysis (Higham, Accuracy and Stability of Numerical Algorithms,
//   2nd ed.), checked with the residual formed in long double from the
//   computed factors; the slack is printed.
// - the other types: the same numbers as Eigen's LLT, bit for bit (the
//   kernels are Eigen's, run in femc's storage).
// - a user's OpenBLAS thread count changes no rounding of a cod solve large
//   enough for OpenBLAS to split (1000 × 400): the kernels run it on one.
#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "femc/decomposition/dense_cholesky.hpp"
#include "femc/decomposition/householder_qr.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/random_systems.hpp"

namespace femc {
namespace {

using Long = Matrix<long double>;

Matrix<double> gaussian(Index rows, Index cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Matrix<double> X(rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) X(i, j) = normal(rng);
  return X;
}

// SPD with κ about 10⁴: GᵀG plus a small shift, G Gaussian.
Matrix<double> spd(Index n, unsigned seed) {
  const Matrix<double> G = gaussian(n, n, seed);
  Matrix<double> M = G.transpose() * G;
  M.diagonal().array() += 1e-2 * double(n);
  return M;
}

double gamma(Index k) {
  const double u = unit_roundoff<double>();
  return double(k) * u / (1 - double(k) * u);
}

// Higham Thm 10.3: the computed factor satisfies L Lᵀ = M + ΔM with
// |ΔM| ≤ γ_{n+1}|L||Lᵀ| entrywise.
TEST(DenseCholesky, BackwardErrorWithinGammaNPlus1_double) {
  for (Index n : {1, 7, 64, 200, 300}) {
    const Matrix<double> M = spd(n, 100 + unsigned(n));
    DenseCholesky<double> chol;
    ASSERT_TRUE(chol.compute(M)) << n;
    const Long L = Matrix<double>(chol.matrixL()).cast<long double>();
    const Long residual = (L * L.transpose() - M.cast<long double>()).cwiseAbs();
    const Long bound = L.cwiseAbs() * L.cwiseAbs().transpose() * (long double)gamma(n + 1);
    double worst = 0;
    for (Index j = 0; j < n; ++j)
      for (Index i = j; i < n; ++i) worst = std::max(worst, double(residual(i, j) / bound(i, j)));
    EXPECT_LE(worst, 1.0) << "n = " << n;
    std::printf("n = %ld: |M − LLᵀ| reaches %.3g of γ_{n+1}|L||Lᵀ| (slack %.3g)\n", long(n), worst, 1 / worst);
  }
}

TEST(DenseCholesky, RefusesAnIndefiniteMatrix_double) {
  Matrix<double> M = spd(20, 7);
  M(13, 13) = -1;
  DenseCholesky<double> chol;
  EXPECT_FALSE(chol.compute(M));
}

// Eigen's llt_inplace in femc's storage is Eigen::LLT, bit for bit.
template <class S>
void matches_eigens_llt() {
  test::SystemGenerator gen(3);
  for (Index n : {1, 5, 40}) {
    const Matrix<S> M = test::convert<S>(gen.spd(n));
    DenseCholesky<S> chol;
    ASSERT_TRUE(chol.compute(M));
    const Eigen::LLT<Matrix<S>> llt(M);
    EXPECT_TRUE(Matrix<S>(chol.matrixL()) == Matrix<S>(llt.matrixL())) << n;
    Matrix<S> X = test::convert<S>(gen.integer_matrix(n, 3));
    Matrix<S> Y = X;
    chol.solve_L_in_place(X);
    llt.matrixL().solveInPlace(Y);
    EXPECT_TRUE(X == Y) << n;
  }
}
TEST(DenseCholesky, IsEigensLltBitForBit_longdouble) { matches_eigens_llt<long double>(); }
TEST(DenseCholesky, IsEigensLltBitForBit_mpfr256) {
  MpfrPrecision bits(256);
  matches_eigens_llt<mpfr_real>();
}

// Q applied in long double from the computed reflectors (Qᵀ's exact
// orthogonal neighbour, to long double's precision).
Long apply_q(const Matrix<double>& qr, const Vector<double>& tau, Long X) {
  const Index m = qr.rows(), k = tau.size();
  for (Index i = k - 1; i >= 0; --i) {
    Eigen::Matrix<long double, Eigen::Dynamic, 1> v = Eigen::Matrix<long double, Eigen::Dynamic, 1>::Zero(m);
    v(i) = 1;
    v.tail(m - i - 1) = qr.col(i).tail(m - i - 1).cast<long double>();
    const Eigen::Matrix<long double, 1, Eigen::Dynamic> w = (long double)tau(i) * (v.transpose() * X);
    X -= v * w;
  }
  return X;
}

// Higham Thm 19.4: X Π + ΔX = Q R with ‖Δx_j‖ ≤ γ̃_{mn}‖x_j‖ column by
// column (γ̃_k = c·k·u/(1 − c·k·u), c a small constant: c = 1 checked);
// and the pivoting: |R_kk| ≥ ‖R(k:j, j)‖ for j > k, up to the partial
// column norms, which dgeqp3 downdates and recomputes once the downdate has
// cancelled all but √ε of them (LAPACK Working Note 176): within a relative
// 2√ε.
TEST(PivotedHouseholderQR, BackwardErrorAndPivotOrder_double) {
  struct Shape { Index m, n, rank; };
  for (const Shape s : {Shape{5, 12, 5}, Shape{80, 200, 80}, Shape{200, 80, 80}, Shape{80, 200, 40}}) {
    Matrix<double> X = gaussian(s.m, s.rank, 1 + unsigned(s.m)) * gaussian(s.rank, s.n, 2 + unsigned(s.n));
    for (Index j = 0; j < s.n; ++j) X.col(j) *= std::pow(10.0, double(j % 7) - 3);  // columns of many scales
    PivotedHouseholderQR<double> qr;
    qr.compute(X);
    const Index k = std::min(s.m, s.n);
    Long R = Long::Zero(s.m, s.n);
    for (Index j = 0; j < s.n; ++j)
      for (Index i = 0; i <= std::min(j, s.m - 1); ++i) R(i, j) = qr.matrixQR()(i, j);
    const Long QR = apply_q(qr.matrixQR(), qr.hCoeffs(), R);
    double worst = 0;
    std::vector<bool> seen(s.n, false);
    for (Index j = 0; j < s.n; ++j) {
      const Index from = qr.permutation()(j);
      ASSERT_TRUE(from >= 0 && from < s.n && !seen[from]) << "not a permutation";
      seen[from] = true;
      const long double err = (QR.col(j) - X.col(from).cast<long double>()).norm();
      worst = std::max(worst, double(err / (X.col(from).cast<long double>().norm() * gamma(s.m * s.n))));
    }
    EXPECT_LE(worst, 1.0) << s.m << "x" << s.n;
    const double downdate = 2 * std::sqrt(Eigen::NumTraits<double>::epsilon());
    double pivot_worst = 0;
    for (Index i = 0; i < k; ++i)
      for (Index j = i + 1; j < s.n; ++j) {
        const double rest = qr.matrixQR().col(j).segment(i, std::min(j, s.m - 1) - i + 1).norm();
        if (rest > 0) pivot_worst = std::max(pivot_worst, rest / std::abs(qr.matrixQR()(i, i)) - 1);
      }
    EXPECT_LE(pivot_worst, downdate) << s.m << "x" << s.n;
    std::printf("%ldx%ld rank %ld: ‖XΠ − QR‖_j reaches %.3g of γ_{mn}‖x_j‖; pivots exceeded by %.3g (allowed %.3g)\n",
                long(s.m), long(s.n), long(s.rank), worst, pivot_worst, downdate);
  }
}

// The plain QR (dgeqrf), Higham Thm 19.4 as above.
TEST(HouseholderQRInPlace, BackwardError_double) {
  for (Index n : {3, 80, 300}) {
    const Index m = n + 17;
    const Matrix<double> X = gaussian(m, n, 9 + unsigned(n));
    Matrix<double> F = X;
    Vector<double> tau;
    HouseholderQRInPlace<double> qr;
    qr.compute(F, tau);
    const Long R = Long(F.cast<long double>().triangularView<Eigen::Upper>());
    const Long QR = apply_q(F, tau, R);
    double worst = 0;
    for (Index j = 0; j < n; ++j)
      worst = std::max(worst, double((QR.col(j) - X.col(j).cast<long double>()).norm() /
                                     (X.col(j).cast<long double>().norm() * gamma(m * n))));
    EXPECT_LE(worst, 1.0) << m << "x" << n;
    std::printf("%ldx%ld: ‖X − QR‖_j reaches %.3g of γ_{mn}‖x_j‖\n", long(m), long(n), worst);
  }
}

// OpenBLAS on two threads rounds a 1000 × 400 cod solve differently (its
// threaded dpotrf and products; seen when the kernels left the count alone),
// so femc's kernels run it on one: a user's thread count, set before a
// solve, changes no bit of the result.
TEST(OpenBlasThreads, ACodSolveIsTheSameWhateverTheUsersThreadCount) {
  const Index n = 1000, m = 400;
  const System<double> sys = make_system<double>(spd(n, 1), gaussian(m, n, 2), gaussian(m, 1, 3).col(0),
                                                 gaussian(n, 1, 4).col(0));
  Options<double> opt;
  opt.assume_valid = true;
  openblas_set_num_threads(1);
  const Solution<double> one = solve(sys, opt);
  openblas_set_num_threads(2);
  ASSERT_EQ(openblas_get_num_threads(), 2);
  const Solution<double> two = solve(sys, opt);
  EXPECT_EQ(openblas_get_num_threads(), 1) << "femc's kernels set one thread";
  EXPECT_TRUE(one.qdd == two.qdd);
  EXPECT_TRUE(one.QN == two.QN);
  EXPECT_TRUE(one.lambda == two.lambda);
  EXPECT_EQ(one.diagnostics.rank.rank, m);
}

}  // namespace
}  // namespace femc
