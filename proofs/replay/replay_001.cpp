// Paper 001: Udwadia, "The General Gauss Principle of Least Constraint"
// (2023), replayed exactly: Proof 1 ((17)–(33), Remarks 2–5 and the first
// Remark 7), Proof 2 ((34)–(40)), Lemma 1 ((41)), Lemma 2 ((42)–(43)), the
// second Remark 7 with Result 2 ((44)–(47)) and Section 3 ((48)–(52)).
//
// The paper's setting is the widest of the four: A of any rank, m ≶ n, b
// possibly inconsistent, C ≠ 0 and W > 0 (Result 1). Only Result 2 ((45)–
// (47)) needs A of full row rank; those steps are replayed under that
// hypothesis, and the test beside them shows what happens without it.
//
// Notation as in the paper: P = W^{1/2}A M^{-1/2} = V A S⁻¹, b̃ = W^{1/2}b,
// z_s = M^{1/2}z, and q := M^{-1/2}(Q + C) below.
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "replay_support.hpp"

namespace femc::replay {
namespace {

class Replay001 : public Replay {};

// Every shape, consistent and inconsistent b, C = 0 and C ≠ 0, W = I and W ≠ I.
std::vector<Instance> all_cases(unsigned seed, int repeats = 3) {
  return instances(seed, {Shape::FullRowRank, Shape::RankDeficient, Shape::FullColumnRank, Shape::ZeroA},
                   {true, false}, {false, true}, {false, true}, repeats);
}

// The quantities of Section 2 for one instance.
struct Section2 {
  Mat B, Bp, P, Pp, N;  // N = I − P⁺P
  Vec bt, a, q;         // b̃ = W^{1/2}b, a = M⁻¹Q, q = M^{-1/2}(Q + C)
};

Section2 section2(const Instance& in) {
  Section2 s;
  s.B = in.A * in.S_inv;
  s.Bp = pinv(s.B);
  s.P = in.V * s.B;
  s.Pp = pinv(s.P);
  s.N = eye(in.n) - s.Pp * s.P;
  s.bt = in.V * in.b;
  s.a = in.M_inv * in.Q;
  s.q = in.S_inv * (in.Q + in.C);
  return s;
}

// (10) G_g(z) = (z − M⁻¹(Q + C))ᵀM(z − M⁻¹(Q + C)), by its definition.
rational gaussian(const Instance& in, const Vec& z) {
  const Vec d = z - in.M_inv * (in.Q + in.C);
  return d.dot(in.M * d);
}

// (16) (A z − b)ᵀW(A z − b), by its definition.
rational weighted_residual(const Instance& in, const Vec& z) {
  const Vec e = in.A * z - in.b;
  return e.dot(in.W * e);
}

// (15) = (29) line 3 = (40).
Vec equation_15(const Instance& in, const Section2& s) {
  return s.a + in.S_inv * s.Pp * (s.bt - s.P * in.S_inv * in.Q) + in.S_inv * s.N * in.S_inv * in.C;
}

// (14), the FEMC (W plays no part).
Vec equation_14(const Instance& in, const Section2& s) {
  return s.a + in.S_inv * s.Bp * (in.b - in.A * s.a) + in.S_inv * (eye(in.n) - s.Bp * s.B) * in.S_inv * in.C;
}

TEST_F(Replay001, Proof1Part1_LeastSquaresSet_Equations17to24_Remarks2to5) {
  Generator gen(17);
  for (const Instance& in : all_cases(1701)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n, m = in.m;
    const Section2 s = section2(in);
    const Mat& P = s.P;
    const Mat& Pp = s.Pp;
    const Mat& N = s.N;

    // (17)–(18) for any z: ‖Az − b‖²_W = ‖W^{1/2}(Az − b)‖² = ‖P z_s − b̃‖².
    const Vec z = gen.vector(n);
    const Vec zs = in.S * z;
    expect_exact_eq(weighted_residual(in, z), sqn(in.V * (in.A * z - in.b)), "001 (17)");
    expect_exact_eq(P * zs, Vec(in.V * in.A * z), "001 (18) P z_s = W^1/2 A z");
    expect_exact_eq(sqn(in.V * (in.A * z - in.b)), sqn(P * zs - s.bt), "001 (18)");

    // (21) for any h solves the normal equation (19).
    const Vec h = gen.vector(n);
    const Vec zs21 = Pp * s.bt + N * h;
    expect_exact_eq(P.transpose() * P * zs21, P.transpose() * s.bt, "001 (19) at (21)");
    // (20) → (21): (PᵀP)⁺Pᵀ = P⁺, so the two general solutions coincide.
    const Mat PtP = P.transpose() * P;
    const Mat PtPp = pinv(PtP);
    expect_exact_eq(PtPp * P.transpose(), Pp, "001 (20)->(21) (P^T P)+ P^T = P+");
    expect_exact_eq(Vec(PtPp * P.transpose() * s.bt + (eye(n) - PtPp * PtP) * h), zs21, "001 (20) = (21)");
    // (21) is the general solution: a solution of (19) found by an exact LU
    // solve plus an arbitrary null-space part is P⁺b̃ + (I − P⁺P)h with h = itself.
    const Mat KP = null_basis(P);
    const Vec zs_lu = solve_consistent(PtP, Vec(P.transpose() * s.bt)) + KP * gen.vector(KP.cols());
    expect_exact_eq(Vec(Pp * s.bt + N * zs_lu), zs_lu, "001 (21) is the general solution of (19)");
    // Text after (21): P⁺b̃ ∈ Range(Pᵀ), (I − P⁺P)h ∈ Null(P), (I − P⁺P)ᵀP⁺ = 0.
    expect_exact_eq(Pp * P * (Pp * s.bt), Pp * s.bt, "001 (21) P+ b~ in Range(P^T)");
    expect_exact_eq(P * (N * h), zeros(m), "001 (21) (I - P+P)h in Null(P)");
    expect_exact_eq(N.transpose() * Pp, Mat(Mat::Zero(n, m)), "001 (21) (I - P+P)^T P+ = 0");
    expect_exact_eq((N * h).dot(Pp * s.bt), rational(0), "001 (21) components orthogonal");

    // (22)–(23): z = M^{-1/2}z_s is a weighted least-squares solution
    // (AᵀW(Az − b) = 0), and no z' does better: the residual excess is exactly
    // ‖W^{1/2}A(z' − z)‖² ≥ 0.
    const Vec z22 = in.S_inv * zs21;
    expect_exact_eq(in.A.transpose() * in.W * (in.A * z22 - in.b), zeros(n), "001 (22) z in Z_W (normal equations)");
    const Vec z_other = gen.vector(n);
    expect_exact_eq(weighted_residual(in, z_other),
                    weighted_residual(in, z22) + sqn(in.V * in.A * (z_other - z22)), "001 (23) Z_W minimises (16)");

    // Remark 3: rank P = rank A (= r), rank PᵀP = rank AᵀA.
    expect_holds(exact_rank(P) == in.r && exact_rank(in.A) == in.r, "001 Remark 3 rank P = rank A", "ranks");
    expect_holds(exact_rank(PtP) == exact_rank(Mat(in.A.transpose() * in.A)), "001 Remark 3 rank P^T P = rank A^T A",
                 "ranks");
    // Remark 2: P⁺P = I iff rank P = n; then P⁺ = (PᵀP)⁻¹Pᵀ and Z_W is one point.
    const bool full_col = in.r == n;
    expect_holds((Pp * P == eye(n)) == full_col, "001 Remark 2 P+P = I iff rank P = n", "iff");
    if (full_col) {
      expect_exact_eq(Pp, exact_inverse(PtP) * P.transpose(), "001 Remark 2 P+ = (P^T P)^-1 P^T");
      expect_exact_eq(in.S_inv * zs21, in.S_inv * Pp * s.bt, "001 Remark 2 Z_W = {M^-1/2 P+ b~}");
      expect_exact_eq(Pp * P, pinv(in.A) * in.A, "001 Remark 3 P+P = A+A = I");
    }

    // (24) / Remark 4: every member of Z_W attains ‖(PP⁺ − I)b̃‖² = ‖δ‖².
    const Vec delta = (P * Pp - eye(m)) * s.bt;
    expect_exact_eq(sqn(P * zs21 - s.bt), sqn(delta), "001 (24)");
    expect_exact_eq(weighted_residual(in, z22), sqn(delta), "001 (24) = min |Az - b|_W^2");
    const Vec zs_h2 = Pp * s.bt + N * gen.vector(n);
    expect_exact_eq(sqn(P * zs_h2 - s.bt), sqn(P * zs21 - s.bt), "001 Remark 4 independent of h");
    // Remark 5: P z_s = b̃ is consistent iff δ = 0 iff b ∈ Range(A).
    expect_holds((delta == zeros(m)) == in.consistent, "001 Remark 5 delta = 0 iff consistent", "iff");
  }
}

TEST_F(Replay001, Proof1Part2_Gaussian_Equations25to33) {
  Generator gen(25);
  for (const Instance& in : all_cases(2501)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n;
    const Section2 s = section2(in);
    const Mat& P = s.P;
    const Mat& Pp = s.Pp;
    const Mat& N = s.N;
    const Vec& q = s.q;

    // (25) for any z: G_g(z) = [M^{1/2}z − M^{-1/2}(Q+C)]ᵀ[…] = ‖z_s − M^{-1/2}(Q + C)‖².
    const Vec z = gen.vector(n);
    const Vec d25 = in.S * z - q;
    expect_exact_eq(gaussian(in, z), d25.dot(d25), "001 (25) line 2");
    expect_exact_eq(d25.dot(d25), sqn(in.S * z - q), "001 (25) line 4");

    // (26): G_g over Z_W as a function of h. Each line keeps the h-dependent
    // terms and hides the rest in "…"; so G_g(h) − (shown terms) must be the
    // same number for every h.
    auto G = [&](const Vec& h) { return sqn(Pp * s.bt + N * h - q); };
    auto line2 = [&](const Vec& h) { return sqn(Pp * s.bt + N * h) - 2 * q.dot(N * h); };
    auto line3 = [&](const Vec& h) { return h.dot(N * (N * h)) - 2 * q.dot(N * h); };
    auto line4 = [&](const Vec& h) { return h.dot(N * h) - 2 * q.dot(N * h); };
    const Vec h1 = gen.vector(n), h2 = gen.vector(n), h0 = zeros(n);
    expect_exact_eq(G(h1), gaussian(in, Vec(in.S_inv * (Pp * s.bt + N * h1))), "001 (26) line 1");
    expect_exact_eq(G(h1) - line2(h1), G(h0) - line2(h0), "001 (26) line 2");
    expect_exact_eq(G(h2) - line2(h2), G(h0) - line2(h0), "001 (26) line 2");
    expect_exact_eq(G(h1) - line3(h1), G(h2) - line3(h2), "001 (26) line 3");
    expect_exact_eq(G(h1) - line4(h1), G(h2) - line4(h2), "001 (26) line 4");
    // The facts used between the lines: orthogonality and N = Nᵀ = N².
    expect_exact_eq(h1.dot(N.transpose() * Pp * s.bt), rational(0), "001 (26) orthogonality");
    expect_exact_eq(N * N, N, "001 (26) I - P+P idempotent");
    expect_exact_eq(Mat(N.transpose()), N, "001 (27) I - P+P symmetric");

    // (27): the gradient of line 4, 2(I − P⁺P)h − 2(I − P⁺P)q, vanishes at
    // h* = q, and G is exactly G(h*) + ‖(I − P⁺P)(h − h*)‖², so every h
    // solving (27) is a global minimiser and gives the same z_s*.
    const Vec& hs = q;
    expect_exact_eq(N * hs, N * q, "001 (27)");
    expect_exact_eq(G(h1), G(hs) + sqn(N * (h1 - hs)), "001 (26)-(27) exact quadratic");
    const Vec h_alt = hs + Pp * P * gen.vector(n);  // another solution of (27)
    expect_exact_eq(N * h_alt, N * q, "001 (27) other solution");
    expect_exact_eq(Vec(Pp * s.bt + N * h_alt), Vec(Pp * s.bt + N * hs), "001 (27) fixes the Null(P) component");

    // (28)
    const Vec zss = Pp * s.bt + N * q;
    expect_exact_eq(zss, Vec(Pp * s.bt + N * hs), "001 (28)");
    // (29), three lines, and (15).
    const Vec q29a = in.S_inv * zss;
    const Vec q29b = in.S_inv * (Pp * s.bt + N * in.S_inv * (in.Q + in.C));
    const Vec q29c = in.M_inv * in.Q + in.S_inv * Pp * (s.bt - P * in.S_inv * in.Q) + in.S_inv * N * in.S_inv * in.C;
    expect_exact_eq(q29a, q29b, "001 (29) line 2");
    expect_exact_eq(q29b, q29c, "001 (29) line 3");
    expect_exact_eq(q29c, equation_15(in, s), "001 (29) = (15)");

    // (30), three lines, and the vector identity used in (32).
    const rational G30a = sqn(zss - q);
    const rational G30b = sqn(Pp * s.bt + N * q - q);
    const Vec d30 = Pp * (s.bt - P * q);
    expect_exact_eq(G30a, G30b, "001 (30) line 2");
    expect_exact_eq(G30b, sqn(d30), "001 (30) line 3");
    expect_exact_eq(Vec(zss - q), d30, "001 (30) z_s* - M^-1/2(Q+C) = P+[b~ - P M^-1/2(Q+C)]");
    expect_exact_eq(gaussian(in, q29a), sqn(d30), "001 (30) = G_g(q̈) by (10)");

    // (31)–(33) for any Δ: z_s = z_s* + (I − P⁺P)Δ is still in Z_W and its
    // Gaussian exceeds the minimum by exactly ‖(I − P⁺P)Δ‖².
    const Vec D = gen.vector(n);
    const Vec zs31 = zss + N * D;
    const Vec z31 = in.S_inv * zs31;
    expect_exact_eq(in.A.transpose() * in.W * (in.A * z31 - in.b), zeros(n), "001 (31) in Z_W");
    expect_exact_eq(gaussian(in, z31), sqn(zss + N * D - q), "001 (32)");
    expect_exact_eq(sqn(zss + N * D - q), sqn(d30 + N * D), "001 (32)->(33) line 1");
    expect_exact_eq(d30.dot(N * D), rational(0), "001 (33) orthogonality");
    expect_exact_eq(sqn(d30 + N * D), sqn(d30) + sqn(N * D), "001 (33) line 2");
    expect_exact_eq(gaussian(in, z31), G30a + sqn(N * D), "001 (33)");
    expect_holds(N * D == zeros(n) || gaussian(in, z31) > G30a, "001 (33) strict",
                 "G_g(z) > G_g^min whenever (I - P+P)Δ != 0");

    // Remark 1 (G12): with W = I, P = B, b̃ = b and (15) is (14).
    if (!in.weighted) {
      expect_exact_eq(P, s.B, "001 Remark 1 P = B");
      expect_exact_eq(s.bt, in.b, "001 Remark 1 b~ = b");
      expect_exact_eq(equation_15(in, s), equation_14(in, s), "001 Remark 1 (15) = (14)");
    }

    // femc: q̈ = (29); Qᴺ + Qᵂ = M q̈ − Q split as in 002 (33), with P for B
    // (Qᴺ = M^{1/2}P⁺(b̃ − P M^{-1/2}Q), Qᵂ = M^{1/2}(I − P⁺P)M^{-1/2}C);
    // λ = (Aᵀ)⁺Qᴺ (004 (22), h = 0); G_g^min = (30); ‖δ‖² = (24).
    Outcome out;
    out.qdd = q29c;
    out.QN = in.S * Pp * (s.bt - P * in.S_inv * in.Q);
    out.QW = in.S * N * in.S_inv * in.C;
    expect_exact_eq(Vec(in.M * q29c - in.Q), Vec(out.QN + out.QW), "001 (29) M q̈ - Q = QN + QW");
    out.lambda = pinv(Mat(in.A.transpose())) * out.QN;
    out.Gg_min = sqn(d30);
    out.delta_norm_sq = sqn(Vec((P * Pp - eye(in.m)) * s.bt));
    expect_femc_agrees(in, out, "001 (29)-(30)");
  }
}

// The first Remark 7 (the singleton case rank P = n). Two formulas in it are
// misprinted (not in the CLAIMS errata list): G_g = ‖P⁺b̃ − M⁻¹(Q + C)‖² should
// read M^{-1/2}(Q + C) (by (25) with z_s = P⁺b̃), and q̈ = M^{-1/2}P⁺W^{1/2}b̃
// should read M^{-1/2}P⁺b̃ (as the same remark says two lines earlier); the
// latter coincides with the correct value only when W = I.
TEST_F(Replay001, FirstRemark7_SingletonCase_AndItsMisprints) {
  for (const Instance& in : instances(701, {Shape::FullColumnRank}, {true, false}, {false, true}, {false, true}, 2)) {
    SCOPED_TRACE(in.label);
    const Section2 s = section2(in);
    expect_exact_eq(s.Pp * s.P, eye(in.n), "001 Remark 7 (first) P+P = I");
    const Vec qdd = equation_15(in, s);
    expect_exact_eq(qdd, in.S_inv * s.Pp * s.bt, "001 Remark 7 (first) q̈ = M^-1/2 P+ b~");
    expect_exact_eq(gaussian(in, qdd), sqn(s.Pp * s.bt - s.q), "001 Remark 7 (first) G_g corrected");
    expect_exact_ne(gaussian(in, qdd), sqn(s.Pp * s.bt - in.M_inv * (in.Q + in.C)),
                    "001 Remark 7 (first) G_g as printed (M^-1 for M^-1/2)");
    const Vec printed_q = in.S_inv * s.Pp * in.V * s.bt;
    if (in.weighted)
      expect_exact_ne(printed_q, qdd, "001 Remark 7 (first) q̈ = M^-1/2 P+ W^1/2 b~ as printed");
    else
      expect_exact_eq(printed_q, qdd, "001 Remark 7 (first) q̈ as printed, W = I only");
  }
}

TEST_F(Replay001, Proof2_Equations34to40) {
  Generator gen(34);
  for (const Instance& in : all_cases(3401)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n;
    const Section2 s = section2(in);
    const Mat& P = s.P;
    const Mat& Pp = s.Pp;

    // (34)–(37) for any z.
    const Vec z = gen.vector(n);
    const Vec sz = in.S * z - s.q;                                            // (34)
    expect_exact_eq(gaussian(in, z), sqn(sz), "001 (35)");                    // (35)
    const Vec p = in.V * (in.b - in.A * in.M_inv * (in.Q + in.C));            // (36)
    expect_exact_eq(Vec(P * sz - p), Vec(in.V * (in.A * z - in.b)), "001 (37) P s - p = W^1/2 (Az - b)");
    expect_exact_eq(sqn(P * sz - p), weighted_residual(in, z), "001 (37)");

    // (38): s* = P⁺p is the minimum-norm least-squares solution of P s ≃ p:
    // it satisfies the normal equations, lies in Range(Pᵀ), and every other
    // least-squares solution s* + (I − P⁺P)Δ is longer by ‖(I − P⁺P)Δ‖².
    const Vec ss = Pp * p;
    expect_exact_eq(P.transpose() * (P * ss - p), zeros(n), "001 (38) least squares");
    expect_exact_eq(Pp * P * ss, ss, "001 (38) in Range(P^T)");
    const Vec other = s.N * gen.vector(n);
    expect_exact_eq(P.transpose() * (P * (ss + other) - p), zeros(n), "001 (38) other LS solution");
    expect_exact_eq(sqn(ss + other), sqn(ss) + sqn(other), "001 (38) minimum norm");

    // (39)–(40)
    const Vec q39 = in.S_inv * (ss + s.q);  // solves (39) for z*
    expect_exact_eq(Vec(in.S * q39 - s.q), Vec(Pp * in.V * (in.b - in.A * in.M_inv * (in.Q + in.C))), "001 (39)");
    const Vec q40 = in.M_inv * in.Q + in.S_inv * Pp * (s.bt - P * in.S_inv * in.Q) + in.S_inv * s.N * in.S_inv * in.C;
    expect_exact_eq(q39, q40, "001 (40)");
    expect_exact_eq(q40, Vec(in.S_inv * (Pp * s.bt + s.N * s.q)), "001 (40) = (29)");
    expect_exact_eq(gaussian(in, q40), sqn(ss), "001 (35) at s* = (30)");

    Options<rational> opt;
    opt.method = Method::Exact;
    const Solution<rational> sol = solve(in.system(), opt);
    expect_exact_eq(sol.qdd, q40, "001 (40) = femc::solve(exact) qdd");
    expect_exact_eq(sol.Gg_min, sqn(ss), "001 (35) at s* = femc::solve(exact) Gg_min");
  }
}

TEST_F(Replay001, Lemma1_Equation41) {
  Generator gen(41);
  for (const Instance& in : all_cases(4101, 1)) {
    SCOPED_TRACE(in.label);
    const Index m = in.m;
    const Mat B = in.A * in.S_inv;
    const Mat Bp = pinv(B);
    // U = W^{1/2} (as in Remark 7) and a nonsingular U that is not symmetric:
    // the lemma asks only for nonsingularity.
    Mat U_any;
    do U_any = gen.integer_matrix(m, m, -2, 2);
    while (exact_rank(U_any) < m);
    for (const Mat& U : {in.V, U_any}) {
      const Mat P = U * B;
      const Mat Pp = pinv(P);
      const Mat PpP = Pp * P, BpB = Bp * B;
      // The proof, step by step.
      expect_exact_eq(P * BpB, P, "001 Lemma 1 P B+B = P");
      expect_exact_eq(PpP * BpB, PpP, "001 Lemma 1 P+P B+B = P+P");
      expect_exact_eq(Mat(PpP.transpose()), PpP, "001 Lemma 1 (P+P)^T = P+P");
      expect_exact_eq(Mat(Mat(PpP * BpB).transpose()), Mat(BpB.transpose() * PpP.transpose()),
                      "001 Lemma 1 (P+P B+B)^T = (B+B)^T (P+P)^T");
      expect_exact_eq(PpP, BpB * PpP, "001 Lemma 1 P+P = B+B P+P");
      expect_exact_eq(PpP, Bp * (B * PpP), "001 (41)");
      expect_exact_eq(exact_inverse(U) * P, B, "001 Lemma 1 B = U^-1 P");
      expect_exact_eq(B * PpP, B, "001 Lemma 1 B P+P = B");
      expect_exact_eq(PpP, BpB, "001 Lemma 1 P+P = B+B");
    }
  }
}

// Lemma 2 (Greville): (W^{1/2}B)⁺ = B⁺(W^{1/2})⁺ iff both conditions (43)
// hold. Checked as an "iff" on every instance, and also with a singular
// symmetric "W^{1/2}" (the lemma allows any m×m W), so that both directions
// are exercised; at least one instance must land on each side.
TEST_F(Replay001, Lemma2_Greville_Equations42to43) {
  Generator gen(42);
  int holds = 0, fails = 0;
  for (const Instance& in : all_cases(4201, 1)) {
    SCOPED_TRACE(in.label);
    const Index m = in.m;
    const Mat B = in.A * in.S_inv;
    const Mat Bp = pinv(B);
    Mat Vs = in.V;  // a singular symmetric root: F Fᵀ with F m×(m−1), when m > 1
    if (m > 1) {
      const Mat F = gen.integer_matrix(m, m - 1, -2, 2);
      Vs = F * F.transpose();
    }
    for (const Mat& Wh : {in.V, Vs}) {
      const Mat Whp = pinv(Wh);
      const Mat W = Wh * Wh;
      const bool reverse_order = pinv(Mat(Wh * B)) == Bp * Whp;                                     // (42)
      const bool c1 = (eye(m) - Whp * Wh) * B * B.transpose() * Wh == Mat::Zero(m, m);              // (43) first
      const bool c2 = (eye(m) - B * Bp) * W * B == Mat::Zero(m, B.cols());                          // (43) second
      expect_holds(reverse_order == (c1 && c2), "001 (42) iff (43)", "Greville's reverse-order law");
      (reverse_order ? holds : fails) += 1;
    }
  }
  expect_holds(holds > 0 && fails > 0, "001 (42)-(43) both sides exercised",
               "some instances satisfy the reverse-order law and some do not");
}

// The second Remark 7 and Result 2, under their hypothesis: A of full row
// rank, W > 0. Equation (47) is misprinted in its first two lines (not in the
// CLAIMS errata list): the term −P⁺P M^{-1/2}Q (and −B⁺B M^{-1/2}Q) lacks
// the leading M^{-1/2} that (40) has; the third line is right. The printed
// lines are shown to fail, the corrected ones to hold.
TEST_F(Replay001, SecondRemark7_Result2_Equations44to47) {
  for (const Instance& in : instances(4401, {Shape::FullRowRank}, {true}, {false, true}, {true, false}, 5)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n, m = in.m;
    const Section2 s = section2(in);
    const Mat& B = s.B;
    const Mat& Bp = s.Bp;
    const Mat& Pp = s.Pp;
    const Mat I = eye(n);
    // (44) by Lemma 1, since W^{1/2} is nonsingular.
    expect_exact_eq(Pp * s.P, Bp * B, "001 (44)");
    // (W^{1/2})⁺ = W^{-1/2}, so the first condition of (43) holds.
    expect_exact_eq(pinv(in.V), in.V_inv, "001 Remark 7 (W^1/2)+ = W^-1/2");
    expect_exact_eq(Mat((eye(m) - in.V_inv * in.V) * B * B.transpose() * in.V), Mat(Mat::Zero(m, m)),
                    "001 Remark 7 (43) first");
    // Full row rank: B B⁺ = B Bᵀ(B Bᵀ)⁻¹ = I, so the second condition holds.
    expect_exact_eq(B * Bp, B * B.transpose() * exact_inverse(B * B.transpose()), "001 Remark 7 B B+ = B B^T (B B^T)^-1");
    expect_exact_eq(B * Bp, eye(m), "001 Remark 7 B B+ = I");
    expect_exact_eq(Mat((eye(m) - B * Bp) * in.W * B), Mat(Mat::Zero(m, n)), "001 Remark 7 (43) second");
    // (45)–(46)
    expect_exact_eq(Pp, Bp * pinv(in.V), "001 (45) P+ = B+ (W^1/2)+");
    expect_exact_eq(Pp, Bp * in.V_inv, "001 (45) P+ = B+ W^-1/2");
    expect_exact_eq(Pp * s.bt, Vec(Bp * in.V_inv * (in.V * in.b)), "001 (46) line 1");
    expect_exact_eq(Pp * s.bt, Bp * in.b, "001 (46)");

    // (47)
    const Vec q40 = equation_15(in, s);
    const Vec Qterm = in.S_inv * in.C;
    const Vec l1 = in.M_inv * in.Q + in.S_inv * Pp * s.bt - in.S_inv * Pp * s.P * in.S_inv * in.Q +
                   in.S_inv * (I - Bp * B) * Qterm;
    const Vec l1_printed =
        in.M_inv * in.Q + in.S_inv * Pp * s.bt - Pp * s.P * in.S_inv * in.Q + in.S_inv * (I - Bp * B) * Qterm;
    const Vec l2 =
        in.M_inv * in.Q + in.S_inv * Bp * in.b - in.S_inv * Bp * B * in.S_inv * in.Q + in.S_inv * (I - Bp * B) * Qterm;
    const Vec l2_printed =
        in.M_inv * in.Q + in.S_inv * Bp * in.b - Bp * B * in.S_inv * in.Q + in.S_inv * (I - Bp * B) * Qterm;
    const Vec l3 = in.M_inv * in.Q + in.S_inv * Bp * (in.b - in.A * s.a) + in.S_inv * (I - Bp * B) * Qterm;
    expect_exact_eq(l1, q40, "001 (47) line 1 corrected = (40)");
    expect_exact_ne(l1_printed, q40, "001 (47) line 1 as printed (-P+P M^-1/2 Q lacks M^-1/2)");
    expect_exact_eq(l2, l1, "001 (47) line 2 corrected");
    expect_exact_ne(l2_printed, l1, "001 (47) line 2 as printed (-B+B M^-1/2 Q lacks M^-1/2)");
    expect_exact_eq(l3, l2, "001 (47) line 3");
    expect_exact_eq(l3, equation_14(in, s), "001 (47) = (14)");
    // Result 2 as stated: B⁺(b − B M^{-1/2}Q).
    const Vec r2 = in.M_inv * in.Q + in.S_inv * Bp * (in.b - B * in.S_inv * in.Q) + in.S_inv * (I - Bp * B) * Qterm;
    expect_exact_eq(r2, q40, "001 Result 2");

    // W-independence through femc too: the same system with W = I.
    Options<rational> opt;
    opt.method = Method::Exact;
    System<rational> unweighted = in.system();
    unweighted.W = eye(m);
    expect_exact_eq(solve(in.system(), opt).qdd, solve(unweighted, opt).qdd, "001 Result 2 femc q̈(W) = q̈(I)");
    expect_exact_eq(solve(in.system(), opt).qdd, q40, "001 Result 2 = femc::solve(exact) qdd");
  }
}

// Beyond the paper (CLAIMS, note after G12): without full row rank, q̈ is
// still W-independent when the constraints are consistent, but generically
// W-dependent when they are not; (45) then fails as well.
TEST_F(Replay001, Result2WithoutFullRowRank) {
  for (const Instance& in : instances(4501, {Shape::RankDeficient, Shape::FullColumnRank}, {true, false},
                                      {false, true}, {true}, 2)) {
    SCOPED_TRACE(in.label);
    const Section2 s = section2(in);
    const Vec qW = equation_15(in, s), qI = equation_14(in, s);
    if (in.consistent) {
      // Hypothesis: b ∈ Range(A). Then P⁺b̃ − P⁺P M^{-1/2}Q = B⁺b − B⁺B M^{-1/2}Q.
      expect_exact_eq(qW, qI, "001 (40) = (14) for consistent b at any rank");
    } else {
      expect_exact_ne(qW, qI, "001 (40) != (14) for inconsistent b without full row rank");
      expect_exact_ne(s.Pp, Mat(s.Bp * in.V_inv), "001 (45) fails without full row rank");
    }
    expect_exact_eq(s.Pp * s.P, s.Bp * s.B, "001 (44) holds at any rank");
  }
}

// Section 3, (48)–(52): differences of least-squares solutions (weight I) are
// (I − A⁺A)w and lie in Null(A), consistent or not.
TEST_F(Replay001, Section3_VirtualDisplacements_Equations48to52) {
  Generator gen(48);
  for (const Instance& in : instances(4801, {Shape::FullRowRank, Shape::RankDeficient, Shape::FullColumnRank,
                                             Shape::ZeroA}, {true, false}, {false}, {false}, 2)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n;
    const Mat Ap = pinv(in.A);
    const Mat NA = eye(n) - Ap * in.A;
    const Vec u1 = gen.vector(n), u2 = gen.vector(n);
    const Vec z1 = Ap * in.b + NA * u1, z2 = Ap * in.b + NA * u2;
    expect_exact_eq(in.A.transpose() * in.A * z1, in.A.transpose() * in.b, "001 (50) normal equation z1");
    expect_exact_eq(in.A.transpose() * in.A * z2, in.A.transpose() * in.b, "001 (50) normal equation z2");
    const Vec v = z1 - z2;
    expect_exact_eq(v, Vec(NA * (u1 - u2)), "001 (51)");
    expect_exact_eq(in.A * v, zeros(in.m), "001 (52)");
    if (in.consistent) {
      // (48): then the least-squares solutions solve A z = b exactly.
      expect_exact_eq(in.A * z1, in.b, "001 (48) consistent: z_i solve A z = b");
    }
  }
}

}  // namespace
}  // namespace femc::replay
