// The MPFR kernels of femc/decomposition/mpfr_kernels.hpp.
#include "femc/decomposition/mpfr_kernels.hpp"

#include <cassert>

namespace femc::mpfr_kernels {
namespace {

mpfr_rnd_t rounding() { return mpfr::mpreal::get_default_rnd(); }

// The scratch numbers take the precision of the data they work on: set only
// when it differs (mpfr_set_prec reallocates).
void match_precision(Scratch& s, const mpfr_real& like) {
  const mpfr_prec_t p = mpfr_get_prec(like.mpfr_srcptr());
  if (mpfr_get_prec(s.sum.mpfr_srcptr()) != p) mpfr_set_prec(s.sum.mpfr_ptr(), p);
  if (mpfr_get_prec(s.product.mpfr_srcptr()) != p) mpfr_set_prec(s.product.mpfr_ptr(), p);
}

// The triangular solves' shared start: the shapes, and the scratch readied;
// false when there is nothing to solve.
bool ready_to_solve(const Matrix<mpfr_real>& Lfactor, const MatrixRef& X, Scratch& s) {
  assert(Lfactor.rows() == X.rows() && Lfactor.cols() == X.rows());
  (void)Lfactor;
  if (X.rows() == 0 || X.cols() == 0) return false;
  match_precision(s, X(0, 0));
  return true;
}

}  // namespace

bool cholesky_lower_in_place(Matrix<mpfr_real>& A, Scratch& s) {
  assert(A.rows() == A.cols());
  const Index n = A.rows();
  if (n == 0) return true;
  const mpfr_rnd_t rnd = rounding();
  match_precision(s, A(0, 0));
  mpfr_ptr p = s.product.mpfr_ptr();
  for (Index j = 0; j < n; ++j) {
    mpfr_real* a = &A(0, j);
    for (Index k = 0; k < j; ++k) {  // a(j:n) −= L(j, k)·L(j:n, k)
      const mpfr_real* l = &A(0, k);
      const mpfr_srcptr ljk = l[j].mpfr_srcptr();
      if (mpfr_zero_p(ljk)) continue;
      for (Index i = j; i < n; ++i) {
        mpfr_mul(p, l[i].mpfr_srcptr(), ljk, rnd);
        mpfr_sub(a[i].mpfr_ptr(), a[i].mpfr_srcptr(), p, rnd);
      }
    }
    if (mpfr_nan_p(a[j].mpfr_srcptr()) || mpfr_sgn(a[j].mpfr_srcptr()) <= 0) return false;
    mpfr_sqrt(a[j].mpfr_ptr(), a[j].mpfr_srcptr(), rnd);
    for (Index i = j + 1; i < n; ++i) mpfr_div(a[i].mpfr_ptr(), a[i].mpfr_srcptr(), a[j].mpfr_srcptr(), rnd);
  }
  return true;
}

void apply_reflector_on_the_left(MatrixRef X, ConstVectorRef essential, const mpfr_real& tau, Scratch& s) {
  const Index rows = X.rows(), cols = X.cols(), tail = essential.size();
  assert(rows == tail + 1);
  if (cols == 0 || mpfr_zero_p(tau.mpfr_srcptr())) return;
  const mpfr_rnd_t rnd = rounding();
  match_precision(s, X(0, 0));
  mpfr_ptr w = s.sum.mpfr_ptr(), p = s.product.mpfr_ptr();
  if (rows == 1) {  // H = 1 − τ
    mpfr_ui_sub(w, 1, tau.mpfr_srcptr(), rnd);
    for (Index j = 0; j < cols; ++j) mpfr_mul(X(0, j).mpfr_ptr(), X(0, j).mpfr_srcptr(), w, rnd);
    return;
  }
  const mpfr_real* v = essential.data();
  for (Index j = 0; j < cols; ++j) {
    mpfr_real* x = &X(0, j);
    mpfr_set(w, x[0].mpfr_srcptr(), rnd);  // w = vᵀx, v(0) = 1
    for (Index k = 0; k < tail; ++k) {
      mpfr_mul(p, v[k].mpfr_srcptr(), x[k + 1].mpfr_srcptr(), rnd);
      mpfr_add(w, w, p, rnd);
    }
    mpfr_mul(w, w, tau.mpfr_srcptr(), rnd);  // τ(vᵀx)
    mpfr_sub(x[0].mpfr_ptr(), x[0].mpfr_srcptr(), w, rnd);
    for (Index k = 0; k < tail; ++k) {
      mpfr_mul(p, w, v[k].mpfr_srcptr(), rnd);
      mpfr_sub(x[k + 1].mpfr_ptr(), x[k + 1].mpfr_srcptr(), p, rnd);
    }
  }
}

void solve_lower_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, Scratch& s) {
  if (!ready_to_solve(Lfactor, X, s)) return;
  const Index n = X.rows();
  const mpfr_rnd_t rnd = rounding();
  mpfr_ptr p = s.product.mpfr_ptr();
  for (Index j = 0; j < X.cols(); ++j) {
    mpfr_real* x = &X(0, j);
    for (Index i = 0; i < n; ++i) {
      const mpfr_real* l = &Lfactor(0, i);
      mpfr_div(x[i].mpfr_ptr(), x[i].mpfr_srcptr(), l[i].mpfr_srcptr(), rnd);
      if (mpfr_zero_p(x[i].mpfr_srcptr())) continue;
      for (Index k = i + 1; k < n; ++k) {
        mpfr_mul(p, l[k].mpfr_srcptr(), x[i].mpfr_srcptr(), rnd);
        mpfr_sub(x[k].mpfr_ptr(), x[k].mpfr_srcptr(), p, rnd);
      }
    }
  }
}

void solve_lower_transposed_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, Scratch& s) {
  if (!ready_to_solve(Lfactor, X, s)) return;
  const Index n = X.rows();
  const mpfr_rnd_t rnd = rounding();
  mpfr_ptr w = s.sum.mpfr_ptr(), p = s.product.mpfr_ptr();
  for (Index j = 0; j < X.cols(); ++j) {
    mpfr_real* x = &X(0, j);
    for (Index i = n - 1; i >= 0; --i) {  // x_i = (x_i − Σ_{k>i} L_ki x_k) / L_ii
      const mpfr_real* l = &Lfactor(0, i);
      mpfr_set(w, x[i].mpfr_srcptr(), rnd);
      for (Index k = i + 1; k < n; ++k) {
        mpfr_mul(p, l[k].mpfr_srcptr(), x[k].mpfr_srcptr(), rnd);
        mpfr_sub(w, w, p, rnd);
      }
      mpfr_div(x[i].mpfr_ptr(), w, l[i].mpfr_srcptr(), rnd);
    }
  }
}

}  // namespace femc::mpfr_kernels
