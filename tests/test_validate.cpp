// validate(): each class of bad system is rejected with an InputError that
// names the field; valid systems pass.
#include <gtest/gtest.h>

#include <limits>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"

namespace femc {
namespace {

System<double> valid() {
  Matrix<double> M(2, 2), A(1, 2);
  M << 2, 1, 1, 3;
  A << 1, 1;
  return make_system<double>(M, A, Vector<double>::Ones(1), Vector<double>::Ones(2));
}

void expect_field(const System<double>& s, const std::string& field, const std::string& fragment = "") {
  try {
    validate(s);
    FAIL() << "accepted a system with a bad " << field;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Validate, AcceptsAValidSystem) { EXPECT_NO_THROW(validate(valid())); }

TEST(Validate, ShapeMismatches) {
  { auto s = valid(); s.M.resize(2, 3); s.M.setOnes(); expect_field(s, "M", "square"); }
  { auto s = valid(); s.A.resize(1, 3); s.A.setOnes(); expect_field(s, "A", "columns"); }
  { auto s = valid(); s.b.resize(2); s.b.setOnes(); expect_field(s, "b", "m = 1"); }
  { auto s = valid(); s.Q.resize(3); s.Q.setOnes(); expect_field(s, "Q", "n = 2"); }
  { auto s = valid(); s.C.resize(1); s.C.setOnes(); expect_field(s, "C", "n = 2"); }
  { auto s = valid(); s.W = Matrix<double>::Identity(2, 2); expect_field(s, "W", "m×m"); }
  { auto s = valid(); s.M.resize(0, 0); s.Q.resize(0); s.C.resize(0); s.A.resize(1, 0); expect_field(s, "M", "n ≥ 1"); }
}

TEST(Validate, NonFiniteEntriesNameTheirIndex) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  { auto s = valid(); s.M(1, 0) = nan; expect_field(s, "M[1][0]", "not finite"); }
  { auto s = valid(); s.A(0, 1) = inf; expect_field(s, "A[0][1]", "not finite"); }
  { auto s = valid(); s.b(0) = -inf; expect_field(s, "b[0]"); }
  { auto s = valid(); s.Q(1) = nan; expect_field(s, "Q[1]"); }
  { auto s = valid(); s.C(0) = nan; expect_field(s, "C[0]"); }
  { auto s = valid(); s.W(0, 0) = nan; expect_field(s, "W[0][0]"); }
}

TEST(Validate, AsymmetryAboveTheStatedTolerance) {
  auto s = valid();
  s.M(0, 1) += 1e-6;
  expect_field(s, "M", "not symmetric");
  auto t = valid();
  t.M(0, 1) += 8 * std::numeric_limits<double>::epsilon();  // within 16·u·max|M| = 8·ε·3
  EXPECT_NO_THROW(validate(t));
}

TEST(Validate, NotPositiveDefinite) {
  { auto s = valid(); s.M << 1, 2, 2, 1; expect_field(s, "M", "not positive definite"); }
  { auto s = valid(); s.M << 1, 1, 1, 1; expect_field(s, "M", "not positive definite"); }   // singular
  { auto s = valid(); s.M << -2, 0, 0, -3; expect_field(s, "M", "not positive definite"); }
  {
    Matrix<double> M = Matrix<double>::Identity(2, 2), A = Matrix<double>::Ones(2, 2), W(2, 2);
    W << 1, 3, 3, 1;
    auto s = make_system<double>(M, A, Vector<double>::Ones(2), Vector<double>::Ones(2));
    s.W = W;
    expect_field(s, "W", "not positive definite");
  }
}

TEST(Validate, ExactTypesNeedExactSymmetryAndPositivePivots) {
  Matrix<rational> M(2, 2), A(0, 2);
  M << 1, rational(1) / 3, rational(1) / 3 + rational(1, 1000000000), 1;
  auto s = make_system<rational>(M, A, Vector<rational>(0), Vector<rational>::Ones(2));
  EXPECT_THROW(validate(s), InputError);
  s.M(1, 0) = s.M(0, 1);
  EXPECT_NO_THROW(validate(s));
  s.M << 1, 1, 1, 1;
  EXPECT_THROW(validate(s), InputError);
}

TEST(Validate, SolveRunsValidateFirst) {
  auto s = valid();
  s.M(0, 0) = -1;
  EXPECT_THROW(solve(s), InputError);
}

}  // namespace
}  // namespace femc
