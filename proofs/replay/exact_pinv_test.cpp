// The exact Moore–Penrose inverse of exact_pinv.cpp satisfies the four
// Penrose equations exactly, on integer and on genuinely rational matrices
// of every shape and rank (including 0 and empty), and agrees with the
// closed forms for full rank. The replays rely on it, so it is checked here
// rather than assumed. (Uniqueness of X⁺ given the four equations is proved
// in proofs/coq, MoorePenrose.v: pinv_unique.)
#include <gtest/gtest-spi.h>

#include "exact_pinv.hpp"
#include "replay_support.hpp"

namespace femc::replay {
namespace {

class ExactPinv : public Replay {};

void check_penrose(const Mat& X) {
  const Mat Xp = pinv(X);
  expect_holds(Xp.rows() == X.cols() && Xp.cols() == X.rows(), "Penrose shape", "X⁺ is n×m");
  expect_exact_eq(X * Xp * X, X, "Penrose (1) X X+ X = X");
  expect_exact_eq(Xp * X * Xp, Xp, "Penrose (2) X+ X X+ = X+");
  expect_exact_eq(Mat(X * Xp).transpose(), X * Xp, "Penrose (3) (X X+)^T = X X+");
  expect_exact_eq(Mat(Xp * X).transpose(), Xp * X, "Penrose (4) (X+ X)^T = X+ X");
  // Consequences that the replays use implicitly.
  expect_exact_eq(pinv(Xp), X, "(X+)+ = X");
  expect_exact_eq(pinv(Mat(X.transpose())), Xp.transpose(), "(X^T)+ = (X+)^T");
  expect_holds(exact_rank(Xp) == exact_rank(X), "rank X+ = rank X", "ranks agree");
  const Index r = exact_rank(X);
  if (r > 0 && r == X.cols())  // full column rank
    expect_exact_eq(Xp, exact_inverse(X.transpose() * X) * X.transpose(), "X+ = (X^T X)^-1 X^T (full column rank)");
  if (r > 0 && r == X.rows())  // full row rank
    expect_exact_eq(Xp, X.transpose() * exact_inverse(X * X.transpose()), "X+ = X^T (X X^T)^-1 (full row rank)");
}

TEST_F(ExactPinv, PenroseEquationsOnEveryShapeAndRank) {
  Generator gen(1955);  // Penrose's year
  for (Index m = 1; m <= 6; ++m)
    for (Index n = 1; n <= 6; ++n)
      for (Index r = 0; r <= std::min(m, n); ++r) {
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " rank " + std::to_string(r));
        const Mat X = gen.rank_r(m, n, r);
        check_penrose(X);
        // A rational (non-integer) matrix of the same rank, like P = W^{1/2} A M^{-1/2}.
        const Mat Y = gen.spd_root(m) * X * exact_inverse(gen.spd_root(n));
        check_penrose(Y);
      }
}

TEST_F(ExactPinv, EmptyAndZero) {
  for (Index m : {0, 1, 3})
    for (Index n : {1, 4}) {
      const Mat Z = Mat::Zero(m, n);
      expect_exact_eq(pinv(Z), Mat(Mat::Zero(n, m)), "0+ = 0");
      if (m > 0) check_penrose(Z);
    }
}

TEST_F(ExactPinv, NullAndRangeBases) {
  Generator gen(7);
  for (int k = 0; k < 20; ++k) {
    const Index m = gen.integer(1, 6), n = gen.integer(1, 6), r = gen.integer(0, int(std::min(m, n)));
    const Mat X = gen.rank_r(m, n, r);
    const Mat K = null_basis(X);
    expect_holds(K.cols() == n - r && exact_rank(K) == n - r, "null basis dimension", "n - r independent columns");
    expect_exact_eq(X * K, Mat(Mat::Zero(m, K.cols())), "X K = 0");
    const Mat F = range_basis(X);
    expect_holds(F.cols() == r && exact_rank(F) == r, "range basis dimension", "r independent columns");
    const Mat Xp = pinv(X);
    expect_exact_eq(X * Xp * F, F, "X X+ is the identity on Range(X)");
  }
}

// The checker itself: a difference of one part in 10⁴⁰ is a failure that
// names the paper and equation; an erratum check fails when the printed form
// happens to hold.
TEST_F(ExactPinv, CheckerReportsPaperAndEquation) {
  Mat X = Mat::Identity(2, 2);
  Mat Y = X;
  rational tiny(1);
  for (int k = 0; k < 40; ++k) tiny /= 10;
  Y(1, 0) = tiny;
  EXPECT_NONFATAL_FAILURE(expect_exact_eq(X, Y, "001 (29)"), "[001 (29)] exact equality fails");
  EXPECT_NONFATAL_FAILURE(expect_exact_eq(Mat(X.leftCols(1)), X, "004 (10)"), "[004 (10)] shapes differ");
  EXPECT_NONFATAL_FAILURE(expect_exact_eq(rational(1, 3), rational(2, 6) + Y(1, 0), "000 (33)"), "[000 (33)]");
  EXPECT_NONFATAL_FAILURE(expect_exact_ne(X, X, "002 (9) as printed"), "[002 (9) as printed] expected the printed form");
  EXPECT_NONFATAL_FAILURE(expect_holds(false, "001 Remark 5", "iff"), "[001 Remark 5] does not hold");
  expect_exact_eq(X, Mat(Mat::Identity(2, 2)), "identity");  // and equal things pass
}

}  // namespace
}  // namespace femc::replay
