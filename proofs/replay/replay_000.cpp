// Paper 000: Kalaba, Natsuyama, Udwadia, "An extension of Gauss's principle
// of least constraint" (2004), Sections 4 and 5, replayed exactly.
//
// The paper's setting: the constraints A q̈ = b are consistent (Section 2:
// "m consistent equality constraints"; (16) is the general solution of the
// consistent B r̈ = b), A has any rank r and m may exceed n, c may be nonzero.
// No weight W occurs (W = I). The replays run on consistent instances of
// every shape; one test shows which steps need consistency by running the
// derivation on inconsistent b.
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "replay_support.hpp"

namespace femc::replay {
namespace {

class Replay000 : public Replay {};

// Consistent instances of every shape (m > n, rank-deficient, A = 0 with
// b = 0 included), with and without c; W = I as in the paper.
std::vector<Instance> consistent_cases() {
  return instances(2004, {Shape::FullRowRank, Shape::RankDeficient, Shape::FullColumnRank, Shape::ZeroA}, {true},
                   {false, true}, {false}, 5);
}

// What the Section 4 derivation ends with; Section 5 must reproduce it.
Vec equation_33(const Instance& in) {
  const Mat B = in.A * in.S_inv;
  const Mat Bp = pinv(B);
  const Vec a = in.M_inv * in.Q;
  return a + in.S_inv * Bp * (in.b - in.A * a) + in.S_inv * (eye(in.n) - Bp * B) * in.S_inv * in.C;
}

TEST_F(Replay000, Section4_Equations13to33) {
  Generator gen(13);  // the arbitrary vectors w, v, z of the derivation
  for (const Instance& in : consistent_cases()) {
    SCOPED_TRACE(in.label);
    const Index n = in.n, m = in.m;
    const Mat& Mh = in.S;       // M^{1/2}
    const Mat& Mih = in.S_inv;  // M^{-1/2}
    const Vec& c = in.C;
    const Vec a = in.M_inv * in.Q;  // a = M⁻¹Q (text after (33))

    // (13) B = A M^{-1/2}; B M^{1/2} = A.
    const Mat B = in.A * Mih;
    expect_exact_eq(B * Mh, in.A, "000 (13)");
    const Mat Bp = pinv(B);
    const Mat N = eye(n) - Bp * B;  // I − B⁺B, the orthogonal projector on Null(B)

    // (14)–(15): r̈ = M^{1/2}q̈ turns A q̈ = b into B r̈ = b, for any q̈.
    const Vec x = gen.vector(n);
    expect_exact_eq(B * (Mh * x), in.A * x, "000 (14)-(15)");

    // (16): for every w, B⁺b + (I − B⁺B)w solves (15) (needs consistency) ...
    const Vec w_any = gen.vector(n);
    const Vec r16 = Bp * in.b + N * w_any;
    expect_exact_eq(B * r16, in.b, "000 (16) solves (15) [consistent b]");
    // ... and every solution of (15) has that form (w = the solution itself).
    // The solution comes from an LU solve and a null-space basis, not from B⁺.
    const Mat KB = null_basis(B);
    const Vec r_sol = solve_consistent(B, in.b) + KB * gen.vector(KB.cols());
    expect_exact_eq(Bp * in.b + N * r_sol, r_sol, "000 (16) is the general solution");

    // (17)–(19) for any candidate q̈ = x and any v with A v = 0: they are
    // rewritings of one another (r̈ = M^{1/2}x, M x = M^{1/2} r̈).
    const Mat KA = null_basis(in.A);
    const Vec v = KA * gen.vector(KA.cols());
    expect_exact_eq(in.A * v, zeros(m), "000 (5) v is a virtual displacement");
    const rational e17 = v.dot(in.M * x - in.Q) - v.dot(c);
    const rational e18 = v.dot(in.M * x - in.Q - c);
    const rational e19 = v.dot(Mh * (Mh * x) - in.Q - c);
    expect_exact_eq(e17, e18, "000 (17)->(18)");
    expect_exact_eq(e18, e19, "000 (18)->(19)");

    // (21)–(24): u = M^{1/2}v, uᵀ = vᵀM^{1/2} (M^{1/2} symmetric), B u = 0.
    expect_exact_eq(Mat(B * (Mh * v)), Mat(in.A * v), "000 (21)");
    const Vec u = Mh * v;  // (22)
    expect_exact_eq(Mat(u.transpose()), Mat(v.transpose() * Mh), "000 (23)");
    expect_exact_eq(B * u, zeros(m), "000 (24)");

    // (20) → (25): substituting (16) and u = M^{1/2}v, for any w.
    const Vec inner16 = Bp * in.b + N * w_any;
    const rational e20 = v.dot(Mh * inner16 - in.Q - c);
    const rational e25 = u.dot(inner16 - Mih * in.Q - Mih * c);
    expect_exact_eq(e20, e25, "000 (20)->(25)");

    // (26): B u = 0 ⇒ uᵀB⁺ = 0 (property P3 of 004).
    expect_exact_eq(Mat(u.transpose() * Bp), Mat(Mat::Zero(1, m)), "000 (26)");

    // (27): with (26), (25) reduces to uᵀ{w − M^{-1/2}Q − M^{-1/2}c}, for any w.
    const rational e27 = u.dot(w_any - Mih * in.Q - Mih * c);
    expect_exact_eq(e25, e27, "000 (25)->(27)");

    // (28): a bracket orthogonal to all of Null(B) lies in Range(Bᵀ).
    //  ⇐: w = M^{-1/2}(Q + c) + Bᵀz makes (27) vanish for every u ∈ Null(B).
    const Vec z = gen.vector(m);
    const Vec w28 = Mih * in.Q + Mih * c + B.transpose() * z;
    expect_exact_eq(Mat(KB.transpose() * (w28 - Mih * in.Q - Mih * c)), Mat(Mat::Zero(KB.cols(), 1)),
                    "000 (27) holds for w of (28)");
    //  ⇒: a bracket t ⊥ Null(B) (here t = B⁺B g) is Bᵀz for some z, found by
    //  an exact solve (it exists precisely because t ⊥ Null(B)).
    const Vec t = Bp * B * gen.vector(n);
    expect_exact_eq(Mat(KB.transpose() * t), Mat(Mat::Zero(KB.cols(), 1)), "000 (27) bracket orthogonal to Null(B)");
    const Vec zt = solve_consistent(B.transpose(), t);
    expect_exact_eq(B.transpose() * zt, t, "000 (28)");

    // (29): (16) with the w of (28).
    const Vec r29 = Bp * in.b + N * (Mih * in.Q + Mih * c + B.transpose() * z);
    expect_exact_eq(r29, Vec(Bp * in.b + N * w28), "000 (29)");
    // (30): B⁺B Bᵀ = Bᵀ, so the z-term drops out.
    expect_exact_eq(Bp * B * B.transpose(), B.transpose(), "000 (30)");
    // (31)
    const Vec r31 = Bp * in.b + N * (Mih * in.Q + Mih * c);
    expect_exact_eq(r29, r31, "000 (31)");
    // (32): M^{1/2}q̈ = r̈.
    const Vec qdd = Mih * r31;
    expect_exact_eq(Mh * qdd, r31, "000 (32)");
    // (33)
    const Vec q33 = a + Mih * Bp * (in.b - in.A * a) + Mih * N * Mih * c;
    expect_exact_eq(qdd, q33, "000 (33)");
    expect_exact_eq(qdd, equation_33(in), "000 (33) recomputed");

    // The result solves the model (10)–(12): Qᶜ = M q̈ − Q, A q̈ = b, and
    // vᵀQᶜ = vᵀc for every v with A v = 0 (all basis vectors of Null(A)).
    const Vec Qc = in.M * qdd - in.Q;
    expect_exact_eq(in.A * qdd, in.b, "000 (11) at (33)");
    expect_exact_eq(Mat(KA.transpose() * Qc), Mat(KA.transpose() * c), "000 (12) at (33)");
    expect_exact_eq(v.dot(in.M * qdd - in.Q), v.dot(c), "000 (17) at (33)");

    // Text after (33): B⁺b ∈ Range(Bᵀ), the second term of (31) ∈ Null(B),
    // and the two are orthogonal.
    const Vec t1 = Bp * in.b, t2 = N * (Mih * in.Q + Mih * c);
    expect_exact_eq(Bp * B * t1, t1, "000 (31) first term in Range(B^T)");
    expect_exact_eq(B * t2, zeros(m), "000 (31) second term in Null(B)");
    expect_exact_eq(t1.dot(t2), rational(0), "000 (31) terms orthogonal");
    // End of Section 4: B⁺(b − B M^{-1/2}Q) = B⁺(b − A a).
    expect_exact_eq(Bp * (in.b - B * Mih * in.Q), Bp * (in.b - in.A * a), "000 Sec. 4 end, B+(b - B M^-1/2 Q)");

    // femc: q̈ of (33); Qᴺ = M^{1/2}B⁺(b − Aa) and Qᵂ = M^{1/2}(I − B⁺B)M^{-1/2}c
    // (the two parts of M q̈ − Q in (33)); λ = (Aᵀ)⁺Qᴺ (004 (22), h = 0);
    // G_g^min = (34) at q̈; ‖δ‖² = 0 (consistent).
    Outcome out;
    out.qdd = qdd;
    out.QN = Mh * Bp * (in.b - in.A * a);
    out.QW = Mh * N * Mih * c;
    expect_exact_eq(Qc, Vec(out.QN + out.QW), "000 (33) M q̈ - Q = QN + QW");
    out.lambda = pinv(Mat(in.A.transpose())) * out.QN;
    const Vec d = qdd - a - in.M_inv * c;
    out.Gg_min = d.dot(in.M * d);
    out.delta_norm_sq = 0;
    expect_femc_agrees(in, out, "000 (33)");
  }
}

TEST_F(Replay000, Section5_ExtendedGauss_Equations36to44) {
  Generator gen(36);
  for (const Instance& in : consistent_cases()) {
    SCOPED_TRACE(in.label);
    const Index n = in.n;
    const Mat& Mh = in.S;
    const Mat& Mih = in.S_inv;
    const Vec& c = in.C;
    const Vec a = in.M_inv * in.Q;
    const Vec ac = a + in.M_inv * c;  // a + M⁻¹c, the centre of (34)
    const Mat B = in.A * Mih;
    const Mat Bp = pinv(B);

    // (36)–(37): for any candidate z, y = M^{1/2}(z − a − M⁻¹c) turns (34) into yᵀy.
    const Vec z = gen.vector(n);
    const Vec y = Mh * (z - ac);
    expect_exact_eq((z - ac).dot(in.M * (z - ac)), y.dot(y), "000 (36)-(37)");
    // (38)–(39): A[M^{-1/2}y + a + M⁻¹c] = A z, so (35) ⇔ (39) residual for residual.
    expect_exact_eq(in.A * (Mih * y + ac), in.A * z, "000 (38)");
    const Vec rhs39 = in.b - in.A * a - in.A * in.M_inv * c;
    expect_exact_eq(Vec(in.A * Mih * y - rhs39), Vec(in.A * z - in.b), "000 (38)->(39)");

    // (40): y* = B⁺(b − Aa − AM⁻¹c) solves the consistent (39), lies in
    // Range(Bᵀ), and every other solution y* + u (B u = 0) is longer by ‖u‖².
    const Vec ys = Bp * rhs39;
    expect_exact_eq(B * ys, rhs39, "000 (40) solves (39) [consistent b]");
    expect_exact_eq(Bp * B * ys, ys, "000 (40) y* in Range(B^T)");
    const Mat KB = null_basis(B);
    const Vec u = KB * gen.vector(KB.cols());
    expect_exact_eq(sqn(ys + u), sqn(ys) + sqn(u), "000 (40) shortest solution");

    // (41)–(44)
    const Vec q41 = Mih * ys + a + in.M_inv * c;
    const Vec q42 = Mih * (Bp * (in.b - in.A * a - in.A * in.M_inv * c)) + a + in.M_inv * c;
    expect_exact_eq(q41, q42, "000 (41)-(42)");
    const Vec q43 = a + Mih * Bp * (in.b - in.A * a) - Mih * Bp * in.A * in.M_inv * c + in.M_inv * c;
    expect_exact_eq(q42, q43, "000 (43)");
    const Vec q44 = a + Mih * Bp * (in.b - in.A * a) + Mih * (eye(n) - Bp * B) * Mih * c;
    expect_exact_eq(q43, q44, "000 (44)");
    // The two routes agree: (44) = (33).
    expect_exact_eq(q44, equation_33(in), "000 (44) = (33)");
    expect_exact_eq(in.A * q44, in.b, "000 (35) at (44)");

    Outcome out;
    out.qdd = q44;
    out.QN = Mh * Bp * (in.b - in.A * a);
    out.QW = Mh * (eye(n) - Bp * B) * Mih * c;
    out.lambda = pinv(Mat(in.A.transpose())) * out.QN;
    out.Gg_min = ys.dot(ys);  // (37) at the minimiser
    expect_exact_eq(out.Gg_min, (q44 - ac).dot(in.M * (q44 - ac)), "000 (34) at (44) = |y*|^2");
    out.delta_norm_sq = 0;
    expect_femc_agrees(in, out, "000 (44)");
  }
}

// Outside the paper's hypothesis: with b ∉ Range(A), (16) no longer solves
// (15), so Sections 4–5 do not apply as written. (33)/(44) nevertheless
// coincide with the least-squares result of 001 (14) (First Form, W = I),
// which femc computes.
TEST_F(Replay000, InconsistentConstraintsLeaveTheHypothesis) {
  Generator gen(15);
  for (const Instance& in : instances(2005, {Shape::RankDeficient, Shape::FullColumnRank, Shape::ZeroA}, {false},
                                      {false, true}, {false}, 2)) {
    SCOPED_TRACE(in.label);
    const Mat B = in.A * in.S_inv;
    const Mat Bp = pinv(B);
    const Vec r16 = Bp * in.b + (eye(in.n) - Bp * B) * gen.vector(in.n);
    expect_exact_ne(B * r16, in.b, "000 (16) does not solve (15) for inconsistent b");
    const Vec a = in.M_inv * in.Q;
    const Vec ys = Bp * (in.b - in.A * a - in.A * in.M_inv * in.C);
    const Vec q44 = in.S_inv * ys + a + in.M_inv * in.C;
    expect_exact_eq(q44, equation_33(in), "000 (44) = (33) also for inconsistent b");
    Options<rational> opt;
    opt.method = Method::Exact;
    expect_exact_eq(solve(in.system(), opt).qdd, q44, "000 (33) = 001 (14) = femc::solve(exact) qdd");
  }
}

// Erratum, end of Section 4: the friction direction is printed
// −q̇/(qᵀq)^{1/2}; it is −q̇/(q̇ᵀq̇)^{1/2}. Compared through squared lengths
// (rational): the printed vector is not a unit vector in general.
TEST_F(Replay000, Section4End_FrictionDirectionErratum) {
  Generator gen(44);
  for (int k = 0; k < 10; ++k) {
    Vec q, qd;
    do {
      q = gen.vector(3);
      qd = gen.vector(3);
    } while (q == zeros(3) || qd == zeros(3) || sqn(q) == sqn(qd));
    // |−q̇|²/(qᵀq) as printed, |−q̇|²/(q̇ᵀq̇) corrected.
    expect_exact_ne(sqn(qd) / sqn(q), rational(1), "000 Sec. 4 end as printed: -qd/(q^T q)^1/2 is not a unit direction");
    expect_exact_eq(sqn(qd) / sqn(qd), rational(1), "000 Sec. 4 end corrected: -qd/(qd^T qd)^1/2 is a unit direction");
  }
}

}  // namespace
}  // namespace femc::replay
