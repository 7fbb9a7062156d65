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
    llt_.compute(M);
    if (llt_.info() != Eigen::Success) return false;
    n_ = M.rows();
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
  // κ₁(M), estimated (Hager–Higham, as for the dense Cholesky), and ‖M‖₁.
  const S& kappa() const { return kappa_; }
  const S& norm1() const { return norm1_; }

  // v ← F⁻¹v = L⁻¹Pv,  v ← F⁻ᵀv = PᵀL⁻ᵀv,  v ← Fv = PᵀLv,  v ← Fᵀv = LᵀPv.
  void solve_F(Vector<S>& v) const {
    v = llt_.permutationP() * v;
    llt_.matrixL().solveInPlace(v);
  }
  void solve_Ft(Vector<S>& v) const {
    llt_.matrixU().solveInPlace(v);
    v = llt_.permutationPinv() * v;
  }
  void multiply_F(Vector<S>& v) const {
    v = llt_.matrixL() * v;
    v = llt_.permutationPinv() * v;
  }
  void multiply_Ft(Vector<S>& v) const {
    v = llt_.permutationP() * v;
    v = llt_.matrixU() * v;
  }
  // F as a sparse matrix.
  SparseMatrix<S> F() const {
    SparseMatrix<S> L = llt_.matrixL();
    return llt_.permutationPinv() * L;
  }
  // F⁻¹X for a sparse X (n × k), column by column over the reach of its
  // nonzeros in the graph of L.
  SparseMatrix<S> solve_F(const SparseMatrix<S>& X) const;

 private:
  Eigen::SimplicialLLT<SparseMatrix<S>, Eigen::Lower, Eigen::AMDOrdering<int>> llt_;
  Index n_ = 0;
  S norm1_ = S(0), kappa_ = S(1);
};

template <class S>
SparseMatrix<S> SparseCholesky<S>::solve_F(const SparseMatrix<S>& X) const {
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
