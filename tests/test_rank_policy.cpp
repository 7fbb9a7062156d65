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

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"

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
  for (const Method method : {Method::Cod, Method::Literal, Method::Nullspace}) {
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

// The user's rank_tol is taken as given: with τ below the rounding level,
// cod keeps σ₂ again (this is what the default protects against).
TEST(RankPolicy, UserToleranceIsTakenAsGiven) {
  Options<double> opt;
  opt.rank_tol = 1e-17;
  const Solution<double> s = solve(permutation_case<double>(true), opt);
  EXPECT_EQ(s.diagnostics.rank.tol, 1e-17);
  EXPECT_EQ(s.diagnostics.rank.rank, 2);
}

}  // namespace
}  // namespace femc
