#pragma once
// Support for the exact derivation replays (proofs/replay): random rational
// instances whose square roots are exact, exact equality checks that name the
// paper and equation they replay, and the cross-check against femc::solve.
//
// Square roots. The papers write M^{±1/2} and W^{1/2} for the symmetric
// square roots. We draw symmetric positive definite S and V with small
// integer entries (S = RᵀR + kI) and set M = S·S, W = V·V; the symmetric
// positive definite square root is unique, so M^{1/2} = S, M^{-1/2} = S⁻¹,
// W^{1/2} = V and W^{-1/2} = V⁻¹ exactly, and every printed formula can be
// evaluated word for word in rationals.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "exact_pinv.hpp"
#include "femc/system.hpp"

namespace femc::replay {

// ---------------------------------------------------------------- checks --
// Each check is tagged with its paper and equation, e.g. "001 (29)". A
// failure prints the tag, the shapes and the first differing entry; the
// instance label comes from the SCOPED_TRACE of the calling loop.

// lhs − rhs == 0 exactly (same shape, every entry). Matrix expressions are
// evaluated first (one template entry point, so that mixed Matrix/expression
// calls are not ambiguous).
void expect_matrix_eq(const Mat& lhs, const Mat& rhs, std::string_view where);
void expect_exact_eq(const rational& lhs, const rational& rhs, std::string_view where);
template <class L, class R>
void expect_exact_eq(const Eigen::MatrixBase<L>& lhs, const Eigen::MatrixBase<R>& rhs, std::string_view where) {
  expect_matrix_eq(Mat(lhs), Mat(rhs), where);
}

// lhs ≠ rhs: used to show that a printed (erroneous) form fails on a generic
// instance while the corrected form holds.
void expect_matrix_ne(const Mat& lhs, const Mat& rhs, std::string_view where);
void expect_exact_ne(const rational& lhs, const rational& rhs, std::string_view where);
template <class L, class R>
void expect_exact_ne(const Eigen::MatrixBase<L>& lhs, const Eigen::MatrixBase<R>& rhs, std::string_view where) {
  expect_matrix_ne(Mat(lhs), Mat(rhs), where);
}

// A statement that is not an equality (a rank, an inequality, an "iff").
void expect_holds(bool ok, std::string_view where, std::string_view what);

// Which tags were checked how often in the current test (printed by the
// fixture, so that the log shows what each test replays).
struct CheckLog {
  std::vector<std::string> tags;  // first-seen order
  std::vector<long> counts;
  long total = 0;
  long differences_shown = 0;  // expect_exact_ne checks that passed
};
CheckLog& check_log();

class Replay : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

// ------------------------------------------------------------- instances --
enum class Shape {
  FullRowRank,     // m ≤ n, rank m (every b is consistent)
  RankDeficient,   // rank r < min(m, n); m may exceed n; A an exact product of integer factors
  FullColumnRank,  // m > n, rank n (Z_W is a single point)
  ZeroA,           // A = 0 (rank 0)
};

struct Spec {
  Shape shape;
  bool consistent;  // b ∈ Range(A) (forced true for FullRowRank)
  bool with_C;      // C ≠ 0
  bool weighted;    // W ≠ I
};

struct Instance {
  Index n = 0, m = 0, r = 0;
  bool consistent = true;
  bool weighted = false;
  Mat S, S_inv, M, M_inv;  // M = S², M^{1/2} = S, M^{-1/2} = S⁻¹
  Mat V, V_inv, W;         // W = V², W^{1/2} = V, W^{-1/2} = V⁻¹ (V = I when W = I)
  Mat A;
  Vec b, Q, C;
  std::string label;

  System<rational> system() const;
};

class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Mat integer_matrix(Index rows, Index cols, int lo, int hi);
  Vec vector(Index k, int lo = -4, int hi = 4) { return integer_matrix(k, 1, lo, hi).col(0); }
  // Symmetric positive definite with small integer entries: RᵀR + diag(1..2).
  Mat spd_root(Index k);
  // m×n of exact rank r, as F·G with integer F (m×r), G (r×n).
  Mat rank_r(Index m, Index n, Index r);
  Instance make(const Spec& spec);

 private:
  std::mt19937 rng_;
};

// Every combination of the given shapes × consistency × C × W that the shape
// allows, each `repeats` times, drawn from one seed.
std::vector<Instance> instances(unsigned seed, const std::vector<Shape>& shapes, const std::vector<bool>& consistent,
                                const std::vector<bool>& with_C, const std::vector<bool>& weighted, int repeats);

// ------------------------------------------------------------- femc check --
// The end results of a replay, to be compared with femc::solve(Method::Exact).
struct Outcome {
  Vec qdd, QN, QW, lambda;
  rational Gg_min, delta_norm_sq;
};
void expect_femc_agrees(const Instance& in, const Outcome& out, const std::string& paper);

// ----------------------------------------------------------- small helpers --
inline rational sqn(const Vec& v) { return v.dot(v); }  // ‖v‖²
inline Mat eye(Index k) { return Mat::Identity(k, k); }
inline Vec zeros(Index k) { return Vec::Zero(k); }

}  // namespace femc::replay
