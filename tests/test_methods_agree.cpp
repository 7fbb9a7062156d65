// Every method × scalar type agrees with `exact` on random systems of every
// class (full row rank, rank-deficient consistent and inconsistent, m > n,
// m = 0, A = 0), with and without C, with W = I and W ≠ I.
//
// Bound. The data are small integers, held exactly at every precision. The
// floating methods are backward stable up to the formation of M^{-1/2}-like
// transforms: each output v satisfies, to first order,
//   ‖v̂ − v‖∞ ≤ c · u · K · (1 + ‖v‖∞ + ‖Q‖∞ + ‖C‖∞ + ‖b‖∞),
//   K = κ(M)·κ(P)²·κ(A)   (see support/convert.hpp),
// where κ(P)² is the least-squares sensitivity to the residual (Wedin; Higham,
// Accuracy and Stability, 2nd ed., Thm 20.1), κ(M) that of the transformation
// by a factor of M, κ(A) that of λ = (Aᵀ)⁺Qᴺ, and c = 16·(n + m)² covers the
// γ_{cn} constants of Cholesky, Householder QR and the Jacobi SVD (Higham
// Thms 10.3, 19.4; Demmel–Veselić). u is the unit roundoff of the type. The
// kkt method's Schur complement has κ(B)², covered by the same K.
#include <gtest/gtest.h>

#include <optional>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/precision_types.hpp"
#include "support/random_systems.hpp"

namespace femc::test {
namespace {

template <class S>
struct PrecisionScope {  // 256-bit MPFR for mpfr_real; nothing for the others
  std::optional<MpfrPrecision> guard;
  PrecisionScope() {
    if constexpr (std::is_same_v<S, mpfr_real>) guard.emplace(256);
  }
};

template <class S>
double abs_diff(const S& x, const rational& ref) {
  using std::abs;
  return as_double(S(abs(S(x - convert<S>(ref)))));
}

template <class S>
double max_abs_diff(const Vector<S>& x, const Vector<rational>& ref) {
  // Difference computed at S; converted to double only for reporting.
  S worst(0);
  for (Index i = 0; i < x.size(); ++i) {
    S d = x(i) - convert<S>(ref(i));
    using std::abs;
    if (abs(d) > worst) worst = abs(d);
  }
  return as_double(worst);
}

using prop::inf_norm;

template <class S>
class MethodsAgreeWithExact : public ::testing::Test {};

TYPED_TEST_SUITE(MethodsAgreeWithExact, test::FloatingTypes);  // the precision table's

TYPED_TEST(MethodsAgreeWithExact, OnEveryClass) {
  using S = TypeParam;
  PrecisionScope<S> scope;
  const double u = as_double(unit_roundoff<S>());
  SystemGenerator gen(20261121);
  int checked = 0;
  for (SystemClass cls : kAllClasses)
    for (int variant = 0; variant < 4; ++variant)
      for (int rep = 0; rep < 3; ++rep) {
        const bool with_C = variant & 1, weighted = variant & 2;
        ExactCase ec = gen.make(cls, with_C, weighted);
        const System<rational>& ex = ec.sys;
        Options<rational> xopt;
        xopt.method = Method::Exact;
        const Solution<rational> ref = solve(ex, xopt);
        ASSERT_EQ(ref.diagnostics.rank.rank, ec.rank) << ec.label;

        const System<S> sys = convert<S>(ex);
        const Conditioning cond = conditioning(ex, ec.rank);
        const double c = 16.0 * double((sys.n() + sys.m()) * (sys.n() + sys.m()));
        const double data = 1 + inf_norm(ex.Q) + inf_norm(ex.C) + inf_norm(ex.b);
        auto bound = [&](const Vector<rational>& v) { return c * u * cond.K() * (data + inf_norm(v)); };

        for (const MethodInfo& info : methods()) {  // every floating method of methods/list.hpp
          if (info.capabilities.arithmetic != Arithmetic::Floating) continue;
          const Method method = info.method;
          Options<S> opt;
          opt.method = method;
          if (!info.capabilities.rank_deficient && ec.rank < sys.m()) {  // it must refuse, never answer
            EXPECT_THROW(solve(sys, opt), MethodError) << ec.label << " " << info.name;
            continue;
          }
          const Solution<S> s = solve(sys, opt);
          const std::string where = ec.label + " method=" + to_string(method) + " K=" + std::to_string(cond.K());
          EXPECT_EQ(s.diagnostics.rank.rank, ec.rank) << where;
          EXPECT_LE(max_abs_diff(s.qdd, ref.qdd), bound(ref.qdd)) << where << " (qdd)";
          EXPECT_LE(max_abs_diff(s.QN, ref.QN), bound(ref.QN)) << where << " (QN)";
          EXPECT_LE(max_abs_diff(s.QW, ref.QW), bound(ref.QW)) << where << " (QW)";
          EXPECT_LE(max_abs_diff(s.Qc, ref.Qc), bound(ref.Qc)) << where << " (Qc)";
          EXPECT_LE(max_abs_diff(s.lambda, ref.lambda), bound(ref.lambda)) << where << " (lambda)";
          const double Gg = to_double(ref.Gg_min), d2 = to_double(ref.delta_norm_sq);
          EXPECT_LE(abs_diff(s.Gg_min, ref.Gg_min), c * u * cond.K() * (data * data + Gg)) << where << " (Gg)";
          EXPECT_LE(abs_diff(s.delta_norm_sq, ref.delta_norm_sq), c * u * cond.K() * (data * data + d2))
              << where << " (delta^2)";
          ++checked;
        }
      }
  EXPECT_GT(checked, 200);
}

// cod replaces M^{1/2} by the Cholesky factor Lᵀ; any factor S with M = SᵀS
// gives the same q̈ (001's problem is stated without square roots). Reversing
// the coordinates, q = J q′, gives M′ = JMJ whose Cholesky factor is not a
// permutation of L's (it is the reversed "UL" factor of M), so solving the
// reversed system exercises a different factor of the same M. The answers
// must agree within the bound above (and exactly, at rational precision, by
// the proof of G2 in proofs/coq).
TYPED_TEST(MethodsAgreeWithExact, CodDoesNotDependOnTheFactorOfM) {
  using S = TypeParam;
  PrecisionScope<S> scope;
  const double u = as_double(unit_roundoff<S>());
  SystemGenerator gen(7);
  for (SystemClass cls : kAllClasses)
    for (int rep = 0; rep < 4; ++rep) {
      ExactCase ec = gen.make(cls, rep & 1, rep & 2);
      System<rational> rev = ec.sys;
      const Index n = rev.n();
      Matrix<rational> J = Matrix<rational>::Zero(n, n);
      for (Index i = 0; i < n; ++i) J(i, n - 1 - i) = 1;
      rev.M = J * ec.sys.M * J;
      rev.A = ec.sys.A * J;
      rev.Q = J * ec.sys.Q;
      rev.C = J * ec.sys.C;
      Options<rational> xopt;
      xopt.method = Method::Exact;
      const Solution<rational> ref = solve(ec.sys, xopt);
      const Solution<S> a = solve(convert<S>(ec.sys));
      const Solution<S> b = solve(convert<S>(rev));
      const Vector<S> b_back = convert<S>(J) * b.qdd;
      const Conditioning cond = conditioning(ec.sys, ec.rank);
      const double c = 16.0 * double((n + rev.m()) * (n + rev.m()));
      const double data = 1 + inf_norm(ec.sys.Q) + inf_norm(ec.sys.C) + inf_norm(ec.sys.b);
      const double bound = 2 * c * u * cond.K() * (data + inf_norm(ref.qdd));  // both within the bound of ref
      S worst(0);
      for (Index i = 0; i < n; ++i) {
        using std::abs;
        if (abs(S(a.qdd(i) - b_back(i))) > worst) worst = abs(S(a.qdd(i) - b_back(i)));
      }
      EXPECT_LE(as_double(worst), bound) << ec.label;
    }
}

}  // namespace
}  // namespace femc::test
