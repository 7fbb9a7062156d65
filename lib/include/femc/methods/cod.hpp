#pragma once
// Method `cod` (the default): the General Gauss Principle solved through
// factors, with no explicit inverse, inverse square root or pseudoinverse.
//
// Problem (001 Result 1, (15)): find
//   q̈ = argmin { ‖z − M⁻¹(Q + C)‖²_M : z ∈ Z_W },
//   Z_W = argmin_z (A z − b)ᵀ W (A z − b),
// and the split M q̈ = Q + Qᴺ + Qᵂ of 002 (33) / 001 (15).
//
// How: any factors M = L Lᵀ and W = L_W L_Wᵀ may stand in for the symmetric
// square roots (the problem above is stated without them), so with the
// Cholesky factors, P = L_Wᵀ A L⁻ᵀ and b̃ = L_Wᵀ b,
//   z_s = L⁻¹Q + P⁺(b̃ − P L⁻¹Q) + (I − P⁺P) L⁻¹C,   q̈ = L⁻ᵀ z_s,
// where P⁺ is applied through a complete orthogonal decomposition of P
// (decomposition/complete_orthogonal.hpp). The result does not depend on the
// factor chosen (checked by the tests). Rank is decided on P.
// Cost: n³/3 (Cholesky) + n²m (transform) + about 4nm² (pivoted QR of P,
// then QR of its r kept rows). In double these four are LAPACK's blocked
// dpotrf, dtrsm, dgeqp3 and dgeqrf (decomposition/lapack.hpp).
//
// Why P and not Pᵀ: a pivoted QR of Pᵀ (n × m) needs no second QR when P has
// full row rank, half the work. It was tried: the regression gate
// (reports/baseline) found Qᴺ, Qᵂ and λ up to 10³ times less accurate at
// κ(M) = 10⁸ (q̈ was not affected). Pivoting over P's columns makes the
// errors of x = P⁺(…) insensitive to the scaling of those columns, which is
// L⁻ᵀ's: the product Qᴺ = L x then does not amplify them. Pivoting over P's
// rows gives no such protection.
#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/methods/method_workspace.hpp"
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_cod(const System<S>& sys, const Options<S>& opt);

// The storage of method cod, kept between solves (the pattern of the studies
// and of integrators: many solves of one shape).
//
//   femc::Workspace<double> ws;               // workspace.hpp: holds a CodWorkspace
//   femc::Solution<double> sol;
//   for (...) femc::solve(sys, opt, sol, ws);  // solve.hpp
//
// - After a first solve of a shape (n, m), a solve of the same shape and rank
//   makes no heap allocation in double, long double and float128, and none
//   in MPFR once the limb pool is installed (scalar/mpfr_pool.hpp);
//   reports/performance.md counts them. Two things still allocate: the rank
//   of A, computed only when P's rank falls inside the band of rank.hpp, and
//   a warning's text.
// - When sys.M equals the M of the previous solve entry for entry, its
//   Cholesky factor, κ(M) and positive definiteness are reused: the n³/3 of
//   the factorization and validate()'s check of M are skipped (likewise W's,
//   spd_factor.hpp).
// - The result is the same, bit for bit, as solve_cod's, which runs through
//   a fresh workspace.
// One workspace serves one thread at a time. Its solve() takes the system as
// given: rounded data (Options::data_precision) are judged and symmetrized
// by femc::solve() (solve.hpp) before any method runs.
template <class S>
class CodWorkspace : public MethodWorkspace<S> {
 public:
  void solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol);

 private:
  using MethodWorkspace<S>::mass_;
  using MethodWorkspace<S>::weight_;
  Matrix<S> Bt_, P_;        // Bᵀ = L⁻¹Aᵀ (n × m), P = L_Wᵀ A L⁻ᵀ (m × n)
  Vector<S> yQ_, yC_, bt_, rhs_, xN_, xP_, xW_, mu_;
  CompleteOrthogonal<S> cod_;
  Matrix<S> At_;                 // Aᵀ, for λ when W ≠ I and P is rank-deficient
  CompleteOrthogonal<S> codAt_;  // its decomposition
};

}  // namespace femc
