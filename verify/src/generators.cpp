#include "femc/verify/generators.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "femc/models/families.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/number_text.hpp"

namespace femc::prop {

rational round_dyadic(const rational& x, long bits) {
  if (bits <= 0) return x;
  mpfr_t f;
  mpfr_init2(f, bits);
  mpfr_set_q(f, x.backend().data(), MPFR_RNDN);
  mpq_t q;
  mpq_init(q);
  mpfr_get_q(q, f);
  rational r(q);
  mpq_clear(q);
  mpfr_clear(f);
  return r;
}

Matrix<rational> null_space_basis_exact(const Matrix<rational>& A) {
  const Index n = A.cols();
  if (A.rows() == 0) return Matrix<rational>::Identity(n, n);
  Eigen::FullPivLU<Matrix<rational>> lu;
  lu.setThreshold(rational(0));
  lu.compute(A);
  if (lu.rank() == n) return Matrix<rational>(n, 0);
  return lu.kernel();
}

Vector<rational> draw_integer_vector(Index k, int lo, int hi) {
  Vector<rational> v(k);
  for (Index i = 0; i < k; ++i) v(i) = *rc::gen::inRange(lo, hi + 1);
  return v;
}

// Q = (I − K)(I + K)⁻¹ is orthogonal for every skew-symmetric K (Cayley).
Matrix<rational> cayley_orthogonal(Index k) {
  Matrix<rational> K = Matrix<rational>::Zero(k, k);
  for (Index i = 0; i < k; ++i)
    for (Index j = i + 1; j < k; ++j) {
      K(i, j) = rational(*rc::gen::inRange(-2, 3)) / 2;
      K(j, i) = -K(i, j);
    }
  const Matrix<rational> I = Matrix<rational>::Identity(k, k);
  // X = (I − K)(I + K)⁻¹ solves X (I + K) = I − K, i.e. (I + K)ᵀ Xᵀ = (I − K)ᵀ.
  Eigen::FullPivLU<Matrix<rational>> luT(Matrix<rational>((I + K).transpose()));
  return luT.solve(Matrix<rational>((I - K).transpose())).transpose();
}

namespace {

// 10^e as an exact rational (the double nearest to it: a condition number
// needs no more; the reference measures the one the data have).
rational power_of_ten(double e) {
  const double v = std::pow(10.0, e);
  mpq_t q;
  mpq_init(q);
  mpq_set_d(q, v);
  rational r(q);
  mpq_clear(q);
  return r;
}

// λ (or σ) geometric from `top` down to top/κ over k entries.
std::vector<rational> geometric(Index k, double log10_kappa, bool increasing) {
  std::vector<rational> out(static_cast<std::size_t>(k), rational(1));
  for (Index i = 0; i < k; ++i) {
    const double t = k == 1 ? 0.0 : double(i) / double(k - 1);
    out[std::size_t(i)] = power_of_ten((increasing ? 1 : -1) * t * log10_kappa);
  }
  return out;
}

Matrix<rational> round_all(const Matrix<rational>& X, long bits) {
  return X.unaryExpr([bits](const rational& x) { return round_dyadic(x, bits); });
}

// Each row of X rounded to one grid: multiples of 2^(E − bits + 1), E the
// exponent of the row's largest entry. Every entry then has at most `bits`
// bits, and so has any small integer combination of the row's entries up
// to a few more (b = A z₀ stays exact at the working precision), which a
// rounding of each entry to its own `bits` would not give.
Matrix<rational> round_rows_to_grid(const Matrix<rational>& X, long bits) {
  if (bits <= 0) return X;
  Matrix<rational> Y(X.rows(), X.cols());
  for (Index i = 0; i < X.rows(); ++i) {
    rational top(0);
    for (Index j = 0; j < X.cols(); ++j) top = std::max(top, rational(abs(X(i, j))));
    if (top == 0) {
      Y.row(i).setZero();
      continue;
    }
    // quantum = 2^(E − bits + 1) with 2^E ≤ top < 2^(E+1).
    rational quantum(1);
    while (quantum * 2 <= top) quantum *= 2;
    while (quantum > top) quantum /= 2;
    for (long k = 1; k < bits; ++k) quantum /= 2;
    for (Index j = 0; j < X.cols(); ++j) {
      const rational v = X(i, j) / quantum;
      // nearest integer, ties away from zero (exact rational arithmetic)
      const rational half = v >= 0 ? rational(v + rational(1, 2)) : rational(v - rational(1, 2));
      const boost::multiprecision::mpz_int t = numerator(half) / denominator(half);  // truncates
      Y(i, j) = rational(t) * quantum;
    }
  }
  return Y;
}

bool representable(const Matrix<rational>& X, long bits) {
  if (bits <= 0) return true;
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j)
      if (round_dyadic(X(i, j), bits) != X(i, j)) return false;
  return true;
}

// Q diag(λ) Qᵀ, the upper triangle rounded to `bits` and mirrored (exactly symmetric).
Matrix<rational> spd_on(const Matrix<rational>& Q, const std::vector<rational>& lambda, long bits) {
  const Index k = Q.rows();
  Matrix<rational> D = Matrix<rational>::Zero(k, k);
  for (Index i = 0; i < k; ++i) D(i, i) = lambda[std::size_t(i)];
  const Matrix<rational> X = Q * D * Q.transpose();
  Matrix<rational> Y(k, k);
  for (Index i = 0; i < k; ++i)
    for (Index j = i; j < k; ++j) Y(i, j) = Y(j, i) = round_dyadic(X(i, j), bits);
  return Y;
}

Matrix<rational> spd_geometric(Index k, double log10_kappa, long bits) {
  const Matrix<rational> U = cayley_orthogonal(k);
  return spd_on(U, geometric(k, log10_kappa, true), bits);
}

// A uniform draw in [0, 1] (1001 steps; shrinks towards 0), whatever the
// case's size: RapidCheck's inRange scales its range by the size (0 to 99
// over a run of 100 cases), which made the condition numbers' exponents
// triangular, the upper fifth of the budget nearly never drawn.
double fraction() { return double(*rc::gen::resize(100, rc::gen::inRange(0, 1001))) / 1000.0; }

// The singular values of an A of rank r with condition 10^e: geometric, or
// near rank-deficient (one σ far below the others) when e ≥ 2.
std::vector<rational> singular_values(Index r, double e, bool near_deficient) {
  if (!near_deficient || r < 2 || e < 2) return geometric(r, e, false);
  std::vector<rational> s = geometric(r - 1, 1.0, false);
  s.push_back(power_of_ten(-e));
  return s;
}

// U_r diag(σ) V_rᵀ, each factor exact (U and V, whole, to U_out, V_out).
Matrix<rational> with_singular_values(Index m, Index n, const std::vector<rational>& sigma,
                                      Matrix<rational>* F_out = nullptr, Matrix<rational>* G_out = nullptr,
                                      long factor_bits = 0, Matrix<rational>* U_out = nullptr,
                                      Matrix<rational>* V_out = nullptr) {
  const Index r = Index(sigma.size());
  if (r == 0) return Matrix<rational>::Zero(m, n);
  const Matrix<rational> U = cayley_orthogonal(m), V = cayley_orthogonal(n);
  if (U_out) *U_out = U;
  if (V_out) *V_out = V;
  Matrix<rational> F = U.leftCols(r), G = V.leftCols(r).transpose();
  for (Index i = 0; i < r; ++i) F.col(i) *= sigma[std::size_t(i)];
  // F's columns (which carry the σ's) and G's rows each on one grid: every
  // product F_ik·G_kj is a multiple of the k-th pair's quanta, so every entry
  // of F·G is on the grid of the smallest, σ_r·2^(2 − 2·bits) or so, and
  // needs about log2 κ + 2·bits + log2 r bits.
  if (factor_bits > 0)
    F = round_rows_to_grid(Matrix<rational>(F.transpose()), factor_bits).transpose(),
    G = round_rows_to_grid(G, factor_bits);
  if (F_out) *F_out = F;
  if (G_out) *G_out = G;
  return F * G;
}

// The exact rational value of a binary floating-point number at the
// precision in force (MPFR).
rational exact_value(const mpfr_real& x) {
  mpq_t q;
  mpq_init(q);
  mpfr_get_q(q, x.mpfr_srcptr());
  rational r(q);
  mpq_clear(q);
  return r;
}

// IFToMM A02 with N loops (N = 1: the change-point four-bar), every crank
// `angle` rad from flat, built by the model layer at `bits` (MPFR).
System<rational> mechanism_near_flat(int N, double log10_angle, long bits) {
  MpfrPrecision guard(bits);
  const mpfr_real angle = mpfr::pow(mpfr_real(10), mpfr_real(-log10_angle));
  const models::ModelAndState<mpfr_real> ms = models::n_four_bar<mpfr_real>(N, angle);
  const System<mpfr_real> s = models::system_at(ms.model, ms.q, ms.qd);
  System<rational> out;
  auto conv = [](const auto& X) {
    Matrix<rational> R(X.rows(), X.cols());
    for (Index i = 0; i < X.rows(); ++i)
      for (Index j = 0; j < X.cols(); ++j) R(i, j) = exact_value(X(i, j));
    return R;
  };
  out.M = conv(s.M);
  out.A = conv(s.A);
  out.b = conv(s.b).col(0);
  out.Q = conv(s.Q).col(0);
  out.C = Vector<rational>::Zero(s.n());
  out.W = Matrix<rational>::Identity(s.m(), s.m());
  return out;
}

std::string short_number(double x) {
  std::ostringstream os;
  os.precision(2);
  os << x;
  return os.str();
}

}  // namespace

Matrix<rational> spd_with_condition(Index k, const rational& kappa, long bits) {
  return spd_geometric(k, std::log10(to_double(kappa)), bits);
}

Case draw_case(const Spec& s) {
  Case c;
  const long bits = s.bits;
  // A has a few bits fewer than the working precision, so that A z₀ and
  // A z₀ + d with small integers are exact there: consistent data stay
  // exactly consistent.
  // The rank draws keep every bit of A instead (a σ below 2^-(bits−8)
  // would be the rounding's), and round b.
  const bool rank_draws = s.small_sigma_log10 > 0;
  const long bits_A = bits > 0 && !rank_draws ? bits - 8 : bits;
  enum Kind { FullRow, RankDef, Over, Empty, Mechanism };
  std::vector<Kind> kinds;
  if (!s.inconsistent_only && !s.rank_deficient_only) kinds.push_back(FullRow);
  if (s.allow_rank_deficient && !s.full_row_rank_only && !rank_draws) kinds.push_back(RankDef);
  if (s.allow_overdetermined && !s.full_row_rank_only && !s.rank_deficient_only) kinds.push_back(Over);
  if (s.allow_empty && !s.inconsistent_only && !s.rank_deficient_only && !s.square_full_row_rank && !rank_draws)
    kinds.push_back(Empty);
  if (s.allow_mechanisms && bits > 0 && !s.inconsistent_only && !s.rank_deficient_only && !s.square_full_row_rank &&
      s.max_log10_kappa >= 1)
    kinds.push_back(Mechanism);
  const Kind kind = *rc::gen::elementOf(kinds);

  // Consistency first: inconsistent constraints spend half the budget (κ(B)²η).
  const bool want_inconsistent =
      kind != Empty && kind != Mechanism && kind != FullRow && s.allow_inconsistent && !s.consistent_only &&
      (s.inconsistent_only || *rc::gen::arbitrary<bool>());
  const double budget = s.max_log10_kappa * fraction() * (want_inconsistent ? 0.5 : 1.0);
  // Its shares: log10 κ(A) + ½log10 κ(M) + ½log10 κ(W) = budget.
  const int wA = *rc::gen::inRange(0, 4), wM = *rc::gen::inRange(0, 4), wW = *rc::gen::inRange(0, 4);
  const double total = double(wA) + 0.5 * double(wM) + 0.5 * double(wW);
  // (κ(M) and κ(W) themselves stay within 10^budget too.)
  const double eA = total > 0 ? budget * wA / total : 0, eM = total > 0 ? std::min(budget, budget * wM / total) : 0,
               eW = total > 0 ? std::min(budget, budget * wW / total) : 0;

  System<rational> sys;
  Index n = 0, m = 0, r = 0;
  Matrix<rational> U_A, V_A;  // A's singular vectors (aligned draws of A = U Σ Vᵀ)
  if (kind == Mechanism) {
    const int N = *rc::gen::inRange(1, 3);
    // The crank's distance from flat 10^-e: σ_min(A) falls with it, κ(B)
    // faster (measured: κ(B) = 10^14.3 at e = 11, N = 2; 10^32.5 at e = 19.4,
    // N = 1), so e stays within (budget − 1.5)/2.
    const double e =
        rank_draws ? 1 + (s.small_sigma_log10 - 1) * fraction() : std::max(0.0, (budget - 1.5) / 2);
    sys = mechanism_near_flat(N, e, bits);
    n = sys.n(), m = sys.m();
    std::ostringstream os;
    os << (N == 1 ? "change-point four-bar" : "A02 N = 2") << ", cranks 1e-" << short_number(e) << " rad from flat";
    c.kind = os.str();
    sys.C = Vector<rational>::Zero(n);
  } else {
    n = *rc::gen::inRange<Index>(s.n_min, s.n_max + 1);
    switch (kind) {
      case FullRow:  // m ≤ n (at least 2 rows for the rank draws: one σ far below another)
        m = s.square_full_row_rank ? n : *rc::gen::inRange<Index>(rank_draws ? 2 : 1, n + 1);
        r = m;
        break;
      case RankDef: m = *rc::gen::inRange<Index>(2, n + 3); r = *rc::gen::inRange<Index>(0, std::min(m, n)); break;
      case Over: m = n + *rc::gen::inRange<Index>(1, 3); r = n; break;
      case Empty: m = 0; r = 0; break;
      case Mechanism: break;
    }
    // Aligned draws build M on A's right singular vectors, after A.
    if (!s.aligned) sys.M = spd_geometric(n, eM, bits);
    const bool near = rank_draws || (r >= 2 && eA >= 2 && *rc::gen::arbitrary<bool>());
    const double e_small = rank_draws ? 2 + (s.small_sigma_log10 - 2) * fraction() : eA;
    if (kind == RankDef) {
      // Exactly rank-deficient at the working precision.
      const bool duplicated_rows = r > 0 && *rc::gen::arbitrary<bool>();
      if (duplicated_rows) {
        // r independent rows of any condition; the others power-of-two
        // multiples of them (exact at every precision).
        const Matrix<rational> A1 = round_rows_to_grid(with_singular_values(r, n, singular_values(r, eA, near)), bits_A);
        sys.A.resize(m, n);
        std::vector<Index> order(static_cast<std::size_t>(m));
        for (Index i = 0; i < m; ++i) order[std::size_t(i)] = i;
        for (Index i = m - 1; i > 0; --i) std::swap(order[std::size_t(i)], order[std::size_t(*rc::gen::inRange<Index>(0, i + 1))]);
        for (Index i = 0; i < m; ++i) {
          const Index row = order[std::size_t(i)];
          if (i < r) {
            sys.A.row(row) = A1.row(i);
          } else {
            const int k = *rc::gen::inRange(-2, 3), sign = *rc::gen::arbitrary<bool>() ? 1 : -1;
            sys.A.row(row) = A1.row(*rc::gen::inRange<Index>(0, r)) * rational(sign) *
                             (k >= 0 ? rational(1 << k) : rational(1, 1 << -k));
          }
        }
        c.kind = "rank-deficient (rows repeated by powers of two)";
      } else {
        // A = F·G with factors short enough that the product is exact at
        // bits_A: the condition is capped by the bits it needs.
        const long factor_bits = bits_A > 0 ? 12 : 0;
        double e = eA;
        if (bits_A > 0) e = std::min(e, std::max(0.0, double(bits_A - 2 * factor_bits - 6) * std::log10(2.0)));
        sys.A = with_singular_values(m, n, singular_values(r, e, near && e >= 2), nullptr, nullptr, factor_bits,
                                     s.aligned ? &U_A : nullptr, s.aligned ? &V_A : nullptr);
        if (!representable(sys.A, bits_A))
          throw std::logic_error("draw_case: a product of short factors is not exact at the working precision");
        c.kind = "rank-deficient (a product of rank r)";
      }
    } else {
      sys.A = round_rows_to_grid(with_singular_values(m, n, singular_values(r, e_small, near), nullptr, nullptr, 0,
                                                      s.aligned ? &U_A : nullptr, s.aligned ? &V_A : nullptr),
                                 bits_A);
      c.kind = kind == Empty ? "no constraints" : near ? "near rank-deficient" : kind == Over ? "m > n" : "full row rank";
    }
    if (s.aligned) {
      // M's softest eigenvector on A's first null direction V e_r (r < n),
      // the other eigenvalues on the other columns of V in turn.
      if (V_A.size() == 0 || r >= n) {
        sys.M = spd_geometric(n, eM, bits);
      } else {
        Matrix<rational> Q(n, n);
        Q.col(0) = V_A.col(r);
        for (Index j = 0, k = 1; j < n; ++j)
          if (j != r) Q.col(k++) = V_A.col(j);
        sys.M = spd_on(Q, geometric(n, eM, true), bits);
      }
    }
    const Vector<rational> z0 = draw_integer_vector(n, -4, 4);
    sys.b = sys.A * z0;
  }
  const bool can_be_inconsistent = kind == RankDef || kind == Over;
  if (can_be_inconsistent && want_inconsistent) {
    Vector<rational> d = draw_integer_vector(m, -3, 3);
    // Make sure d leaves Range(A): add a unit vector if needed (exact test).
    Matrix<rational> Ab(m, n + 1);
    Ab << sys.A, d;
    if (exact_rank(Ab) == exact_rank(sys.A)) {
      for (Index i = 0; i < m; ++i) {
        Vector<rational> e = Vector<rational>::Zero(m);
        e(i) = 1;
        Ab.col(n) = d + e;
        if (exact_rank(Ab) > exact_rank(sys.A)) {
          d += e;
          break;
        }
      }
    }
    // d is an integer and A's rows may be tiny: b rounded to the working
    // precision (still far from Range(A); consistency is decided exactly below).
    sys.b = round_all(Vector<rational>(sys.b + d), bits).col(0);
  }
  if (kind != Mechanism) sys.Q = draw_integer_vector(n, -5, 5);
  sys.C = s.with_C && *rc::gen::arbitrary<bool>() ? draw_integer_vector(n, -3, 3) : Vector<rational>(Vector<rational>::Zero(n));
  const bool draw_W = s.with_W && m > 0 && (s.always_W || *rc::gen::arbitrary<bool>());
  if (!draw_W) sys.W = Matrix<rational>::Identity(m, m);
  // Aligned: W's eigenvalues increasing along A's left singular vectors,
  // soft along Range(A) (U's first r columns), stiff across it.
  else if (s.aligned && U_A.rows() == m) sys.W = spd_on(U_A, geometric(m, eW, true), bits);
  else sys.W = spd_geometric(m, eW, bits);
  if (rank_draws) sys.b = round_all(sys.b, bits).col(0);  // A has every bit: b is rounded
  if (!representable(sys.b, bits))
    throw std::logic_error("draw_case: b is not exact at the working precision");
  // Rank and consistency, exactly, of the data as drawn.
  c.rank = exact_rank(sys.A);
  if (m > 0) {
    Matrix<rational> Ab(m, n + 1);
    Ab << sys.A, sys.b;
    c.consistent = exact_rank(Ab) == c.rank;
  }
  if (s.aligned) c.kind += ", M and W on A's singular vectors";
  RC_PRE(c.consistent || !s.consistent_only);
  RC_PRE(!s.inconsistent_only || !c.consistent);
  RC_PRE(!s.full_row_rank_only || c.rank == m);
  RC_PRE(!s.rank_deficient_only || c.rank < m);
  c.sys = sys;
  return c;
}

std::string Case::describe() const {
  std::ostringstream os;
  os << "n=" << sys.n() << " m=" << sys.m() << " rank=" << rank << (consistent ? " consistent" : " inconsistent")
     << (sys.C.isZero() ? "" : " C≠0") << (is_identity(sys.W) ? "" : " W≠I") << (kind.empty() ? "" : " (" + kind + ")")
     << "\nM=\n" << sys.M << "\nA=\n" << sys.A << "\nb=" << sys.b.transpose() << "\nQ=" << sys.Q.transpose()
     << "\nC=" << sys.C.transpose() << "\nW=\n" << sys.W;
  return os.str();
}

}  // namespace femc::prop
