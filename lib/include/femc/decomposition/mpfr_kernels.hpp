#pragma once
// The level-2 kernels of the dense decompositions under MPFR, on the raw
// mpfr_t of each number: a Householder reflector applied to the columns of a
// block, and the triangular solves with a Cholesky factor.
//
// Why: through mpreal's operators every operation of Eigen's generic kernels
// makes a temporary number (an mpfr_init2, a look-up of the default precision
// and rounding, an mpfr_clear), and Eigen's rank-1 update is a multiplication
// into a temporary, then a subtraction: two roundings and two operations per
// entry. Here each multiply-add is one mpfr_fma into its destination (one
// rounding), and the only temporary is the caller's scratch number, so a
// 200×80 cod solve at 256 bits does its arithmetic near MPFR's own cost
// (reports/performance.md, "The multiprecision floor").
//
// Same algorithms as Eigen's, other roundings: an fma rounds once where a
// multiplication and an addition round twice, so every error bound of the
// unfused forms (Higham, Accuracy and Stability, Thm 8.5 and 19.4) holds.
// The numbers written keep their own precision (MPFR's in-place rule); the
// scratch number is set to the precision of the data it reduces.
#include "femc/linalg.hpp"
#include "femc/scalar/mpfr.hpp"

namespace femc::mpfr_kernels {

using MatrixRef = Eigen::Ref<Matrix<mpfr_real>>;
using ConstVectorRef = Eigen::Ref<const Vector<mpfr_real>>;

// X ← H X for H = I − τvvᵀ, v = [1; essential] (X has essential.size() + 1
// rows): per column, w = τ(vᵀx), then x ← x − w v. Eigen's
// applyHouseholderOnTheLeft, operation for operation but fused.
void apply_reflector_on_the_left(MatrixRef X, ConstVectorRef essential, const mpfr_real& tau, mpfr_real& w);

// X ← L⁻¹X for the lower triangle L of Lfactor (column-oriented forward
// substitution: x_i /= L_ii, then x_k −= L_ki x_i below it).
void solve_lower_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, mpfr_real& w);

// X ← L⁻ᵀX for the lower triangle L of Lfactor (back substitution, the dot
// products running down L's columns).
void solve_lower_transposed_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, mpfr_real& w);

}  // namespace femc::mpfr_kernels
