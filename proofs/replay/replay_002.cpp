// Paper 002: Kalaba, Udwadia, "Analytical dynamics with constraint forces
// that do work in virtual displacements" (2001), replayed exactly: Section 1
// ((7)–(9), with the erratum in (9)), Section 3 ((14)–(34)), the end of
// Section 4 (Qᵂ = c or 0) and the bead example ((35)–(40), with the erratum
// in (38)).
//
// The paper's setting: consistent constraints ("We assume, though, that they
// are consistent"), rank r ≤ m, m may exceed n, c ≠ 0; no weight (W = I).
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "replay_support.hpp"

namespace femc::replay {
namespace {

class Replay002 : public Replay {};

std::vector<Instance> consistent_cases(unsigned seed) {
  return instances(seed, {Shape::FullRowRank, Shape::RankDeficient, Shape::FullColumnRank, Shape::ZeroA}, {true},
                   {false, true}, {false}, 5);
}

// Erratum 002 (9): printed Qᴺ = M^{-1/2}(A M^{1/2})⁺(b − Aa); from (8) it is
// M^{1/2}(A M^{-1/2})⁺(b − Aa). The printed form is shown to differ from
// M q̈ − Q on every instance where Qᴺ ≠ 0 (A ≠ 0 and b ≠ A a); the corrected
// form equals it everywhere.
TEST_F(Replay002, Section1_Equations7to9_Erratum9) {
  for (const Instance& in : consistent_cases(701)) {
    SCOPED_TRACE(in.label);
    const Vec a = in.M_inv * in.Q;
    const Vec e = in.b - in.A * a;
    const Mat B = in.A * in.S_inv;
    const Vec q7 = a + in.S_inv * pinv(B) * e;                          // (7), c = 0
    const Vec Qc = in.M * q7 - in.Q;
    expect_exact_eq(Vec(in.M * q7), Vec(in.Q + in.S * pinv(B) * e), "002 (8)");
    const Vec QN_corrected = in.S * pinv(B) * e;
    const Vec QN_printed = in.S_inv * pinv(Mat(in.A * in.S)) * e;
    expect_exact_eq(Qc, QN_corrected, "002 (9) corrected: QN = M^1/2 (A M^-1/2)+ (b - Aa)");
    if (in.r > 0 && e != zeros(in.m))
      expect_exact_ne(QN_printed, Qc, "002 (9) as printed: M^-1/2 (A M^1/2)+ (b - Aa)");
    // (6): the ideal force does no work in any virtual displacement.
    const Mat KA = null_basis(in.A);
    expect_exact_eq(Mat(KA.transpose() * Qc), Mat(Mat::Zero(KA.cols(), 1)), "002 (6) at (7)");
  }
}

TEST_F(Replay002, Section3_Equations14to34) {
  Generator gen(14);
  for (const Instance& in : consistent_cases(1401)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n, m = in.m;
    const Mat& Mh = in.S;
    const Mat& Mih = in.S_inv;
    const Vec& c = in.C;
    const Vec a = in.M_inv * in.Q;
    const Mat I = eye(n);

    // (14)–(16)
    const Mat B = in.A * Mih;
    expect_exact_eq(B * Mh, in.A, "002 (14)");
    const Mat Bp = pinv(B);
    const Mat N = I - Bp * B;
    const Vec x = gen.vector(n);
    expect_exact_eq(B * (Mh * x), in.A * x, "002 (15)-(16)");
    // (17) for any w solves (16) (consistency), and is the general solution.
    const Vec w_any = gen.vector(n);
    const Vec r17 = Bp * in.b + N * w_any;
    expect_exact_eq(B * r17, in.b, "002 (17) solves (16) [consistent b]");
    const Mat KB = null_basis(B);
    const Vec r_sol = solve_consistent(B, in.b) + KB * gen.vector(KB.cols());
    expect_exact_eq(Vec(Bp * in.b + N * r_sol), r_sol, "002 (17) is the general solution");

    // (18): A v = 0 ⇔ B u = 0 with u = M^{1/2}v.
    const Mat KA = null_basis(in.A);
    const Vec v = KA * gen.vector(KA.cols());
    const Vec u = Mh * v;
    expect_exact_eq(B * u, zeros(m), "002 (18)");
    expect_holds(KB.cols() == KA.cols(), "002 (18) dim Null(B) = dim Null(A)", "u = M^1/2 v is a bijection");

    // (19)–(21) for any candidate q̈ = x: the three forms of (13) coincide
    // (uᵀM^{-1/2} = vᵀ), with Q̄ = M^{-1/2}Q (22), c̄ = M^{-1/2}c (23).
    const Vec Qbar = Mih * in.Q, cbar = Mih * c;
    expect_exact_eq(Mat(u.transpose() * Mih), Mat(v.transpose()), "002 (19) u^T M^-1/2 = v^T");
    const rational e19 = u.dot(Mih * (in.M * x - in.Q)) - u.dot(Mih * c);
    const rational e20 = u.dot(Mih * (in.M * x - in.Q - c));
    const rational e21 = u.dot(Mh * x - Qbar - cbar);  // r̈ = M^{1/2}x
    expect_exact_eq(e19, v.dot(in.M * x - in.Q) - v.dot(c), "002 (19) = (13)-(11)");
    expect_exact_eq(e19, e20, "002 (20)");
    expect_exact_eq(e20, e21, "002 (21)-(23)");

    // (24): u = (I − B⁺B)z solves (18) for every z, and every solution is of
    // that form (z = u itself; u from an LU null-space basis).
    const Vec z = gen.vector(n);
    expect_exact_eq(B * (N * z), zeros(m), "002 (24) solves (18)");
    expect_exact_eq(N * u, u, "002 (24) is the general solution");

    // (25)–(26) for any z and w.
    const Vec u24 = N * z;
    const rational e25 = u24.dot(Bp * in.b + N * w_any - Qbar - cbar);
    expect_exact_eq(e25, z.dot(N.transpose() * (Bp * in.b + N * w_any - Qbar - cbar)), "002 (25)");
    const rational e26 = z.dot(N.transpose() * (w_any - Qbar - cbar));
    expect_exact_eq(e25, e26, "002 (26)");

    // (27): (26) holds for every z iff (I − B⁺B)(w − Q̄ − c̄) = 0 iff
    // w − Q̄ − c̄ = B⁺z₁. The paper writes B⁺z₁ where 000 (28) writes Bᵀz;
    // both are right because Range(B⁺) = Range(Bᵀ) and (I − B⁺B) kills both.
    const Vec z1 = gen.vector(m);
    const Vec w27 = Qbar + cbar + Bp * z1;
    expect_exact_eq(N * (w27 - Qbar - cbar), zeros(n), "002 (27) => (26) = 0 for all z");
    expect_exact_eq(N * Bp, Mat(Mat::Zero(n, m)), "002 (27) (I - B+B) B+ = 0");
    expect_exact_eq(N * B.transpose(), Mat(Mat::Zero(n, m)), "002 (27) (I - B+B) B^T = 0");
    // Converse: a w for which (26) vanishes for all z (here w = Q̄ + c̄ + B⁺B g)
    // is of the form (27) with z₁ = B(w − Q̄ − c̄).
    const Vec w_conv = Qbar + cbar + Bp * B * gen.vector(n);
    expect_exact_eq(N * (w_conv - Qbar - cbar), zeros(n), "002 (26) for all z");
    expect_exact_eq(Vec(w_conv - Qbar - cbar), Vec(Bp * (B * (w_conv - Qbar - cbar))), "002 (26) => (27)");

    // (28)–(31)
    const Vec r28 = Bp * in.b + N * w27;
    expect_exact_eq(r28, Vec(Bp * in.b + N * (Qbar + cbar)), "002 (28)");
    const Vec qdd = Mih * r28;
    expect_exact_eq(Vec(Mh * qdd), Vec(Bp * in.b + N * (Mih * in.Q + Mih * c)), "002 (29) line 1");
    const Vec q29 = Mih * Bp * in.b + in.M_inv * in.Q - Mih * Bp * B * Mih * in.Q + Mih * N * Mih * c;
    expect_exact_eq(qdd, q29, "002 (29) line 2");
    const Vec q30 = a + Mih * Bp * (in.b - in.A * a) + Mih * N * Mih * c;
    expect_exact_eq(q29, q30, "002 (30)");
    expect_exact_eq(Vec(in.M * q30), Vec(in.Q + Mh * Bp * (in.b - in.A * a) + Mh * N * Mih * c), "002 (31)");

    // (32)–(34)
    const Vec QW = Mh * N * Mih * c;              // (33)
    const Vec QN = Mh * Bp * (in.b - in.A * a);   // (33')
    const Vec Qc = in.M * q30 - in.Q;
    expect_exact_eq(Vec(in.M * q30), Vec(in.Q + QN + QW), "002 (32)");
    expect_exact_eq(Qc, Vec(QN + QW), "002 (34)");
    // The model (11)–(13) holds at (30): A q̈ = b, vᵀQᶜ = vᵀc on all of Null(A);
    // Qᴺ does no work (U2) and Qᴺ ⊥ Qᵂ in the M⁻¹ inner product (U3).
    expect_exact_eq(in.A * q30, in.b, "002 (12) at (30)");
    expect_exact_eq(Mat(KA.transpose() * Qc), Mat(KA.transpose() * c), "002 (13) at (30)");
    expect_exact_eq(Mat(KA.transpose() * QN), Mat(Mat::Zero(KA.cols(), 1)), "002 (33') QN does no virtual work");
    expect_exact_eq(QN.dot(in.M_inv * QW), rational(0), "002 (33) QN^T M^-1 QW = 0");

    Outcome out;
    out.qdd = q30;
    out.QN = QN;
    out.QW = QW;
    out.lambda = pinv(Mat(in.A.transpose())) * QN;
    const Vec d = q30 - a - in.M_inv * c;
    out.Gg_min = d.dot(in.M * d);
    out.delta_norm_sq = 0;
    expect_femc_agrees(in, out, "002 (30)-(34)");
  }
}

// End of Section 4 (U4): M^{-1/2}c ∈ Null(B) ⇒ Qᵂ = c; M^{-1/2}c ∈ Range(Bᵀ)
// ⇒ Qᵂ = 0. And U3's second half: Qᴺ and Qᵂ are not orthogonal in the plain
// inner product in general (some instance must show QᴺᵀQᵂ ≠ 0).
TEST_F(Replay002, Section4_WorkingForceLimits) {
  Generator gen(40);
  int plain_nonorthogonal = 0;
  for (const Instance& in : consistent_cases(4001)) {
    SCOPED_TRACE(in.label);
    const Index n = in.n;
    const Mat B = in.A * in.S_inv;
    const Mat Bp = pinv(B);
    const Mat N = eye(n) - Bp * B;
    auto QW_of = [&](const Vec& c) { return Vec(in.S * N * in.S_inv * c); };
    const Vec c_null = in.S * N * gen.vector(n);               // M^{-1/2}c ∈ Null(B)
    const Vec c_range = in.S * B.transpose() * gen.vector(in.m);  // M^{-1/2}c ∈ Range(Bᵀ)
    expect_exact_eq(QW_of(c_null), c_null, "002 Sec. 4 end: M^-1/2 c in Null(B) => QW = c");
    expect_exact_eq(QW_of(c_range), zeros(n), "002 Sec. 4 end: M^-1/2 c in Range(B^T) => QW = 0");
    const Vec a = in.M_inv * in.Q;
    const Vec QN = in.S * Bp * (in.b - in.A * a);
    const Vec QW = QW_of(in.C);
    expect_exact_eq(QN.dot(in.M_inv * QW), rational(0), "002 (33) QN^T M^-1 QW = 0");
    if (QN.dot(QW) != 0) ++plain_nonorthogonal;
  }
  expect_holds(plain_nonorthogonal > 0, "002 (33) QN^T QW != 0 in general", "some instance has QN^T QW != 0");
}

// The example of Section 4: a bead of unit mass on the vertical unit circle,
// at a rational point (x₁, x₂) of the circle with a rational tangent velocity,
// so that every quantity, including the speed and |Qᴺ|, is rational.
// Erratum 002 (38): the speed is printed √(ẋ₁² + x₂²); it is √(ẋ₁² + ẋ₂²).
// The printed radicand differs from |ẋ|² whenever ẋ₂² ≠ x₂².
TEST_F(Replay002, Section4_BeadExample_Equations35to40) {
  const rational g(981, 100), mu(3, 10);
  // Rational points of the unit circle: ((1 − t²)/(1 + t²), 2t/(1 + t²)).
  for (int tn : {1, 2, 3, 5}) {
    for (int k : {-2, 1, 3}) {  // ẋ = k·(−x₂, x₁): tangent, speed |k|
      const rational t(tn, 7);
      const rational x1 = (1 - t * t) / (1 + t * t), x2 = 2 * t / (1 + t * t);
      SCOPED_TRACE("x = (" + x1.str() + ", " + x2.str() + "), k = " + std::to_string(k));
      Vec xd(2);
      xd << -k * x2, k * x1;
      const rational speed = k < 0 ? rational(-k) : rational(k);  // √(ẋ₁² + ẋ₂²), rational here
      expect_exact_eq(speed * speed, xd.dot(xd), "002 (38) speed^2 = xd1^2 + xd2^2");
      expect_exact_ne(xd(0) * xd(0) + x2 * x2, xd.dot(xd), "002 (38) as printed: xd1^2 + x2^2");

      Mat A(1, 2);
      A << x1, x2;
      const Vec b = Vec::Constant(1, -xd.dot(xd));
      Vec a(2);
      a << 0, -g;
      // (36): A⁺ = (x₁, x₂)ᵀ/(x₁² + x₂²).
      const Mat Ap = pinv(A);
      expect_exact_eq(Ap, Mat(A.transpose() / (x1 * x1 + x2 * x2)), "002 (36)");
      expect_exact_eq(Vec(-A * a), Vec::Constant(1, g * x2), "002 (37) -Aa = g x2");
      // (37)/(39): Qᴺ = (x₁, x₂)ᵀ[g x₂ − (ẋ₁² + ẋ₂²)]/(x₁² + x₂²).
      const Vec QN = Ap * (b - A * a);
      Vec QN39(2);
      QN39 << x1, x2;
      QN39 *= (g * x2 - xd.dot(xd)) / (x1 * x1 + x2 * x2);
      expect_exact_eq(QN, QN39, "002 (37)/(39)");
      // |Qᴺ| is rational: (x₁, x₂) has unit length.
      const rational s = (g * x2 - xd.dot(xd)) / (x1 * x1 + x2 * x2);
      const rational normQN = s < 0 ? rational(-s) : s;
      expect_exact_eq(normQN * normQN, QN.dot(QN), "002 (38) |QN|");
      const Vec c = -mu / speed * normQN * xd;  // (38), corrected
      // (40) and the text after it: ẋ is tangent, so (I − A⁺A)c = c.
      const Mat I = eye(2);
      expect_exact_eq(A * xd, zeros(1), "002 Sec. 4 x1 xd1 + x2 xd2 = 0");
      expect_exact_eq((I - Ap * A) * c, c, "002 Sec. 4 {I - O}c = c");
      const Vec q40 = a + QN + (I - Ap * A) * c;
      // Cross-check with femc: M = I, Q = a, C = c, A, b.
      System<rational> sys = make_system<rational>(eye(2), A, b, a);
      sys.C = c;
      Options<rational> opt;
      opt.method = Method::Exact;
      const Solution<rational> sol = solve(sys, opt);
      expect_exact_eq(sol.qdd, q40, "002 (40) = femc::solve(exact) qdd");
      expect_exact_eq(sol.QN, QN, "002 (39) = femc::solve(exact) QN");
      expect_exact_eq(sol.QW, c, "002 (40) QW = c = femc::solve(exact) QW");
    }
  }
}

}  // namespace
}  // namespace femc::replay
