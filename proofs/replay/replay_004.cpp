// Paper 004: Udwadia, Kalaba, "Equations of motion for mechanical systems"
// (1996), replayed exactly: the properties P2–P4 ((6)–(8)), the Gauss proof
// ((4)–(5), (9)–(13)), the fundamental principles ((14)–(17)), the Lagrange
// multipliers ((18)–(23)) and the three examples: (24)–(28), (29)–(34) and
// (35)–(37), with the errata in (27)–(28), (31) and (36)–(37).
//
// The paper's setting: consistent constraints, A of any rank (m may exceed
// n), no C and no W. Its F is femc's Q, and its "constraint matrix" C of
// (20)–(21) is B = A M^{-1/2}. (10) is the only step that uses consistency;
// (18)–(22) do not, and are also replayed for inconsistent b, where q̈ of (5)
// is the least-squares motion of 001 (14).
#include <vector>

#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"
#include "replay_support.hpp"

namespace femc::replay {
namespace {

class Replay004 : public Replay {};

Vec vec3(const rational& x, const rational& y, const rational& z) {
  Vec v(3);
  v << x, y, z;
  return v;
}

Vec cross(const Vec& p, const Vec& k) {
  return vec3(p(1) * k(2) - p(2) * k(1), p(2) * k(0) - p(0) * k(2), p(0) * k(1) - p(1) * k(0));
}

std::vector<Instance> cases(unsigned seed, const std::vector<bool>& consistent) {
  return instances(seed, {Shape::FullRowRank, Shape::RankDeficient, Shape::FullColumnRank, Shape::ZeroA}, consistent,
                   {false}, {false}, 8);
}

TEST_F(Replay004, PropertiesP2toP4_Equations6to8) {
  Generator gen(6);
  for (const Instance& in : cases(601, {true, false})) {
    SCOPED_TRACE(in.label);
    const Index n = in.n, m = in.m;
    const Mat B = in.A * in.S_inv;
    const Mat Bp = pinv(B);
    // (6) P2: B x = b is consistent iff B B⁺ b = b (b ∈ Range(A) = Range(B)).
    expect_holds((B * Bp * in.b == in.b) == in.consistent, "004 (6)", "B B+ b = b iff consistent");
    // (7) P3: B x = 0 ⇒ xᵀB⁺ = 0, for a whole basis of Null(B).
    const Mat KB = null_basis(B);
    expect_exact_eq(Mat(KB.transpose() * Bp), Mat(Mat::Zero(KB.cols(), m)), "004 (7)");
    // (8) P4: for consistent b, B⁺b + (I − B⁺B)h solves B x = b for every h,
    // and every solution has that form (h = the solution).
    if (in.consistent) {
      const Vec x8 = Bp * in.b + (eye(n) - Bp * B) * gen.vector(n);
      expect_exact_eq(B * x8, in.b, "004 (8) solves");
      const Vec x_lu = solve_consistent(B, in.b) + KB * gen.vector(KB.cols());
      expect_exact_eq(Vec(Bp * in.b + (eye(n) - Bp * B) * x_lu), x_lu, "004 (8) general");
    }
  }
}

TEST_F(Replay004, GaussProof_Equations4to5_9to13) {
  Generator gen(9);
  for (const Instance& in : cases(901, {true})) {
    SCOPED_TRACE(in.label);
    const Index n = in.n;
    const Mat& Mh = in.S;
    const Mat& Mih = in.S_inv;
    const Vec& F = in.Q;
    const Vec a = in.M_inv * F;
    const Mat B = in.A * Mih;
    const Mat Bp = pinv(B);

    // (4) and (5): the two forms of the equation of motion.
    const Vec xdd = a + Mih * Bp * (in.b - in.A * a);
    expect_exact_eq(Vec(in.M * xdd), Vec(F + Mh * Bp * (in.b - in.A * in.M_inv * F)), "004 (4) = M (5)");
    // (10): A ẍ = (A M^{-1/2})(A M^{-1/2})⁺b (any b) = b (consistent b, by P2).
    expect_exact_eq(in.A * xdd, B * Bp * in.b, "004 (10) first equality");
    expect_exact_eq(in.A * xdd, in.b, "004 (10) [consistent b]");

    // (11): A u = 0 ⇒ (M^{1/2}u)ᵀ(A M^{-1/2})⁺ = 0.
    const Mat KA = null_basis(in.A);
    const Vec u = KA * gen.vector(KA.cols());
    expect_exact_eq(B * (Mh * u), in.A * u, "004 (11) A u = A M^-1/2 M^1/2 u");
    expect_exact_eq(Mat((Mh * u).transpose() * Bp), Mat(Mat::Zero(1, in.m)), "004 (11)");

    // (9), (12), (13): G₁(ẍ + u) = G + ‖M^{1/2}u‖² for every feasible ẍ + u.
    auto G1 = [&](const Vec& y) { return Vec(y - in.M_inv * F).dot(in.M * (y - in.M_inv * F)); };  // (9)
    const rational G = G1(xdd);                                                                  // (12)
    const Vec y = xdd + u;
    expect_exact_eq(in.A * y, in.b, "004 (9) y feasible");
    const Vec t13 = Bp * (in.b - in.A * in.M_inv * F) + Mh * u;
    expect_exact_eq(G1(y), t13.dot(t13), "004 (13)");
    expect_exact_eq(t13.dot(t13), G + (Mh * u).dot(Mh * u), "004 (13) with (11)");
    expect_holds(u == zeros(n) || G1(y) > G, "004 (13) strict", "G1 > G for every feasible y != xdd");

    // (14)–(17): Δẍ = K₁e, Fᶜ = K e, K₁ = M^{-1/2}(AM^{-1/2})⁺, K = M^{1/2}(AM^{-1/2})⁺ = M K₁.
    const Vec e = in.b - in.A * a;
    const Mat K1 = Mih * Bp, K = Mh * Bp;
    expect_exact_eq(Vec(xdd - a), Vec(K1 * e), "004 (14)-(15)");
    expect_exact_eq(Vec(in.M * xdd - F), Vec(K * e), "004 (16)-(17)");
    expect_exact_eq(K, in.M * K1, "004 (17) K = M K1");

    Outcome out;
    out.qdd = xdd;
    out.QN = K * e;
    out.QW = zeros(n);
    out.lambda = pinv(Mat(in.A.transpose())) * out.QN;
    out.Gg_min = G;
    out.delta_norm_sq = 0;
    expect_femc_agrees(in, out, "004 (5), (12), (17)");
  }
}

// (10) needs consistency: for b ∉ Range(A), A ẍ = B B⁺b ≠ b.
TEST_F(Replay004, Equation10_NeedsConsistency) {
  for (const Instance& in : cases(1001, {false})) {
    SCOPED_TRACE(in.label);
    const Vec a = in.M_inv * in.Q;
    const Mat B = in.A * in.S_inv;
    const Mat Bp = pinv(B);
    const Vec xdd = a + in.S_inv * Bp * (in.b - in.A * a);
    expect_exact_eq(in.A * xdd, B * Bp * in.b, "004 (10) first equality (any b)");
    expect_exact_ne(in.A * xdd, in.b, "004 (10) fails for inconsistent b");
  }
}

TEST_F(Replay004, LagrangeMultipliers_Equations18to23) {
  Generator gen(18);
  for (const Instance& in : cases(1801, {true, false})) {
    SCOPED_TRACE(in.label);
    const Index n = in.n, m = in.m;
    const Mat& Mh = in.S;
    const Mat& Mih = in.S_inv;
    const Vec& F = in.Q;
    const Vec a = in.M_inv * F;
    const Vec e = in.b - in.A * a;
    const Mat C = in.A * Mih;  // the paper's "constraint matrix" C = A M^{-1/2}
    const Mat Cp = pinv(C);
    const Mat At = in.A.transpose();
    const Mat Atp = pinv(At);
    const Vec xdd = a + Mih * Cp * e;  // (5)
    const Vec f19 = Mh * Cp * e;       // right side of (19)

    // (19) → (20): premultiplying by M^{-1/2}: M^{-1/2}Aᵀλ = Cᵀλ, M^{-1/2}(19 rhs) = C⁺e.
    const Vec lam_any = gen.vector(m);
    expect_exact_eq(Vec(Mih * At * lam_any), Vec(C.transpose() * lam_any), "004 (20) lhs");
    expect_exact_eq(Vec(Mih * f19), Vec(Cp * e), "004 (20) rhs");
    // (21) and its proof, line by line.
    const Mat CtP = pinv(Mat(C.transpose()));
    expect_exact_eq(CtP, Mat(Cp.transpose()), "004 (21) [C^T]+ = [C+]^T");
    expect_exact_eq(Mat(C.transpose() * CtP * Cp), Mat(C.transpose() * Cp.transpose() * Cp), "004 (21) line 1");
    expect_exact_eq(Mat(C.transpose() * Cp.transpose() * Cp), Mat(Mat(Cp * C).transpose() * Cp), "004 (21) line 2");
    expect_exact_eq(Mat(Mat(Cp * C).transpose() * Cp), Mat(Cp * C * Cp), "004 (21) line 3");
    expect_exact_eq(Mat(Cp * C * Cp), Cp, "004 (21) line 4");
    expect_exact_eq(Vec(C.transpose() * CtP * Cp * e), Vec(Cp * e), "004 (21)");
    // Hence (19) is consistent (P2 on Aᵀλ = f): Aᵀ(Aᵀ)⁺f = f.
    expect_exact_eq(Vec(At * Atp * f19), f19, "004 (19) consistent");

    // (22) for any h, and (18).
    const Vec h = gen.vector(m);
    const Vec lam0 = Atp * f19;
    const Vec lam = lam0 + (eye(m) - Atp * At) * h;
    expect_exact_eq(Vec(At * lam), f19, "004 (22) solves (19)");
    expect_exact_eq(Vec(in.M * xdd), Vec(F + At * lam), "004 (18)");
    // Uniqueness iff rank A = m: (Aᵀ)⁺Aᵀ = I exactly then; otherwise a
    // generic h changes λ.
    const bool full_row = in.r == m;
    expect_holds((Atp * At == eye(m)) == full_row, "004 (22) (A^T)+A^T = I iff rank A = m", "iff");
    if (!full_row) expect_exact_ne(lam, lam0, "004 (22) lambda not unique when rank A < m");
    // (23) under its hypothesis rank A = m: λ = K₂e, K₂ = (AM⁻¹Aᵀ)⁻¹.
    if (full_row) {
      const Mat K2 = Atp * Mh * Cp;
      expect_exact_eq(lam, Vec(K2 * e), "004 (23)");
      expect_exact_eq(K2, exact_inverse(in.A * in.M_inv * At), "004 (23) K2 = (A M^-1 A^T)^-1");
    }

    Outcome out;
    out.qdd = xdd;
    out.QN = f19;
    out.QW = zeros(n);
    out.lambda = lam0;  // h = 0: the minimum-norm multipliers
    expect_exact_eq(Vec(Atp * At * lam0), lam0, "004 (22) h = 0 is in Range(A), the minimum-norm solution");
    const Vec d = xdd - a;
    out.Gg_min = d.dot(in.M * d);
    out.delta_norm_sq = sqn(Vec(C * Cp * in.b - in.b));
    expect_femc_agrees(in, out, "004 (5), (22)");
  }
}

// Example 1, the spherical pendulum (y downward). The position is a rational
// point of the sphere of radius L, the velocity a rational tangent vector,
// and the mass a rational square, so that M^{1/2} = √m I is rational too.
// Erratum 004 (27)–(28): the bracket is printed with x² + y² + z²; it is
// ẋ² + ẏ² + ż² (the dots were lost). The printed force differs from the
// constraint force of (4) whenever |ẋ|² ≠ L².
TEST_F(Replay004, Example1_SphericalPendulum_Equations24to28) {
  const rational g(981, 100), mass(9, 4), root_mass(3, 2);
  const rational L(7, 2);
  const Vec p = vec3(1, rational(3, 2), 3);  // (2, 3, 6)·L/7: |p|² = L²
  for (const Vec& k : {vec3(1, 0, 0), vec3(0, 1, -1), vec3(2, -1, 1)}) {
    const Vec v = cross(p, k);  // tangent: pᵀv = 0
    SCOPED_TRACE("velocity (" + v(0).str() + ", " + v(1).str() + ", " + v(2).str() + ")");
    expect_exact_eq(p.dot(p), L * L, "004 (25)");
    expect_exact_eq(p.dot(v), rational(0), "004 (25) differentiated once");
    const Mat Mm = mass * eye(3);
    const Mat Mh = root_mass * eye(3);
    Vec F(3);
    F << 0, mass * g, 0;  // (24)
    const Mat A = p.transpose();
    const Vec b = Vec::Constant(1, -v.dot(v));  // (26)
    const Vec a = exact_inverse(Mm) * F;
    expect_exact_eq(a, vec3(0, g, 0), "004 (24) a = (0, g, 0)");
    // Text before (27): M^{1/2}(A M^{-1/2})⁺ = M A⁺ for M = m I, A⁺ = Aᵀ/|p|².
    const Mat Ap = pinv(A);
    expect_exact_eq(Ap, Mat(A.transpose() / p.dot(p)), "004 (27) A+ of a row");
    expect_exact_eq(Mat(Mh * pinv(Mat(A * exact_inverse(Mh)))), Mat(Mm * Ap), "004 (27) M^1/2 (A M^-1/2)+ = M A+");
    const Vec Fc = Mm * Ap * (b - A * a);  // the constraint force of (4)
    // (27)–(28) corrected: Fᶜ = −m(|ẋ|² + g y)/L² (x, y, z)ᵀ, λ = −m(|ẋ|² + g y)/L².
    const rational lambda = -mass * (v.dot(v) + g * p(1)) / (L * L);
    expect_exact_eq(Fc, Vec(mass / p.dot(p) * p * (-v.dot(v) - g * p(1))), "004 (27) corrected");
    expect_exact_eq(Fc, Vec(lambda * p), "004 (28) corrected");
    // As printed: x² + y² + z² in place of ẋ² + ẏ² + ż².
    expect_exact_ne(Fc, Vec(mass / p.dot(p) * p * (-p.dot(p) - g * p(1))), "004 (27) as printed");
    expect_exact_ne(Fc, Vec(-mass * (p.dot(p) + g * p(1)) / (L * L) * p), "004 (28) as printed");

    System<rational> sys = make_system<rational>(Mm, A, b, F);
    Options<rational> opt;
    opt.method = Method::Exact;
    const Solution<rational> sol = solve(sys, opt);
    expect_exact_eq(sol.QN, Fc, "004 (28) = femc::solve(exact) QN");
    expect_exact_eq(sol.lambda, Vec::Constant(1, lambda), "004 (28) lambda = femc::solve(exact) lambda");
  }
}

// Example 2, Kepler's first two laws. The state is exact: (x, y) = (3, 4),
// r = 5, ε = 1/3, p = r − εx = 4, and a velocity on the ellipse (ṙ = εẋ, so
// ẋ = −3ẏ), giving c = xẏ − yẋ = 15. Erratum 004 (31): printed
// "x y − y ẋ = c"; differentiating that expression gives the row [−y, 0],
// which is not the second row of (32); the areal constraint x ẏ − y ẋ = c
// gives [−y, x], proportional to it.
TEST_F(Replay004, Example2_Kepler_Equations29to34) {
  const rational x(3), y(4), r(5), eps(1, 3), mass(2);
  const rational p = r - eps * x;  // (30)
  const rational yd(1), xd = -3 * yd;
  const rational rd = (x * xd + y * yd) / r;
  expect_exact_eq(r * r, x * x + y * y, "004 (30) r");
  expect_exact_eq(rd, eps * xd, "004 (30) differentiated once");
  const rational c = x * yd - y * xd;  // (31), corrected
  // A first-order constraint φ(x, y, ẋ, ẏ) = 0 differentiates to the row
  // [∂φ/∂ẋ, ∂φ/∂ẏ] with right side −(∂φ/∂x ẋ + ∂φ/∂y ẏ).
  Mat row_corrected(1, 2), row_printed(1, 2), row32(1, 2);
  row_corrected << -y, x;  // φ = x ẏ − y ẋ − c
  const rational rhs_corrected = -(yd * xd + (-xd) * yd);
  row_printed << -y, 0;    // φ = x y − y ẋ − c
  const rational rhs_printed = -(y * xd + (x - xd) * yd);
  row32 << y, -x;
  expect_exact_eq(rhs_corrected, rational(0), "004 (32) second row, rhs 0");
  Mat stack(2, 2);
  stack << row32, row_corrected;
  expect_holds(exact_rank(stack) == 1, "004 (31) corrected x yd - y xd = c gives the row of (32)", "proportional rows");
  stack << row32, row_printed;
  expect_holds(exact_rank(stack) == 2, "004 (31) as printed x y - y xd = c does not give (32)", "rows not proportional");
  expect_exact_ne(rhs_printed, rational(0), "004 (31) as printed: rhs of its derivative");

  // (32)
  Mat A(2, 2);
  A << x - r * eps, y, y, -x;
  Vec b(2);
  b << -c * c / (r * r), 0;
  // The first right side, from r̈ − εẍ = 0: −(ẋ² + ẏ² − ṙ²) = −c²/r².
  expect_exact_eq(-(xd * xd + yd * yd - rd * rd), b(0), "004 (32) b1 = -c^2/r^2");
  // (33)
  Mat Ainv(2, 2);
  Ainv << x, y, y, -(x - r * eps);
  expect_exact_eq(x * x + y * y - r * x * eps, r * p, "004 (33) determinant");
  expect_exact_eq(pinv(A), Mat(Ainv / (r * p)), "004 (33)");
  // (34): the constraint force is central and inverse-square (a = 0).
  const Mat Mm = mass * eye(2);
  Vec pos(2);
  pos << x, y;
  const Vec F34 = -(c * c / p) * (mass / (r * r)) * pos / r;
  const Vec Fc = Mm * pinv(A) * b;  // (4) with F = 0, M = m I
  expect_exact_eq(Fc, F34, "004 (34)");
  System<rational> sys = make_system<rational>(Mm, A, b, zeros(2));
  Options<rational> opt;
  opt.method = Method::Exact;
  expect_exact_eq(solve(sys, opt).QN, F34, "004 (34) = femc::solve(exact) QN");
  // With the ellipse alone the force is not central: not parallel to (x, y).
  const Mat A1 = A.topRows(1);
  const Vec F1 = Mm * pinv(A1) * b.head(1);
  expect_exact_ne(F1(0) * y - F1(1) * x, rational(0), "004 Example 2 ellipse alone: force not central");
}

// Example 3: ẏ = z ẋ + α(t). Erratum 004 (36)–(37): differentiating gives
// b = ż ẋ + α̇; the printed b = z ẋ + α̇ lost a dot. The accelerations of an
// exact polynomial motion that obeys the constraint satisfy A ẍ = ż ẋ + α̇,
// not the printed b, and (37) with the corrected b is what (4) and femc give.
TEST_F(Replay004, Example3_NonholonomicConstraint_Equations35to37) {
  using Poly = std::vector<rational>;  // coefficients of 1, t, t², …
  auto deriv = [](const Poly& f) {
    Poly d(f.size() > 1 ? f.size() - 1 : 1, rational(0));
    for (std::size_t k = 1; k < f.size(); ++k) d[k - 1] = rational(long(k)) * f[k];
    return d;
  };
  auto mul = [](const Poly& f, const Poly& g) {
    Poly h(f.size() + g.size() - 1, rational(0));
    for (std::size_t i = 0; i < f.size(); ++i)
      for (std::size_t j = 0; j < g.size(); ++j) h[i + j] += f[i] * g[j];
    return h;
  };
  auto add = [](Poly f, const Poly& g) {
    if (g.size() > f.size()) f.resize(g.size(), rational(0));
    for (std::size_t k = 0; k < g.size(); ++k) f[k] += g[k];
    return f;
  };
  auto at = [](const Poly& f, const rational& t) {
    rational v(0);
    for (std::size_t k = f.size(); k-- > 0;) v = v * t + f[k];
    return v;
  };
  // x(t), z(t), α(t) chosen freely; ẏ := z ẋ + α, so the constraint holds for all t.
  const Poly x{1, 2, 1}, z{3, -1, 2}, alpha{0, 1, 0, -1};
  const Poly yd = add(mul(z, deriv(x)), alpha);
  const rational mass(3), X(1), Y(-2), Z(5);
  for (const rational& t : {rational(1, 2), rational(-1, 3), rational(2)}) {
    SCOPED_TRACE("t = " + t.str());
    const rational zt = at(z, t), xd = at(deriv(x), t), zd = at(deriv(z), t), ad = at(deriv(alpha), t);
    Vec acc(3);
    acc << at(deriv(deriv(x)), t), at(deriv(yd), t), at(deriv(deriv(z)), t);
    Mat A(1, 3);
    A << -zt, 1, 0;  // (35)
    const rational b_corrected = zd * xd + ad, b_printed = zt * xd + ad;
    expect_exact_eq(A.row(0).dot(acc), b_corrected, "004 (36) corrected: b = zd xd + alpha_dot");
    expect_exact_ne(A.row(0).dot(acc), b_printed, "004 (36) as printed: b = z xd + alpha_dot");
    expect_exact_eq(pinv(A), Mat(A.transpose() / (zt * zt + 1)), "004 Example 3 A+");
    // (37) with either b, and what (4) (via femc) gives with the corrected b.
    Vec F(3);
    F << X, Y, Z;
    auto eq37 = [&](const rational& b) { return Vec(F + (mass * b + zt * X - Y) / (zt * zt + 1) * A.transpose()); };
    System<rational> sys = make_system<rational>(mass * eye(3), A, Vec::Constant(1, b_corrected), F);
    Options<rational> opt;
    opt.method = Method::Exact;
    const Vec m_qdd = mass * solve(sys, opt).qdd;
    expect_exact_eq(m_qdd, eq37(b_corrected), "004 (37) corrected = femc::solve(exact)");
    expect_exact_ne(m_qdd, eq37(b_printed), "004 (37) as printed");
  }
}

}  // namespace
}  // namespace femc::replay
