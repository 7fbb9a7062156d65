// Claims G1–G12 (001: the General Gauss Principle).
#include <gtest/gtest.h>

#include "femc/scalar/rational.hpp"
#include "support/precisions.hpp"

namespace femc::prop::claims {
FEMC_CLAIM_PROPERTY(G1_FirstForm, G1)
FEMC_CLAIM_PROPERTY(G2_Result1, G2)
FEMC_CLAIM_PROPERTY(G3_InconsistencyMeasure, G3)
FEMC_CLAIM_PROPERTY(G4_SingletonIffFullColumnRank, G4)
FEMC_CLAIM_PROPERTY(G5_GlobalMinimality, G5)
FEMC_CLAIM_PROPERTY(G6_Proof2MinimumNormSolution, G6)
FEMC_CLAIM_PROPERTY(G7_Lemma1, G7)
FEMC_CLAIM_PROPERTY(G8_Lemma2Greville, G8)
FEMC_CLAIM_PROPERTY(G9_WIndependenceFullRowRank, G9)
FEMC_CLAIM_PROPERTY(G9_WMattersIffAtWrNonzero, G9_WMatters)
FEMC_CLAIM_PROPERTY(G10_DependentConstraints, G10)
FEMC_CLAIM_PROPERTY(G11_ExpandedVirtualDisplacement, G11)
FEMC_CLAIM_PROPERTY(G12_IdentityWeightRecoversU1, G12)

// G9 beyond the paper, a counterexample worked by hand: A = [1 0; 1 0]
// (rank 1), b = (0, 1) (inconsistent), M = I, Q = C = 0. Z_W is
// {z : z₁ = argmin w₁z₁² + w₂(z₁ − 1)²}: z₁ = 1/2 for W = I and 3/4 for
// W = diag(1, 3); z₂ = 0 in both (the Gaussian). So q̈ depends on W.
template <class S>
void w_dependence_counterexample() {
  Matrix<S> A(2, 2);
  A << 1, 0, 1, 0;
  Vector<S> b(2);
  b << 0, 1;
  System<S> sys = make_system<S>(Matrix<S>::Identity(2, 2), A, b, Vector<S>::Zero(2));
  Options<S> opt;
  opt.method = ScalarTraits<S>::exact ? Method::Exact : Method::Cod;
  const Solution<S> unweighted = solve(sys, opt);
  sys.W(1, 1) = 3;
  const Solution<S> weighted = solve(sys, opt);
  using std::abs;
  const double u = dbl(unit_roundoff<S>());
  EXPECT_LE(dbl(S(abs(S(unweighted.qdd(0) - S(1) / S(2))))), 16 * u);
  EXPECT_LE(dbl(S(abs(S(weighted.qdd(0) - S(3) / S(4))))), 16 * u);
}

TEST(G9_WDependenceCounterexample, double) { w_dependence_counterexample<double>(); }
TEST(G9_WDependenceCounterexample, mpfr256) {
  MpfrPrecision bits(256);
  w_dependence_counterexample<mpfr_real>();
}
TEST(G9_WDependenceCounterexample, exact) { w_dependence_counterexample<rational>(); }
}  // namespace femc::prop::claims
