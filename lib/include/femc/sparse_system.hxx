#pragma once
#include <Eigen/SparseCholesky>
#include <sstream>

#include "femc/errors.hpp"
#include "femc/scalar/traits.hpp"
#include "femc/sparse_system.hpp"
#include "femc/system.hxx"

namespace femc {

template <class S>
bool SparseSystem<S>::weighted() const {
  if (m() == 0 || W.size() == 0) return false;
  if (W.nonZeros() != m()) return true;
  for (Index j = 0; j < W.outerSize(); ++j)
    for (typename SparseMatrix<S>::InnerIterator it(W, j); it; ++it)
      if (it.row() != j || it.value() != S(1)) return true;
  return false;
}

template <class S>
SparseSystem<S> to_sparse(const System<S>& sys) {
  SparseSystem<S> out;
  out.M = sys.M.sparseView(S(0), S(0));
  out.A = sys.A.sparseView(S(0), S(0));
  out.b = sys.b;
  out.Q = sys.Q;
  out.C = sys.C;
  if (sys.m() > 0 && !is_identity(sys.W)) out.W = sys.W.sparseView(S(0), S(0));
  return out;
}

template <class S>
System<S> to_dense(const SparseSystem<S>& sys) {
  System<S> out{Matrix<S>(sys.M), Matrix<S>(sys.A), sys.b, sys.Q, sys.C, Matrix<S>()};
  out.W = sys.W.size() ? Matrix<S>(sys.W) : Matrix<S>::Identity(sys.m(), sys.m());
  return out;
}

namespace detail {

template <class S>
void require_finite(const SparseMatrix<S>& X, const char* field) {
  if constexpr (!ScalarTraits<S>::exact) {
    for (Index j = 0; j < X.outerSize(); ++j)
      for (typename SparseMatrix<S>::InnerIterator it(X, j); it; ++it)
        if (!Eigen::numext::isfinite(it.value()))
          throw InputError(std::string(field) + "[" + std::to_string(it.row()) + "][" + std::to_string(j) + "]",
                           "entry is not finite");
  }
}

// As require_symmetric (system.hxx), on the stored entries: the largest
// |X_ij − X_ji| against the largest |X_ij|.
template <class S>
void require_symmetric(const SparseMatrix<S>& X, const char* field) {
  // Every pair with a stored entry is met from that entry; its mirror is
  // found by a binary search in its column (no copy of X).
  using std::abs;
  S scale(0), size(0);
  Index bi = 0, bj = 0;
  for (Index j = 0; j < X.outerSize(); ++j)
    for (typename SparseMatrix<S>::InnerIterator it(X, j); it; ++it) {
      if (abs(it.value()) > scale) scale = abs(it.value());
      if (it.row() == j) continue;
      const S gap = abs(S(it.value() - X.coeff(j, it.row())));
      if (gap > size) size = gap, bi = it.row(), bj = j;
    }
  if (size > symmetry_tolerance<S>() * scale) {
    std::ostringstream os;
    os << "not symmetric: entry [" << bi << "][" << bj << "] differs from [" << bj << "][" << bi << "] by "
       << ScalarTraits<S>::format(size) << ", " << format_short(S(size / scale)) << " of the largest entry (tolerance "
       << format_short(symmetry_tolerance<S>()) << ")";
    throw InputError(field, os.str());
  }
}

template <class S>
void require_definite(const SparseMatrix<S>& X, const char* field) {
  Eigen::SimplicialLLT<SparseMatrix<S>, Eigen::Lower, Eigen::AMDOrdering<int>> llt(X);
  if (llt.info() != Eigen::Success) throw not_positive_definite<S>(field);
}

}  // namespace detail

template <class S>
void validate_entries(const SparseSystem<S>& sys) {
  detail::require_shapes(sys, kMaxSparseDimension, true);
  detail::require_finite(sys.M, "M");
  detail::require_finite(sys.A, "A");
  detail::require_finite(sys.b, "b");
  detail::require_finite(sys.Q, "Q");
  detail::require_finite(sys.C, "C");
  detail::require_finite(sys.W, "W");
  detail::require_symmetric(sys.M, "M");
  if (sys.weighted()) detail::require_symmetric(sys.W, "W");
}

template <class S>
void validate(const SparseSystem<S>& sys) {
  validate_entries(sys);
  detail::require_definite(sys.M, "M");
  if (sys.weighted()) detail::require_definite(sys.W, "W");
}

}  // namespace femc
