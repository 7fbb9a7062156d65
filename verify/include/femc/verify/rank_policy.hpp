#pragma once
// How a solver's rank decisions are judged (verify/PROTOCOL.md, "Rank").
//
// A solver keeps the singular values of P = W^{1/2} A M^{-1/2} (those of
// B, reference.hpp) above τ·σ₁ and treats the rest as zero, τ its declared
// relative tolerance (Capabilities::rank_tol, or per answer) or, when it
// declares none, femc's default max(m, n)·ε of femc/rank.hpp (ε = 2u).
// Floating point blurs the decision near τ: P is formed with rounding
// errors of up to about √(κ(M)κ(W))·u relative, and a pivoted QR's |R_ii|
// stand for σ_i only within a factor that grows with the size. So a
// direction is judged by where its σ_i lies against τ·σ₁, with a safety
// factor F = kRankSafety either side:
//   σ_i > F·τ·σ₁    a constraint the solver must keep;
//   σ_i < τ·σ₁/F    noise it must drop (a solver that keeps it amplifies
//                   the data's rounding by σ₁/σ_i);
//   between         either decision is right.
// Solvers decide rank on different matrices of one rank (cod on P,
// nullspace on A, kkt on A M⁻¹Aᵀ, whose σ-scale is A L⁻ᵀ's), whose relative
// singular values M and W spread apart: the band is the union of the three
// (a rank is right if it is right for A, for A L⁻ᵀ or for P). The answer
// must then match, within its error law, the Gauss solution at one of the
// ranks the band allows (truncated_solution, reference.hpp: P's directions
// dropped; where M and W spread the three, a solver that decides on A drops
// other directions, and is held to P's truncation only where they agree).
#include <string>
#include <vector>

#include "femc/linalg.hpp"
#include "femc/verify/reference.hpp"

namespace femc::verify {

inline constexpr double kRankSafety = 100;

// femc's default relative tolerance at unit roundoff u (femc/rank.hpp).
inline double default_rank_tol(Index m, Index n, double u) {
  return double(std::max<Index>({m, n, Index(1)})) * 2 * u;
}

// The ranks a solver of relative tolerance tau may decide on data whose
// exact rank and singular values ref holds: [must_keep, may_keep].
struct RankBand {
  Index must_keep = 0;  // σ_i > F·τ·σ₁
  Index may_keep = 0;   // σ_i ≥ τ·σ₁/F (i < rank)
  bool ambiguous() const { return may_keep > must_keep; }
};
RankBand rank_band(const ExactReference& ref, double tau);

// Why an answer q̂ is wrong, when a rank decision explains it: the rank k
// whose truncated Gauss solution q̂ matches (within a tenth of the distance
// to the exact one), the σ/σ₁ of the directions it dropped, and what
// dropping them costs in q̈ (‖Δq̈‖_M, and relative to ‖q̈‖_M) and in the
// constraint residual ‖W^{1/2}(A q̈_k − b)‖. Empty when no truncation
// explains it. bits: the precision of the truncated solutions.
std::string explain_rank_decision(const System<rational>& sys, const ExactReference& ref,
                                  const Vector<rational>& qdd, double tau, long bits);

}  // namespace femc::verify
