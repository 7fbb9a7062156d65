// The MPFR kernels of femc/decomposition/mpfr_kernels.hpp.
#include "femc/decomposition/mpfr_kernels.hpp"

#include <cassert>

namespace femc::mpfr_kernels {
namespace {

mpfr_rnd_t rounding() { return mpfr::mpreal::get_default_rnd(); }

// The scratch number takes the precision of the data it works on: set only
// when it differs (mpfr_set_prec reallocates).
void match_precision(mpfr_real& w, const mpfr_real& like) {
  const mpfr_prec_t p = mpfr_get_prec(like.mpfr_srcptr());
  if (mpfr_get_prec(w.mpfr_srcptr()) != p) mpfr_set_prec(w.mpfr_ptr(), p);
}

// The triangular solves' shared start: the shapes, and w readied; false when
// there is nothing to solve.
bool ready_to_solve(const Matrix<mpfr_real>& Lfactor, const MatrixRef& X, mpfr_real& w) {
  assert(Lfactor.rows() == X.rows() && Lfactor.cols() == X.rows());
  (void)Lfactor;
  if (X.rows() == 0 || X.cols() == 0) return false;
  match_precision(w, X(0, 0));
  return true;
}

}  // namespace

void apply_reflector_on_the_left(MatrixRef X, ConstVectorRef essential, const mpfr_real& tau, mpfr_real& w) {
  const Index rows = X.rows(), cols = X.cols(), tail = essential.size();
  assert(rows == tail + 1);
  if (cols == 0 || mpfr_zero_p(tau.mpfr_srcptr())) return;
  const mpfr_rnd_t rnd = rounding();
  match_precision(w, X(0, 0));
  if (rows == 1) {  // H = 1 − τ
    mpfr_ui_sub(w.mpfr_ptr(), 1, tau.mpfr_srcptr(), rnd);
    for (Index j = 0; j < cols; ++j) mpfr_mul(X(0, j).mpfr_ptr(), X(0, j).mpfr_srcptr(), w.mpfr_srcptr(), rnd);
    return;
  }
  const mpfr_real* v = essential.data();
  for (Index j = 0; j < cols; ++j) {
    mpfr_real* x = &X(0, j);
    mpfr_set(w.mpfr_ptr(), x[0].mpfr_srcptr(), rnd);  // w = vᵀx, v(0) = 1
    for (Index k = 0; k < tail; ++k)
      mpfr_fma(w.mpfr_ptr(), v[k].mpfr_srcptr(), x[k + 1].mpfr_srcptr(), w.mpfr_srcptr(), rnd);
    mpfr_mul(w.mpfr_ptr(), w.mpfr_srcptr(), tau.mpfr_srcptr(), rnd);  // τ(vᵀx)
    mpfr_sub(x[0].mpfr_ptr(), x[0].mpfr_srcptr(), w.mpfr_srcptr(), rnd);
    mpfr_neg(w.mpfr_ptr(), w.mpfr_srcptr(), rnd);  // exact
    for (Index k = 0; k < tail; ++k)
      mpfr_fma(x[k + 1].mpfr_ptr(), w.mpfr_srcptr(), v[k].mpfr_srcptr(), x[k + 1].mpfr_srcptr(), rnd);
  }
}

void solve_lower_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, mpfr_real& w) {
  if (!ready_to_solve(Lfactor, X, w)) return;
  const Index n = X.rows();
  const mpfr_rnd_t rnd = rounding();
  for (Index j = 0; j < X.cols(); ++j) {
    mpfr_real* x = &X(0, j);
    for (Index i = 0; i < n; ++i) {
      const mpfr_real* l = &Lfactor(0, i);
      mpfr_div(x[i].mpfr_ptr(), x[i].mpfr_srcptr(), l[i].mpfr_srcptr(), rnd);
      if (mpfr_zero_p(x[i].mpfr_srcptr())) continue;
      mpfr_neg(w.mpfr_ptr(), x[i].mpfr_srcptr(), rnd);
      for (Index k = i + 1; k < n; ++k)
        mpfr_fma(x[k].mpfr_ptr(), w.mpfr_srcptr(), l[k].mpfr_srcptr(), x[k].mpfr_srcptr(), rnd);
    }
  }
}

void solve_lower_transposed_in_place(const Matrix<mpfr_real>& Lfactor, MatrixRef X, mpfr_real& w) {
  if (!ready_to_solve(Lfactor, X, w)) return;
  const Index n = X.rows();
  const mpfr_rnd_t rnd = rounding();
  for (Index j = 0; j < X.cols(); ++j) {
    mpfr_real* x = &X(0, j);
    for (Index i = n - 1; i >= 0; --i) {  // x_i = (x_i − Σ_{k>i} L_ki x_k) / L_ii
      const mpfr_real* l = &Lfactor(0, i);
      mpfr_neg(w.mpfr_ptr(), x[i].mpfr_srcptr(), rnd);
      for (Index k = i + 1; k < n; ++k)
        mpfr_fma(w.mpfr_ptr(), l[k].mpfr_srcptr(), x[k].mpfr_srcptr(), w.mpfr_srcptr(), rnd);
      mpfr_div(x[i].mpfr_ptr(), w.mpfr_srcptr(), l[i].mpfr_srcptr(), rnd);
      mpfr_neg(x[i].mpfr_ptr(), x[i].mpfr_srcptr(), rnd);
    }
  }
}

}  // namespace femc::mpfr_kernels
