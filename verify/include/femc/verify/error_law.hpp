#pragma once
// The first-order error laws femc holds every solver to: the claims'
// checks (claims.hpp), the studies' verdicts and the theory lines of the
// plots all read them here.
//
// Where the laws come from. Gauss's principle is the minimum-norm
// least-squares problem B x ≈ d in the metric of M (reference.hpp). A
// backward-stable solve returns the exact answer of data perturbed by O(u)
// relatively, and first-order perturbation theory of x = B⁺d (Wedin 1973;
// Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 20.1
// and §21.1; Golub & Van Loan, 4th ed., §5.3.7 and §5.5) gives
//   ‖Δx‖ ≲ u·(κ(B)‖x‖ + κ(B)²‖r‖/‖B‖),
// while the Cholesky factor of M (backward error u‖M‖) moves everything by
// κ(M)·u in the metric of M; the Cholesky factor of W moves the weighted
// least-squares solution of inconsistent constraints (only those: for
// consistent ones q̈ does not depend on W, G9) by κ(B)κ(W)·u·‖r‖/‖B‖, and
// forming U_W·A L⁻ᵀ rounds relative to ‖U_W‖‖A L⁻ᵀ‖ (weighted_kappa: κ(B)
// becomes κ(B)·ω, ω ≤ κ(W)^{1/2}, for consistent constraints too). A
// solver that forms G = B Bᵀ is backward stable
// for G, not for B, and κ(G) = κ(B)²: its term is κ(B)^p with p = 2
// (Capabilities::error_growth). So, with ‖y‖ = ‖L⁻¹Q‖ + ‖L⁻¹C‖ (not ‖L⁻¹(Q + C)‖: Qᴺ and Qᵂ
// are computed from Q and C apart, and Q + C ≈ 0 cancels in q̈ only) and
// s = ‖y‖ + ‖x‖,
//
//   forward   ‖q̂ − q̈‖_M, ‖Q̂ᴺ − Qᴺ‖_{M⁻¹}, ‖Q̂ᵂ − Qᵂ‖_{M⁻¹}, ‖Q̂ᶜ − Qᶜ‖_{M⁻¹}
//             ≤ T = c·u·[(κ_s^p·ω_M + κ(M))·s + (κ(B)²·ω_W·ω_M + κ(B)κ(W))·‖r‖/‖B‖]
//             (κ_s = solve_kappa: κ(B), or κ(B)·ω where W is ill-conditioned;
//             ω_M = ‖A‖‖L⁻¹‖/‖A L⁻ᵀ‖ and ω_W·ω_M = ‖W^{1/2}‖‖A‖‖L⁻¹‖/‖B‖,
//             the roundings of forming A L⁻ᵀ and W^{1/2}·A L⁻ᵀ relative to
//             the product's norm: 1 for M = I and W = I, mass_omega and
//             formation_omega below)
//   residual  ‖W^{1/2}(A q̂ − b)‖ ≤ R = c·u·[κ_s^max(p−1, k)·κ(M)^k·(N‖x‖ + ‖d‖)
//                                           + ‖W^{1/2}‖‖A‖‖q̈‖ + F]
//             (consistent constraints; k = Capabilities::residual_mass_power,
//             1 for a solver that forms M^{±1/2} and P⁺ explicitly, the
//             papers' literal formula: its rounding reaches the residual
//             through A M^{-1/2}, N = ‖W^{1/2}‖‖A‖‖M^{-1/2}‖ (N = ‖B‖ for
//             k = 0), and a product with an explicit pseudoinverse is not
//             backward stable, its residual u·κ(B)‖d‖ (Higham, §14.1); the
//             last term is q̂'s own rounding to S, which A carries into the
//             residual where a = M⁻¹(Q + C) lies near Null(A), ‖d‖ small;
//             F, for p = 2 only, is ‖B‖‖M^{-1/2}‖(‖Q‖ + ‖Qᴺ‖ + ‖Qᵂ‖): a
//             solver that forms G = B Bᵀ is a range-space method, λ from G
//             and then q̈ from M q̈ = Q + Qᶜ; forming that right-hand side
//             rounds relative to ‖Q‖ + ‖Qᴺ‖ + ‖Qᵂ‖, and the substitution
//             with L carries it as L⁻¹ does, into the residual through B:
//             range_space_term)
//
// Measured in the metric of M (‖v‖_M = ‖Lᵀv‖) the forward law holds for
// every direction of the error alike: a relative 2-norm error of q̈ would
// see the cancellation of a = M⁻¹(Q + C) against the constraint's share,
// which the law does not describe. Relative to s the law is
// u·(κ(B)^p + κ(M) + κ(B)²η), η = ‖r‖/(‖B‖‖x‖): the studies' theory line.
//
// The constant c. The law is first order and its constants are those of
// the backward errors of Householder QR and Cholesky (γ_{cn}); the claims
// take c = kLawConstant·max(m, n, 4), the form of LAPACK's test ratios
// (max(m, n)·u). kLawConstant is measured, not derived: the worst ratio of
// error to law over femc's backward-stable methods, every precision and the
// whole range of the draws, with a margin (each claim prints its worst
// ratio of error to bound and its slack, and fails where one exceeds 1).
#include <algorithm>
#include <cmath>

#include "femc/solvers/capabilities.hpp"
#include "femc/verify/reference.hpp"

namespace femc::verify {

// The forward law as the reports state it (verify's README, the docs).
// The formula alone is what the docs quote (docs/verify.md, verify/PROTOCOL.md
// §4; tests/test_law_text.cpp holds them to it verbatim).
#define FEMC_FORWARD_LAW_FORMULA "c·u·[(κ_s^p·ω_M + κ(M))·(‖x‖ + ‖y‖) + (κ(B)²·ω_W·ω_M + κ(B)κ(W))·‖r‖/‖B‖]"
inline constexpr const char* kForwardLawFormula = FEMC_FORWARD_LAW_FORMULA;
inline constexpr const char* kForwardLawText =
    FEMC_FORWARD_LAW_FORMULA ", κ_s = κ(B)·ω the condition of a "
    "solve with W, ω = min(ω_W, κ(W)^{1/2}κ(A L⁻ᵀ)/κ(B)), ω_W = ‖W^{1/2}‖‖A L⁻ᵀ‖/‖B‖, ω_M = ‖A‖‖L⁻¹‖/‖A L⁻ᵀ‖";
#undef FEMC_FORWARD_LAW_FORMULA

// c = kLawConstant·max(m, n, 4) (see above).
inline constexpr double kLawConstant = 4;

// A solver's laws: its declared powers (Capabilities).
struct ErrorLaw {
  int growth = 1;         // p
  int residual_mass = 0;  // k
  static ErrorLaw of(const Capabilities& caps) { return {caps.error_growth, caps.residual_mass_power}; }
};

// At least 4·4: for the smallest systems the few operations a formula adds
// whatever n is (a product with M, a difference) dominate γ_{cn} (measured:
// nullspace's Qᴺ = M q̈ − Q − C at n = 2 reached 1.7 times 4·2).
inline double law_constant(Index m, Index n) {
  return kLawConstant * double(std::max<Index>({m, n, Index(4)}));
}

// u·(κ(B)^p + κ(M) + κ(B)²η): the relative law, the studies' theory line.
inline double relative_law(const ExactReference& ref, double u, int growth) {
  return u * (std::pow(ref.kappa_B, growth) + ref.kappa_M + ref.kappa_B * ref.kappa_B * ref.eta);
}

// The κ of a solve with W. A solver forms B = U_W·(A L⁻ᵀ) and d = U_W·(…)
// apart, and each product rounds relative to ‖U_W‖‖A L⁻ᵀ‖, not to ‖B‖: the
// backward error of the data is u·ω·‖B‖ with ω = ‖U_W‖‖A L⁻ᵀ‖/‖B‖ (1 for
// W = I, at most κ(W)^{1/2}), so the error is u·κ(B)·ω·‖x‖. Read in the
// unweighted problem, the same rounding is U_W⁻¹ times it, a relative
// perturbation u·κ(W)^{1/2} of A L⁻ᵀ, and the error u·κ(A L⁻ᵀ)·κ(W)^{1/2}·‖x‖;
// the smaller of the two holds. Where W does not matter (consistent
// constraints) the exact q̈ is W's alone in the rounding: without this term
// the law failed at mpfr256 for the literal formula (κ(W) = 1.9·10²⁸) and at
// float128 for sparse (κ(W) = 1.1·10¹¹), 2.3 and 37 times (docs/tests.md).
inline double weighted_kappa(const ExactReference& ref) {
  const double norm_unweighted = ref.sigma_B_unweighted.empty() ? 0 : ref.sigma_B_unweighted.front();
  if (ref.norm_B <= 0 || norm_unweighted <= 0) return ref.kappa_B;
  const double omega = std::sqrt(ref.norm_W) * norm_unweighted / ref.norm_B;
  return std::max(ref.kappa_B,
                  std::min(ref.kappa_B * omega, std::sqrt(ref.kappa_W) * ref.kappa_B_unweighted));
}

// The κ of a solve: the weighted one above, or A L⁻ᵀ's where that is larger,
// since where W does not matter a solver may solve without it (kkt does, with
// A M⁻¹Aᵀ).
inline double solve_kappa(const ExactReference& ref) { return std::max(weighted_kappa(ref), ref.kappa_B_unweighted); }

// ω_M = ‖A‖‖L⁻¹‖/‖A L⁻ᵀ‖ ≥ 1 (‖L⁻¹‖ = ‖M^{-1/2}‖ = λ_min(M)^{-1/2}): a solver
// forms A L⁻ᵀ, by forward substitution L Yᵀ = Aᵀ or as a product with an
// explicit M^{-1/2} (the literal formula), and either rounds relative to
// ‖A‖‖L⁻¹‖, not to ‖A L⁻ᵀ‖. The product's rounding is u‖A‖‖M^{-1/2}‖·γ; the
// substitution solves (L + ΔL)ŷ = a, |ΔL| ≤ γ|L|, so ŷ − y = −L⁻¹ΔL ŷ, of
// size γ‖L⁻¹‖‖|L||y|‖, which is γ‖L⁻¹‖‖a‖ where |L||y| does not cancel
// (‖|L||y|‖ ≈ ‖Ly‖ = ‖a‖; at worst it is √n‖L‖‖y‖, ω_M's bound √(nκ(M))).
// ω_M is 1 where A's rows reach M's soft directions as much as its stiff
// ones, and grows as Null(A) nears M's softest eigenvector: then a generic
// rounding of size u‖a‖ has a component along that eigenvector, which L⁻¹
// magnifies by ‖L⁻¹‖ while A L⁻ᵀ stays small. Without it the law failed at
// mpfr256 for U1 (Null(A) 5·10⁻⁵ rad from M's softest eigenvector, κ(M) =
// 8·10²⁵, ω_M ≈ 2·10⁴): nullspace 252 times, literal 15, sparse 9.5, cod
// 8.4 (docs/tests.md).
inline double mass_omega(const ExactReference& ref) {
  const double norm_unweighted = ref.sigma_B_unweighted.empty() ? 0 : ref.sigma_B_unweighted.front();
  if (norm_unweighted <= 0 || ref.norm_M <= 0) return 1;
  return std::max(1.0, ref.norm_A * std::sqrt(ref.kappa_M / ref.norm_M) / norm_unweighted);
}

// ω_W·ω_M = ‖W^{1/2}‖‖A‖‖L⁻¹‖/‖B‖ ≥ 1: B = W^{1/2}·A L⁻ᵀ as formed rounds
// relative to it, a perturbation u·ω_W·ω_M·‖B‖ of B, which Wedin's residual
// term carries as κ(B)²·ω_W·ω_M·‖r‖/‖B‖. Without it G2 failed at mpfr256
// (inconsistent b, m > n, W ≠ I) 1.5 to 1.7 times: the whole of cod's error
// was the rounding of forming W^{1/2}A (docs/tests.md).
inline double formation_omega(const ExactReference& ref) {
  if (ref.norm_B <= 0 || ref.norm_M <= 0) return 1;
  return std::max(1.0, std::sqrt(ref.norm_W) * ref.norm_A * std::sqrt(ref.kappa_M / ref.norm_M) / ref.norm_B);
}

// T without c from its terms: the κ of the solve and ω_M, s = ‖y‖ + ‖x‖,
// and the least-squares part's κ(B), ω_W·ω_M and ‖r‖/‖B‖ (the rank property
// states it for the directions a solver keeps, claim_checks.hpp):
// u·[(κ_s^p·ω_M + κ(M))·s + (κ(B)²·ω_W·ω_M + κ(B)κ(W))·‖r‖/‖B‖]. ω_M
// multiplies κ_s^p once, for p = 2 too: a solver that forms G = Y Yᵀ from
// Y = L⁻¹Aᵀ rounds G relative to u·ω_M‖G‖, and κ(G) = κ(Y)² carries it.
inline double forward_law(double u, int growth, double kappa_solve, double omega_M, double kappa_M, double s,
                          double kappa_B, double omega_formed, double kappa_W, double r_over_B) {
  return u * ((std::pow(kappa_solve, growth) * omega_M + kappa_M) * s +
              (kappa_B * kappa_B * omega_formed + kappa_B * kappa_W) * r_over_B);
}

inline double forward_law(const ExactReference& ref, double u, const ErrorLaw& law) {
  return forward_law(u, law.growth, solve_kappa(ref), mass_omega(ref), ref.kappa_M, ref.norm_y + ref.norm_x,
                     ref.kappa_B, formation_omega(ref), ref.kappa_W, ref.norm_B > 0 ? ref.norm_r / ref.norm_B : 0);
}

// F without u and c (the header): for a solver that forms G = B Bᵀ (p = 2),
// which ends with M q̈ = Q + Qᶜ. Where G is ill-conditioned λ is large, and
// Qᶜ = Aᵀλ with it; where M is too, the rounding of Q + Qᶜ carried by L⁻¹
// is far above u‖q̈‖_M. Measured (docs/tests.md): kkt at 256 bits,
// κ(M) = 1.6·10²¹, κ(B) = 82, ‖λ‖ = 6·10⁴: the final solve alone, every
// other step exact, left 2.2·10⁵·u in ‖A q̂ − b‖, which the law without F
// bounded by 6.8·10³·u·c. F ≥ ‖B‖‖M^{-1/2}‖‖M q̈‖ ≥ ‖B‖‖q̈‖_M, equal only
// where Q, Qᴺ and Qᵂ do not cancel; where they do (large λ, a near-static
// load) it loosens a range-space method's residual bound by up to
// (‖Q‖ + ‖Qᴺ‖ + ‖Qᵂ‖)/‖M q̈‖.
inline double range_space_term(const ExactReference& ref) {
  const double norm_inverse_root = ref.norm_M > 0 ? std::sqrt(ref.kappa_M / ref.norm_M) : 0;  // ‖M^{-1/2}‖
  return ref.norm_B * norm_inverse_root * ref.norm_forces;
}

// R without the constant c.
inline double residual_law(const ExactReference& ref, double u, const ErrorLaw& law) {
  // A solver that forms M^{-1/2} carries its rounding through A M^{-1/2},
  // of norm up to ‖W^{1/2}‖‖A‖‖M^{-1/2}‖ rather than ‖B‖.
  const double norm_inverse_root = ref.norm_M > 0 ? std::sqrt(ref.kappa_M / ref.norm_M) : 0;  // ‖M^{-1/2}‖
  const double through = law.residual_mass > 0 ? std::sqrt(ref.norm_W) * ref.norm_A * norm_inverse_root : ref.norm_B;
  const double forces = law.growth >= 2 ? range_space_term(ref) : 0;
  return u * (std::pow(solve_kappa(ref), std::max(law.growth - 1, law.residual_mass)) *
                  std::pow(ref.kappa_M, law.residual_mass) * (through * ref.norm_x + ref.norm_d) +
              std::sqrt(ref.norm_W) * ref.norm_A * ref.norm_qdd + forces);
}

// log10 of the largest condition number the law resolves at unit roundoff
// u: the law's relative error c·u·κ reaches 1/100 there (the draws stop at
// it; a solver of error growth p reaches its p-th root).
inline double law_limit_log10(double u, double c) { return u > 0 ? std::log10(1 / (100 * u * c)) : 0; }

}  // namespace femc::verify
