#pragma once
// A sparse QR factorization by Givens rotations, row by row, with Heath's
// rank cut, in any scalar type:
//
//   X Π = Q [R; 0],   X rows × cols, Π a fill-reducing column ordering,
//
// Q orthogonal (a product of Givens rotations, kept), R upper triangular
// with a row for each live column. A column whose diagonal |R_kk| is at or
// below an absolute threshold once every row is in is dead: its R_kk is
// dropped (a perturbation of X of that size), the rest of its row is rotated
// into the rows below, and the column is left out of R₁₁ (it goes to R₁₂).
// So X Π ≈ Q [R₁₁ R₁₂; 0 0] with R₁₁ (r × r) nonsingular.
//
// Why this and not Eigen's SparseQR: Eigen's left-looking SparseQR clears a
// dense vector of the matrix's height for each column and rebuilds the
// column elimination tree at each dead column, a cost that grows as
// rows × cols; at 128 bits clearing MPFR numbers dominates from a few
// hundred columns on. Here the work is that of the rotations alone, which
// for a mechanism (each constraint on two bodies, each body in a few
// constraints) grows linearly with its size.
//
// The algorithm is George and Heath's (Solution of sparse linear least
// squares problems using Givens rotations, Linear Algebra Appl. 34, 1980):
// each row of X Π, in the order of its first column, is rotated into the rows
// of R it meets; the rank cut is Heath's (Some extensions of an algorithm for
// sparse linear least squares problems, SIAM J. Sci. Stat. Comput. 3, 1982),
// the one SuiteSparseQR and Eigen's SparseQR make. Like theirs, it is not a
// rank-revealing factorization in the strong sense (no column pivoting by
// norm): a near-dependent column is caught when its remaining norm falls
// below the threshold, which holds for the redundant constraints of
// mechanisms (exact dependencies) but can miss contrived ill-conditioning;
// the method says so (methods/sparse.hpp).
//
// The rotations are stored as a program on a vector of slots (one per
// column position) and a work value, so Qᵀy and Qz cost one pass over them.
#include <Eigen/OrderingMethods>
#include <algorithm>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "femc/sparse_linalg.hpp"

namespace femc {

template <class S>
class SparseQR {
 public:
  // Factors X with the columns whose |R_kk| ≤ threshold (absolute) dead,
  // and the columns marked in `dead` (by column of X: those a rank-revealing
  // step found dependent). A marked column is ordered after all the others,
  // so that what is dropped of it is its part outside the span of all of
  // them (Chan's rank-revealing QR moves such a column last for the same
  // reason), and its |R_kk| counts among the dropped magnitudes.
  void compute(const SparseMatrix<S>& X, const S& threshold, const std::vector<char>& dead = {});

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  Index rank() const { return Index(live_.size()); }
  bool full_column_rank() const { return rank() == cols_; }
  // The live positions, ascending (position p holds column column_at(p)).
  const std::vector<Index>& live() const { return live_; }
  Index column_at(Index position) const { return order_[position]; }
  // |R_kk| of the live columns, by live ordinal, and the largest dropped one
  // (0 when none was dropped, or the columns were structurally empty).
  const Vector<S>& kept_diagonal() const { return kept_; }
  const S& largest_dropped() const { return largest_dropped_; }
  // R's row of a live position, as (position, value), ascending.
  struct Entry {
    Index col;
    S value;
  };
  const std::vector<Entry>& row(Index position) const { return R_[position]; }

  // Qᵀy as the values of the live slots (by live ordinal) and the rest
  // (rows − rank values: the part of y orthogonal to the range of X Π's
  // live columns).
  void apply_Qt(const Vector<S>& y, Vector<S>& live_part, Vector<S>& rest) const;
  // y = Q [z; rest], the inverse of apply_Qt.
  void apply_Q(const Vector<S>& live_part, const Vector<S>& rest, Vector<S>& y) const;
  // c ← R₁₁⁻¹c and c ← R₁₁⁻ᵀc (by live ordinal).
  void solve_R_in_place(Vector<S>& c) const;
  void solve_Rt_in_place(Vector<S>& c) const;

  // The basic least-squares solution of X a ≃ y (dead columns' a = 0) and
  // ‖X a − y‖² (both exact for the factored X, which the cut perturbed).
  S least_squares(const Vector<S>& y, Vector<S>& a) const;
  // The minimum-norm solution of Xᵀ w = c for X of full column rank.
  void minimum_norm_transposed(const Vector<S>& c, Vector<S>& w) const;

 private:
  using Row = std::vector<Entry>;
  // One step of the program that applies Qᵀ (forward) or Q (backward):
  //   Load i:   w ← y_i (a row of X comes in)
  //   Rotate k: (slot_k, w) ← (c·slot_k + s·w, −s·slot_k + c·w)
  //   Store k:  slot_k ← w (the row became row k of R)
  //   Spill j:  rest_j ← w (the row was eliminated)
  //   Take k:   w ← slot_k, slot_k ← 0 (a dead column's row goes down)
  enum class Op : unsigned char { Load, Rotate, Store, Spill, Take };
  struct Step {
    Op op;
    Index index;  // i, k or j
  };
  void rotate_in(Row& w);  // rotates w into R until it is stored or spilled
  void rotate(Row& Rk, Row& w, const S& c, const S& s);
  // Rk ← c·Rk + s·w and w ← −s·Rk + c·w over the union of their patterns
  // (both start at column k; w's entry there is eliminated), written to k
  // and v; returns their ends.
  template <class OutK, class OutW>
  static std::pair<OutK, OutW> merge(const Row& Rk, const Row& w, const S& c, const S& s, OutK k, OutW v);

  Index rows_ = 0, cols_ = 0, spilled_ = 0;
  std::vector<Row> R_;
  std::vector<Index> order_, live_, ordinal_;  // ordinal_[p]: live ordinal of position p, or −1
  std::vector<Step> program_;
  std::vector<S> cs_;  // (c, s) of each Rotate, in program order
  Vector<S> kept_;
  S largest_dropped_ = S(0);
  Row merged_k_, merged_w_;
};

template <class S>
template <class OutK, class OutW>
std::pair<OutK, OutW> SparseQR<S>::merge(const Row& Rk, const Row& w, const S& c, const S& s, OutK k, OutW v) {
  const Entry* a = Rk.data();
  const Entry* const a_end = a + Rk.size();
  const Entry* b = w.data();
  const Entry* const b_end = b + w.size();
  *k++ = Entry{a->col, S(c * a->value + s * b->value)};  // column k: w's entry there is eliminated
  for (++a, ++b; a != a_end || b != b_end;) {
    if (b == b_end || (a != a_end && a->col < b->col)) {
      *k++ = Entry{a->col, S(c * a->value)};
      *v++ = Entry{a->col, S(-s * a->value)};
      ++a;
    } else if (a == a_end || b->col < a->col) {
      *k++ = Entry{b->col, S(s * b->value)};
      *v++ = Entry{b->col, S(c * b->value)};
      ++b;
    } else {
      *k++ = Entry{a->col, S(c * a->value + s * b->value)};
      *v++ = Entry{a->col, S(c * b->value - s * a->value)};
      ++a, ++b;
    }
  }
  return {k, v};
}

template <class S>
void SparseQR<S>::rotate(Row& Rk, Row& w, const S& c, const S& s) {
  const std::size_t most = Rk.size() + w.size();
  if constexpr (std::is_trivially_copyable_v<S>) {
    // Through pointers into buffers that only grow, then copied: push_back
    // stores the vector's end at each entry (half of this loop's time in
    // double). Swapping such buffers in would hand rows of R the capacity of
    // the longest merge, zero-filled again at each resize: A02 with N = 1000
    // through its flat passage (reports/mechanisms) ran over 280 s that way,
    // 36 s copied.
    if (merged_k_.size() < most) merged_k_.resize(most), merged_w_.resize(most);
    const auto [k, v] = merge(Rk, w, c, s, merged_k_.data(), merged_w_.data());
    Rk.assign(merged_k_.data(), k);
    w.assign(merged_w_.data(), v);
  } else {
    // Numbers that own memory (MPFR) are built once, in place, and swapped in.
    merged_k_.clear();
    merged_w_.clear();
    merged_k_.reserve(most);
    merged_w_.reserve(most);
    merge(Rk, w, c, s, std::back_inserter(merged_k_), std::back_inserter(merged_w_));
    std::swap(Rk, merged_k_);
    std::swap(w, merged_w_);
  }
}

template <class S>
void SparseQR<S>::rotate_in(Row& w) {
  using std::abs;
  using std::sqrt;
  for (;;) {
    while (!w.empty() && w.front().value == S(0)) w.erase(w.begin());  // nothing to eliminate
    if (w.empty()) {
      program_.push_back({Op::Spill, spilled_++});
      return;
    }
    const Index k = w.front().col;
    Row& Rk = R_[k];
    if (Rk.empty()) {
      Rk.swap(w);
      w.clear();
      program_.push_back({Op::Store, k});
      return;
    }
    const S& a = Rk.front().value;
    const S& b = w.front().value;
    // r = √(a² + b²) without overflow or underflow of the squares.
    const S scale = abs(a) > abs(b) ? S(abs(a)) : S(abs(b));
    const S as = a / scale, bs = b / scale;
    const S r = scale * sqrt(as * as + bs * bs);
    const S c = a / r, s = b / r;
    cs_.push_back(c);
    cs_.push_back(s);
    program_.push_back({Op::Rotate, k});
    rotate(Rk, w, c, s);
  }
}

template <class S>
void SparseQR<S>::compute(const SparseMatrix<S>& X, const S& threshold, const std::vector<char>& dead) {
  using std::abs;
  rows_ = X.rows();
  cols_ = X.cols();
  spilled_ = 0;
  program_.clear();
  cs_.clear();
  R_.assign(cols_, Row());
  largest_dropped_ = S(0);

  // The fill-reducing order of the columns (COLAMD on the pattern of X).
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
  if (rows_ > 0 && cols_ > 0) {
    if (X.isCompressed()) {
      Eigen::COLAMDOrdering<int>()(X, perm);
    } else {
      SparseMatrix<S> Xc = X;
      Xc.makeCompressed();
      Eigen::COLAMDOrdering<int>()(Xc, perm);
    }
  }  // position perm.indices()(j) for column j
  order_.assign(cols_, 0);
  std::vector<Index> position(cols_);
  for (Index j = 0; j < cols_; ++j) order_[perm.size() ? perm.indices()(j) : j] = j;
  auto marked = [&](Index j) { return j < Index(dead.size()) && dead[j]; };
  std::stable_partition(order_.begin(), order_.end(), [&](Index j) { return !marked(j); });
  for (Index p = 0; p < cols_; ++p) position[order_[p]] = p;

  // The rows of X Π, each sorted by position; fed in the order of their
  // first position (George–Heath), ties in the order of the rows.
  // Stored flat, row i in entries [start[i], start[i + 1]).
  std::vector<Index> start(rows_ + 1, 0);
  for (Index j = 0; j < cols_; ++j)
    for (typename SparseMatrix<S>::InnerIterator it(X, j); it; ++it)
      if (it.value() != S(0)) ++start[it.row() + 1];
  for (Index i = 0; i < rows_; ++i) start[i + 1] += start[i];
  Row entries(start[rows_]);
  {
    std::vector<Index> fill(start.begin(), start.end() - 1);
    for (Index j = 0; j < cols_; ++j)
      for (typename SparseMatrix<S>::InnerIterator it(X, j); it; ++it)
        if (it.value() != S(0)) entries[fill[it.row()]++] = {position[j], it.value()};
  }
  std::vector<Index> feed(rows_);
  for (Index i = 0; i < rows_; ++i) {
    std::sort(entries.begin() + start[i], entries.begin() + start[i + 1],
              [](const Entry& x, const Entry& y) { return x.col < y.col; });
    feed[i] = i;
  }
  auto first = [&](Index i) { return start[i] == start[i + 1] ? cols_ : entries[start[i]].col; };
  std::stable_sort(feed.begin(), feed.end(), [&](Index x, Index y) { return first(x) < first(y); });
  Row w;
  for (Index i : feed) {
    program_.push_back({Op::Load, i});
    w.assign(entries.begin() + start[i], entries.begin() + start[i + 1]);
    rotate_in(w);
  }

  // Heath's cut, in column order: a dead column's row (without its R_kk)
  // is rotated into the rows below it, which are checked after it.
  live_.clear();
  ordinal_.assign(cols_, -1);
  std::vector<S> kept;
  for (Index k = 0; k < cols_; ++k) {
    Row& Rk = R_[k];
    const S d = Rk.empty() ? S(0) : S(abs(Rk.front().value));
    const bool forced = marked(order_[k]);
    if (!Rk.empty() && d > threshold && !forced) {
      ordinal_[k] = Index(live_.size());
      live_.push_back(k);
      kept.push_back(d);
      continue;
    }
    if (d > largest_dropped_) largest_dropped_ = d;
    if (Rk.empty()) continue;
    Row w(Rk.begin() + 1, Rk.end());
    Rk.clear();
    program_.push_back({Op::Take, k});
    rotate_in(w);
  }
  kept_.resize(Index(kept.size()));
  for (Index i = 0; i < kept_.size(); ++i) kept_(i) = kept[i];
}

template <class S>
void SparseQR<S>::apply_Qt(const Vector<S>& y, Vector<S>& live_part, Vector<S>& rest) const {
  Vector<S> slot = Vector<S>::Zero(cols_);
  rest.setZero(rows_ - rank());
  S w(0);
  std::size_t r = 0;
  for (const Step& st : program_) {
    switch (st.op) {
      case Op::Load: w = y(st.index); break;
      case Op::Rotate: {
        const S& c = cs_[r++];
        const S& s = cs_[r++];
        const S sk = slot(st.index);
        slot(st.index) = c * sk + s * w;
        w = c * w - s * sk;
        break;
      }
      case Op::Store: slot(st.index) = w; break;
      case Op::Spill: rest(st.index) = w; break;
      case Op::Take:
        w = slot(st.index);
        slot(st.index) = S(0);
        break;
    }
  }
  live_part.resize(rank());
  for (Index l = 0; l < rank(); ++l) live_part(l) = slot(live_[l]);
}

template <class S>
void SparseQR<S>::apply_Q(const Vector<S>& live_part, const Vector<S>& rest, Vector<S>& y) const {
  Vector<S> slot = Vector<S>::Zero(cols_);
  for (Index l = 0; l < rank(); ++l) slot(live_[l]) = live_part(l);
  y.setZero(rows_);
  S w(0);
  std::size_t r = cs_.size();
  for (auto it = program_.rbegin(); it != program_.rend(); ++it) {
    const Step& st = *it;
    switch (st.op) {
      case Op::Load: y(st.index) = w; break;
      case Op::Rotate: {
        const S& s = cs_[--r];
        const S& c = cs_[--r];
        const S sk = slot(st.index);
        slot(st.index) = c * sk - s * w;
        w = s * sk + c * w;
        break;
      }
      case Op::Store:
        w = slot(st.index);
        slot(st.index) = S(0);
        break;
      case Op::Spill: w = rest(st.index); break;
      case Op::Take: slot(st.index) = w; break;
    }
  }
}

template <class S>
void SparseQR<S>::solve_R_in_place(Vector<S>& c) const {
  for (Index l = rank() - 1; l >= 0; --l) {
    const Row& Rk = R_[live_[l]];
    S sum = c(l);
    for (std::size_t e = 1; e < Rk.size(); ++e) {
      const Index o = ordinal_[Rk[e].col];
      if (o >= 0) sum -= Rk[e].value * c(o);
    }
    c(l) = sum / Rk.front().value;
  }
}

template <class S>
void SparseQR<S>::solve_Rt_in_place(Vector<S>& c) const {
  for (Index l = 0; l < rank(); ++l) {
    const Row& Rk = R_[live_[l]];
    c(l) /= Rk.front().value;
    for (std::size_t e = 1; e < Rk.size(); ++e) {
      const Index o = ordinal_[Rk[e].col];
      if (o >= 0) c(o) -= Rk[e].value * c(l);
    }
  }
}

template <class S>
S SparseQR<S>::least_squares(const Vector<S>& y, Vector<S>& a) const {
  Vector<S> z, rest;
  apply_Qt(y, z, rest);
  solve_R_in_place(z);
  a.setZero(cols_);
  for (Index l = 0; l < rank(); ++l) a(order_[live_[l]]) = z(l);
  return rest.squaredNorm();
}

template <class S>
void SparseQR<S>::minimum_norm_transposed(const Vector<S>& c, Vector<S>& w) const {
  // Xᵀ = Π Rᵀ Qᵀ (full column rank): w = Q [R⁻ᵀ Πᵀ c; 0].
  Vector<S> z(rank());
  for (Index l = 0; l < rank(); ++l) z(l) = c(order_[live_[l]]);
  solve_Rt_in_place(z);
  apply_Q(z, Vector<S>::Zero(rows_ - rank()), w);
}

}  // namespace femc
