#pragma once
// The linear complementarity problem of unilateral contact, 003 (33):
//   find λ ∈ ℝᵏ with  λ ≥ 0,  w = A λ + B ≥ 0,  λᵀ w = 0.
//
// Two independent solvers:
//  - enumerate_lcp: every complementary basis J (w_J = 0, λ_{not J} = 0)
//    is tried, so the result is *all* solutions: none, one, or several (the
//    Painlevé paradox of Y3 has two). Cost 2ᵏ small solves: for the few
//    contacts of a mechanism, not for granular media (kMaxEnumeratedContacts).
//  - lemke: Lemke's complementary pivoting (covering vector 1). Finds one
//    solution, or ends on a secondary ray. For a P-matrix A (all principal
//    minors positive) the solution is unique and Lemke finds it; otherwise a
//    ray does not prove that no solution exists, so that status says only
//    what happened (LemkeStatus::SecondaryRay).
//
// Rounding: a basis is accepted when λ_J ≥ −τ_λ and w ≥ −τ_w, with
//   τ_w,i = 4(k+1)·u·(|A||λ| + |B|)_i   (the rounding error of w, Higham (3.5))
//   τ_λ   = 4(k+1)·u·κ∞(A_JJ)·‖λ_J‖∞    (first-order error of the solve)
// so a solution on the boundary of two bases is not lost to rounding; the two
// copies are then merged. For exact types u = 0 and every test is exact.
#include <Eigen/LU>
#include <algorithm>
#include <vector>

#include "femc/errors.hpp"
#include "femc/linalg.hpp"

namespace femc::contact {

inline constexpr Index kMaxEnumeratedContacts = 16;

enum class LcpStatus {
  None,      // no λ satisfies the LCP
  Unique,    // exactly one
  Multiple,  // two or more isolated solutions (listed)
  Degenerate // a principal block A_JJ is singular where the data are consistent:
             // the solution set may be a continuum; never resolved silently
};

inline const char* to_string(LcpStatus s) {
  switch (s) {
    case LcpStatus::None: return "none";
    case LcpStatus::Unique: return "unique";
    case LcpStatus::Multiple: return "multiple";
    case LcpStatus::Degenerate: return "degenerate";
  }
  return "?";
}

template <class S>
struct LcpSolutions {
  LcpStatus status = LcpStatus::None;
  std::vector<Vector<S>> solutions;
};

namespace detail {

template <class S>
S abs_of(const S& x) { return x < S(0) ? S(-x) : x; }

template <class S>
S max_abs(const Vector<S>& v) {
  S m(0);
  for (Index i = 0; i < v.size(); ++i) m = std::max<S>(m, abs_of(v(i)));
  return m;
}

}  // namespace detail

template <class S>
LcpSolutions<S> enumerate_lcp(const Matrix<S>& A, const Vector<S>& B);

enum class LemkeStatus { Solved, SecondaryRay, IterationLimit };

inline const char* to_string(LemkeStatus s) {
  switch (s) {
    case LemkeStatus::Solved: return "solved";
    case LemkeStatus::SecondaryRay: return "secondary ray";
    case LemkeStatus::IterationLimit: return "iteration limit";
  }
  return "?";
}

template <class S>
struct LemkeResult {
  LemkeStatus status = LemkeStatus::SecondaryRay;
  Vector<S> lambda;
  Index pivots = 0;
};

// Lemke's method on the tableau  w − A λ − 1·z₀ = B  (Cottle, Pang & Stone,
// The Linear Complementarity Problem, Algorithm 4.4.5), ratio-test ties
// broken by the smallest index.
template <class S>
LemkeResult<S> lemke(const Matrix<S>& A, const Vector<S>& B, Index max_pivots = 0);

}  // namespace femc::contact
