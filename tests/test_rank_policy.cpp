// The rank policy of the methods that form P = W^{1/2} A M^{-1/2} in floating
// point (rank.hpp, formed_rank_tolerance). Regression: a random-seed run of
// the property Meta_RowPermutationInvariance found this 2×2 system, where A
// has rank 1 exactly (its second column is 0) and W has κ ≈ 100. With the
// plain default τ = max(m, n)·ε, cod kept the rounding-level σ₂ of the
// formed P (σ₂/σ₁ ≈ 5·10⁻¹⁶ > τ = 4.4·10⁻¹⁶) and q̈ came out 10¹⁶ wrong.
// Both row orders must give rank 1 and q̈ within 64·u·K of the exact answer
// (K = κ(M)·κ(W)·10 = 10·100·10, the conditioning of this small problem,
// generously), relative to 1 + |q̈|.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <iostream>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/rank_deciding_methods.hpp"

namespace femc {
namespace {

template <class S>
System<S> permutation_case(bool reversed) {
  auto num = [](const char* t) { return ScalarTraits<S>::parse(t); };
  Matrix<S> M(2, 2), A(2, 2), W(2, 2);
  Vector<S> b(2), Q(2), C(2);
  M << num("886047/131072"), num("-566231/131072"), num("-566231/131072"), num("555745/131072");
  Q << S(-5), S(-5);
  C << S(-3), S(-3);
  if (!reversed) {
    A << num("314573/524288"), S(0), num("838861/1048576"), S(0);
    b << num("-707789/131072"), num("-1625293/262144");
    W << num("527237/8192"), num("-97321/2048"), num("-97321/2048"), num("300155/8192");
  } else {
    A << num("838861/1048576"), S(0), num("314573/524288"), S(0);
    b << num("-1625293/262144"), num("-707789/131072");
    W << num("300155/8192"), num("-97321/2048"), num("-97321/2048"), num("527237/8192");
  }
  System<S> sys = make_system<S>(M, A, b, Q);
  sys.C = C;
  sys.W = W;
  return sys;
}

TEST(RankPolicy, FormedPOfRankOneIsRankOneInBothRowOrders) {
  const Solution<rational> exact = solve(permutation_case<rational>(false), {Method::Exact});
  ASSERT_EQ(exact.diagnostics.rank.rank, 1);
  for (const Method method : test::rank_deciding_methods()) {
    for (const bool reversed : {false, true}) {
      Options<double> opt;
      opt.method = method;
      const Solution<double> s = solve(permutation_case<double>(reversed), opt);
      EXPECT_EQ(s.diagnostics.rank.rank, 1) << to_string(method) << (reversed ? " reversed" : "");
      for (Index i = 0; i < 2; ++i)
        EXPECT_NEAR(s.qdd(i), test::to_double(exact.qdd(i)),
                    64 * unit_roundoff<double>() * 1e4 * (1 + std::abs(test::to_double(exact.qdd(i)))))
            << to_string(method) << (reversed ? " reversed" : "") << " q̈[" << i << "]";
    }
  }
}

// Regression: a random-seed run of the property G9_WMattersIffAtWrNonzero
// (nullspace, 256 bits) found this 2×2 system: A = a·aᵀ has rank 1 exactly,
// and W (κ ≈ 1.3·10⁶) has its small eigenvalue 1 along a, so L_Wᵀ A has
// σ₁ ≈ 1 while its entries are ≈ 900: forming it leaves a noise σ₂ of about
// 900·u, above the plain τ. nullspace decided the rank of L_Wᵀ A at τ alone,
// kept that σ₂, and q̈ lost every digit at double, long double, binary128,
// dd and 256 bits ((0, −32) at double against (−160.1, 201.8)); it now
// decides as cod does (rank.hpp, decide_formed_rank). Every rank-deciding
// method must give rank 1 and q̈ within 64·u·K of the exact answer, K =
// κ(M)·κ(W) = 1.3·10⁶ (the weighted least-squares problem's conditioning),
// relative to 1 + |q̈|: cod and nullspace use 1/200 of it (6.6·10⁻⁹ against
// 1.5·10⁻⁶), the wrong answer of before exceeded it 10⁸ times.
template <class S>
System<S> aligned_weight_case() {
  auto num = [](const char* t) { return ScalarTraits<S>::parse(t); };
  Matrix<S> M = Matrix<S>::Identity(2, 2), A(2, 2), W(2, 2);
  Vector<S> b(2), Q(2);
  A << num("1510441/4194304"), num("-4027433/8388608"), num("-4027433/8388608"), num("10738729/16777216");
  b << num("-5284905/2097152"), num("-15266775/4194304");
  Q << S(-5), S(-5);
  const char* w11 = "44766867923479917584795230436442039347210088074873040685708355825276999035781/"
                    "55213970774324510299478046898216203619608871777363092441300193790394368";
  const char* w12 = "8393777383032964361303424554699088962063712837375236872990483973453101620265/"
                    "13803492693581127574869511724554050904902217944340773110325048447598592";
  const char* w22 = "25181387363069667408420573142144165102394758120997487982063893220553095255163/"
                    "55213970774324510299478046898216203619608871777363092441300193790394368";
  W << num(w11), num(w12), num(w12), num(w22);
  System<S> sys = make_system<S>(M, A, b, Q);
  sys.W = W;
  return sys;
}

TEST(RankPolicy, WeightAlignedWithTheRangeOfARankOneA) {
  const Solution<rational> exact = solve(aligned_weight_case<rational>(), {Method::Exact});
  ASSERT_EQ(exact.diagnostics.rank.rank, 1);
  const Eigen::SelfAdjointEigenSolver<Matrix<double>> eig(aligned_weight_case<double>().W);
  const double K = 1 * eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();  // κ(M)·κ(W), κ(M) = 1
  for (const Method method : test::rank_deciding_methods()) {
    Options<double> opt;
    opt.method = method;
    const Solution<double> s = solve(aligned_weight_case<double>(), opt);
    EXPECT_EQ(s.diagnostics.rank.rank, 1) << to_string(method);
    for (Index i = 0; i < 2; ++i) {
      const double q = test::to_double(exact.qdd(i)), tol = 64 * unit_roundoff<double>() * K * (1 + std::abs(q));
      std::cout << "  " << to_string(method) << " q̈[" << i << "]: error " << std::abs(s.qdd(i) - q) << ", tolerance "
                << tol << "\n";
      EXPECT_NEAR(s.qdd(i), q, tol) << to_string(method) << " q̈[" << i << "]";
    }
  }
}

// The user's rank_tol is taken as given: with τ below the rounding level,
// cod keeps σ₂ again (this is what the default protects against).
TEST(RankPolicy, UserToleranceIsTakenAsGiven) {
  Options<double> opt;
  opt.rank_tol = 1e-17;
  const Solution<double> s = solve(permutation_case<double>(true), opt);
  EXPECT_EQ(s.diagnostics.rank.tol, 1e-17);
  EXPECT_EQ(s.diagnostics.rank.rank, 2);
}

// The other side of the band (rank.hpp, decide_formed_rank). M has κ(M) =
// 10⁸, so τ_formed = τ·10⁴; A (4×8) has full row rank with κ(A) ≈ 10¹⁰, and
// B = A L⁻ᵀ has its smallest relative singular value inside the band
// (τ, τ·10⁴). With τ_formed alone, cod and literal dropped that direction
// although A determines it, and q̈ lost every digit (the conditioning study at
// κ(M) = 10⁸ found 16 such solves); nullspace, which decides on A, kept it.
// Now the rank of A settles the band: all three keep rank 4, and q̈ is far
// closer to the exact answer than to the answer with the direction dropped.
template <class S>
Matrix<S> householder(const Vector<S>& v) {
  const Index n = v.size();
  return Matrix<S>(Matrix<S>::Identity(n, n) - (S(2) / v.squaredNorm()) * v * v.transpose());
}

System<double> band_case() {
  const Index n = 8, m = 4;
  Eigen::VectorXd v(n), w(m), v2(n);
  for (Index i = 0; i < n; ++i) v(i) = 1 + i, v2(i) = (i % 3) - 1.5;
  w << 1, -2, 0.5, 3;
  const Eigen::MatrixXd H = householder<double>(v), G = householder<double>(w), K = householder<double>(v2);
  Eigen::VectorXd lambda(n);
  for (Index i = 0; i < n; ++i) lambda(i) = std::pow(1e-8, double(i) / (n - 1));
  Eigen::MatrixXd M = H * lambda.asDiagonal() * H;
  const Eigen::MatrixXd Mt = M.transpose();
  M.triangularView<Eigen::StrictlyUpper>() = Mt.triangularView<Eigen::StrictlyUpper>();
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(m, n);
  for (Index i = 0; i < m; ++i) S(i, i) = std::pow(1e-10, double(i) / (m - 1));
  const Eigen::MatrixXd A = G * S * K;
  Eigen::VectorXd b(m), Q(n), C(n);
  b << 1, -1, 2, 0.5;
  for (Index i = 0; i < n; ++i) Q(i) = (i % 4) - 2.0, C(i) = 0.25 * i;
  System<double> sys = make_system<double>(M, A, b, Q);
  sys.C = C;
  return sys;
}

TEST(RankPolicy, DirectionsThatADeterminesAreKeptInsideTheBand) {
  const System<double> sys = band_case();
  auto exact_of = [](const System<double>& s) {
    auto r = [](double x) { return rational(x); };
    return solve(System<rational>{s.M.unaryExpr(r), s.A.unaryExpr(r), s.b.unaryExpr(r), s.Q.unaryExpr(r),
                                  s.C.unaryExpr(r), s.W.unaryExpr(r)},
                 {Method::Exact});
  };
  const Solution<rational> exact = exact_of(sys);
  ASSERT_EQ(exact.diagnostics.rank.rank, 4);
  // The answer with the weakest direction dropped (cod at a rank tolerance
  // chosen to give rank 3): what the old rule returned.
  const Eigen::VectorXd exact_qdd = exact.qdd.unaryExpr([](const rational& x) { return test::to_double(x); });
  Options<double> cod3;
  cod3.rank_tol = 1e-9;  // between σ₄/σ₁ = 1e-10 and σ₃/σ₁: rank 3 on purpose
  const Eigen::VectorXd dropped = solve(sys, cod3).qdd;
  const double gap = (dropped - exact_qdd).norm() / exact_qdd.norm();
  ASSERT_GT(gap, 1e-3) << "the case must make dropping visible";
  for (const Method method : test::rank_deciding_methods()) {
    Options<double> opt;
    opt.method = method;
    const Solution<double> s = solve(sys, opt);
    const double err = (s.qdd - exact_qdd).norm() / exact_qdd.norm();
    std::cout << to_string(method) << ": rank " << s.diagnostics.rank.rank << ", error " << err << " (dropping: " << gap
              << ")\n";
    EXPECT_EQ(s.diagnostics.rank.rank, 4) << to_string(method);
    EXPECT_LT(err, gap / 100) << to_string(method);
  }
}

}  // namespace
}  // namespace femc
