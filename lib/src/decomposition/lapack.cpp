// The double kernels of femc/decomposition/lapack.hpp.
#include "femc/decomposition/lapack.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace femc::lapack {
namespace {

static_assert(std::is_same_v<lapack_int, int>, "femc expects LAPACKE with 32-bit integers (Debian's liblapacke)");

int to_int(Index k) { return static_cast<int>(k); }

// An info < 0 is an argument LAPACK refused: a bug in the call, not in the data.
void check(const char* routine, lapack_int info) {
  if (info < 0) throw std::logic_error(std::string(routine) + ": argument " + std::to_string(-info) + " is invalid");
}

// Grow work to the size LAPACK asked for (never shrink: no allocation once
// the largest shape has been seen).
void reserve_work(std::vector<double>& work, double asked) {
  const std::size_t size = std::max<std::size_t>(1, static_cast<std::size_t>(asked));
  if (work.size() < size) work.resize(size);
}

// lapack.hpp: one thread, so that the roundings do not depend on the cores.
void one_thread() {
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

}  // namespace

bool cholesky_lower_in_place(Matrix<double>& A) {
  if (A.rows() == 0) return true;
  one_thread();
  const lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', to_int(A.rows()), A.data(), to_int(A.outerStride()));
  check("dpotrf", info);
  return info == 0;
}

void solve_lower_in_place(const Matrix<double>& Lfactor, Matrix<double>& X) {
  if (X.rows() == 0 || X.cols() == 0) return;
  one_thread();
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, to_int(X.rows()), to_int(X.cols()),
              1.0, Lfactor.data(), to_int(Lfactor.outerStride()), X.data(), to_int(X.outerStride()));
}

void multiply_lower_transposed_in_place(const Matrix<double>& Lfactor, Matrix<double>& X) {
  if (X.rows() == 0 || X.cols() == 0) return;
  one_thread();
  cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, to_int(X.rows()), to_int(X.cols()),
              1.0, Lfactor.data(), to_int(Lfactor.outerStride()), X.data(), to_int(X.outerStride()));
}

void gram_lower(const Matrix<double>& Y, Matrix<double>& G) {
  G.resize(Y.cols(), Y.cols());
  if (G.size() == 0) return;
  if (Y.rows() == 0) {
    G.setZero();
    return;
  }
  one_thread();
  cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, to_int(Y.cols()), to_int(Y.rows()), 1.0, Y.data(),
              to_int(Y.outerStride()), 0.0, G.data(), to_int(G.outerStride()));
}

void multiply(const Matrix<double>& A, bool transpose_A, const Matrix<double>& B, bool transpose_B,
              Matrix<double>& C) {
  const Index rows = transpose_A ? A.cols() : A.rows(), inner = transpose_A ? A.rows() : A.cols();
  C.resize(rows, transpose_B ? B.rows() : B.cols());
  if (C.size() == 0) return;
  if (inner == 0) {
    C.setZero();
    return;
  }
  one_thread();
  cblas_dgemm(CblasColMajor, transpose_A ? CblasTrans : CblasNoTrans, transpose_B ? CblasTrans : CblasNoTrans,
              to_int(C.rows()), to_int(C.cols()), to_int(inner), 1.0, A.data(), to_int(A.outerStride()), B.data(),
              to_int(B.outerStride()), 0.0, C.data(), to_int(C.outerStride()));
}

void multiply_symmetric(const Matrix<double>& Slower, const Matrix<double>& B, Matrix<double>& C) {
  C.resize(Slower.rows(), B.cols());
  if (C.size() == 0) return;
  one_thread();
  cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, to_int(C.rows()), to_int(C.cols()), 1.0, Slower.data(),
              to_int(Slower.outerStride()), B.data(), to_int(B.outerStride()), 0.0, C.data(),
              to_int(C.outerStride()));
}

void pivoted_qr_in_place(Matrix<double>& X, Vector<double>& tau, Eigen::VectorXi& perm, std::vector<int>& jpvt,
                         std::vector<double>& work) {
  one_thread();
  const int m = to_int(X.rows()), n = to_int(X.cols()), lda = std::max(1, to_int(X.outerStride()));
  tau.resize(std::min(m, n));
  perm.resize(n);
  if (jpvt.size() < static_cast<std::size_t>(n)) jpvt.resize(n);
  std::fill(jpvt.begin(), jpvt.begin() + n, 0);  // 0: every column free to move
  double asked = 0;
  check("dgeqp3", LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, m, n, X.data(), lda, jpvt.data(), tau.data(), &asked, -1));
  reserve_work(work, asked);
  check("dgeqp3", LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, m, n, X.data(), lda, jpvt.data(), tau.data(), work.data(),
                                      static_cast<lapack_int>(work.size())));
  for (int j = 0; j < n; ++j) perm(j) = jpvt[j] - 1;
}

void qr_in_place(Matrix<double>& X, Vector<double>& tau, std::vector<double>& work) {
  one_thread();
  const int m = to_int(X.rows()), n = to_int(X.cols()), lda = std::max(1, to_int(X.outerStride()));
  tau.resize(std::min(m, n));
  double asked = 0;
  check("dgeqrf", LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, X.data(), lda, tau.data(), &asked, -1));
  reserve_work(work, asked);
  check("dgeqrf", LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, X.data(), lda, tau.data(), work.data(),
                                      static_cast<lapack_int>(work.size())));
}

}  // namespace femc::lapack
