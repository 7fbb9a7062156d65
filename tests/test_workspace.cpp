// The methods' workspaces (methods/workspace.hpp: cod, kkt, nullspace,
// literal) and the MPFR limb pool (scalar/mpfr_pool.hpp): the performance
// path must give solve()'s answer bit for bit (U1/G2: the answer is the
// General Gauss Principle's, whatever the storage), reuse the factor of an
// unchanged M and no other, and allocate nothing after the first solve of a
// shape. The allocation counts are exact counts of one deterministic run,
// not timings.
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <thread>

#if !defined(__SANITIZE_ADDRESS__)
#include "alloc_count.hpp"
#endif
#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/decomposition/dense_cholesky.hpp"
#include "femc/errors.hpp"
#include "femc/methods/workspace.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/mpfr_pool.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/gamma.hpp"
#include "support/random_systems.hpp"

namespace femc {
namespace {

template <class S>
void expect_identical(const Solution<S>& a, const Solution<S>& b, const std::string& where) {
  auto same = [](const Vector<S>& x, const Vector<S>& y) { return x.size() == y.size() && x == y; };
  EXPECT_TRUE(same(a.qdd, b.qdd)) << where << ": qdd";
  EXPECT_TRUE(same(a.QN, b.QN)) << where << ": QN";
  EXPECT_TRUE(same(a.QW, b.QW)) << where << ": QW";
  EXPECT_TRUE(same(a.Qc, b.Qc)) << where << ": Qc";
  EXPECT_TRUE(same(a.lambda, b.lambda)) << where << ": lambda";
  EXPECT_TRUE(a.Gg_min == b.Gg_min) << where << ": Gg_min";
  EXPECT_TRUE(a.delta_norm_sq == b.delta_norm_sq) << where << ": delta";
  EXPECT_EQ(a.diagnostics.rank.rank, b.diagnostics.rank.rank) << where;
  EXPECT_TRUE(*a.diagnostics.kappa_M == *b.diagnostics.kappa_M) << where << ": kappa_M";
  EXPECT_EQ(a.diagnostics.warnings, b.diagnostics.warnings) << where;
}

// The methods with a workspace, read from the one list (methods/list.hpp).
const std::vector<Method> kWorkspaceMethods = [] {
  std::vector<Method> out;
  for (const MethodInfo& info : methods())
    if (info.has_workspace) out.push_back(info.method);
  return out;
}();

// Whether a method solves rank-deficient systems (kkt refuses them, and so
// never meets a W that matters: G9).
bool rank_deficient(Method method) { return method_info(method).capabilities.rank_deficient; }

template <class S>
Options<S> with_method(Method method) {
  Options<S> opt;
  opt.method = method;
  return opt;
}


// Every class of system, weighted or not, with C or not, through one
// workspace that changes shape, M and rank between solves: each result is
// solve()'s, and where solve() refuses the system (kkt, rank-deficient A)
// the workspace refuses it too.
template <class S>
void workspace_matches_solve(Method method) {
  test::SystemGenerator gen(20261122);
  Workspace<S> ws;
  Solution<S> sol;
  const Options<S> opt = with_method<S>(method);
  for (int round = 0; round < 3; ++round)
    for (test::SystemClass c : test::kAllClasses)
      for (bool weighted : {false, true}) {
        const System<S> sys = test::convert<S>(gen.make(c, /*with_C=*/true, weighted).sys);
        const std::string where = to_string(method) + " " + test::name(c) + (weighted ? " weighted" : "") +
                                  " round " + std::to_string(round);
        Solution<S> fresh;
        try {
          fresh = solve(sys, opt);
        } catch (const MethodError&) {
          EXPECT_THROW(solve(sys, opt, sol, ws), MethodError) << where;
          continue;
        }
        solve(sys, opt, sol, ws);
        expect_identical(sol, fresh, where);
        solve(sys, opt, sol, ws);  // again: M's factor reused
        EXPECT_TRUE(ws.reused_mass_factor(method)) << where;
        expect_identical(sol, fresh, where + " (reused)");
      }
}

TEST(Workspace, U1_G2_MatchesSolveBitForBit_double) {
  std::cout << "methods with a workspace:";  // the dry run of adding one looks for it here
  for (Method method : kWorkspaceMethods) std::cout << " " << to_string(method);
  std::cout << "\n";
  for (Method method : kWorkspaceMethods) workspace_matches_solve<double>(method);
}
TEST(Workspace, U1_G2_MatchesSolveBitForBit_mpfr256) {
  MpfrPrecision bits(256);
  for (Method method : kWorkspaceMethods) workspace_matches_solve<mpfr_real>(method);
}

// One solve through ws, which must give solve()'s result bit for bit.
template <class S>
void solve_as_solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol, Workspace<S>& ws,
                    const std::string& what) {
  solve(sys, opt, sol, ws);
  expect_identical(sol, solve(sys, opt), what);
}

TEST(Workspace, ReusesTheFactorOfAnUnchangedMOnly) {
  for (Method method : kWorkspaceMethods) {
    test::SystemGenerator gen(7);
    System<double> sys = test::convert<double>(gen.make(test::SystemClass::FullRowRank, true, false).sys);
    const Options<double> opt = with_method<double>(method);
    Workspace<double> ws;
    Solution<double> sol;
    solve(sys, opt, sol, ws);
    EXPECT_FALSE(ws.reused_mass_factor(method));
    sys.b(0) += 1;  // same M: reused
    solve_as_solve(sys, opt, sol, ws, to_string(method) + ", b changed");
    EXPECT_TRUE(ws.reused_mass_factor(method));
    sys.M(0, 0) += 1;  // one entry of M changed: factored again
    solve_as_solve(sys, opt, sol, ws, to_string(method) + ", M changed");
    EXPECT_FALSE(ws.reused_mass_factor(method));
  }
}

// The same of a weight W ≠ I: an unchanged W's factor (literal: its W^{1/2})
// reused, a changed one's not, each solve solve()'s. And a solve the method
// refuses leaves nothing stale behind: the next one is solve()'s.
TEST(Workspace, ReusesTheWeightOfAnUnchangedWOnly) {
  for (Method method : kWorkspaceMethods) {
    if (!rank_deficient(method)) continue;  // kkt: full row rank, where W does not matter (G9)
    test::SystemGenerator gen(17);
    System<double> sys = test::convert<double>(gen.make(test::SystemClass::RankDeficientInconsistent, true, true).sys);
    const Options<double> opt = with_method<double>(method);
    Workspace<double> ws;
    Solution<double> sol;
    solve(sys, opt, sol, ws);
    sys.b(0) += 1;  // same M and W
    solve_as_solve(sys, opt, sol, ws, to_string(method) + ", b changed");
    sys.W(0, 0) += 1;  // W changed, M not (W stays positive definite)
    solve_as_solve(sys, opt, sol, ws, to_string(method) + ", W changed");
    System<double> bad = sys;
    bad.M(1, 1) = -bad.M(1, 1);
    EXPECT_THROW(solve(bad, opt, sol, ws), InputError) << to_string(method);
    solve_as_solve(sys, opt, sol, ws, to_string(method) + ", after a refused M");
  }
}

// A factor made without validation is not taken as proof that M is
// positive definite: with validation on, a bad M is still refused.
TEST(Workspace, AnUnvalidatedFactorDoesNotSkipValidation) {
  for (Method method : kWorkspaceMethods) {
    test::SystemGenerator gen(8);
    System<double> sys = test::convert<double>(gen.make(test::SystemClass::FullRowRank, false, false).sys);
    sys.M(0, 1) += 0.5;  // not symmetric; the Cholesky factor reads the lower triangle only
    Workspace<double> ws;
    Solution<double> sol;
    Options<double> trusting = with_method<double>(method);
    trusting.assume_valid = true;
    solve(sys, trusting, sol, ws);
    EXPECT_THROW(solve(sys, with_method<double>(method), sol, ws), InputError) << to_string(method);
  }
}

// Options::assume_valid skips validate(), not the Cholesky factorization:
// an M that is not positive definite stops the method with validate()'s
// error instead of a number computed from a failed factor.
TEST(Workspace, AFailedFactorOfMThrowsEvenUnderAssumeValid) {
  for (Method method : kWorkspaceMethods) {
    test::SystemGenerator gen(9);
    System<double> sys = test::convert<double>(gen.make(test::SystemClass::FullRowRank, false, false).sys);
    sys.M(2, 2) = -sys.M(2, 2);
    Options<double> trusting = with_method<double>(method);
    trusting.assume_valid = true;
    EXPECT_THROW(solve(sys, trusting), InputError) << to_string(method);
  }
}

// The condition estimate of the workspace (spd_rcond) is Eigen's
// LLT::rcond() computed with the workspace's vectors: the same number from
// the same factor's solves. The workspace's own factor (DenseCholesky) is
// Eigen's at every type but double and MPFR, so there its estimate is LLT's
// too; in double the factor is LAPACK's and rounds differently. Under MPFR
// the factor and its solves are femc's kernels (mpfr_kernels.hpp), which
// round differently: the estimate ‖M⁻¹x‖₁ then agrees to the solves' forward
// error. Each computed solve satisfies (M + ΔM)x̂ = b with
// |ΔM| ≤ γ_{3n+1}|L||Lᵀ| (Higham Thm 10.4), and (|L||Lᵀ|)_ij ≤ √(m_ii m_jj)
// (Cauchy–Schwarz on L's rows), so ‖ΔM‖₁ ≤ n·γ_{3n+1}‖M‖₁: the two
// estimates differ by at most 2·n·κ₁(M)·γ_{3n+1} relative.
template <class S>
void rcond_matches_eigen() {
  test::SystemGenerator gen(11);
  CholeskyConditionScratch<S> scratch;
  for (Index n : {1, 2, 3, 7, 20}) {
    const Matrix<S> M = test::convert<S>(gen.spd(n));
    const S norm = symmetric_l1_norm(M);
    const Eigen::LLT<Matrix<S>> llt(M);
    EXPECT_TRUE(spd_rcond(n, norm, [&](Vector<S>& v) { llt.solveInPlace(v); }, scratch) == llt.rcond())
        << "n = " << n;
    if constexpr (!std::is_same_v<S, double>) {
      DenseCholesky<S> chol;
      ASSERT_TRUE(chol.compute(M));
      const S ours = chol.rcond(norm, scratch), eigens = llt.rcond();
      if constexpr (std::is_same_v<S, mpfr_real>) {
        using std::abs;
        const S kappa = 1 / eigens;
        // The relative bound 2nκγ_{3n+1} on rcond = 1/κ, as an absolute one (so 2nγ_{3n+1}); κ is
        // the estimate, which Hager's method never makes above κ₁: a bound at most the derived one.
        const S bound = 2 * S(n) * kappa * test::gamma<S>(3 * n + 1) * eigens;
        EXPECT_LE(abs(ours - eigens), bound) << "n = " << n << ", the workspace's factor";
        std::printf("n = %ld: |Δrcond| reaches %.3g of 2nκγ_{3n+1}·rcond\n", long(n),
                    mpfr_real(abs(ours - eigens) / bound).toDouble());
      } else {
        EXPECT_TRUE(ours == eigens) << "n = " << n << ", the workspace's factor";
      }
    }
  }
}
TEST(CholeskyCondition, MatchesEigensRcond_double) { rcond_matches_eigen<double>(); }
TEST(CholeskyCondition, MatchesEigensRcond_mpfr256) {
  MpfrPrecision bits(256);
  rcond_matches_eigen<mpfr_real>();
}

// The allocation counter replaces malloc, which ASan owns: these two tests
// exist in the plain build only.
#if !defined(__SANITIZE_ADDRESS__)

// Heap allocations of the second and later solves of one system, and of a
// solve of the same shape with other data (b, Q, C and M changed: the
// factor is not reused).
// Heap allocations of a solve after warm-up, of the same system and of a
// system of the same shape with other data (b, Q, C and M changed: the
// factor is not reused). Both systems exist before the warm-up: their own
// numbers take limbs too. Under MPFR the warm-up is two rounds: the first
// leaves the workspace's own numbers alive, and the limbs it freed do not
// yet cover the temporaries of a solve that finds M factored.
template <class S>
void count_allocations(const System<S>& sys, Method method, alloc::AllocCounts& same,
                       alloc::AllocCounts& other_data) {
  System<S> sys2 = sys;
  sys2.b *= S(2);
  sys2.Q *= S(3);
  sys2.C *= S(-1);
  sys2.M *= S(2);
  if (!is_identity(sys.W)) sys2.W *= S(3);  // a weight changes too (literal's scratch of order m, not n)
  const Options<S> opt = with_method<S>(method);
  Workspace<S> ws;
  Solution<S> sol;
  for (int round = 0; round < 2; ++round) {
    solve(sys, opt, sol, ws);
    solve(sys, opt, sol, ws);
    solve(sys2, opt, sol, ws);
  }
  solve(sys, opt, sol, ws);
  const alloc::AllocCounts t0 = alloc::alloc_counts();
  solve(sys, opt, sol, ws);
  const alloc::AllocCounts t1 = alloc::alloc_counts();
  solve(sys2, opt, sol, ws);
  const alloc::AllocCounts t2 = alloc::alloc_counts();
  same = t1 - t0;
  other_data = t2 - t1;
}

// W = I, or a weight W = L_W L_Wᵀ that is not the identity (its factor,
// the product L_Wᵀ P and, when P is rank-deficient, λ through Aᵀ's own
// decomposition). Every method with a workspace, kkt on full row rank only
// (it refuses the others).
template <class S>
System<S> allocation_test_system(Index n, Index m, Index rank, bool weighted) {
  test::SystemGenerator gen(5);
  System<rational> exact;
  exact.M = gen.spd(n);
  exact.A = gen.rank_r(m, n, rank);
  exact.b = gen.integer_matrix(m, 1).col(0);
  exact.Q = gen.integer_matrix(n, 1).col(0);
  exact.C = gen.integer_matrix(n, 1).col(0);
  exact.W = weighted ? gen.spd(m) : Matrix<rational>::Identity(m, m);
  return test::convert<S>(exact);
}

template <class S>
void no_allocation_after_warm_up(const System<S>& sys, Method method, Index rank, bool weighted) {
  alloc::AllocCounts same, other;
  count_allocations(sys, method, same, other);
  const std::string what = to_string(method) + " " + std::to_string(sys.n()) + "x" + std::to_string(sys.m()) +
                           " rank " + std::to_string(rank) + (weighted ? " weighted" : "");
  EXPECT_EQ(same.mallocs, 0u) << what << ", same system";
  EXPECT_EQ(other.mallocs, 0u) << what << ", new data of the same shape";
}

// Every method with a workspace on one system (made once: its exact
// rational data take longer to make than the solves).
template <class S>
void no_allocation_after_warm_up(Index n, Index m, Index rank, bool weighted = false) {
  const System<S> sys = allocation_test_system<S>(n, m, rank, weighted);
  for (Method method : kWorkspaceMethods)
    if (rank_deficient(method) || rank == m) no_allocation_after_warm_up<S>(sys, method, rank, weighted);
}

TEST(Workspace, NoHeapAllocationAfterWarmUp_double) {
  no_allocation_after_warm_up<double>(12, 5, 5);
  no_allocation_after_warm_up<double>(12, 6, 3);
  no_allocation_after_warm_up<double>(60, 24, 24);
  no_allocation_after_warm_up<double>(200, 80, 80);  // Eigen's triangular solve passed its stack limit here
  no_allocation_after_warm_up<double>(12, 5, 5, true);
  no_allocation_after_warm_up<double>(12, 6, 3, true);
  no_allocation_after_warm_up<double>(200, 80, 80, true);
}

TEST(Workspace, NoHeapAllocationAfterWarmUp_mpfr256WithLimbPool) {
  install_mpfr_limb_pool();
  MpfrPrecision bits(256);
  no_allocation_after_warm_up<mpfr_real>(12, 5, 5);
  no_allocation_after_warm_up<mpfr_real>(12, 6, 3);
  no_allocation_after_warm_up<mpfr_real>(60, 24, 24);
  no_allocation_after_warm_up<mpfr_real>(12, 5, 5, true);
  no_allocation_after_warm_up<mpfr_real>(12, 6, 3, true);
  no_allocation_after_warm_up<mpfr_real>(60, 24, 24, true);
  // Eigen's packing buffers pass its 128 KB stack limit at m = 80 (32-byte
  // numbers): kkt's two-column LDLᵀ solve allocated here (cod and nullspace
  // at this size cost seconds and are counted by the benchmark; literal's
  // solve, half a minute, by neither).
  no_allocation_after_warm_up<mpfr_real>(allocation_test_system<mpfr_real>(200, 80, 80, false), Method::Kkt, 80, false);
}
#endif

// The pool: freed limbs come back; a thread's lists go back to malloc when
// it ends (LeakSanitizer checks the rest under make asan).
TEST(MpfrLimbPool, ReusesFreedLimbsAndDrainsAtThreadEnd) {
  install_mpfr_limb_pool();
  std::thread worker([] {
    MpfrPrecision bits(256);
    auto work = [](int count) {
      for (int i = 0; i < count; ++i) {
        mpfr_real x(i);
        x = x * x + mpfr_real(1);
      }
    };
    work(1);  // warm-up: as many limbs as one step has alive at once
    const LimbPoolCounts before = limb_pool_counts();
    work(100);
    const LimbPoolCounts after = limb_pool_counts();
    EXPECT_EQ(after.fresh, before.fresh);  // every limb came from the list
    EXPECT_GT(after.reused, before.reused);
  });
  worker.join();
  // Numbers made before and freed after another allocator stay valid.
  MpfrPrecision bits(300);
  mpfr_real y(3);
  y = sqrt(y);
  EXPECT_GT(y, mpfr_real(1.7));
}

}  // namespace
}  // namespace femc
