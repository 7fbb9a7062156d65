#pragma once
// Random test systems built exactly: small integer entries, so that every
// scalar type holds them without rounding and a rank-deficient A (a product
// F·G of integer factors) is exactly rank-deficient at every precision.
#include <random>
#include <string>

#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::test {

enum class SystemClass {
  FullRowRank,                // m < n, rank m
  RankDeficientConsistent,    // rank r < m, b ∈ Range(A)
  RankDeficientInconsistent,  // rank r < m, b generic
  Overdetermined,             // m > n (rank n, inconsistent)
  NoConstraints,              // m = 0
  ZeroA,                      // A = 0, b ≠ 0 (maximally inconsistent)
};

inline const char* name(SystemClass c) {
  switch (c) {
    case SystemClass::FullRowRank: return "full_row_rank";
    case SystemClass::RankDeficientConsistent: return "rank_deficient_consistent";
    case SystemClass::RankDeficientInconsistent: return "rank_deficient_inconsistent";
    case SystemClass::Overdetermined: return "overdetermined";
    case SystemClass::NoConstraints: return "no_constraints";
    case SystemClass::ZeroA: return "zero_A";
  }
  return "?";
}

inline constexpr SystemClass kAllClasses[] = {
    SystemClass::FullRowRank,    SystemClass::RankDeficientConsistent, SystemClass::RankDeficientInconsistent,
    SystemClass::Overdetermined, SystemClass::NoConstraints,           SystemClass::ZeroA};

using prop::exact_rank;

struct ExactCase {
  System<rational> sys;
  Index rank = 0;  // exact rank of A by construction
  std::string label;
};

class SystemGenerator {
 public:
  explicit SystemGenerator(unsigned seed) : rng_(seed) {}

  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  Matrix<rational> integer_matrix(Index rows, Index cols, int lo = -3, int hi = 3) {
    Matrix<rational> X(rows, cols);
    for (Index i = 0; i < rows; ++i)
      for (Index j = 0; j < cols; ++j) X(i, j) = integer(lo, hi);
    return X;
  }

  // RᵀR + k·I with integer R: symmetric positive definite exactly.
  Matrix<rational> spd(Index k) {
    Matrix<rational> R = integer_matrix(k, k, -2, 2);
    Matrix<rational> X = R.transpose() * R;
    for (Index i = 0; i < k; ++i) X(i, i) += rational(1 + integer(0, 2));
    return X;
  }

  // An m×n matrix of rank exactly r (r ≤ min(m, n)), as a product F·G whose
  // factors have full rank r; retried until the exact rank is r.
  Matrix<rational> rank_r(Index m, Index n, Index r);

  ExactCase make(SystemClass c, bool with_C, bool weighted);

 private:
  std::mt19937 rng_;
};

}  // namespace femc::test
