#include "femc/verify/generators.hpp"

#include <Eigen/LU>
#include <sstream>

#include "femc/scalar/number_text.hpp"

namespace femc::prop {

rational round_dyadic(const rational& x, long bits) {
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

Matrix<rational> spd_with_condition(Index k, const rational& kappa) {
  const Matrix<rational> U = cayley_orthogonal(k);
  Vector<rational> lambda(k);
  for (Index i = 0; i < k; ++i) lambda(i) = k == 1 ? rational(1) : 1 + (kappa - 1) * rational(i) / rational(k - 1);
  const Matrix<rational> X = U * lambda.asDiagonal() * U.transpose();
  Matrix<rational> Y(k, k);
  for (Index i = 0; i < k; ++i)
    for (Index j = i; j < k; ++j) Y(i, j) = Y(j, i) = round_dyadic(X(i, j));
  return Y;
}

namespace {

Matrix<rational> round_all(const Matrix<rational>& X) {
  return X.unaryExpr([](const rational& x) { return round_dyadic(x); });
}

// Singular values equally spaced in [1/κ, 1] (rational, exact).
Matrix<rational> with_singular_values(Index m, Index n, Index r, const rational& kappa) {
  if (r == 0) return Matrix<rational>::Zero(m, n);
  const Matrix<rational> U = cayley_orthogonal(m), V = cayley_orthogonal(n);
  Matrix<rational> F = U.leftCols(r), G = V.leftCols(r).transpose();
  for (Index i = 0; i < r; ++i) {
    rational sigma = r == 1 ? rational(1) : 1 - (1 - 1 / kappa) * rational(i) / rational(r - 1);
    F.col(i) *= sigma;
  }
  return round_all(F) * round_all(G);  // exact product of dyadic factors
}

}  // namespace

Case draw_case(const Spec& s) {
  Case c;
  const Index n = *rc::gen::inRange<Index>(s.n_min, s.n_max + 1);
  // Shape and rank.
  enum Kind { FullRow, RankDef, Over, Empty };
  std::vector<Kind> kinds;
  if (!s.inconsistent_only && !s.rank_deficient_only) kinds.push_back(FullRow);
  if (s.allow_rank_deficient && !s.full_row_rank_only) kinds.push_back(RankDef);
  if (s.allow_overdetermined && !s.full_row_rank_only && !s.rank_deficient_only) kinds.push_back(Over);
  if (s.allow_empty && !s.inconsistent_only && !s.rank_deficient_only && !s.square_full_row_rank) kinds.push_back(Empty);
  const Kind kind = *rc::gen::elementOf(kinds);
  Index m = 0, r = 0;
  switch (kind) {
    case FullRow: m = s.square_full_row_rank ? n : *rc::gen::inRange<Index>(1, n + 1); r = m; break;  // m ≤ n
    case RankDef: m = *rc::gen::inRange<Index>(2, n + 3); r = *rc::gen::inRange<Index>(0, std::min(m, n)); break;
    case Over: m = n + *rc::gen::inRange<Index>(1, 3); r = n; break;
    case Empty: m = 0; r = 0; break;
  }
  const int kM = *rc::gen::inRange(0, 3), kA = *rc::gen::inRange(0, 3), kW = *rc::gen::inRange(0, 3);
  const rational kappas[3] = {rational(1), rational(10), rational(static_cast<long>(s.max_kappa))};
  System<rational> sys;
  sys.M = spd_with_condition(n, kappas[kM]);
  sys.A = with_singular_values(m, n, r, kappas[kA]);
  const Vector<rational> z0 = draw_integer_vector(n, -4, 4);
  sys.b = sys.A * z0;
  bool can_be_inconsistent = r < m;
  bool consistent = true;
  if (can_be_inconsistent && s.allow_inconsistent && !s.consistent_only) {
    consistent = s.inconsistent_only ? false : *rc::gen::arbitrary<bool>();
    if (!consistent) {
      Vector<rational> d = draw_integer_vector(m, -3, 3);
      // Make sure d leaves Range(A): add a unit vector if needed (exact test).
      Matrix<rational> Ab(m, n + 1);
      Ab << sys.A, d;
      if (exact_rank(Ab) == r) {
        for (Index i = 0; i < m; ++i) {
          Vector<rational> e = Vector<rational>::Zero(m);
          e(i) = 1;
          Ab.col(n) = d + e;
          if (exact_rank(Ab) > r) { d += e; break; }
        }
      }
      sys.b += d;
    }
  }
  RC_PRE(consistent || !s.consistent_only);
  RC_PRE(!s.inconsistent_only || !consistent);
  sys.Q = draw_integer_vector(n, -5, 5);
  sys.C = s.with_C && *rc::gen::arbitrary<bool>() ? draw_integer_vector(n, -3, 3) : Vector<rational>(Vector<rational>::Zero(n));
  sys.W = s.with_W && m > 0 && *rc::gen::arbitrary<bool>() ? spd_with_condition(m, kappas[kW])
                                                           : Matrix<rational>(Matrix<rational>::Identity(m, m));
  c.sys = sys;
  c.rank = r;
  c.consistent = consistent;
  return c;
}

std::string Case::describe() const {
  std::ostringstream os;
  os << "n=" << sys.n() << " m=" << sys.m() << " rank=" << rank << (consistent ? " consistent" : " inconsistent")
     << (sys.C.isZero() ? "" : " C≠0") << (is_identity(sys.W) ? "" : " W≠I") << "\nM=\n"
     << sys.M << "\nA=\n" << sys.A << "\nb=" << sys.b.transpose() << "\nQ=" << sys.Q.transpose()
     << "\nC=" << sys.C.transpose() << "\nW=\n" << sys.W;
  return os.str();
}

}  // namespace femc::prop
