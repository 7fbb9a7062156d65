// The problem Bullet's solver is given, solved by femc at 256 bits, and the
// checks of Bullet's numbers against it (engines/bullet/.../bullet.hpp).
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "femc/engines/bullet.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::engines::bullet {
namespace {

constexpr double kU = 0x1p-53;
constexpr long kBits = 256;

double gamma(double k) { return k * kU / (1 - k * kU); }

// The rows Bullet solves: m_jacDiagABInv ≠ 0 (a disabled row keeps λ = 0
// and constrains nothing).
std::vector<Index> enabled_rows(const Extracted& e) {
  std::vector<Index> rows;
  for (Index i = 0; i < e.m; ++i)
    if (e.jac_diag_inv(i) != 0) rows.push_back(i);
  return rows;
}

}  // namespace

System<rational> own_problem(const Extracted& e) {
  if (e.n == 0 || e.J.rows() != e.m) throw InputError("extracted", "no step was read");
  const std::vector<Index> rows = enabled_rows(e);
  const Index n = e.n, m = Index(rows.size());
  // M = (sym M⁻¹)⁻¹: the symmetric part exactly, its inverse at 256 bits,
  // symmetrized and taken as exact rational data (its own error, of order
  // κ(M)·2⁻²⁵⁶, is far below every bound here).
  Matrix<rational> Minv(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) Minv(i, j) = (rational(e.Minv(i, j)) + rational(e.Minv(j, i))) / 2;
  Matrix<rational> M(n, n);
  {
    MpfrPrecision bits(kBits);
    const Matrix<mpfr_real> X = prop::convert<mpfr_real>(Minv);
    Eigen::FullPivLU<Matrix<mpfr_real>> lu(X);
    if (!lu.isInvertible()) throw MethodError("Bullet: its M⁻¹ is singular");
    const Matrix<mpfr_real> Y = lu.inverse();
    const Matrix<mpfr_real> S = (Y + Y.transpose()) / 2;
    M = prop::to_rational(S);
  }
  Matrix<rational> A(m, n);
  Vector<rational> b(m);
  for (Index r = 0; r < m; ++r) {
    const Index i = rows[std::size_t(r)];
    for (Index k = 0; k < n; ++k) A(r, k) = rational(e.J(i, k));
    b(r) = rational(e.rhs(i)) / rational(e.jac_diag_inv(i));
  }
  return make_system<rational>(M, A, b, Vector<rational>::Zero(n));
}

namespace {

OwnSolution solve_own_at(const Extracted& e, std::optional<double> rank_tol) {
  const System<rational> exact = own_problem(e);
  MpfrPrecision bits(kBits);
  const System<mpfr_real> sys = prop::convert<mpfr_real>(exact);
  // The rank at the data's precision (double): Bullet's rows are rounded
  // sums of its two ends' (J_magnitude), and on a floating base the z row is
  // zero but for that rounding.
  Options<mpfr_real> opt;
  opt.data_precision = kDoubleData;
  if (rank_tol) opt.rank_tol = mpfr_real(*rank_tol);
  const Solution<mpfr_real> s = solve(sys, opt);
  OwnSolution out;
  out.dv.resize(e.n);
  out.impulse.resize(e.n);
  for (Index i = 0; i < e.n; ++i) {
    out.dv(i) = prop::as_double(s.qdd(i));
    out.impulse(i) = prop::as_double(s.Qc(i));  // M q̈ − Q = Jᵀλ
  }
  const auto& rank = s.diagnostics.rank;
  out.rank = rank.rank;
  if (rank.largest > 0) {
    out.sigma_ratio = prop::as_double(rank.smallest_kept / rank.largest);
    out.sigma_next = prop::as_double(rank.largest_dropped / rank.largest);
  }
  return out;
}

}  // namespace

OwnSolution solve_own(const Extracted& e) { return solve_own_at(e, std::nullopt); }

std::optional<OwnSolution> solve_own_one_direction_dropped(const Extracted& e, const OwnSolution& at_rank) {
  if (at_rank.rank == 0 || !(at_rank.sigma_ratio > 0)) return std::nullopt;
  // Just above d_r/d₁: drops d_r, and d_{r−1} too when it is within 2 d_r
  // (then there is no solution with exactly one direction fewer).
  const OwnSolution fewer = solve_own_at(e, 2 * at_rank.sigma_ratio);
  if (fewer.rank != at_rank.rank - 1) return std::nullopt;
  return fewer;
}

double answer_bound(const Extracted& e, const OwnSolution& exact) {
  const std::vector<Index> rows = enabled_rows(e);
  const Index n = e.n, m = Index(rows.size());
  Matrix<double> J(m, n), Jmag(m, n);
  Vector<double> b(m), lambda(m);
  Matrix<double> unit(m, n);
  for (Index r = 0; r < m; ++r) {
    const Index i = rows[std::size_t(r)];
    J.row(r) = e.J.row(i);
    Jmag.row(r) = e.J_magnitude.row(i);
    unit.row(r) = e.unit.row(i);
    b(r) = e.rhs(i) / e.jac_diag_inv(i);
    lambda(r) = e.lambda(i);
  }
  // G = M⁻¹JᵀA⁺ = L P⁺ (M⁻¹ = LLᵀ, P = J L, A = P Pᵀ), P⁺ from the SVD
  // truncated at the rank femc decided: the directions femc's solution keeps.
  const Matrix<double> Minv = (e.Minv + e.Minv.transpose()) / 2;
  const Eigen::LLT<Matrix<double>> llt(Minv);
  if (llt.info() != Eigen::Success) throw MethodError("Bullet: its M⁻¹ is not positive definite in double");
  const Matrix<double> L = llt.matrixL();
  const Eigen::JacobiSVD<Matrix<double>> svd(J * L, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Index r = std::min<Index>(exact.rank, svd.singularValues().size());
  const Matrix<double> P_plus = svd.matrixV().leftCols(r) *
                                svd.singularValues().head(r).cwiseInverse().asDiagonal() *
                                svd.matrixU().leftCols(r).transpose();
  const Matrix<double> G = L * P_plus;
  const Vector<double> dv = e.dv();
  const double c = 16.0 * double(n + m);
  const Vector<double> terms = G.cwiseAbs() * (Jmag * dv.cwiseAbs() + b.cwiseAbs()) +
                               unit.cwiseAbs().transpose() * lambda.cwiseAbs() + dv.cwiseAbs() +
                               exact.dv.cwiseAbs() + e.v_next.cwiseAbs();
  return c * kU * terms.lpNorm<Eigen::Infinity>();
}

MatrixCheck check_mlcp_matrix(const Extracted& e) {
  if (e.mlcp_A.rows() != e.m) throw InputError("extracted", "no MLCP matrix was read (a PGS step?)");
  const std::vector<Index> rows = enabled_rows(e);
  MatrixCheck out;
  const double g = gamma(double(e.n + 7));  // header: n + 6 terms an end, then the two ends' sum
  for (Index i : rows)
    for (Index j : rows) {
      // Entry (i, j) as the rows define it, exactly in Bullet's doubles.
      // createMLCPFastMultiBody forms the diagonal and the upper triangle,
      // entry (i, j) for i < j from row i's unit response and row j's
      // Jacobian, J_j·(M⁻¹J_iᵀ), and mirrors it ("A is symmetric"): in
      // exact arithmetic it is, but the unit responses are M⁻¹Jᵀ only to
      // rounding, so J_i·unit_j and J_j·unit_i differ by more than a dot
      // product's rounding (measured on Bricard: 1.14 times it). So (i, j)
      // is J_a·unit_b with a = max(i, j), b = min(i, j).
      const Index a = std::max(i, j), b = std::min(i, j);
      rational exact = 0;
      double magnitude = 0;
      for (Index k = 0; k < e.n; ++k) {
        if (e.J(a, k) == 0 || e.unit(b, k) == 0) continue;
        exact += rational(e.J(a, k)) * rational(e.unit(b, k));
        magnitude += e.J_magnitude(a, k) * std::abs(e.unit(b, k));
      }
      const double gap = std::abs(prop::to_double(rational(e.mlcp_A(i, j)) - exact));
      const double tol = g * magnitude;
      const double ratio = gap / std::max(tol, 1e-300);
      if (out.row < 0 || ratio > out.gap / std::max(out.tolerance, 1e-300)) out = {gap, tol, i, j};
    }
  return out;
}

}  // namespace femc::engines::bullet
