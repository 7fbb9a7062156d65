#pragma once
// A sparse symmetric positive definite matrix as M = F Fᵀ, in any scalar
// type: Eigen's SimplicialLLT (P M Pᵀ = L Lᵀ with P the approximate minimum
// degree ordering) read as F = Pᵀ L. Any factor F with M = F Fᵀ may stand in
// for M^{1/2} in the General Gauss Principle (methods/cod.hpp), and this one
// keeps a block-diagonal M (a mechanism in body coordinates) block-diagonal.
//
// Everything is applied by triangular solves and products with L: F⁻¹ on a
// sparse matrix (the constraint Jacobian) costs the flops of its nonzeros'
// reach in L (Gilbert and Peierls' depth-first search), not the order of M
// per column as Eigen's sparse-by-sparse triangular solve does.
//
// A diagonal M (planar bodies in body coordinates: m, m, I on the diagonal;
// W = I) is taken as F = diag(√m_ii), with no ordering, no symbolic analysis
// and no condition estimate: κ₁(M) = max m_ii / min m_ii exactly. The
// general path would give the same F (the ordering of a diagonal matrix only
// permutes it), at about a fifth of a small mechanism's solve
// (reports/performance.md, the closed chain).
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <vector>

#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/decomposition/sparse_qr.hpp"

namespace femc {

template <class S>
class SparseCholesky {
 public:
  // Factors M (its lower triangle is read). Returns false when M is not
  // numerically positive definite.
  bool compute(const SparseMatrix<S>& M) {
    n_ = M.rows();
    diagonal_ = n_ > 0 && is_diagonal(M);
    if (diagonal_) return compute_diagonal(M);
    llt_.compute(M);
    if (llt_.info() != Eigen::Success) return false;
    // ‖M‖₁ of the symmetric M from its lower triangle.
    Vector<S> column_sums = Vector<S>::Zero(n_);
    for (Index j = 0; j < n_; ++j) {
      for (typename SparseMatrix<S>::InnerIterator it(M, j); it; ++it) {
        using std::abs;
        if (it.row() < j) continue;
        column_sums(j) += abs(it.value());
        if (it.row() != j) column_sums(it.row()) += abs(it.value());
      }
    }
    norm1_ = n_ > 0 ? S(column_sums.maxCoeff()) : S(0);
    CholeskyConditionScratch<S> scratch;
    kappa_ = kappa_from_rcond(spd_rcond(n_, norm1_, [&](Vector<S>& v) { v = llt_.solve(v); }, scratch));
    return true;
  }

  Index n() const { return n_; }
  // κ₁(M), estimated (Hager–Higham, as for the dense Cholesky; exact for a
  // diagonal M), and ‖M‖₁.
  const S& kappa() const { return kappa_; }
  const S& norm1() const { return norm1_; }

  // v ← F⁻¹v = L⁻¹Pv,  v ← F⁻ᵀv = PᵀL⁻ᵀv,  v ← Fv = PᵀLv,  v ← Fᵀv = LᵀPv
  // (with L = F = diag(√m_ii) and P = I for a diagonal M).
  void solve_F(Vector<S>& v) const {
    if (diagonal_) {
      v.array() /= sqrt_diagonal_.array();
      return;
    }
    v = llt_.permutationP() * v;
    llt_.matrixL().solveInPlace(v);
  }
  void solve_Ft(Vector<S>& v) const {
    if (diagonal_) {
      v.array() /= sqrt_diagonal_.array();
      return;
    }
    llt_.matrixU().solveInPlace(v);
    v = llt_.permutationPinv() * v;
  }
  void multiply_F(Vector<S>& v) const {
    if (diagonal_) {
      v.array() *= sqrt_diagonal_.array();
      return;
    }
    v = llt_.matrixL() * v;
    v = llt_.permutationPinv() * v;
  }
  void multiply_Ft(Vector<S>& v) const {
    if (diagonal_) {
      v.array() *= sqrt_diagonal_.array();
      return;
    }
    v = llt_.permutationP() * v;
    v = llt_.matrixU() * v;
  }
  // F as a sparse matrix.
  SparseMatrix<S> F() const {
    if (diagonal_) {
      SparseMatrix<S> D(n_, n_);
      D.reserve(Eigen::VectorXi::Constant(n_, 1));
      for (Index i = 0; i < n_; ++i) D.insert(i, i) = sqrt_diagonal_(i);
      D.makeCompressed();
      return D;
    }
    SparseMatrix<S> L = llt_.matrixL();
    return llt_.permutationPinv() * L;
  }
  // F⁻¹X for a sparse X (n × k), column by column over the reach of its
  // nonzeros in the graph of L.
  SparseMatrix<S> solve_F(const SparseMatrix<S>& X) const;

 private:
  // Whether M's lower triangle holds no nonzero off the diagonal.
  static bool is_diagonal(const SparseMatrix<S>& M) {
    for (Index j = 0; j < M.outerSize(); ++j)
      for (typename SparseMatrix<S>::InnerIterator it(M, j); it; ++it)
        if (it.row() > j && it.value() != S(0)) return false;
    return true;
  }
  bool compute_diagonal(const SparseMatrix<S>& M) {
    using std::sqrt;
    sqrt_diagonal_.resize(n_);
    S largest(0), smallest(0);
    for (Index j = 0; j < n_; ++j) {
      const S m = M.coeff(j, j);
      if (!(m > S(0))) return false;  // not positive definite (NaN included)
      sqrt_diagonal_(j) = S(sqrt(m));
      if (j == 0 || m > largest) largest = m;
      if (j == 0 || m < smallest) smallest = m;
    }
    norm1_ = largest;                                 // ‖M‖₁ = max m_ii
    kappa_ = kappa_from_rcond(S(smallest / largest));  // κ₁(M) = max m_ii / min m_ii
    return true;
  }

  Eigen::SimplicialLLT<SparseMatrix<S>, Eigen::Lower, Eigen::AMDOrdering<int>> llt_;
  bool diagonal_ = false;
  Vector<S> sqrt_diagonal_;  // F = diag(√m_ii) when M is diagonal
  Index n_ = 0;
  S norm1_ = S(0), kappa_ = S(1);
};

template <class S>
SparseMatrix<S> SparseCholesky<S>::solve_F(const SparseMatrix<S>& X) const {
  if (diagonal_) {  // row i divided by √m_ii; exact zeros left out, as below
    SparseMatrix<S> Y = X;
    for (Index j = 0; j < Y.outerSize(); ++j)
      for (typename SparseMatrix<S>::InnerIterator it(Y, j); it; ++it) it.valueRef() /= sqrt_diagonal_(it.row());
    Y.prune([](Index, Index, const S& value) { return value != S(0); });
    return Y;
  }
  const auto& P = llt_.permutationP().indices();  // row r of X is row P(r) of PX, read in place
  const auto& L = llt_.matrixL().nestedExpression();                  // lower, diagonal first in each column
  const Index n = n_;
  std::vector<Eigen::Triplet<S, int>> out;
  Vector<S> x = Vector<S>::Zero(n);
  std::vector<char> marked(n, 0);
  std::vector<Index> reach, stack, next;
  reach.reserve(n);
  for (Index j = 0; j < X.cols(); ++j) {
    // The reach of the column's nonzeros in L's graph, in topological order
    // (reverse postorder of a depth-first search).
    reach.clear();
    for (typename SparseMatrix<S>::InnerIterator it(X, j); it; ++it) {
      const Index start = P(it.row());
      if (marked[start]) continue;
      stack.assign(1, start);
      next.assign(1, L.outerIndexPtr()[start] + 1);
      marked[start] = 1;
      while (!stack.empty()) {
        const Index i = stack.back();
        Index& p = next.back();
        const Index end = L.outerIndexPtr()[i + 1];
        if (p < end) {
          const Index child = L.innerIndexPtr()[p++];
          if (!marked[child]) {
            marked[child] = 1;
            stack.push_back(child);
            next.push_back(L.outerIndexPtr()[child] + 1);
          }
        } else {
          reach.push_back(i);
          stack.pop_back();
          next.pop_back();
        }
      }
    }
    for (typename SparseMatrix<S>::InnerIterator it(X, j); it; ++it) x(P(it.row())) = it.value();
    for (auto r = reach.rbegin(); r != reach.rend(); ++r) {
      const Index i = *r;
      const Index begin = L.outerIndexPtr()[i], end = L.outerIndexPtr()[i + 1];
      x(i) /= L.valuePtr()[begin];
      for (Index p = begin + 1; p < end; ++p) x(L.innerIndexPtr()[p]) -= L.valuePtr()[p] * x(i);
    }
    for (Index i : reach) {
      if (x(i) != S(0)) out.emplace_back(int(i), int(j), x(i));
      x(i) = S(0);
      marked[i] = 0;
    }
  }
  SparseMatrix<S> Y(n, X.cols());
  Y.setFromTriplets(out.begin(), out.end());
  return Y;
}

}  // namespace femc
