// Extreme but valid input (label `reliability`): the answer is right to the
// accuracy the conditioning allows, or the diagnostics warn — never a silent
// NaN or Inf. Bounds as in test_methods_agree.cpp: c·u·K·scale.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/random_systems.hpp"
#include "support/rank_deciding_methods.hpp"

namespace femc::test {
namespace {

rational ten_to(int e) { return ScalarTraits<rational>::parse("1e" + std::to_string(e)); }

Solution<rational> exact(const System<rational>& s) {
  Options<rational> o;
  o.method = Method::Exact;
  return solve(s, o);
}

// max_i |x_i − ref_i| / (|ref_i| + floor): a componentwise relative error.
double componentwise_error(const Vector<double>& x, const Vector<rational>& ref, double floor) {
  double worst = 0;
  for (Index i = 0; i < x.size(); ++i) {
    const double r = to_double(ref(i));
    worst = std::max(worst, std::abs(x(i) - r) / (std::abs(r) + floor));
  }
  return worst;
}

bool all_finite(const Solution<double>& s) {
  return s.qdd.allFinite() && s.QN.allFinite() && s.QW.allFinite() && s.Qc.allFinite() && s.lambda.allFinite() &&
         std::isfinite(s.Gg_min) && std::isfinite(s.delta_norm_sq);
}

// Coordinates in wildly different units: q = D q′ with D = diag(1e150,
// 1e-150, 1, …), so M′ = DMD spans 1e-300 … 1e300. The problem is the same
// (001 (15) is covariant), and cod, which decides rank on P = A M^{-1/2}
// (invariant under D), must stay accurate componentwise to the conditioning
// of the unscaled problem. The other methods either meet the same bound or
// warn (κ(M) is ≈ 1e600 here, beyond double).
TEST(ExtremeValues, EntriesFrom1eMinus300To1e300) {
  SystemGenerator gen(11);
  for (SystemClass cls : kAllClasses)
    for (int rep = 0; rep < 3; ++rep) {
      ExactCase ec = gen.make(cls, rep & 1, rep & 2);
      const Index n = ec.sys.n();
      Vector<rational> d = Vector<rational>::Ones(n);
      d(0) = ten_to(150);
      d(1) = 1 / ten_to(150);
      System<rational> sc = ec.sys;
      sc.M = d.asDiagonal() * ec.sys.M * d.asDiagonal();
      sc.A = ec.sys.A * d.asDiagonal();
      sc.Q = d.asDiagonal() * ec.sys.Q;
      sc.C = d.asDiagonal() * ec.sys.C;
      const Solution<rational> ref = exact(sc);
      const Conditioning cond = conditioning(ec.sys, ec.rank);
      // Error in the unscaled coordinates, ‖D(q̈ − q̈_ref)‖∞, against the bound
      // of the unscaled problem (test_methods_agree.cpp).
      const Vector<double> dd = d.unaryExpr([](const rational& x) { return to_double(x); });
      const Vector<rational> q0 = ec.sys.M.rows() ? exact(ec.sys).qdd : Vector<rational>();
      double scale = 1;
      for (Index i = 0; i < n; ++i) scale = std::max(scale, std::abs(to_double(q0(i))));
      for (Index i = 0; i < n; ++i) scale += std::abs(to_double(ec.sys.Q(i))) + std::abs(to_double(ec.sys.C(i)));
      const double bound = 16.0 * double((n + sc.m()) * (n + sc.m())) * 0x1p-53 * cond.K() * scale;
      for (const Method m : test::rank_deciding_methods()) {  // the floating methods that solve any rank
        Options<double> opt;
        opt.method = m;
        SCOPED_TRACE(ec.label + " method " + to_string(m));
        Solution<double> s;
        try {
          s = solve(convert<double>(sc), opt);
        } catch (const MethodError& e) {
          EXPECT_NE(m, Method::Cod) << e.what();  // only an explicit refusal, never a silent NaN
          continue;
        }
        ASSERT_TRUE(all_finite(s));
        double err = 0;
        for (Index i = 0; i < n; ++i) err = std::max(err, std::abs(dd(i) * (s.qdd(i) - to_double(ref.qdd(i)))));
        if (m == Method::Cod) EXPECT_LE(err, bound);
        else if (err > bound) EXPECT_FALSE(s.diagnostics.warnings.empty()) << "inaccurate without a warning: " << err;
      }
    }
}

TEST(ExtremeValues, SubnormalEntries) {
  Matrix<rational> M(2, 2), A(1, 2);
  M << 1, rational(1) / ten_to(310), rational(1) / ten_to(310), 2;
  A << 1, 1;
  System<rational> ex = make_system<rational>(M, A, Vector<rational>::Ones(1), Vector<rational>::Zero(2));
  ex.Q(0) = ScalarTraits<rational>::parse("4.9e-324");
  const System<double> sys = convert<double>(ex);
  EXPECT_NE(sys.M(0, 1), 0.0);
  EXPECT_LT(std::abs(sys.M(0, 1)), std::numeric_limits<double>::min());  // really subnormal
  const Solution<double> s = solve(sys);
  ASSERT_TRUE(all_finite(s));
  EXPECT_LE(componentwise_error(s.qdd, exact(ex).qdd, 0), 64 * 0x1p-53);
}

// κ(M) = 1e15 at double: κ·u ≈ 0.06. The diagnostics must say so, and the
// error must stay within c·κ·u.
TEST(ExtremeValues, IllConditionedMassMatrixWarns) {
  Matrix<rational> U(2, 2);  // exact rotation by the Pythagorean angle (3/5, 4/5)
  U << rational(3, 5), rational(-4, 5), rational(4, 5), rational(3, 5);
  Vector<rational> lambda(2);
  lambda << 1, 1 / ten_to(15);
  const Matrix<rational> M = U * lambda.asDiagonal() * U.transpose();
  Matrix<rational> A(1, 2);
  A << 1, 2;
  const System<rational> ex = make_system<rational>(M, A, Vector<rational>::Ones(1), Vector<rational>::Ones(2));
  const System<double> sys = convert<double>(ex);  // M rounded: a relative perturbation of u
  const Solution<double> s = solve(sys);
  ASSERT_TRUE(all_finite(s));
  bool warned = false;
  for (const auto& w : s.diagnostics.warnings) warned |= w.find("M is ill-conditioned") != std::string::npos;
  EXPECT_TRUE(warned);
  const double kappa = 1e15, c = 16.0 * 9;
  EXPECT_LE(componentwise_error(s.qdd, exact(ex).qdd, 1), c * kappa * 0x1p-53 * 10);
  // At 256 bits the same system is easy.
  MpfrPrecision bits(256);
  const Solution<mpfr_real> t = solve(convert<mpfr_real>(ex));
  EXPECT_TRUE(t.diagnostics.warnings.empty());
}

TEST(ExtremeValues, ZeroRowDuplicatedRowsAndManyMoreRowsThanColumns) {
  SystemGenerator gen(5);
  Matrix<rational> M = gen.spd(4);
  Matrix<rational> A = gen.integer_matrix(2, 4);
  // A zero row with b = 0 (consistent) and with b ≠ 0 (inconsistent by |b|).
  for (int bz : {0, 3}) {
    Matrix<rational> Az(3, 4);
    Az << A, Matrix<rational>::Zero(1, 4);
    Vector<rational> b(3);
    b << 1, 2, bz;
    const System<rational> ex = make_system<rational>(M, Az, b, gen.integer_matrix(4, 1).col(0));
    const Solution<rational> ref = exact(ex);
    const Solution<double> s = solve(convert<double>(ex));
    ASSERT_TRUE(all_finite(s));
    EXPECT_EQ(s.diagnostics.rank.rank, 2);
    EXPECT_LE(componentwise_error(s.qdd, ref.qdd, 1), 1e-12);
    EXPECT_NEAR(s.delta_norm_sq, to_double(ref.delta_norm_sq), 1e-12 * (1 + bz * bz));
  }
  // Each row repeated three times: the same motion as the rows once (consistent).
  Matrix<rational> A3(6, 4);
  A3 << A, A, A;
  const Vector<rational> z = gen.integer_matrix(4, 1).col(0);
  const System<rational> once = make_system<rational>(M, A, Vector<rational>(A * z), gen.integer_matrix(4, 1).col(0));
  System<rational> thrice = once;
  thrice.A = A3;
  thrice.b = A3 * z;
  thrice.W = Matrix<rational>::Identity(6, 6);
  EXPECT_LE((solve(convert<double>(once)).qdd - solve(convert<double>(thrice)).qdd).norm(), 1e-12);
  // m ≫ n: 300 random rows on 4 coordinates.
  const System<rational> tall = make_system<rational>(M, gen.integer_matrix(300, 4), gen.integer_matrix(300, 1).col(0),
                                                      gen.integer_matrix(4, 1).col(0));
  const Solution<double> s = solve(convert<double>(tall));
  ASSERT_TRUE(all_finite(s));
  EXPECT_LE(componentwise_error(s.qdd, exact(tall).qdd, 1), 1e-10);
}

// A result beyond double's range is refused, never returned as Inf; at MPFR
// (exponent range ≈ 2^±2^62) the same system is solved.
TEST(ExtremeValues, OverflowIsReportedNotReturned) {
  Matrix<rational> M = Matrix<rational>::Identity(2, 2) / ten_to(300), A(0, 2);
  System<rational> ex = make_system<rational>(M, A, Vector<rational>(0), Vector<rational>::Constant(2, ten_to(300)));
  EXPECT_THROW(solve(convert<double>(ex)), MethodError);
  MpfrPrecision bits(128);
  const Solution<mpfr_real> s = solve(convert<mpfr_real>(ex));
  EXPECT_TRUE(isfinite(s.qdd(0)));
}

}  // namespace
}  // namespace femc::test
