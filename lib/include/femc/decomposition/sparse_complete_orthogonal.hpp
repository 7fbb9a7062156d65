#pragma once
// The sparse counterpart of complete_orthogonal.hpp: X⁺ and (Xᵀ)⁺ of a
// sparse X (m × n) through two sparse QR factorizations (sparse_qr.hpp),
// with femc's rank policy (rank.hpp) applied to Heath's cut.
//
//   Xᵀ Π = Q [R₁₁ R₁₂; 0 0]        sparse QR of Xᵀ, r live columns
//   S = [R₁₁ R₁₂]ᵀ (m × r),         X ≈ Π S Q_rᵀ
//   X⁺ = Q_r S⁺ Πᵀ,  (Xᵀ)⁺ = Π (Sᵀ)⁺ Q_rᵀ
//
// S has full column rank (R₁₁ is nonsingular), so S⁺ and (Sᵀ)⁺ come from a
// second sparse QR, of S, without a cut. When r = m (X of full row rank, the
// usual case of a mechanism without redundant joints) S = R₁₁ᵀ is square and
// the second QR is skipped.
//
// Xᵀ is factored rather than X so that the full-row-rank case needs one QR.
// The dense cod factors X with column pivoting for the accuracy of Qᴺ at
// large κ(M) (methods/cod.hpp); a sparse QR orders its columns for fill, not
// by norm, so that protection is out of reach either way.
#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "femc/decomposition/sparse_qr.hpp"
#include "femc/rank.hpp"

namespace femc {

// How the rank of a sparse X is decided: rank.hpp's rules, applied to the
// smallest singular value of the kept part (below).
template <class S>
struct SparseRankRule {
  S tol = S(0);         // τ, relative to d₁
  S tol_formed = S(0);  // > τ: the band of decide_formed_rank (rank.hpp), where rank_of_A settles the rank
  std::function<Index()> rank_of_A;  // called only inside the band
  DataCut<S> data;      // the data's level: decides when applied, else recorded
};

template <class S>
class SparseCompleteOrthogonal {
 public:
  SparseCompleteOrthogonal() = default;
  // Decomposes X, given as Xt = Xᵀ (n × m), with rank decided at tol.
  SparseCompleteOrthogonal(const SparseMatrix<S>& Xt, const S& tol, const DataCut<S>& data = {}) {
    SparseRankRule<S> rule;
    rule.tol = tol;
    rule.data = data;
    compute(Xt, rule);
  }

  // The rank, in two steps.
  // 1. Heath's cut in the sparse QR of Xt at τ·d₁, d₁ the largest row norm
  //    of X (within √n of ‖X‖₂, as |R₁₁| of a pivoted QR): it catches a
  //    column whose remaining norm is at rounding level. It drops nothing
  //    that step 2 would keep: σ_min of a triangle is at most its smallest
  //    |R_kk|.
  // 2. Rank revealing (Chan, Rank revealing QR factorizations, Linear
  //    Algebra Appl. 88/89, 1987): the QR is ordered for fill, so a set of
  //    nearly dependent columns met one after the other leaves no small
  //    |R_kk| but a nearly singular R₁₁ (a random rank-2 A with two rows 10⁻⁹
  //    apart in angle kept rank 3 by step 1 alone, and q̈ was wrong by
  //    10¹⁷). The smallest singular value σ of R₁₁, which is X's r-th
  //    (Q is orthogonal), and its vector v come from inverse iteration with
  //    R₁₁ (triangular solves, linear cost); while σ is at or below the cut,
  //    the column of the largest |v_i| is marked dependent and X factored
  //    again with it last, where its remaining norm is at most √r·σ (Chan):
  //    the part dropped is of the size of σ, not of its |R_kk| where it
  //    stood (a rank-3 draw lost 10⁻⁷ of q̈ that way, at every precision). The cut is τ·d₁, raised to the data's level when it applies,
  //    and to τ_formed·d₁ while the rank exceeds rank_of_A (rank.hpp's band).
  // σ estimated by inverse iteration is an upper bound of X's r-th singular
  // value; a missed dependency needs a σ above the cut, for which the
  // iteration's start vector must be nearly orthogonal to v.
  void compute(const SparseMatrix<S>& Xt, const SparseRankRule<S>& rule) {
    m_ = Xt.cols();
    n_ = Xt.rows();
    second_.reset();
    using std::sqrt;
    S d1(0);
    for (Index j = 0; j < Xt.cols(); ++j) {
      const S norm = S(sqrt(S(Xt.col(j).squaredNorm())));
      if (norm > d1) d1 = norm;
    }
    const S cut_heath = rule.tol * d1;
    std::vector<char> dead(m_, 0);
    qr_.compute(Xt, cut_heath, dead);
    S dropped = qr_.largest_dropped(), sigma(0);
    Index rank_of_A = -1;
    S cut = cut_heath;
    if (rule.data.applied && rule.data.cut > cut) cut = rule.data.cut;
    while (qr_.rank() > 0) {
      Vector<S> v;
      sigma = smallest_singular_value(v);
      bool dependent = !(sigma > cut);
      if (!dependent && rule.tol_formed > rule.tol && !(sigma > rule.tol_formed * d1) && rule.rank_of_A) {
        if (rank_of_A < 0) rank_of_A = rule.rank_of_A();
        dependent = qr_.rank() > rank_of_A;
      }
      if (!dependent) break;
      if (sigma > dropped) dropped = sigma;
      Index worst = 0;
      for (Index l = 1; l < v.size(); ++l) {
        using std::abs;
        if (abs(v(l)) > abs(v(worst))) worst = l;
      }
      dead[qr_.column_at(qr_.live()[worst])] = 1;
      qr_.compute(Xt, cut_heath, dead);
      if (qr_.largest_dropped() > dropped) dropped = qr_.largest_dropped();
    }
    rank_ = RankDecision<S>{};
    rank_.tol = rule.tol;
    rank_.rank = qr_.rank();
    rank_.largest = d1;
    rank_.smallest_kept = qr_.rank() ? sigma : S(0);
    rank_.largest_dropped = dropped;
    if (rule.data.cut > S(0) && d1 > S(0)) {
      rank_.data_tol = rule.data.cut / d1;
      rank_.data_tol_applied = rule.data.applied;
    }
    if (qr_.rank() < m_) {  // S = [R₁₁ R₁₂]ᵀ: row p of S is column p of R's live rows
      std::vector<Eigen::Triplet<S, int>> t;
      for (Index l = 0; l < qr_.rank(); ++l)
        for (const auto& e : qr_.row(qr_.live()[l])) t.emplace_back(int(e.col), int(l), e.value);
      SparseMatrix<S> Sm(m_, qr_.rank());
      Sm.setFromTriplets(t.begin(), t.end());
      second_.emplace();
      second_->compute(Sm, S(0));
    }
  }

  const RankDecision<S>& rank() const { return rank_; }
  Index rows() const { return m_; }
  Index cols() const { return n_; }

  // x = X⁺ rhs (rhs of size m, x of size n).
  void solve_into(const Vector<S>& rhs, Vector<S>& x) const {
    if (!second_) {
      qr_.minimum_norm_transposed(rhs, x);
      return;
    }
    Vector<S> z;
    second_->least_squares(by_position(rhs), z);
    qr_.apply_Q(z, Vector<S>::Zero(n_ - qr_.rank()), x);
  }
  // w = (Xᵀ)⁺ y (y of size n, w of size m).
  void solve_transposed_into(const Vector<S>& y, Vector<S>& w) const {
    if (!second_) {
      qr_.least_squares(y, w);
      return;
    }
    Vector<S> c, rest, wp;
    qr_.apply_Qt(y, c, rest);
    second_->minimum_norm_transposed(c, wp);
    w.resize(m_);
    for (Index p = 0; p < m_; ++p) w(qr_.column_at(p)) = wp(p);
  }
  // ‖(X X⁺ − I) rhs‖²: 0 when X has full row rank.
  S residual_norm_sq(const Vector<S>& rhs) const {
    if (!second_) return S(0);
    Vector<S> z;
    return second_->least_squares(by_position(rhs), z);
  }
  // d₁/σ: a lower estimate of κ₂ of X's rank-r part (d₁ ≤ σ₁, and σ bounds
  // the r-th singular value from below when columns were cut).
  S kappa_estimate() const { return rank_.rank == 0 ? S(1) : S(rank_.largest / rank_.smallest_kept); }

 private:
  // The smallest singular value of R₁₁ and its right singular vector (by
  // live ordinal): inverse iteration with R₁₁ᵀR₁₁ from a fixed start,
  // until the estimate settles to 1% (at most 12 steps). +∞ overflow of the
  // iterate means R₁₁ is singular to working precision: σ = 0.
  S smallest_singular_value(Vector<S>& v) const {
    using std::sqrt;
    const Index r = qr_.rank();
    v.resize(r);
    for (Index l = 0; l < r; ++l) v(l) = S(1) + S(S(l % 7) / S(7)) * (l % 2 ? S(-1) : S(1));
    v /= S(v.norm());
    S sigma = Eigen::NumTraits<S>::infinity();
    for (int it = 0; it < 12; ++it) {
      Vector<S> z = v;
      qr_.solve_Rt_in_place(z);
      qr_.solve_R_in_place(z);  // z = (R₁₁ᵀR₁₁)⁻¹ v
      const S rayleigh = v.dot(z), norm = z.norm();
      if (!Eigen::numext::isfinite(norm) || !Eigen::numext::isfinite(rayleigh) || !(rayleigh > S(0))) return S(0);
      v = z / norm;
      const S next = S(S(1) / sqrt(rayleigh));
      const bool settled = it > 0 && S(sigma - next) <= S(next / S(100));
      sigma = next;
      if (settled) break;
    }
    return sigma;
  }
  // Πᵀ v: v's entries in the order of the positions of the first QR.
  Vector<S> by_position(const Vector<S>& v) const {
    Vector<S> out(m_);
    for (Index p = 0; p < m_; ++p) out(p) = v(qr_.column_at(p));
    return out;
  }

  Index m_ = 0, n_ = 0;
  SparseQR<S> qr_;
  std::optional<SparseQR<S>> second_;
  RankDecision<S> rank_;
};

}  // namespace femc
