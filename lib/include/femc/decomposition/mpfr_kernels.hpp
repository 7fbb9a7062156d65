#pragma once
// The kernels of the dense decompositions under MPFR, on the raw mpfr_t of
// each number: the Cholesky factorization, a Householder reflector applied
// to the columns of a block, and the triangular solves with a Cholesky
// factor.
//
// Why: through mpreal's operators every operation of Eigen's generic kernels
// makes a temporary number (an mpfr_init2, a look-up of the default precision
// and rounding, an mpfr_clear). Here each multiply-add is an mpfr_mul into the
// caller's scratch product, then an mpfr_add or mpfr_sub into its
// destination, and the scratch numbers are the only temporaries, so a
// 200×80 cod solve at 256 bits does its arithmetic near MPFR's own cost
// (reports/performance.md, "The multiprecision floor").
//
// Why not mpfr_fma: MPFR forms the exact product (twice the precision) and
// then adds it at that length, which costs more than a mul and an add
// (reports/performance.md, the unit costs measured in pairs), and the error
// bounds femc relies on are those of the unfused forms anyway.
//
// The algorithms are the textbook ones, with the unfused roundings of
// Eigen's and LAPACK's, so their error bounds hold (Higham, Accuracy and
// Stability, Thm 10.3, 8.5 and 19.4); the roundings are not Eigen's bit for
// bit (other summation orders). The numbers written keep their own precision
// (MPFR's in-place rule); the scratch numbers are set to the precision of
// the data they work on.
#include <type_traits>

#include "femc/linalg.hpp"
#include "femc/scalar/mpfr.hpp"

namespace femc::mpfr_kernels {

using MatrixRef = Eigen::Ref<Matrix<mpfr_real>>;
using ConstVectorRef = Eigen::Ref<const Vector<mpfr_real>>;

// The kernels' scratch numbers, kept by the caller so that a call allocates
// nothing once their precision is set: a running sum and a product. One
// Scratch must not serve two threads at once.
struct Scratch {
  mpfr_real sum, product;
};
// What a decomposition over S keeps for the kernels: a Scratch under MPFR,
// nothing for the other types.
struct NoScratch {};
template <class S>
using ScratchFor = std::conditional_t<std::is_same_v<S, mpfr_real>, Scratch, NoScratch>;

// A = L Lᵀ for a symmetric positive definite A, its lower triangle read and
// overwritten by L (the strict upper triangle untouched): left-looking, a
// column at a time (Golub and Van Loan, Matrix Computations, 4th ed.,
// Alg. 4.2.1): a_j ← a_j − Σ_{k<j} L(j, k)·L(j:n, k), then L(j, j) = √a_jj and
// the division of the rest of the column. Backward error: L Lᵀ = A + ΔA with
// |ΔA| ≤ γ_{n+1}|L||Lᵀ| (Higham Thm 10.3). False when a pivot is ≤ 0 or NaN
// (then A is partly overwritten).
bool cholesky_lower_in_place(Matrix<mpfr_real>& A, Scratch& s);

// X ← H X for H = I − τvvᵀ, v = [1; essential] (X has essential.size() + 1
// rows): per column, w = τ(vᵀx), then x ← x − w v. The algorithm of Eigen's
// applyHouseholderOnTheLeft (its operations in another order).
void apply_reflector_on_the_left(MatrixRef X, ConstVectorRef essential, const mpfr_real& tau, Scratch& s);

// X ← L⁻¹X for the lower triangle L of Lfactor (column-oriented forward
// substitution: x_i /= L_ii, then x_k −= L_ki x_i below it).
void solve_lower_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, Scratch& s);

// X ← L⁻ᵀX for the lower triangle L of Lfactor (back substitution, the dot
// products running down L's columns).
void solve_lower_transposed_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, Scratch& s);

}  // namespace femc::mpfr_kernels
