// The dense kernels of methods cod and nullspace (decomposition/
// dense_cholesky.hpp, householder_qr.hpp): LAPACK's blocked routines in
// double, Eigen's algorithms for the other types.
// - double: each factorization is backward stable within the bound of its
//   error analysis (Higham, Accuracy and Stability of Numerical Algorithms,
//   2nd ed.), checked with the residual formed in long double from the
//   computed factors; the slack is printed.
// - the other types but MPFR: the same numbers as Eigen's LLT and
//   ColPivHouseholderQR, bit for bit (the algorithms are Eigen's, run in
//   femc's storage).
// - MPFR: the Cholesky factorization, the triangular solves and the
//   reflector applications are femc's kernels on raw mpfr_t
//   (mpfr_kernels.hpp), held to the same backward-error bounds as double's,
//   with the residual formed at twice the working precision. The pivoting
//   follows Eigen's.
// - a user's OpenBLAS thread count changes no rounding of a cod solve large
//   enough for OpenBLAS to split (1000 × 400): the kernels run it on one.
#include <cblas.h>
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "femc/decomposition/dense_cholesky.hpp"
#include "femc/decomposition/householder_qr.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/gamma.hpp"
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

// SPD with κ about 10⁴: GᵀG plus a small shift, G Gaussian; its lower
// triangle mirrored, since Eigen's product need not round (i, j) and (j, i)
// alike (at n = 18 they differed by 2·10⁻¹⁵), and the factorizations read
// the lower triangle only while the residual checks read all of M.
Matrix<double> spd(Index n, unsigned seed) {
  const Matrix<double> G = gaussian(n, n, seed);
  Matrix<double> M = G.transpose() * G;
  M.diagonal().array() += 1e-2 * double(n);
  return M.selfadjointView<Eigen::Lower>();
}

using test::gamma;

// Higham Thm 10.3: the computed factor satisfies L Lᵀ = M + ΔM with
// |ΔM| ≤ γ_{n+1}|L||Lᵀ| entrywise.
TEST(DenseCholesky, BackwardErrorWithinGammaNPlus1_double) {
  for (Index n : {1, 7, 64, 200, 300}) {
    const Matrix<double> M = spd(n, 100 + unsigned(n));
    DenseCholesky<double> chol;
    ASSERT_TRUE(chol.compute(M)) << n;
    const Long L = Matrix<double>(chol.matrixL()).cast<long double>();
    const Long residual = (L * L.transpose() - M.cast<long double>()).cwiseAbs();
    const Long bound = L.cwiseAbs() * L.cwiseAbs().transpose() * (long double)gamma<double>(n + 1);
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

// Eigen's llt_inplace in femc's storage is Eigen::LLT, bit for bit, and so
// is the triangular solve (MPFR runs femc's kernels instead: see below).
TEST(DenseCholesky, IsEigensLltBitForBit_longdouble) {
  using S = long double;
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

// MPFR at 256 bits, with residuals formed at 512.
constexpr long kBits = 256, kWideBits = 512;
using Mp = Matrix<mpfr_real>;

Mp widened(Mp X) {
  for (Index k = 0; k < X.size(); ++k) X.data()[k].setPrecision(kWideBits);  // exact
  return X;
}
Mp mp_of(const Matrix<double>& X) { return X.unaryExpr([](double x) { return mpfr_real(x); }); }

// max_ij |residual_ij| / bound_ij (0/0 counts 0).
double worst_ratio(const Mp& residual, const Mp& bound) {
  mpfr_real worst = 0;
  for (Index k = 0; k < residual.size(); ++k) {
    const mpfr_real r = abs(residual.data()[k]);
    if (r > 0) worst = std::max(worst, mpfr_real(r / bound.data()[k]));
  }
  return worst.toDouble();
}

// Higham Thm 10.3 under MPFR (mpfr_kernels::cholesky_lower_in_place): the
// computed factor satisfies L Lᵀ = M + ΔM with |ΔM| ≤ γ_{n+1}|L||Lᵀ|
// entrywise, the residual formed at 512 bits; a block-diagonal M takes the
// kernel's skip of an exact zero L(j, k). The check can fail: one entry of L
// moved by a relative 10⁻⁶⁰ (2⁻¹⁹⁹) breaks the bound. An indefinite M, a NaN
// on or off the diagonal and a singular M are refused, as dpotrf refuses
// them in double.
TEST(MpfrKernels, CholeskyWithinGammaNPlus1_mpfr256) {
  Matrix<double> blocks = Matrix<double>::Zero(30, 30);
  blocks.topLeftCorner(12, 12) = spd(12, 600);
  blocks.bottomRightCorner(18, 18) = spd(18, 601);
  std::vector<std::pair<std::string, Matrix<double>>> cases;
  for (Index n : {1, 7, 64, 200}) cases.emplace_back("n = " + std::to_string(n), spd(n, 500 + unsigned(n)));
  cases.emplace_back("block-diagonal 12 + 18", blocks);
  for (const auto& [label, Md] : cases) {
    const Index n = Md.rows();
    Mp M(0, 0), L(0, 0);
    {
      MpfrPrecision bits(kBits);
      M = mp_of(Md);
      DenseCholesky<mpfr_real> chol;
      ASSERT_TRUE(chol.compute(M)) << label;
      L = chol.matrixL();
    }
    const mpfr_real g = [&] { MpfrPrecision b(kBits); return gamma<mpfr_real>(n + 1); }();
    MpfrPrecision bits(kWideBits);
    const Mp Mw = widened(M);
    const auto reaches = [&](const Mp& F) {
      const Mp absF = F.cwiseAbs();
      return worst_ratio(Mp(F * F.transpose() - Mw), Mp(absF * absF.transpose()) * g);
    };
    const double worst = reaches(widened(L));
    EXPECT_LE(worst, 1.0) << label;
    std::printf("%s: |M − LLᵀ| reaches %.3g of γ_{n+1}|L||Lᵀ| (slack %.3g)\n", label.c_str(), worst, 1 / worst);
    if (n == 64) {
      Mp Lbad = widened(L);
      Lbad(40, 20) *= 1 + mpfr_real("1e-60");
      EXPECT_GT(reaches(Lbad), 1.0);
    }
  }
  MpfrPrecision bits(kBits);
  DenseCholesky<mpfr_real> chol;
  Mp M = mp_of(spd(20, 7));
  M(13, 13) = -1;
  EXPECT_FALSE(chol.compute(M)) << "indefinite";
  M(13, 13) = mpfr_real().setNan();
  EXPECT_FALSE(chol.compute(M)) << "NaN on the diagonal";
  M = mp_of(spd(20, 7));
  M(13, 5) = M(5, 13) = mpfr_real().setNan();
  EXPECT_FALSE(chol.compute(M)) << "NaN below the diagonal";
  Vector<double> v(4);
  v << 1, 2, -1, 3;  // L(:, 0) = v exactly, then the second pivot is exactly 0
  EXPECT_FALSE(chol.compute(mp_of(Matrix<double>(v * v.transpose())))) << "singular";
}

// Higham Thm 8.5: the computed x of L x = b satisfies (L + ΔL) x = b with
// |ΔL| ≤ γ_n|L|, so |b − L x| ≤ γ_n |L||x| entrywise; the same for Lᵀ. The
// check can fail: one entry of a solution moved by a relative 10⁻⁶⁰ (2⁻¹⁹⁹), far
// below what a double-precision check would see, breaks the bound.
TEST(MpfrKernels, TriangularSolvesWithinGammaN_mpfr256) {
  for (Index n : {1, 7, 64, 200}) {
    Mp L(0, 0), B(0, 0), X(0, 0), Y(0, 0);
    {
      MpfrPrecision bits(kBits);
      DenseCholesky<mpfr_real> chol;
      ASSERT_TRUE(chol.compute(mp_of(spd(n, 300 + unsigned(n)))));
      L = chol.matrixL();
      B = mp_of(gaussian(n, 3, 400 + unsigned(n)));
      X = B;
      chol.solve_L_in_place(X);  // X ← L⁻¹B, mpfr_kernels::solve_lower_in_place
      Vector<mpfr_real> y = B.col(0);
      chol.solve_Lt_in_place(y);  // y ← L⁻ᵀb
      Y = y;
    }
    MpfrPrecision bits(kWideBits);
    const mpfr_real g = [&] { MpfrPrecision b(kBits); return gamma<mpfr_real>(n); }();
    const Mp Lw = widened(L), Xw = widened(X), Yw = widened(Y), Bw = widened(B);
    const Mp absL = Lw.cwiseAbs();
    const double lower = worst_ratio(Bw - Lw * Xw, Mp(absL * Xw.cwiseAbs()) * g);
    const double upper = worst_ratio(Bw.col(0) - Lw.transpose() * Yw, Mp(absL.transpose() * Yw.cwiseAbs()) * g);
    EXPECT_LE(lower, 1.0) << "L⁻¹B, n = " << n;
    EXPECT_LE(upper, 1.0) << "L⁻ᵀb, n = " << n;
    std::printf("n = %ld: |b − Lx| reaches %.3g of γ_n|L||x|, |b − Lᵀy| %.3g\n", long(n), lower, upper);
    if (n == 64) {  // the check sees a wrong last bit region of one entry
      Mp Xbad = Xw;
      Xbad(n / 2, 1) *= 1 + mpfr_real("1e-60");
      EXPECT_GT(worst_ratio(Bw - Lw * Xbad, Mp(absL * Xbad.cwiseAbs()) * g), 1.0);
    }
  }
}

// Q·X from the computed reflectors, in the wider type W of X: Qᵀ's exact
// orthogonal neighbour, to W's precision (long double for double's factors,
// 512 bits for 256-bit ones).
template <class T, class W>
Matrix<W> apply_q(const Matrix<T>& qr, const Vector<T>& tau, Matrix<W> X) {
  const Index m = qr.rows(), k = tau.size();
  for (Index i = k - 1; i >= 0; --i) {
    Vector<W> v = Vector<W>::Zero(m);
    v(i) = 1;
    v.tail(m - i - 1) = qr.col(i).tail(m - i - 1).template cast<W>();
    const Eigen::Matrix<W, 1, Eigen::Dynamic> w = W(tau(i)) * (v.transpose() * X);
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
      worst = std::max(worst, double(err / (X.col(from).cast<long double>().norm() * gamma<double>(s.m * s.n))));
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
                                     (X.col(j).cast<long double>().norm() * gamma<double>(m * n))));
    EXPECT_LE(worst, 1.0) << m << "x" << n;
    std::printf("%ldx%ld: ‖X − QR‖_j reaches %.3g of γ_{mn}‖x_j‖\n", long(m), long(n), worst);
  }
}

// The QRs of the types other than double follow Eigen's algorithms step for
// step: in long double every number is Eigen's (ColPivHouseholderQR and
// householder_qr_inplace_unblocked), the permutation included.
TEST(PivotedHouseholderQR, IsEigensColPivQrBitForBit_longdouble) {
  for (Index m : {5, 30}) {
    const Index n = 2 * m + 3;
    Matrix<long double> X = (gaussian(m, m / 2 + 1, 11) * gaussian(m / 2 + 1, n, 12)).cast<long double>();
    PivotedHouseholderQR<long double> qr;
    qr.compute(X);
    const Eigen::ColPivHouseholderQR<Matrix<long double>> eigen(X);
    EXPECT_TRUE(qr.matrixQR() == eigen.matrixQR()) << m;
    EXPECT_TRUE(qr.hCoeffs() == eigen.hCoeffs()) << m;
    EXPECT_TRUE(qr.permutation() == eigen.colsPermutation().indices()) << m;
    Matrix<long double> F = X.transpose(), G = F;
    Vector<long double> tau, eigen_tau(std::min(F.rows(), F.cols()));
    HouseholderQRInPlace<long double>().compute(F, tau);
    Vector<long double> temp(G.cols());
    Eigen::internal::householder_qr_inplace_unblocked(G, eigen_tau, temp.data());
    EXPECT_TRUE(F == G && tau == eigen_tau) << m;
  }
}

// Under MPFR the reflectors are applied by mpfr_kernels' kernel (a mul, then
// an add or a sub, per multiply-add): Higham Thm 19.4 as in double, with Q
// applied and the residual formed at 512 bits; the columns are pivoted as
// Eigen pivots them over the first rank(X) steps (the same columns as
// ColPivHouseholderQR's; after them the remaining norms are rounding errors,
// which the kernel rounds differently).

TEST(MpfrKernels, QrsWithinGammaMNAndPivotedAsEigen_mpfr256) {
  struct Shape { Index m, n, rank; };
  for (const Shape s : {Shape{5, 12, 5}, Shape{40, 90, 40}, Shape{90, 40, 40}, Shape{40, 90, 20}}) {
    Mp X(0, 0), F(0, 0), T(0, 0);
    Vector<mpfr_real> tau, ftau;
    Eigen::VectorXi perm;
    {
      MpfrPrecision bits(kBits);
      Matrix<double> Xd = gaussian(s.m, s.rank, 5 + unsigned(s.m)) * gaussian(s.rank, s.n, 6 + unsigned(s.n));
      for (Index j = 0; j < s.n; ++j) Xd.col(j) *= std::pow(10.0, double(j % 7) - 3);
      X = mp_of(Xd);
      PivotedHouseholderQR<mpfr_real> qr;
      qr.compute(X);
      F = qr.matrixQR();
      tau = qr.hCoeffs();
      perm = qr.permutation();
      const Eigen::ColPivHouseholderQR<Mp> eigen(X);
      EXPECT_TRUE(perm.head(s.rank) == eigen.colsPermutation().indices().head(s.rank)) << s.m << "x" << s.n;
      T = X.transpose();  // the plain QR, of Xᵀ
      HouseholderQRInPlace<mpfr_real>().compute(T, ftau);
    }
    const mpfr_real g = [&] { MpfrPrecision b(kBits); return gamma<mpfr_real>(s.m * s.n); }();
    MpfrPrecision bits(kWideBits);
    const Mp Xw = widened(X);
    const auto columnwise = [&](const Mp& factors, const Vector<mpfr_real>& h, const Mp& original, auto from) {
      Mp R = Mp::Zero(factors.rows(), factors.cols());
      for (Index j = 0; j < factors.cols(); ++j)
        for (Index i = 0; i <= std::min(j, factors.rows() - 1); ++i) R(i, j) = factors(i, j);
      const Mp QR = apply_q(widened(factors), h, widened(R));
      double worst = 0;
      for (Index j = 0; j < factors.cols(); ++j) {
        const mpfr_real err = (QR.col(j) - original.col(from(j))).norm();
        worst = std::max(worst, mpfr_real(err / (original.col(from(j)).norm() * g)).toDouble());
      }
      return worst;
    };
    const double pivoted = columnwise(F, tau, Xw, [&](Index j) { return Index(perm(j)); });
    const double plain = columnwise(T, ftau, Mp(Xw.transpose()), [](Index j) { return j; });
    EXPECT_LE(pivoted, 1.0) << s.m << "x" << s.n;
    EXPECT_LE(plain, 1.0) << s.m << "x" << s.n;
    if (s.m == 40 && s.rank == 40) {  // the check sees one entry of R off by a relative 10⁻⁶⁰
      Mp Fbad = F;
      Fbad(7, 11) *= 1 + mpfr_real("1e-60");
      EXPECT_GT(columnwise(Fbad, tau, Xw, [&](Index j) { return Index(perm(j)); }), 1.0);
    }
    std::printf("%ldx%ld rank %ld: ‖XΠ − QR‖_j reaches %.3g of γ_{mn}‖x_j‖, ‖Xᵀ − QR‖_j %.3g\n", long(s.m),
                long(s.n), long(s.rank), pivoted, plain);
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
