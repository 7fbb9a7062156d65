#pragma once
// The matrix products of the methods' workspaces (methods/kkt.hpp,
// methods/nullspace.hpp, methods/literal.hpp), into storage the caller keeps:
//   gram_into:                 G = YᵀY (both triangles)
//   product_into:              C = A B
//   transposed_product_into:   C = AᵀB
//   product_transposed_into:   C = A Bᵀ
//   symmetric_product_into:    C = S B, S symmetric, read from its lower triangle
//
// double runs OpenBLAS's dsyrk, dgemm and dsymm (lapack.hpp). The other
// types run one matrix–vector product per column: Eigen's blocked products
// allocate their packing buffers at each call once these pass its 128 KB
// stack limit, and under MPFR construct every number in them
// (dense_cholesky.hpp says the same of its solves). Eigen's matrix–vector
// kernels multiply-add through pmadd, an fma under MPFR (scalar/mpfr.hpp);
// one dot product per entry made a temporary per product instead. The
// sums are the same sums (Higham, Accuracy and Stability, §3.5: |ΔC| ≤
// γ_k|A||B| for inner dimension k, in any order of summation).
// A call of the shape of the previous one allocates nothing.
#include <type_traits>

#include "femc/decomposition/lapack.hpp"

namespace femc {

template <class S>
void gram_into(const Matrix<S>& Y, Matrix<S>& G) {
  if constexpr (std::is_same_v<S, double>) {
    lapack::gram_lower(Y, G);
  } else {
    const Index k = Y.cols();
    G.resize(k, k);
    if (Y.rows() == 0) G.setZero();
    else
      for (Index j = 0; j < k; ++j) G.col(j).tail(k - j).noalias() = Y.rightCols(k - j).transpose() * Y.col(j);
  }
  for (Index j = 1; j < G.cols(); ++j)  // the upper triangle from the lower
    for (Index i = 0; i < j; ++i) G(i, j) = G(j, i);
}

namespace detail {
// C = op(A) op(B), op(X) = X (false) or Xᵀ (true).
template <bool transpose_A, bool transpose_B, class S>
void general_product_into(const Matrix<S>& A, const Matrix<S>& B, Matrix<S>& C) {
  if constexpr (std::is_same_v<S, double>) {
    lapack::multiply(A, transpose_A, B, transpose_B, C);
  } else {
    auto opA = [&]() -> decltype(auto) {
      if constexpr (transpose_A) return A.transpose();
      else return (A);
    };
    C.resize(transpose_A ? A.cols() : A.rows(), transpose_B ? B.rows() : B.cols());
    if ((transpose_A ? A.rows() : A.cols()) == 0) C.setZero();
    else
      for (Index j = 0; j < C.cols(); ++j) {
        if constexpr (transpose_B) C.col(j).noalias() = opA() * B.row(j).transpose();
        else C.col(j).noalias() = opA() * B.col(j);
      }
  }
}
}  // namespace detail

template <class S>
void product_into(const Matrix<S>& A, const Matrix<S>& B, Matrix<S>& C) {
  detail::general_product_into<false, false>(A, B, C);
}

template <class S>
void transposed_product_into(const Matrix<S>& A, const Matrix<S>& B, Matrix<S>& C) {
  detail::general_product_into<true, false>(A, B, C);
}

template <class S>
void product_transposed_into(const Matrix<S>& A, const Matrix<S>& B, Matrix<S>& C) {
  detail::general_product_into<false, true>(A, B, C);
}

template <class S>
void symmetric_product_into(const Matrix<S>& Slower, const Matrix<S>& B, Matrix<S>& C) {
  if constexpr (std::is_same_v<S, double>) {
    lapack::multiply_symmetric(Slower, B, C);
  } else {
    C.resize(Slower.rows(), B.cols());
    if (C.size() == 0) return;  // (Eigen's self-adjoint product misbehaves on empty operands)
    for (Index j = 0; j < B.cols(); ++j)
      C.col(j).noalias() = Slower.template selfadjointView<Eigen::Lower>() * B.col(j);
  }
}

}  // namespace femc
