#pragma once
// Solution<S>: what every method returns for one System<S>.
#include <optional>
#include <string>
#include <vector>

#include "femc/data_precision.hpp"
#include "femc/linalg.hpp"

namespace femc {

// The rank decision, made the same way by every method (rank.hpp): the
// rank-revealing magnitudes d₁ ≥ d₂ ≥ … (singular values, or |R_ii| of a
// column-pivoted QR) are kept while d_i > tol·d₁ and, for rounded data,
// d_i > data_tol·d₁.
template <class S>
struct RankDecision {
  Index rank = 0;
  S tol = S(0);           // relative tolerance of the working precision
  // Relative level below which the data's rounding could have created a
  // magnitude (rank.hpp, data_rank_cut); 0 for exact data. It decides when
  // data_tol_applied (Options::data_precision given), and only warns when it
  // comes from Options::suspected_data_precision.
  S data_tol = S(0);
  bool data_tol_applied = false;
  S largest = S(0);       // d₁ (0 when the matrix is zero or empty)
  S smallest_kept = S(0); // d_rank (0 when rank = 0)
  S largest_dropped = S(0);  // d_{rank+1} (0 when rank = min(m, n))
};

template <class S>
struct Diagnostics {
  std::string method;     // literal | cod | kkt | nullspace | exact
  std::string precision;  // ScalarTraits<S>::name()
  RankDecision<S> rank;   // of the matrix the method decides rank on (see method doc)
  std::optional<S> kappa_M;  // estimate of the 2-norm condition number of M
  std::optional<S> kappa_B;  // estimate of κ of the rank-r part of B = A M^{-1/2} (weighted: P)
  DataPrecision data_precision = kExactData;            // Options::data_precision of the solve
  DataPrecision suspected_data_precision = kExactData;  // Options::suspected_data_precision
  std::vector<std::string> warnings;
  // What femc did to the data before solving (e.g. M symmetrized within the
  // data's precision), one sentence each.
  std::vector<std::string> notes;
};

template <class S>
struct Solution {
  Vector<S> qdd;     // q̈, 001 (15)
  Vector<S> QN;      // Qᴺ, ideal part of the constraint force, 002 (33)
  Vector<S> QW;      // Qᵂ, part that does work, 002 (33)
  Vector<S> Qc;      // Qᶜ = M q̈ − Q = Qᴺ + Qᵂ
  Vector<S> lambda;  // minimum-norm solution of Aᵀλ = Qᴺ, 004 (21)–(23)
  S Gg_min = S(0);   // G_g(q̈) = ‖q̈ − M⁻¹(Q + C)‖²_M, 001 (30)
  S delta_norm_sq = S(0);  // ‖δ‖² = min_z (Az − b)ᵀW(Az − b), 001 (24)
  Diagnostics<S> diagnostics;
};

}  // namespace femc
