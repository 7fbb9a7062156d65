// The seed systems of the papers against their closed forms, at double and
// at 256-bit MPFR: E6 (spherical pendulum), E7 (Kepler), E8 (ẏ = z ẋ + α),
// U6 (bead on a vertical circle with Coulomb friction), U7 (particle with
// sliding friction). Each closed form is written here from the paper (with
// the errata of CLAIMS.md corrected), never taken from the library.
// Bound: these are 1 × n or 2 × 2 constraint problems with O(1) data and
// κ ≤ 10; every output is within 64·u·(1 + |value|) of the closed form
// (a few dozen roundings of O(1) numbers).
#include <gtest/gtest.h>

#include <optional>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "femc/systems/kepler.hpp"
#include "femc/systems/particle_with_coulomb_friction.hpp"
#include "femc/systems/skew_constraint_particle.hpp"
#include "femc/systems/spherical_pendulum.hpp"
#include "support/convert.hpp"

namespace femc {
namespace {

template <class S>
class SeedSystems : public ::testing::Test {
 protected:
  std::optional<MpfrPrecision> bits;
  void SetUp() override {
    if constexpr (std::is_same_v<S, mpfr_real>) bits.emplace(256);
  }
  static S num(const char* text) { return ScalarTraits<S>::parse(text); }
  static double dbl(const S& x) { return test::as_double(x); }
  // |a − b|∞ ≤ 64·u·(1 + |b|∞)
  static void expect_close(const Vector<S>& a, const Vector<S>& b, const char* what) {
    using std::abs;
    S worst(0), scale(1);
    for (Index i = 0; i < a.size(); ++i) {
      worst = std::max<S>(worst, abs(S(a(i) - b(i))));
      scale = std::max<S>(scale, S(1 + abs(b(i))));
    }
    EXPECT_LE(dbl(worst), dbl(S(64 * unit_roundoff<S>() * scale))) << what;
  }
};

using Precisions = ::testing::Types<double, mpfr_real>;
TYPED_TEST_SUITE(SeedSystems, Precisions);

// E6 — 004 (24)–(28): λ = −m(ẋ² + ẏ² + ż² + g y)/L² (dots restored), the
// constraint force is λ·(x, y, z).
TYPED_TEST(SeedSystems, E6_SphericalPendulum) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  const systems::SphericalPendulum<S> pend{this->num("2.5"), this->num("9.81"), this->num("1.5")};
  for (int k = 0; k < 12; ++k) {
    const S th = S(k) / S(3) + S(1) / S(7), ph = S(k) / S(5) - S(1);
    Vector<S> q(3), qd(3);
    q << pend.L * sin(th) * cos(ph), pend.L * cos(th), pend.L * sin(th) * sin(ph);
    Vector<S> w(3);  // a velocity tangent to the sphere: w − (w·q)q/L²
    w << S(k % 3) - S(1), S(1) / S(2), S(k) / S(4);
    qd = w - (w.dot(q) / (pend.L * pend.L)) * q;
    const Solution<S> s = solve(pend.at(q, qd));
    const S lambda = -pend.m * (qd.squaredNorm() + pend.g * q(1)) / (pend.L * pend.L);
    this->expect_close(s.lambda, Vector<S>::Constant(1, lambda), "E6 λ");
    this->expect_close(s.Qc, Vector<S>(lambda * q), "E6 constraint force");
  }
}

// E7 — 004 (29)–(34): on the ellipse r = εx + p with x ẏ − y ẋ = c, the
// constraint force is −(c²/p)(m/r²)(x/r, y/r): central, inverse-square.
// With the ellipse alone it is neither.
TYPED_TEST(SeedSystems, E7_Kepler) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  using std::abs;
  const S m = this->num("3"), eps = this->num("0.6"), p = this->num("2"), c = this->num("1.7");
  systems::Kepler<S> both{m, eps, p, true}, ellipse_only{m, eps, p, false};
  S first_r2F(0);
  for (int k = 0; k < 10; ++k) {
    const S th = S(k) * S(6) / S(10) + S(1) / S(10);
    const S r = p / (1 - eps * cos(th));  // r = ε r cosθ + p
    Vector<S> q(2), dq(2);
    q << r * cos(th), r * sin(th);
    const S dr = -eps * sin(th) * r * r / p;  // dr/dθ
    dq << dr * cos(th) - r * sin(th), dr * sin(th) + r * cos(th);
    const Vector<S> qd = (c / (r * r)) * dq;  // r² θ̇ = c
    const Solution<S> s = solve(both.at(q, qd));
    this->expect_close(s.Qc, Vector<S>(-(c * c / p) * (m / (r * r)) * q / r), "E7 central inverse-square force");
    // The ellipse alone: torque-free would need x F_y − y F_x = 0, and an
    // inverse-square law a constant r²|F|.
    const Solution<S> e = solve(ellipse_only.at(q, qd));
    // "Neither" is checked as differing from zero (from a constant) by a
    // million times the rounding bound.
    const double beyond_rounding = 1e6 * this->dbl(S(64 * unit_roundoff<S>()));
    const S torque = q(0) * e.Qc(1) - q(1) * e.Qc(0);
    if (abs(sin(th)) > S(1) / S(10))
      EXPECT_GT(this->dbl(abs(torque)), beyond_rounding) << "ellipse alone: not central";
    const S r2F = r * r * sqrt(e.Qc.squaredNorm());
    if (k == 0) first_r2F = r2F;
    else EXPECT_GT(this->dbl(abs(S(r2F - first_r2F))), beyond_rounding * (1 + this->dbl(first_r2F)))
        << "ellipse alone: not inverse-square";
  }
}

// E8 — 004 (35)–(37), with b = ż ẋ + α̇ (the printed b lost a dot):
// m q̈ = F + [m(ż ẋ + α̇) + z X − Y]/(z² + 1)·(−z, 1, 0).
TYPED_TEST(SeedSystems, E8_NonholonomicTimeDependentConstraint) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  const S m = this->num("1.3");
  systems::SkewConstraintParticle<S> sys{m,
                                         [](const S& t) {
                                           Vector<S> f(3);
                                           f << sin(t), cos(S(2) * t), -S(1) / S(3);
                                           return f;
                                         },
                                         [](const S& t) { return cos(t) / S(2); }};
  for (int k = 0; k < 8; ++k) {
    const S t = S(k) / S(3);
    Vector<S> q(3), qd(3);
    q << S(1) / S(2), S(-1), S(k) / S(4) - S(1);
    qd << S(2) / S(3), S(1) / S(5), S(k) / S(7) - S(1) / S(2);
    const Solution<S> s = solve(sys.at(q, qd, t));
    const Vector<S> F = sys.force(t);
    const S z = q(2);
    Vector<S> dir(3);
    dir << -z, S(1), S(0);
    const Vector<S> expected = (F + ((m * (qd(2) * qd(0) + sys.alpha_dot(t)) + z * F(0) - F(1)) / (z * z + 1)) * dir) / m;
    this->expect_close(s.qdd, expected, "E8 (37)");
  }
}

// U6 — 002 (35)–(40): unit bead on the unit vertical circle, gravity −g x₂,
// Coulomb friction c = −μ‖Qᴺ‖ẋ/‖ẋ‖ ((38) with the speed √(ẋ₁² + ẋ₂²)),
// Qᴺ = x[g x₂ − ‖ẋ‖²] (39), and q̈ = (0, −g) + Qᴺ + c (40), because c is
// tangent: (I − A⁺A)c = c, so Qᵂ = c.
// U7 — 000 end of Section 4: the same in three dimensions on a sphere.
TYPED_TEST(SeedSystems, U6_U7_CoulombFrictionDoesWorkAndQWEqualsC) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  using std::sqrt;
  for (Index dim : {Index(2), Index(3)}) {
    systems::ParticleWithCoulombFriction<S> bead{dim, S(1), this->num("9.81"), this->num("0.3")};
    for (int k = 0; k < 10; ++k) {
      const S th = S(k) * S(6) / S(10) + S(1) / S(10);
      Vector<S> q = Vector<S>::Zero(dim), qd = Vector<S>::Zero(dim);
      q(0) = cos(th);
      q(dim - 1) = sin(th);
      qd(0) = -sin(th) * S(k + 1) / S(3);
      qd(dim - 1) = cos(th) * S(k + 1) / S(3);
      if (dim == 3) {
        q *= S(3) / S(5);
        q(1) = S(4) / S(5);  // still |q| = 1
        qd(1) = S(0);
        qd = qd - qd.dot(q) * q;  // tangent
      }
      const System<S> sys = bead.at(q, qd);
      const Solution<S> s = solve(sys);
      const Vector<S> QN = (bead.g * q(dim - 1) - qd.squaredNorm()) * q;  // (39)
      const Vector<S> c = -bead.mu * sqrt(QN.squaredNorm()) * qd / sqrt(qd.squaredNorm());  // (38)
      Vector<S> gravity = Vector<S>::Zero(dim);
      gravity(dim - 1) = -bead.g;
      this->expect_close(s.QN, QN, "U6 normal thrust (39)");
      this->expect_close(s.QW, c, "U6/U7 Qᵂ = c");
      this->expect_close(s.qdd, Vector<S>(gravity + QN + c), "U6 (40)");
    }
  }
}

}  // namespace
}  // namespace femc
