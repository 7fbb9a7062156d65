#pragma once
// Exact linear algebra over femc::rational for the derivation replays: rank,
// inverse, null-space basis and the Moore–Penrose inverse, all without a
// square root and without a tolerance, so that every identity the papers
// print can be checked with difference == 0.
//
// X⁺ comes from a full-rank factorization X = F G (F: m×r, G: r×n, both of
// rank r = rank X):
//   X⁺ = Gᵀ(G Gᵀ)⁻¹(FᵀF)⁻¹Fᵀ.
// F is the r pivot columns of an exact full-pivoting LU (they span Range(X)),
// and G = (FᵀF)⁻¹FᵀX is then exact because every column of X lies in
// Range(F). FᵀF and G Gᵀ are r×r of rank r, hence invertible. That this
// matrix satisfies the four Penrose equations is checked exactly by the
// test ExactPinv.* (not assumed here).
#include "femc/linalg.hpp"
#include "femc/scalar/rational.hpp"

namespace femc::replay {

using Mat = Matrix<rational>;
using Vec = Vector<rational>;

// Exact rank (full-pivoting LU with zero threshold); 0 for an empty matrix.
Index exact_rank(const Mat& X);

// X⁻¹ of a nonsingular square X; throws std::logic_error if X is singular
// (checked as X·X⁻¹ = I exactly).
Mat exact_inverse(const Mat& X);

// A basis of Null(X) (n×(n − rank X) columns; n×0 when X has full column
// rank), from the exact LU, independent of any pseudoinverse.
Mat null_basis(const Mat& X);

// The columns of X that the exact LU pivots on: a basis of Range(X) (m×rank).
Mat range_basis(const Mat& X);

// One exact solution x of the consistent system X x = y, from the LU alone
// (no pseudoinverse); throws std::logic_error when X x = y has no solution.
Vec solve_consistent(const Mat& X, const Vec& y);

// The Moore–Penrose inverse, n×m for an m×n X (zero when X = 0 or empty).
Mat pinv(const Mat& X);

}  // namespace femc::replay
