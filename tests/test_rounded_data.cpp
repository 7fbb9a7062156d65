// Rounded data (data_precision.hpp; rank.hpp, data_rank_cut; system.hpp,
// prepare_rounded_data). Rounding turns an exactly redundant constraint row
// into one whose singular value sits at the rounding level; a rank decided at
// the working precision alone then keeps it, at 256 bits or exactly, and q̈
// is far from the mechanism's motion. Given the data's precision, every
// working precision decides the mechanism's rank and finds its motion.
//
// Bound on q̈ against the exact mechanism's motion q̈*: rounding the data is
// a backward error of u_d per entry, so the forward-error bound of
// tests/test_methods_agree.cpp holds with u_d in place of u:
//   |q̂ − q*|∞ ≤ c·u_d·K·(data + |q*|∞),  c = 16(n + m)²,
//   data = 1 + ‖Q‖∞ + ‖C‖∞ + ‖b‖∞,
// with K = κ(M)·κ_r(P) here: these constraints are consistent, so the
// least-squares residual's κ_r(P)² term vanishes (to first order δq̈ =
// M^{-1/2}[δ(P⁺)b̃ + δ(I − P⁺P)M^{-1/2}Q] + …, and for consistent b̃ both
// terms are at most ‖δP‖‖P⁺‖ relative: Wedin's bound without its residual
// term), and κ_r(A) enters λ only, which is not checked here. The
// truncation of the rank adds a perturbation no larger than the data's
// rounding of A (c_data), within the same bound. Each check prints its
// slack (bound ÷ error).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "femc/data_precision.hpp"
#include "femc/errors.hpp"
#include "femc/io/json_system.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "femc/systems/double_parallelogram.hpp"
#include "support/convert.hpp"
#include "support/rank_deciding_methods.hpp"
#include "support/rounded_bound.hpp"

namespace femc {
namespace {

using test::bound_per_u;
using test::inf_norm;
using test::kDoubleU;

// The double parallelogram at cos θ = 3/5, sin θ = 4/5, θ̇ = 2, in mixed
// coordinates (systems/double_parallelogram.hpp, mixed_at): rank 5 of 6
// exactly; rounded to double, the sixth row is independent at the level of
// double's roundoff.
const systems::DoubleParallelogram<rational> kLinkage{rational(1, 3), rational(1, 2), rational(2), rational(3),
                                                      rational(981, 100)};

System<rational> redundant_mechanism() { return kLinkage.mixed_at(rational(3, 5), rational(4, 5), rational(2)); }

// Every entry correctly rounded to double, then widened exactly to S.
template <class S>
System<S> widen(const System<double>& d) {
  auto w = [](double x) { return S(x); };
  return System<S>{d.M.unaryExpr(w), d.A.unaryExpr(w), d.b.unaryExpr(w), d.Q.unaryExpr(w), d.C.unaryExpr(w),
                   d.W.unaryExpr(w)};
}

struct Reference {
  Solution<rational> exact;  // the mechanism's motion: the exact solution of the exact data
  double bound_per_u;        // c·K·(data + |q*|∞): the bound is bound_per_u·u_d
};

Reference reference_of(const System<rational>& exact_sys) {
  Reference r;
  r.exact = solve(exact_sys, {Method::Exact});
  r.bound_per_u = bound_per_u(exact_sys, r.exact.diagnostics.rank.rank, inf_norm(r.exact.qdd));
  return r;
}

template <class S>
double qdd_error(const Solution<S>& s, const Solution<rational>& ref) {
  double e = 0;
  for (Index i = 0; i < s.qdd.size(); ++i)
    e = std::max(e, std::abs(test::as_double(s.qdd(i)) - test::to_double(ref.qdd(i))));
  return e;
}
double qdd_error(const Solution<rational>& s, const Solution<rational>& ref) {
  double e = 0;
  for (Index i = 0; i < s.qdd.size(); ++i) e = std::max(e, std::abs(test::to_double(s.qdd(i) - ref.qdd(i))));
  return e;
}

template <class S>
bool warns_of(const Solution<S>& s, const std::string& word) {
  for (const auto& w : s.diagnostics.warnings)
    if (w.find(word) != std::string::npos) return true;
  return false;
}

template <class S>
Options<S> rounded_options(Method method) {
  Options<S> opt;
  opt.method = method;
  opt.data_precision = kDoubleData;
  return opt;
}

// What a user gets today without the data's precision: at 256 bits and
// exactly the rounded sixth row is kept as a constraint.
TEST(RoundedData, RoundingMakesTheRedundantRowAConstraintAtHighPrecision) {
  const System<rational> exact_sys = redundant_mechanism();
  const Reference ref = reference_of(exact_sys);
  ASSERT_EQ(ref.exact.diagnostics.rank.rank, 5);
  const System<double> rounded = test::convert<double>(exact_sys);

  const Solution<rational> ex = solve(widen<rational>(rounded), {Method::Exact});
  EXPECT_EQ(ex.diagnostics.rank.rank, 6);
  MpfrPrecision bits(256);
  const Solution<mpfr_real> hi = solve(widen<mpfr_real>(rounded));
  EXPECT_EQ(hi.diagnostics.rank.rank, 6);
  const double bound = ref.bound_per_u * kDoubleU;
  EXPECT_GT(qdd_error(ex, ref.exact), bound) << "the noise row should move q̈ beyond the bound";
  std::cout << "rounded data, rank 6 kept: q̈ error " << qdd_error(ex, ref.exact) << " (exact), "
            << qdd_error(hi, ref.exact) << " (256 bits); bound " << bound << "\n";
}

// Given the data's precision (double), every working precision and every
// method that decides rank finds rank 5 and the motion within the bound.
template <class S>
void expect_motion(const System<double>& rounded, const Reference& ref, Method method, const char* name) {
  const Solution<S> s = solve(widen<S>(rounded), rounded_options<S>(method));
  EXPECT_EQ(s.diagnostics.rank.rank, 5) << name << " " << to_string(method);
  EXPECT_TRUE(s.diagnostics.rank.data_tol_applied) << name;
  const double err = qdd_error(s, ref.exact), bound = ref.bound_per_u * kDoubleU;
  EXPECT_LE(err, bound) << name << " " << to_string(method);
  std::cout << name << " " << to_string(method) << ": q̈ error " << err << ", bound " << bound << ", slack "
            << bound / std::max(err, 1e-300) << "\n";
}

TEST(RoundedData, GivenTheDataPrecisionEveryWorkingPrecisionFindsTheMotion) {
  const System<rational> exact_sys = redundant_mechanism();
  const Reference ref = reference_of(exact_sys);
  const System<double> rounded = test::convert<double>(exact_sys);
  for (const Method m : test::rank_deciding_methods()) {
    expect_motion<double>(rounded, ref, m, "double");
    expect_motion<long double>(rounded, ref, m, "long double");
    expect_motion<float128>(rounded, ref, m, "float128");
    MpfrPrecision bits(256);
    expect_motion<mpfr_real>(rounded, ref, m, "256 bits");
  }
  expect_motion<rational>(rounded, ref, Method::Exact, "exact");
  const Solution<rational> ex = solve(widen<rational>(rounded), rounded_options<rational>(Method::Exact));
  ASSERT_FALSE(ex.diagnostics.notes.empty());
  EXPECT_NE(ex.diagnostics.notes.back().find("truncated from its exact rank 6 to rank 5"), std::string::npos);
}

// kkt needs full row rank: at the data's precision these data have rank 5 of
// 6 rows, and kkt refuses them rather than solve with the noise row. At 256
// bits its own floor √(10(n + m)ε) ≈ 10⁻³⁸ accepts them at face value, so
// the refusal is the data's cut alone, and it says so.
TEST(RoundedData, KktRefusesDataRedundantAtTheirPrecision) {
  const System<double> rounded = test::convert<double>(redundant_mechanism());
  MpfrPrecision bits(256);
  EXPECT_EQ(solve(widen<mpfr_real>(rounded), Options<mpfr_real>{Method::Kkt}).diagnostics.rank.rank, 6);
  try {
    solve(widen<mpfr_real>(rounded), rounded_options<mpfr_real>(Method::Kkt));
    ADD_FAILURE() << "kkt solved data of rank 5 at their precision";
  } catch (const MethodError& e) {
    EXPECT_NE(std::string(e.what()).find("full row rank"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the data's rounding level"), std::string::npos) << e.what();
  }
}

// Without the data's precision the rank is the working precision's, but data
// that could be doubles (Options::suspected_data_precision) are warned about
// when a kept magnitude is within 100× of double's rounding level.
TEST(RoundedData, WithoutTheDataPrecisionTheNoiseRowIsWarnedAbout) {
  const System<rational> exact_sys = redundant_mechanism();
  const System<double> rounded = test::convert<double>(exact_sys);
  MpfrPrecision bits(256);
  Options<mpfr_real> opt;
  opt.suspected_data_precision = kDoubleData;
  const Solution<mpfr_real> hi = solve(widen<mpfr_real>(rounded), opt);
  EXPECT_EQ(hi.diagnostics.rank.rank, 6);
  EXPECT_FALSE(hi.diagnostics.rank.data_tol_applied);
  EXPECT_TRUE(warns_of(hi, "rounding noise")) << "no warning of the noise row";
  Options<rational> xopt{Method::Exact};
  xopt.suspected_data_precision = kDoubleData;
  const Solution<rational> ex = solve(widen<rational>(rounded), xopt);
  EXPECT_EQ(ex.diagnostics.rank.rank, 6);
  EXPECT_TRUE(warns_of(ex, "rounding noise"));
  // The exact data, typed exactly: nothing near the level, no warning.
  const Solution<mpfr_real> typed = solve(test::convert<mpfr_real>(exact_sys), opt);
  EXPECT_EQ(typed.diagnostics.rank.rank, 5);
  EXPECT_FALSE(warns_of(typed, "rounding noise"));
  // And the unrounded data at their own precision keep no noise either.
  const Solution<rational> ex_exact = solve(exact_sys, xopt);
  EXPECT_EQ(ex_exact.diagnostics.rank.rank, 5);
  EXPECT_FALSE(warns_of(ex_exact, "rounding noise"));
}

// A user's τ at exact precision is honoured (it used to be ignored): the
// same truncation as for rounded data.
TEST(RoundedData, ExactHonoursTheRankTolerance) {
  const System<double> rounded = test::convert<double>(redundant_mechanism());
  Options<rational> opt{Method::Exact};
  opt.rank_tol = rational(1, 1000000000000LL);
  const Solution<rational> s = solve(widen<rational>(rounded), opt);
  EXPECT_EQ(s.diagnostics.rank.rank, 5);
  EXPECT_EQ(s.diagnostics.rank.tol, *opt.rank_tol);
}

// M computed in double (H·M·H in floating point) is symmetric to a few units
// of double's roundoff only: refused at 256 bits as exact data, symmetrized
// exactly and solved given the data's precision.
TEST(RoundedData, MassComputedInDoubleIsSymmetrizedAtTheDataPrecision) {
  const System<rational> exact_sys = redundant_mechanism();
  const Reference ref = reference_of(exact_sys);
  System<double> computed = test::convert<double>(exact_sys);
  const Eigen::MatrixXd H = test::convert<double>(kLinkage.mixing());
  const Eigen::MatrixXd plain_M = test::convert<double>(kLinkage.mass(Vector<rational>()));
  computed.M = Eigen::MatrixXd(H * plain_M) * H;  // rounded products: not exactly symmetric
  ASSERT_NE(computed.M, Eigen::MatrixXd(computed.M.transpose()));

  MpfrPrecision bits(256);
  try {
    solve(widen<mpfr_real>(computed));
    ADD_FAILURE() << "an asymmetric M was accepted as exact data";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "M");
    EXPECT_NE(std::string(e.what()).find("state their precision"), std::string::npos) << e.what();
  }
  const Solution<mpfr_real> s = solve(widen<mpfr_real>(computed), rounded_options<mpfr_real>(Method::Cod));
  EXPECT_EQ(s.diagnostics.rank.rank, 5);
  ASSERT_FALSE(s.diagnostics.notes.empty());
  EXPECT_NE(s.diagnostics.notes.front().find("M symmetrized"), std::string::npos);
  EXPECT_LE(qdd_error(s, ref.exact), ref.bound_per_u * kDoubleU);
  const Solution<rational> x = solve(widen<rational>(computed), rounded_options<rational>(Method::Exact));
  EXPECT_EQ(x.diagnostics.rank.rank, 5);
  EXPECT_LE(qdd_error(x, ref.exact), ref.bound_per_u * kDoubleU);
}

// Beyond the data's precision the asymmetry is an error naming the field and
// its size; so is a mass matrix that the data's rounding could have made
// definite.
TEST(RoundedData, AsymmetryAndIndefinitenessBeyondTheDataPrecisionAreErrors) {
  System<double> sys = test::convert<double>(redundant_mechanism());
  sys.M(0, 1) *= 1 + 1e-10;
  try {
    solve(sys, rounded_options<double>(Method::Cod));
    ADD_FAILURE() << "asymmetry 1e-10 accepted at double's precision";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "M");
    EXPECT_NE(std::string(e.what()).find("at the data's precision, double"), std::string::npos) << e.what();
  }
  // M = s·diag(1, t): e·‖M‖_F·‖M⁻¹‖₁ = 2u·√(1 + t²)/t with e = n·u_d = 2u
  // (system.hpp), about 2.2e-16/t. Refused at t = 1e-17 (margin 22),
  // accepted at t = 1e-14 (margin 0.022), at any scale s, since the margin
  // is scale-free (computed without overflow at s = 1e±150).
  auto diagonal = [](double s, double t) {
    const Eigen::Matrix2d M = (Eigen::Vector2d() << s, s * t).finished().asDiagonal();
    return make_system<double>(M, Eigen::MatrixXd::Zero(0, 2), Eigen::VectorXd(0), Eigen::VectorXd::Ones(2));
  };
  for (const double s : {1.0, 1e150, 1e-150}) {
    const System<double> singular = diagonal(s, 1e-17);
    EXPECT_NO_THROW(solve(singular));  // positive definite as exact data
    for (const bool exact : {false, true}) {
      try {
        if (exact) solve(widen<rational>(singular), rounded_options<rational>(Method::Exact));
        else solve(singular, rounded_options<double>(Method::Cod));
        ADD_FAILURE() << "M = " << s << "·diag(1, 1e-17) accepted as positive definite at double's precision";
      } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "M");
        EXPECT_NE(std::string(e.what()).find("not positive definite at the data's precision"), std::string::npos)
            << e.what();
      }
    }
    EXPECT_NO_THROW(solve(diagonal(s, 1e-14), rounded_options<double>(Method::Cod))) << s;
    EXPECT_NO_THROW(solve(widen<rational>(diagonal(s, 1e-14)), rounded_options<rational>(Method::Exact))) << s;
  }
}

// W is judged as M is: an asymmetry within the data's precision symmetrized
// (and said), one beyond it refused, a W the data's errors could have made
// definite refused.
TEST(RoundedData, WeightIsJudgedAtTheDataPrecisionAsMIs) {
  System<double> sys = test::convert<double>(redundant_mechanism());
  Eigen::MatrixXd W = Eigen::MatrixXd::Identity(6, 6);
  W(1, 0) = W(0, 1) = 0.3;
  W(0, 1) = std::nextafter(W(0, 1), 1.0);  // one ulp of asymmetry
  sys.W = W;
  const Solution<double> s = solve(sys, rounded_options<double>(Method::Cod));
  ASSERT_FALSE(s.diagnostics.notes.empty());
  EXPECT_NE(s.diagnostics.notes.front().find("W symmetrized"), std::string::npos);
  EXPECT_EQ(s.diagnostics.rank.rank, 5);
  sys.W(0, 1) = 0.3 * (1 + 1e-10);
  EXPECT_THROW(solve(sys, rounded_options<double>(Method::Cod)), InputError);
  sys.W = Eigen::MatrixXd::Identity(6, 6);
  sys.W(5, 5) = 1e-17;
  try {
    solve(sys, rounded_options<double>(Method::Cod));
    ADD_FAILURE() << "W with κ = 1e17 accepted at double's precision";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "W");
  }
}

// Simbody 3.7's Bricard mechanism (tests/data/simbody_bricard: six states on
// the constraint manifold, M, A, b, Q extracted in double and written
// exactly). Given the data's precision, rank 5 and Simbody's u̇ at double,
// 256 bits and exactly. Both answers approximate the rank-5 Gauss solution
// of these data: femc's within the bound above (its truncation perturbs the
// data by no more than their rounding), Simbody's within the same bound with
// u for u_d, if its solve is backward stable, which the bound assumes
// (ENGINES.md: a rank-revealing factorization of G M⁻¹ Gᵀ, then
// u̇ = M⁻¹(f − Gᵀλ)). So they are within twice the bound of each other.
struct SimbodyCase {
  SystemText text;
  Eigen::VectorXd udot;
};

SimbodyCase simbody_case(int k) {
  const std::string dir = std::string(FEMC_TEST_DATA) + "/simbody_bricard/bricard_" + std::to_string(k);
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  SimbodyCase c{read_system_text(slurp(dir + ".json")), {}};
  const auto sim = nlohmann::json::parse(slurp(dir + "_simbody.json"));
  c.udot.resize(Index(sim["udot"].size()));
  for (Index i = 0; i < c.udot.size(); ++i) c.udot(i) = sim["udot"][std::size_t(i)].get<double>();
  return c;
}

TEST(RoundedData, SimbodyBricardGivesRankFiveAndSimbodysMotionAtEveryPrecision) {
  for (int k = 0; k <= 5; ++k) {
    const SimbodyCase c = simbody_case(k);
    ASSERT_TRUE(c.text.every_number_could_be_double);
    const System<rational> data = to_system<rational>(c.text);
    // The bound's conditioning from the data symmetrized, at rank 5.
    System<rational> sym = data;
    sym.M = (data.M + data.M.transpose()) / rational(2);
    const double bound = 2 * bound_per_u(sym, 5, c.udot.lpNorm<Eigen::Infinity>()) * kDoubleU;
    auto check = [&](const auto& s, const char* name) {
      EXPECT_EQ(s.diagnostics.rank.rank, 5) << "state " << k << " " << name;
      double err = 0;
      for (Index i = 0; i < c.udot.size(); ++i)
        err = std::max(err, std::abs(test::as_double(s.qdd(i)) - c.udot(i)));
      EXPECT_LE(err, bound) << "state " << k << " " << name;
      std::cout << "Bricard state " << k << " " << name << ": |q̈ − Simbody u̇| " << err << ", bound " << bound
                << ", slack " << bound / std::max(err, 1e-300) << "\n";
    };
    check(solve(to_system<double>(c.text), rounded_options<double>(Method::Cod)), "double");
    {
      MpfrPrecision bits(256);
      check(solve(to_system<mpfr_real>(c.text), rounded_options<mpfr_real>(Method::Cod)), "256 bits");
      // Without the data's precision: M is refused at 256 bits as exact data.
      EXPECT_THROW(solve(to_system<mpfr_real>(c.text)), InputError) << "state " << k;
    }
    const Solution<rational> ex = solve(data, rounded_options<rational>(Method::Exact));
    check(ex, "exact");
    // Exact data suspected to be doubles: rank 6 and the warning.
    Options<rational> suspected{Method::Exact};
    suspected.suspected_data_precision = kDoubleData;
    const Solution<rational> face = solve(sym, suspected);
    EXPECT_EQ(face.diagnostics.rank.rank, 6) << "state " << k;
    EXPECT_TRUE(warns_of(face, "rounding noise")) << "state " << k;
  }
}

}  // namespace
}  // namespace femc

namespace femc {
namespace {

// femc writes a data precision as to_string spells it ("double", "24 bits")
// and reads back what it wrote.
TEST(RoundedData, ADataPrecisionsTextReadsBack) {
  for (long bits : {0L, 2L, 24L, 53L, 64L, 113L, 256L, 65536L}) {
    const DataPrecision p{bits};
    EXPECT_EQ(parse_data_precision(to_string(p), "data_precision").bits, bits) << to_string(p);
  }
  EXPECT_THROW(parse_data_precision("7bits", "data_precision"), InputError);
  EXPECT_THROW(parse_data_precision(" bits", "data_precision"), InputError);
}

// A data precision of a format femc also works in is spelled as that working
// precision is (the precision table's name, ScalarTraits<S>::name()), and the
// formats without one significand width are not names of data: dd's 106 bits
// are "106 bits", and "dd" is refused, naming the field and the value.
template <class S>
void expect_the_working_precisions_name() {
  const DataPrecision p{ScalarTraits<S>::bits()};
  EXPECT_EQ(to_string(p), ScalarTraits<S>::name());
  EXPECT_EQ(parse_data_precision(ScalarTraits<S>::name()), p) << ScalarTraits<S>::name();
}
TEST(RoundedData, ADataPrecisionIsSpelledAsItsWorkingPrecision) {
  expect_the_working_precisions_name<double>();
  expect_the_working_precisions_name<long double>();
  expect_the_working_precisions_name<float128>();
  expect_the_working_precisions_name<rational>();
  EXPECT_EQ(to_string(DataPrecision{ScalarTraits<double_double>::bits()}), "106 bits");
  try {
    parse_data_precision(ScalarTraits<double_double>::name(), "data_precision");
    ADD_FAILURE() << "dd read as a data precision";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("data_precision"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'dd'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("double, long-double, float128, exact"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace femc
