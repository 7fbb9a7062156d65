#pragma once
// The dense kernels of double that LAPACK does better than Eigen's generic
// code: blocked (level-3) Cholesky, triangular solve and Householder QRs, and
// the matrix products of the methods' workspaces (dense_products.hpp),
// through LAPACKE and OpenBLAS (lib/src/decomposition/lapack.cpp). The other
// scalar types run Eigen's algorithms, MPFR the kernels of mpfr_kernels.hpp
// (dense_cholesky.hpp, householder_qr.hpp choose).
//
// Same algorithms, other roundings: dpotrf is the Cholesky factorization,
// dgeqp3 the column-pivoted Householder QR of Businger and Golub, dgeqrf the
// Householder QR, each backward stable with the error constants of Eigen's
// unblocked forms (Higham, Accuracy and Stability, Thm 10.3, 19.4 and 19.6:
// blocking reorders the sums, the bounds stay c·n·u). The reflectors are
// stored as Eigen stores them: Hᵢ = I − τᵢvᵢvᵢᵀ with vᵢ(i) = 1 and vᵢ below
// the diagonal.
//
// The work arrays are the caller's (std::vector, grown to the size LAPACK
// asks for and kept): no heap allocation after the first call of a shape.
// One thread: each kernel sets OpenBLAS to one thread (for the whole
// process: OpenBLAS 0.3.21 has no per-call count) before it runs. On more,
// OpenBLAS's threaded dpotrf and products round differently (a 1000 × 400
// cod solve changes in its last bits: tests/test_dense_kernels.cpp), so a
// result would depend on the machine's cores and on the cores an MPI rank is
// bound to; its threaded paths also allocate at every call. femc runs its
// own cells on threads and ranks instead.
#include <vector>

#include "femc/linalg.hpp"

namespace femc::lapack {

// A = L Lᵀ in place (dpotrf, lower): L on and below the diagonal, the strict
// upper triangle untouched. Returns false when a leading minor is not
// positive definite at double's precision.
bool cholesky_lower_in_place(Matrix<double>& A);

// X ← L⁻¹X for the lower triangle L of Lfactor (dtrsm).
void solve_lower_in_place(const Matrix<double>& Lfactor, Matrix<double>& X);

// X ← LᵀX for the lower triangle L of Lfactor (dtrmm).
void multiply_lower_transposed_in_place(const Matrix<double>& Lfactor, Matrix<double>& X);

// G = YᵀY (dsyrk): the lower triangle written, the strict upper one
// untouched. G is resized to Y.cols() square.
void gram_lower(const Matrix<double>& Y, Matrix<double>& G);

// C = op(A) op(B), op(X) = X or Xᵀ (dgemm). C is resized.
void multiply(const Matrix<double>& A, bool transpose_A, const Matrix<double>& B, bool transpose_B,
              Matrix<double>& C);

// C = S B for the symmetric S stored in Slower's lower triangle (dsymm). C is
// resized.
void multiply_symmetric(const Matrix<double>& Slower, const Matrix<double>& B, Matrix<double>& C);

// X Π = Q R in place (dgeqp3): R on and above the diagonal, the reflectors of
// Q below it, τ in tau (min(rows, cols)); column i of XΠ is column perm(i) of
// X (0-based).
void pivoted_qr_in_place(Matrix<double>& X, Vector<double>& tau, Eigen::VectorXi& perm,
                         std::vector<int>& jpvt, std::vector<double>& work);

// X = Q R in place (dgeqrf), stored as above.
void qr_in_place(Matrix<double>& X, Vector<double>& tau, std::vector<double>& work);

}  // namespace femc::lapack
