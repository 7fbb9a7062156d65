#pragma once
// One function per claim ID of ../shared/CLAIMS.md (and per metamorphic
// relation). Each is a RapidCheck property body: it draws a case, runs the
// solver under test and asserts the claim. The same functions run against
// femc's methods (props_*.cpp) and against deliberately wrong solvers
// (self_check.cpp), so every claim is known to be able to fail.
#include <algorithm>

#include "femc/errors.hpp"
#include "femc/verify/claims.hpp"

namespace femc::prop::claims {

// q̈, Qᴺ, Qᵂ, Qᶜ, λ, G_g, δ² of `s` against the exact solution.
// Each output the solver declares (Ctx::caps), and nothing else.
template <class S>
void expect_matches_exact(const Ctx<S>& x, const Solution<S>& s, const char* claim) {
  if (x.caps.returns(outputs::qdd)) FEMC_CHECK_LE(x.err(s.qdd, x.ref.qdd), x.tol(inf_norm(x.ref.qdd)), claim << " q̈");
  if (x.caps.returns(outputs::QN)) FEMC_CHECK_LE(x.err(s.QN, x.ref.QN), x.tol(inf_norm(x.ref.QN)), claim << " Qᴺ");
  if (x.caps.returns(outputs::QW)) FEMC_CHECK_LE(x.err(s.QW, x.ref.QW), x.tol(inf_norm(x.ref.QW)), claim << " Qᵂ");
  if (x.caps.returns(outputs::constraint_force))
    FEMC_CHECK_LE(x.err(s.Qc, x.ref.Qc), x.tol(inf_norm(x.ref.Qc)), claim << " Qᶜ");
}

// Two computed vectors that must be equal: each is within tol(|ref|) of the
// exact ref, so they are within twice that of each other.
template <class S>
void expect_same(const Ctx<S>& x, const Vector<S>& a, const Vector<S>& b, const Vector<rational>& ref,
                 const std::string& what) {
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(a - b)), 2 * x.tol(inf_norm(ref)), what);
}

// 001 (33) / 004 (13): G(q̈ + u) = G(q̈) + uᵀMu for u ∈ Null(A), checked to
// the evaluation bound of the three quadratic forms. Returns G(q̈).
template <class S>
S expect_gaussian_decomposition(const Ctx<S>& x, const Vector<S>& qdd, const Vector<S>& u, const std::string& what) {
  const S G0 = gaussian(x.sys, qdd), Gz = gaussian(x.sys, Vector<S>(qdd + u)), uMu = m_norm_sq(x.sys, u);
  const double scale = dbl(S(G0 + Gz + uMu)) + x.data * x.data;
  FEMC_CHECK_LE(std::abs(dbl(S(Gz - G0 - uMu))), x.tol(scale), what << " G(q̈ + u) = G(q̈) + uᵀMu");
  FEMC_CHECK_LE(x.err(G0, x.ref.Gg_min), x.tol(scale), what << " G(q̈) = exact minimum");
  return G0;
}

// E1 — 004 (4), (5), (10): q̈ = a + M^{-1/2}B⁺(b − Aa) and A q̈ = b for
// consistent constraints.
template <class S>
void E1(const Solver<S>& solver) {
  Spec spec;
  spec.consistent_only = true;
  spec.with_C = false;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  expect_matches_exact(x, s, "E1");
  // ‖A‖₂ ≤ 1 by construction (singular values in [1/κ_A, 1]), so ‖A e‖∞ ≤ √n‖e‖∞.
  const Vector<S> r = x.sys.A * s.qdd - x.sys.b;
  FEMC_CHECK_LE(inf_norm_s(r), double(x.sys.n()) * x.tol(inf_norm(x.ref.qdd)), "E1 A q̈ − b");
}

// E2 — 004 (9)–(13): G(q̈ + u) = G(q̈) + ‖M^{1/2}u‖² for every u with A u = 0.
template <class S>
void E2(const Solver<S>& solver) {
  Spec spec;
  spec.consistent_only = true;
  spec.with_C = false;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  expect_gaussian_decomposition(x, s.qdd, convert<S>(draw_null_vector(x.c.sys.A)), "E2");
}

// E3 — 004 (6)–(8): B x = b consistent iff B B⁺ b = b; B x = 0 ⇒ xᵀB⁺ = 0;
// general solution B⁺b + (I − B⁺B)h. B⁺ applied by the COD of femc.
template <class S>
void E3(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;  // then the exact δ² of the oracle is ‖(I − BB⁺)b‖² for B = A
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Matrix<S>& B = x.sys.A;
  const CompleteOrthogonal<S> cod(B, default_rank_tolerance<S>(B.rows(), B.cols()));
  RC_ASSERT(cod.rank().rank == x.c.rank);
  // ‖(I − BB⁺)b‖ is computed with an absolute error t = tol(‖b‖), so its
  // square is within 2δt + t² of δ². Consistent ⇔ δ = 0 exactly (oracle).
  const double t = x.tol(inf_norm(x.c.sys.b)) * double(B.rows());
  const double delta = std::sqrt(to_double(x.ref.delta_norm_sq));
  const S res = cod.residual_norm_sq(x.sys.b);
  FEMC_CHECK_LE(x.err(res, x.ref.delta_norm_sq), 2 * delta * t + t * t, "E3 ‖(I − BB⁺)b‖² = δ²");
  RC_ASSERT((x.ref.delta_norm_sq == 0) == x.c.consistent);  // BB⁺b = b ⇔ consistent
  const Vector<S> v = convert<S>(draw_null_vector(x.c.sys.A));
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(cod.solve_transposed(v))), x.tol(inf_norm_s(v)), "E3 Bx = 0 ⇒ xᵀB⁺ = 0");
  if (x.c.consistent) {
    const Vector<S> h = convert<S>(draw_integer_vector(B.cols(), -3, 3));
    const Vector<S> z = cod.solve(x.sys.b) + h - cod.solve(Vector<S>(B * h));
    FEMC_CHECK_LE(inf_norm_s(Vector<S>(B * z - x.sys.b)), x.tol(inf_norm_s(h) + inf_norm(x.c.sys.b)),
                  "E3 B(B⁺b + (I − B⁺B)h) = b");
  }
}

// E4 — 004 (14)–(17): F^c = K e = M^{1/2}(A M^{-1/2})⁺e; Δq̈ = M⁻¹Fᶜ. Compared
// with the literal formula (an independent evaluation of K e).
template <class S>
void E4(const Solver<S>& solver) {
  Spec spec;
  spec.with_C = false;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys), lit = formula_solver<S>()(x.sys);
  expect_same(x, s.Qc, lit.Qc, x.ref.Qc, "E4 Fᶜ = K e");
  const Vector<S> dq = s.qdd - spd_solve(x.sys.M, x.sys.Q);
  const Vector<S> Mdq = x.sys.M * dq;
  expect_same(x, Mdq, s.Qc, x.ref.Qc, "E4 M Δq̈ = Fᶜ");
}

// E5 — 004 (18)–(23): Aᵀλ = Qᴺ is consistent; λ is its minimum-norm solution
// (λ ⊥ Null(Aᵀ)); when rank A = m it is unique, λ = (AM⁻¹Aᵀ)⁻¹e.
template <class S>
void E5(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  RC_ASSERT(s.lambda.size() == x.sys.m());
  const double tl = x.cond.kappa_A * x.tol(inf_norm(x.ref.lambda) + inf_norm(x.ref.QN));
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(x.sys.A.transpose() * s.lambda - s.QN)), tl, "E5 Aᵀλ = Qᴺ");
  if (x.sys.m() > 0) {
    const Vector<S> y = convert<S>(draw_null_vector(Matrix<rational>(x.c.sys.A.transpose())));
    FEMC_CHECK_LE(std::abs(dbl(S(y.dot(s.lambda)))), tl * (1 + inf_norm_s(y)) * double(x.sys.m()),
                  "E5 λ ⊥ Null(Aᵀ) (minimum norm)");
  }
  FEMC_CHECK_LE(x.err(s.lambda, x.ref.lambda), tl, "E5 λ vs exact");
}

// U1 — 002 (30)–(34): M q̈ = Q + Qᴺ + Qᵂ, Qᴺ = M^{1/2}B⁺(b − Aa),
// Qᵂ = M^{1/2}(I − B⁺B)M^{-1/2}C (against the literal formula and exact).
template <class S>
void U1(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys), lit = formula_solver<S>()(x.sys);
  const Vector<S> r = x.sys.M * s.qdd - x.sys.Q - s.QN - s.QW;
  FEMC_CHECK_LE(inf_norm_s(r), 4 * x.tol(inf_norm(x.ref.Qc) + inf_norm(x.ref.qdd)), "U1 M q̈ = Q + Qᴺ + Qᵂ");
  expect_same(x, s.QN, lit.QN, x.ref.QN, "U1 Qᴺ vs literal");
  expect_same(x, s.QW, lit.QW, x.ref.QW, "U1 Qᵂ vs literal");
  expect_matches_exact(x, s, "U1");
}

// U2 — 002 (10), (13): vᵀQᶜ = vᵀC and vᵀQᴺ = 0 for every v with A v = 0.
template <class S>
void U2(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  const Vector<S> v = convert<S>(draw_null_vector(x.c.sys.A));
  const double scale = x.tol(inf_norm(x.ref.Qc)) * (1 + inf_norm_s(v)) * double(x.sys.n());
  FEMC_CHECK_LE(std::abs(dbl(S(v.dot(s.Qc) - v.dot(x.sys.C)))), scale, "U2 vᵀQᶜ = vᵀC");
  FEMC_CHECK_LE(std::abs(dbl(S(v.dot(s.QN)))), scale, "U2 vᵀQᴺ = 0");
}

// U3 — 000 (31): (Qᴺ)ᵀM⁻¹Qᵂ = 0.
template <class S>
void U3(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  const S ip = s.QN.dot(spd_solve(x.sys.M, s.QW));
  const double scale = x.tol(inf_norm(x.ref.QN) + inf_norm(x.ref.QW)) * (1 + inf_norm(x.ref.QN) + inf_norm(x.ref.QW)) *
                       double(x.sys.n()) * x.cond.kappa_M;
  FEMC_CHECK_LE(std::abs(dbl(ip)), scale, "U3 (Qᴺ)ᵀM⁻¹Qᵂ = 0");
}

// U4 — 002 end of Section 4: M^{-1/2}C ∈ Null(B) ⇔ C = M u with A u = 0 ⇒
// Qᵂ = C; M^{-1/2}C ∈ Range(Bᵀ) ⇔ C = Aᵀy ⇒ Qᵂ = 0.
template <class S>
void U4(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;
  const Ctx<S> x0 = make_ctx<S>(spec, solver);
  const bool in_null = *rc::gen::arbitrary<bool>();
  System<rational> ex = x0.c.sys;
  ex.C = in_null ? Vector<rational>(ex.M * draw_null_vector(ex.A))
                 : Vector<rational>(ex.A.transpose() * draw_integer_vector(ex.m(), -2, 2));
  const System<S> sys = convert<S>(ex);
  const Solution<S> s = solver(sys);
  const double t = x0.tol(2 * inf_norm(ex.C));
  if (in_null) FEMC_CHECK_LE(inf_norm_s(Vector<S>(s.QW - sys.C)), t, "U4 C ∈ M·Null(A) ⇒ Qᵂ = C");
  else FEMC_CHECK_LE(inf_norm_s(s.QW), t, "U4 C ∈ Range(Aᵀ) ⇒ Qᵂ = 0");
}

// U5 — 000 (34)–(44): the extended Gauss principle, min ‖z − a − M⁻¹C‖_M
// s.t. Az = b, gives U1's q̈: q̈ depends on Q and C only through Q + C.
template <class S>
void U5(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  System<S> merged = x.sys;
  merged.Q = x.sys.Q + x.sys.C;
  merged.C.setZero();
  const Solution<S> s = solver(x.sys), t = solver(merged);
  expect_same(x, s.qdd, t.qdd, x.ref.qdd, "U5 q̈(Q, C) = q̈(Q + C, 0)");
  expect_matches_exact(x, s, "U5");
}

// G1 — 001 (9)–(14): with W = I, q̈ minimizes G_g over Z_g (every member has
// the same residual ‖Az − b‖ and a Gaussian larger by ‖u‖²_M).
template <class S>
void G1(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  const Vector<S> u = convert<S>(draw_null_vector(x.c.sys.A));
  const Vector<S> z = s.qdd + u;
  expect_gaussian_decomposition(x, s.qdd, u, "G1");
  const S r0 = constraint_residual_sq(x.sys, s.qdd), rz = constraint_residual_sq(x.sys, z);
  FEMC_CHECK_LE(std::abs(dbl(S(rz - r0))), x.tol(dbl(S(r0 + rz)) + x.data * x.data) * (1 + inf_norm_s(u)),
                "G1 same residual on Z_g");
}

// G2 — 001 (15), (29): Result 1, against the literal formula and exact.
template <class S>
void G2(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys), lit = formula_solver<S>()(x.sys);
  expect_same(x, s.qdd, lit.qdd, x.ref.qdd, "G2 q̈ vs literal (15)");
  expect_matches_exact(x, s, "G2");
}

// G3 — 001 (21)–(24), Remarks 4–5: every member of Z_W attains ‖δ‖²; the
// constraints are consistent iff δ = 0.
template <class S>
void G3(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  const Vector<S> u = convert<S>(draw_null_vector(x.c.sys.A));
  const S rz = constraint_residual_sq(x.sys, Vector<S>(s.qdd + u));
  const double d2 = to_double(x.ref.delta_norm_sq);
  const double t = x.tol(d2 + x.data * x.data) * (1 + inf_norm_s(u));
  FEMC_CHECK_LE(x.err(rz, x.ref.delta_norm_sq), t, "G3 ‖Az − b‖²_W = ‖δ‖² on Z_W");
  FEMC_CHECK_LE(x.err(s.delta_norm_sq, x.ref.delta_norm_sq), t, "G3 δ² reported");
  RC_ASSERT((x.ref.delta_norm_sq == 0) == x.c.consistent);  // exact: consistent ⇔ δ = 0
}

// G4 — 001 Remarks 2, 3, 7: Z_W is a single point iff rank A = n; then q̈
// does not depend on Q or C.
template <class S>
void G4(const Solver<S>& solver) {
  Spec spec;
  // A solver of full row rank only meets full column rank at m = n alone.
  spec.square_full_row_rank = !solver.caps.rank_deficient;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  RC_ASSERT((null_space_basis_exact(x.c.sys.A).cols() == 0) == (x.c.rank == x.sys.n()));
  RC_PRE(x.c.rank == x.sys.n());
  System<S> other = x.sys;
  other.Q = convert<S>(draw_integer_vector(x.sys.n(), -5, 5));
  if (x.caps.working_forces) other.C = convert<S>(draw_integer_vector(x.sys.n(), -5, 5));
  const Solution<S> s = solver(x.sys), t = solver(other);
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(s.qdd - t.qdd)), 2 * x.tol(inf_norm(x.ref.qdd) + 10), "G4 q̈ independent of Q, C");
}

// G5 — 001 (30)–(33): G_g(q̈ + M^{-1/2}(I − P⁺P)Δ) = G_g^min + ‖(I − P⁺P)Δ‖²,
// G_g^min = ‖P⁺[b̃ − PM^{-1/2}(Q + C)]‖² (the literal closed form).
template <class S>
void G5(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys), lit = formula_solver<S>()(x.sys);
  // M^{-1/2}(I − P⁺P)Δ ranges over Null(A): u below; ‖(I − P⁺P)Δ‖² = uᵀMu.
  const S G0 = expect_gaussian_decomposition(x, s.qdd, convert<S>(draw_null_vector(x.c.sys.A)), "G5 (33)");
  const double scale = dbl(G0) + x.data * x.data;
  FEMC_CHECK_LE(std::abs(dbl(S(G0 - lit.Gg_min))), 2 * x.tol(scale), "G5 (30) closed form");
  FEMC_CHECK_LE(x.err(s.Gg_min, x.ref.Gg_min), x.tol(scale), "G5 reported G_g^min");
  // An independent, generic minimizer: start at another member of Z_W,
  // z₀ = q̈ + N y₀ (N an exact basis of Null(A)), and minimize the quadratic
  // G(z₀ + N y) by conjugate gradients (Eigen), which never sees the
  // solver's algebra; it must land on q̈.
  const Matrix<S> N = convert<S>(null_space_basis_exact(x.c.sys.A));
  if (N.cols() > 0) {
    const Vector<S> z0 = s.qdd + N * convert<S>(draw_integer_vector(N.cols(), -3, 3));
    // y ↦ ½G(z₀ + Ny) has Hessian NᵀMN and gradient −Nᵀ(Q + C − M z₀) at y = 0.
    const Matrix<S> H = N.transpose() * x.sys.M * N;
    const Vector<S> g = N.transpose() * (x.sys.Q + x.sys.C - x.sys.M * z0);
    Vector<S> y;
    if constexpr (ScalarTraits<S>::exact) {
      y = spd_solve(H, g);  // CG takes square roots; exactly, the minimizer solves H y = g
    } else {
      Eigen::ConjugateGradient<Matrix<S>, Eigen::Lower | Eigen::Upper, Eigen::IdentityPreconditioner> cg;
      cg.setTolerance(S(unit_roundoff<S>()));
      cg.setMaxIterations(4 * int(N.cols()) + 8);
      cg.compute(H);
      y = cg.solve(g);
    }
    const Vector<S> z_cg = z0 + N * y;
    expect_same(x, z_cg, s.qdd, x.ref.qdd, "G5 generic minimizer (CG) lands on q̈");
  }
}

// X⁺·rhs for an X whose exact rank k the exact data give: the reference
// keeps k magnitudes of X's pivoted QR where a tolerance would guess. X
// formed in S has that rank exactly only up to the rounding of forming it,
// which can lift a magnitude above any tolerance near u (G6 below).
template <class S>
Matrix<S> pseudoinverse_solve_at_rank(const Matrix<S>& X, Index k, const Matrix<S>& rhs) {
  CompleteOrthogonal<S> cod;
  const S tol = default_rank_tolerance<S>(X.rows(), X.cols());
  cod.compute_with(X, tol, [&](const Vector<S>& d) { return keep_leading(d, std::min(k, d.size()), tol); });
  return cod.solve(rhs);
}

// G6 — 001 (34)–(40): s* = P⁺p with s = M^{1/2}q̈ − M^{-1/2}(Q + C),
// p = W^{1/2}[b − AM⁻¹(Q + C)], and G_g = ‖s*‖². Factors stand for the roots.
template <class S>
void G6(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> sol = solver(x.sys);
  const Eigen::LLT<Matrix<S>> LM(x.sys.M);
  const auto L = LM.matrixL();
  const Vector<S> QC = x.sys.Q + x.sys.C;
  const Vector<S> s = L.transpose() * sol.qdd - L.solve(QC);
  Matrix<S> P = L.solve(x.sys.A.transpose()).transpose();
  Vector<S> p = x.sys.b - x.sys.A * LM.solve(QC);
  if (x.sys.m() > 0) {
    const Eigen::LLT<Matrix<S>> LW(x.sys.W);
    P = LW.matrixU() * P;
    p = LW.matrixU() * p;
  }
  // P = U_W A L⁻ᵀ has A's rank exactly (its other factors are nonsingular),
  // but formed in S its rounding blurs the magnitudes below that rank by
  // about κ(M)^{1/2}κ(W)^{1/2}·u, more than a tolerance at u allows for: with
  // κ(W) ≈ 100 a P of exact rank 1 kept a noise magnitude in double and s*
  // came out 10¹⁷ wrong for cod, nullspace and literal alike (seed
  // 13035861952771064604, the ctest G6_FormedRankRegression). The
  // reference keeps the exact rank instead of deciding it.
  const Vector<S> s_star = pseudoinverse_solve_at_rank<S>(P, x.c.rank, p);
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(s - s_star)), 2 * x.tol(inf_norm(x.ref.qdd) + x.data), "G6 s* = P⁺p (40)");
  FEMC_CHECK_LE(x.err(S(s_star.squaredNorm()), x.ref.Gg_min), x.tol(to_double(x.ref.Gg_min) + x.data * x.data),
                "G6 G_g = ‖s*‖² (35)");
}

// G7 — 001 Lemma 1 (41): P = U B, U nonsingular ⇒ P⁺P = B⁺B, for any B
// (rank-deficient, m > n); checked on the action on random vectors.
template <class S>
void G7(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Index m = x.sys.m(), n = x.sys.n();
  RC_PRE(m > 0);
  const Matrix<rational> U = spd_with_condition(m, rational(10)) + cayley_orthogonal(m);  // generic nonsingular
  RC_PRE(exact_rank(U) == m);
  const Matrix<rational> Pex = U * x.c.sys.A;
  const Matrix<S> B = x.sys.A, P = convert<S>(Pex);
  const Vector<S> h = convert<S>(draw_integer_vector(n, -3, 3));
  const CompleteOrthogonal<S> cb(B, default_rank_tolerance<S>(m, n)), cp(P, default_rank_tolerance<S>(m, n));
  RC_ASSERT(cb.rank().rank == cp.rank().rank);
  const Vector<S> lhs = cp.solve(Vector<S>(P * h)), rhs = cb.solve(Vector<S>(B * h));
  const double kU = kappa_of_rank(Pex.unaryExpr([](const rational& v) { return to_double(v); }), x.c.rank);
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(lhs - rhs)), x.tol(inf_norm_s(h)) * kU, "G7 P⁺P = B⁺B");
}

// G8 — 001 Lemma 2 (42)–(43) with U = W^{1/2} nonsingular (so the first
// condition, [I − U⁺U]BBᵀU = 0, always holds): (UB)⁺ = B⁺U⁻¹ iff
// [I − BB⁺]U²B = 0. Both directions on constructed integer cases:
//   holds: U = I + B D Bᵀ (D > 0 diagonal) maps Range(B) into itself;
//   fails: B of full column rank with m > n and generic SPD U, where the
//          condition is checked ≠ 0 exactly and the law must fail by more
//          than the error bound.
// It is a law of pseudoinverses, checked with femc's decomposition: the
// solver under test has no part in it (it takes one for the common signature).
template <class S>
void G8(const Solver<S>& /*solver*/) {
  const Index n = *rc::gen::inRange<Index>(1, 5);
  const bool holds = *rc::gen::arbitrary<bool>();
  const Index m = holds ? *rc::gen::inRange<Index>(1, 6) : n + *rc::gen::inRange<Index>(1, 3);
  Matrix<rational> B(m, n);
  for (Index i = 0; i < m; ++i) B.row(i) = draw_integer_vector(n, -2, 2).transpose();
  RC_PRE(holds || exact_rank(B) == n);
  RC_PRE(!B.isZero());
  Matrix<rational> U;
  if (holds) {
    const Vector<rational> d = draw_integer_vector(n, 1, 3);
    U = Matrix<rational>::Identity(m, m) + B * d.asDiagonal() * B.transpose();
  } else {
    Matrix<rational> R(m, m);
    for (Index i = 0; i < m; ++i) R.row(i) = draw_integer_vector(m, -2, 2).transpose();
    U = R.transpose() * R + Matrix<rational>::Identity(m, m);
    // [I − B(BᵀB)⁻¹Bᵀ] U² B ≠ 0, exactly.
    const Matrix<rational> BtB = B.transpose() * B;
    const Matrix<rational> proj = B * Eigen::FullPivLU<Matrix<rational>>(BtB).solve(Matrix<rational>(B.transpose()));
    const Matrix<rational> cond2 = (Matrix<rational>::Identity(m, m) - proj) * U * U * B;
    RC_PRE(!cond2.isZero());
  }
  // Both sides as matrices: applied to the identity, no inverse formed; each
  // pseudoinverse at B's exact rank (pseudoinverse_solve_at_rank), as U is
  // nonsingular.
  const Index r = exact_rank(B);
  const Matrix<S> Bs = convert<S>(B), Us = convert<S>(U), I = Matrix<S>::Identity(m, m);
  const Matrix<S> lhs = pseudoinverse_solve_at_rank<S>(Matrix<S>(Us * Bs), r, I);
  const Matrix<S> rhs = pseudoinverse_solve_at_rank<S>(Bs, r, Matrix<S>(Eigen::LLT<Matrix<S>>(Us).solve(I)));
  const Eigen::MatrixXd dU = U.unaryExpr([](const rational& v) { return to_double(v); });
  const Eigen::MatrixXd dUB = (U * B).unaryExpr([](const rational& v) { return to_double(v); });
  const double K = kappa_of_rank(dU, m) * kappa_of_rank(dUB, r) * kappa_of_rank(dUB, r);
  const double bound = 16.0 * double((m + n) * (m + n)) * dbl(unit_roundoff<S>()) * K *
                       (1 + dU.cwiseAbs().maxCoeff()) * double(m);
  const double diff = dbl(S((lhs - rhs).cwiseAbs().maxCoeff()));
  RC_TAG(holds ? "conditions hold" : "conditions fail");
  if (holds) {
    FEMC_CHECK_LE(diff, bound, "G8 conditions hold ⇒ (UB)⁺ = B⁺U⁻¹");
  } else if (!(diff > bound)) {
    RC_FAIL("G8 conditions fail but (UB)⁺ = B⁺U⁻¹ within the rounding bound");
  }
}

// G9 — 001 (44)–(47): for A of full row rank q̈ does not depend on W.
template <class S>
void G9(const Solver<S>& solver) {
  Spec spec;
  spec.full_row_rank_only = true;
  spec.allow_empty = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  System<S> other = x.sys;
  other.W = convert<S>(spd_with_condition(x.sys.m(), rational(50)));
  const Solution<S> s = solver(x.sys), t = solver(other);
  expect_same(x, s.qdd, t.qdd, x.ref.qdd, "G9 q̈(W₁) = q̈(W₂)");
}

// Beyond 001: exactly when W matters. Z_W = z_W + Null(A) with A z_W the
// W-orthogonal projection of b on Range(A); it equals the Euclidean one iff
// AᵀW r = 0 for the ordinary least-squares residual r = (I − AA⁺)b. So
//   q̈(W) = q̈(I)  ⇔  AᵀW r = 0,
// which holds for consistent constraints (r = 0) at every rank, and fails
// for generic W when they are inconsistent. Checked exactly (rationals) and
// at S: equal within the bound when AᵀWr = 0, else the difference at S
// matches the exact difference.
template <class S>
void G9_WMatters(const Solver<S>& solver) {
  Spec spec;
  spec.allow_empty = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const System<rational>& ex = x.c.sys;
  System<rational> unweighted = ex;
  unweighted.W = Matrix<rational>::Identity(ex.m(), ex.m());
  Options<rational> o;
  o.method = Method::Exact;
  const Solution<rational> ref_I = solve(unweighted, o);
  const Vector<rational> r = ex.b - ex.A * ref_I.qdd;  // A q̈(I) = AA⁺b: the LS residual
  const bool W_matters = !(ex.A.transpose() * (ex.W * r)).isZero();
  RC_ASSERT(W_matters == (x.ref.qdd != ref_I.qdd));  // the exact characterization
  RC_ASSERT(!(x.c.consistent && W_matters));        // consistent ⇒ W does not matter
  RC_TAG(W_matters ? "W matters" : "W does not matter");
  const Solution<S> s = solver(x.sys), t = solver(convert<S>(unweighted));
  const Vector<rational> diff = x.ref.qdd - ref_I.qdd;
  FEMC_CHECK_LE(x.err(Vector<S>(s.qdd - t.qdd), diff), 2 * x.tol(inf_norm(x.ref.qdd) + inf_norm(ref_I.qdd)),
                "G9 q̈(W) − q̈(I) vs exact");
}

// G10 — 001 Remark 8: dependent constraints are allowed; duplicating a
// consistent row changes nothing.
template <class S>
void G10(const Solver<S>& solver) {
  Spec spec;
  spec.consistent_only = true;
  spec.with_W = false;
  spec.allow_empty = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Index i = *rc::gen::inRange<Index>(0, x.sys.m());
  System<S> dup = x.sys;
  const Index m = x.sys.m();
  dup.A.conservativeResize(m + 1, Eigen::NoChange);
  dup.A.row(m) = x.sys.A.row(i);
  dup.b.conservativeResize(m + 1);
  dup.b(m) = x.sys.b(i);
  dup.W = Matrix<S>::Identity(m + 1, m + 1);
  const Solution<S> s = solver(x.sys), t = solver(dup);
  expect_same(x, s.qdd, t.qdd, x.ref.qdd, "G10 duplicated row");
  expect_same(x, s.QN, t.QN, x.ref.QN, "G10 Qᴺ");
}

// G11 — 001 (48)–(52): two least-squares solutions of Az ≃ b differ by
// (I − A⁺A)w ∈ Null(A).
template <class S>
void G11(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Solution<S> s = solver(x.sys);
  // z₁ = A⁺b: by a complete orthogonal decomposition at floating types; at
  // exact ones, as the exact q̈ of the system (I, A, b, 0), whose Gaussian
  // ‖z‖² makes it the minimum-norm least-squares solution.
  Vector<S> z1;
  if constexpr (ScalarTraits<S>::exact) {
    Options<S> exact;
    exact.method = Method::Exact;
    z1 = solve(make_system<S>(Matrix<S>::Identity(x.sys.n(), x.sys.n()), x.sys.A, x.sys.b, Vector<S>::Zero(x.sys.n())),
               exact)
             .qdd;
  } else {
    z1 = CompleteOrthogonal<S>(x.sys.A, default_rank_tolerance<S>(x.sys.m(), x.sys.n())).solve(x.sys.b);
  }
  // q̈ is itself a least-squares solution: z1 − q̈ must lie in Null(A).
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(x.sys.A * Vector<S>(z1 - s.qdd))), x.tol(inf_norm(x.ref.qdd) + x.data) * double(x.sys.n()),
                "G11 A(z₁ − q̈) = 0");
}

// G12 — 001 Remark 1: W = I recovers U1 (002 (30)) from Result 1.
template <class S>
void G12(const Solver<S>& solver) {
  Spec spec;
  spec.with_W = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  RC_ASSERT(is_identity(x.c.sys.W));
  const Solution<S> s = solver(x.sys), lit = formula_solver<S>()(x.sys);
  expect_same(x, s.qdd, lit.qdd, x.ref.qdd, "G12 q̈ = U1");
  expect_same(x, s.QW, lit.QW, x.ref.QW, "G12 Qᵂ = U1");
}

// Metamorphic: covariance under q = T q′ (M′ = TᵀMT, A′ = AT, Q′ = TᵀQ,
// C′ = TᵀC, b and W unchanged): q̈ = T q̈′, Qᶜ′ = TᵀQᶜ, λ′ = λ.
template <class S>
void Meta_Covariance(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Index n = x.sys.n();
  Matrix<rational> T = Matrix<rational>::Identity(n, n);  // unit upper triangular: exact inverse
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j) T(i, j) = *rc::gen::inRange(-1, 2);
  System<rational> ex = x.c.sys;
  ex.M = T.transpose() * ex.M * T;
  ex.A = ex.A * T;
  ex.Q = T.transpose() * ex.Q;
  ex.C = T.transpose() * ex.C;
  const Solution<S> s = solver(x.sys), t = solver(convert<S>(ex));
  const double kT = 4.0 * double(n);  // ‖T‖ ≤ n, and T's condition enters once more
  FEMC_CHECK_LE(inf_norm_s(Vector<S>(convert<S>(T) * t.qdd - s.qdd)), kT * kT * x.tol(inf_norm(x.ref.qdd)), "covariance q̈");
  if (x.caps.returns(outputs::lambda))
    FEMC_CHECK_LE(inf_norm_s(Vector<S>(t.lambda - s.lambda)), kT * kT * x.cond.kappa_A * x.tol(inf_norm(x.ref.lambda)),
                "covariance λ");
}

// Metamorphic: permuting the constraint rows (and W accordingly) changes
// nothing but the order of λ.
template <class S>
void Meta_RowPermutation(const Solver<S>& solver) {
  Spec spec;
  spec.allow_empty = false;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const Index m = x.sys.m();
  std::vector<int> perm(m);
  for (Index i = 0; i < m; ++i) perm[i] = int(m - 1 - i);
  Eigen::PermutationMatrix<Eigen::Dynamic> Pi(Eigen::Map<Eigen::VectorXi>(perm.data(), m));
  System<S> p = x.sys;
  p.A = Pi * x.sys.A;
  p.b = Pi * x.sys.b;
  p.W = Pi * x.sys.W * Pi.transpose();
  const Solution<S> s = solver(x.sys), t = solver(p);
  expect_same(x, s.qdd, t.qdd, x.ref.qdd, "row permutation q̈");
  if (x.caps.returns(outputs::lambda))
    FEMC_CHECK_LE(inf_norm_s(Vector<S>(Pi * s.lambda - t.lambda)), 2 * x.cond.kappa_A * x.tol(inf_norm(x.ref.lambda)),
                "row permutation λ");
}

// Metamorphic: units. Scaling mass (M, Q, C by α) leaves q̈ unchanged and
// scales forces by α; scaling the constraint rows (A, b by β) changes nothing
// in q̈ and scales λ by α/β. α, β powers of two: exact at every precision.
template <class S>
void Meta_UnitScaling(const Solver<S>& solver) {
  Spec spec;
  const Ctx<S> x = make_ctx<S>(spec, solver);
  const int ea = *rc::gen::inRange(-20, 21), eb = *rc::gen::inRange(-20, 21);
  const S alpha = S(std::ldexp(1.0, ea)), beta = S(std::ldexp(1.0, eb));
  System<S> sc = x.sys;
  sc.M *= alpha;
  sc.Q *= alpha;
  sc.C *= alpha;
  sc.A *= beta;
  sc.b *= beta;
  const Solution<S> s = solver(x.sys), t = solver(sc);
  expect_same(x, s.qdd, t.qdd, x.ref.qdd, "unit scaling q̈");
  if (x.caps.returns(outputs::QN))
    FEMC_CHECK_LE(inf_norm_s(Vector<S>(alpha * s.QN - t.QN)) / dbl(alpha), 2 * x.tol(inf_norm(x.ref.QN)), "unit scaling Qᴺ");
  if (x.caps.returns(outputs::lambda))
    FEMC_CHECK_LE(inf_norm_s(Vector<S>(alpha / beta * s.lambda - t.lambda)) * dbl(S(beta / alpha)),
                2 * x.cond.kappa_A * x.tol(inf_norm(x.ref.lambda)), "unit scaling λ");
}

// A solver that declares it refuses rank-deficient A must throw MethodError
// on every such draw (built exactly, then rounded to S): never a result.
template <class S>
void RankDeficientRefused(const Solver<S>& solver) {
  Spec spec;
  spec.rank_deficient_only = true;
  const Case c = draw_case(spec);
  RC_LOG() << c.describe() << "\n";
  const System<S> sys = convert<S>(c.sys);
  try {
    (void)solver(sys);
  } catch (const MethodError&) {
    return;
  }
  RC_FAIL("rank-deficient A (rank " + std::to_string(c.rank) + " < m = " + std::to_string(c.sys.m()) +
          ") was not refused with MethodError");
}

}  // namespace femc::prop::claims
