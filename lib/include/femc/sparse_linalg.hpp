#pragma once
// Sparse matrix type of femc (compressed columns, int indices) over any
// scalar S, and the operations on it that femc writes itself rather than
// take from Eigen's expressions.
#include <Eigen/SparseCore>
#include <algorithm>
#include <vector>

#include "femc/linalg.hpp"

namespace femc {

template <class S>
using SparseMatrix = Eigen::SparseMatrix<S, Eigen::ColMajor, int>;

// ‖X‖_F of a sparse X: linalg.hpp's scaled_frobenius_norm of its stored
// values (of a compressed copy when X has gaps between its columns).
template <class S>
S sparse_scaled_frobenius_norm(const SparseMatrix<S>& X) {
  if (!X.isCompressed()) {
    SparseMatrix<S> Y = X;
    Y.makeCompressed();
    return sparse_scaled_frobenius_norm(Y);
  }
  return scaled_frobenius_norm<S>(Eigen::Map<const Vector<S>>(X.valuePtr(), X.nonZeros()));
}

// X·Y, column by column (Gustavson: column j of X·Y sums the columns of X
// that Y's column j selects, in a dense accumulator with a marker).
//
// Why not Eigen's X * Y: Eigen 3.4's sparse product evaluator default-
// constructs its base evaluator, whose zero is a Scalar member, then
// placement-news a second one over it without destroying the first; for a
// Scalar that owns memory (mpreal) each product leaks one number
// (AddressSanitizer's leak check finds it).
template <class S>
SparseMatrix<S> sparse_product(const SparseMatrix<S>& X, const SparseMatrix<S>& Y) {
  eigen_assert(X.cols() == Y.rows());
  const Index rows = X.rows(), cols = Y.cols();
  std::vector<S> sum(static_cast<std::size_t>(rows), S(0));
  std::vector<Index> seen_in(static_cast<std::size_t>(rows), -1);  // the column j whose sum holds row i
  std::vector<int> pattern;
  SparseMatrix<S> Z(rows, cols);
  Z.reserve(X.nonZeros() + Y.nonZeros());
  for (Index j = 0; j < cols; ++j) {
    pattern.clear();
    for (typename SparseMatrix<S>::InnerIterator y(Y, j); y; ++y)
      for (typename SparseMatrix<S>::InnerIterator x(X, y.index()); x; ++x) {
        const auto i = static_cast<std::size_t>(x.index());
        if (seen_in[i] != j) {
          seen_in[i] = j;
          sum[i] = x.value() * y.value();
          pattern.push_back(x.index());
        } else {
          sum[i] += x.value() * y.value();
        }
      }
    std::sort(pattern.begin(), pattern.end());
    Z.startVec(j);
    for (const int i : pattern) Z.insertBack(i, j) = sum[static_cast<std::size_t>(i)];
  }
  Z.finalize();
  return Z;
}

}  // namespace femc
