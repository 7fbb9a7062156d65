// Claims U1–U5 (002, 000: constraint forces that do work).
#include <gtest/gtest.h>

#include "femc/scalar/rational.hpp"
#include "support/precisions.hpp"

namespace femc::prop::claims {
FEMC_CLAIM_PROPERTY(U1_EquationWithWorkingConstraints, U1)
FEMC_CLAIM_PROPERTY(U2_VirtualWork, U2)
FEMC_CLAIM_PROPERTY(U3_OrthogonalInMInverse, U3)
FEMC_CLAIM_PROPERTY(U4_WorkingForceLimits, U4)
FEMC_CLAIM_PROPERTY(U5_ExtendedGaussPrinciple, U5)

// U3, second half: Qᴺ and Qᵂ are not orthogonal in the plain inner product
// in general. A counterexample worked by hand: M = diag(1, 2), A = [1 1],
// b = 1, Q = 0, C = (1, 0) give Qᴺ = (2/3, 2/3), Qᵂ = (1/3, −2/3):
// (Qᴺ)ᵀQᵂ = −2/9 while (Qᴺ)ᵀM⁻¹Qᵂ = 0.
template <class S>
void plain_inner_product_counterexample() {
  Matrix<S> M = Matrix<S>::Zero(2, 2), A(1, 2);
  M(0, 0) = 1;
  M(1, 1) = 2;
  A << 1, 1;
  System<S> sys = make_system<S>(M, A, Vector<S>::Ones(1), Vector<S>::Zero(2));
  sys.C << 1, 0;
  Options<S> opt;
  opt.method = ScalarTraits<S>::exact ? Method::Exact : Method::Cod;
  const Solution<S> s = solve(sys, opt);
  const S plain = s.QN.dot(s.QW);
  const S expected = S(-2) / S(9);
  using std::abs;
  EXPECT_LE(dbl(S(abs(S(plain - expected)))), 64 * dbl(unit_roundoff<S>()));
  const S weighted = s.QN.dot(Eigen::LDLT<Matrix<S>>(M).solve(s.QW));
  EXPECT_LE(dbl(S(abs(weighted))), 64 * dbl(unit_roundoff<S>()));
}

TEST(U3_NotOrthogonalInThePlainInnerProduct, double) { plain_inner_product_counterexample<double>(); }
TEST(U3_NotOrthogonalInThePlainInnerProduct, mpfr256) {
  MpfrPrecision bits(256);
  plain_inner_product_counterexample<mpfr_real>();
}
TEST(U3_NotOrthogonalInThePlainInnerProduct, exact) { plain_inner_product_counterexample<rational>(); }
}  // namespace femc::prop::claims
