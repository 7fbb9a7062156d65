// The sparse path (issue "Large mechanisms"): the sparse QR
// (decomposition/sparse_qr.hpp), the sparse system and its validation
// (sparse_system.hpp), the model layer's sparse systems (models/planar.hpp,
// models/families.hpp) and the method `sparse` against cod on mechanisms.
// The claims (E, U, G) and the agreement with `exact` on random systems are
// checked for `sparse` as for every method of methods/list.hpp, by the
// property tests and tests/test_methods_agree.cpp.
//
// Bounds.
// - Givens QR is backward stable column by column: the computed R of X Π
//   is the exact one of X Π + ΔX with ‖Δx_j‖ ≤ γ̃_{rows+cols}‖x_j‖ (Higham,
//   Accuracy and Stability, 2nd ed., Thm 19.10), and the stored rotations
//   apply Q to within the same γ̃ (Lemma 19.9). c = 4 stands for γ̃'s constant.
// - Two backward-stable solves of the same consistent problem differ in q̈
//   by at most twice cod's forward bound u·c·(κ(B) + κ(M))·‖q̈‖ (solvers/
//   capabilities.hpp, error_growth 1), κ(B) from an SVD of B = A L⁻ᵀ. The
//   worst-case constant c = γ_{n+m}/u ≈ n + m left the bound 2·10³–4·10⁴
//   times above the measured differences at n + m ≈ 500; c = 4·√(n + m) is
//   the probabilistic constant of Higham and Mary (A new approach to
//   probabilistic rounding error analysis, SIAM J. Sci. Comput. 41, 2019),
//   which holds unless the rounding errors conspire.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <random>

#include <nlohmann/json.hpp>

#include "femc/decomposition/sparse_cholesky.hpp"
#include "femc/decomposition/sparse_complete_orthogonal.hpp"
#include "femc/decomposition/sparse_qr.hpp"
#include "femc/dynamics/bilateral_model.hpp"
#include "femc/dynamics/mechanism.hpp"
#include "femc/io/json_model.hpp"
#include "femc/models/families.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "support/cli_run.hpp"
#include "support/gamma.hpp"

namespace femc {
namespace {

const double u = 0x1p-53;

// An integer sparse matrix (exact at every precision) whose listed columns
// are integer combinations of others, so its rank is known exactly.
SparseMatrix<double> integer_matrix(int rows, int cols, unsigned seed, int& rank) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> value(-4, 4), pick(0, 99);
  Matrix<double> X = Matrix<double>::Zero(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      if (pick(g) < 25) X(i, j) = value(g);
  rank = int(Eigen::FullPivLU<Matrix<double>>(X).rank());
  return X.sparseView(0.0, 0.0);
}

// ‖Qᵀx_p − R(:, p)‖ over the live slots and ‖rest‖ for every column, relative
// to ‖x_p‖, and ‖Q(Qᵀy) − y‖/‖y‖: the largest, divided by c·(rows+cols)·u.
double worst_slack(const SparseMatrix<double>& X, const SparseQR<double>& qr) {
  const double scale = 4.0 * double(X.rows() + X.cols()) * u;
  double worst = 0;
  for (Index p = 0; p < X.cols(); ++p) {
    const Vector<double> x = Matrix<double>(X).col(qr.column_at(p));
    Vector<double> live, rest;
    qr.apply_Qt(x, live, rest);
    Vector<double> r = Vector<double>::Zero(qr.rank());
    for (Index l = 0; l < qr.rank(); ++l)
      for (const auto& e : qr.row(qr.live()[l]))
        if (e.col == p) r(l) = e.value;
    // The cut drops each dead column's remaining part, at most the threshold.
    const double dropped = qr.largest_dropped() * std::sqrt(double(X.cols()));
    const double err = std::hypot((live - r).norm(), std::max(0.0, rest.norm() - dropped));
    if (x.norm() > 0) worst = std::max(worst, err / x.norm() / scale);
    Vector<double> back;
    qr.apply_Q(live, rest, back);
    if (x.norm() > 0) worst = std::max(worst, (back - x).norm() / x.norm() / scale);
  }
  return worst;
}

TEST(SparseQR, RotationsReproduceTheMatrixAndTheRankOfExactDependencies) {
  double worst_units = 0;
  for (unsigned seed = 1; seed <= 6; ++seed)
    for (auto [rows, cols] : {std::pair{40, 15}, std::pair{15, 40}, std::pair{30, 30}}) {
      int rank = 0;
      SparseMatrix<double> X = integer_matrix(rows, cols, seed, rank);
      // Two more columns, exact integer combinations of others: rank unchanged.
      Matrix<double> D(X);
      D.conservativeResize(rows, cols + 2);
      D.col(cols) = D.col(0) + 2 * D.col(1);
      D.col(cols + 1) = D.col(2) - D.col(3);
      X = D.sparseView(0.0, 0.0);
      SparseQR<double> qr;
      double norm = 0;
      for (Index j = 0; j < X.cols(); ++j) norm = std::max(norm, Matrix<double>(X).col(j).norm());
      qr.compute(X, 2 * double(std::max(rows, cols + 2)) * u * norm);
      EXPECT_EQ(qr.rank(), rank) << rows << "x" << cols << " seed " << seed;
      // The rounding a dependent column keeps: with no cut, the cols + 2 − rank
      // smallest |R_kk|, against (m + n)·u·d₁. The cut of method sparse,
      // max(m, n)·ε·d₁ (rank.hpp), is at least one of these units.
      SparseQR<double> uncut;
      uncut.compute(X, 0.0);
      Vector<double> d = uncut.kept_diagonal();
      std::sort(d.data(), d.data() + d.size());
      const Index dependent = X.cols() - rank - (X.cols() - uncut.rank());
      if (dependent > 0) {
        const double units = d(dependent - 1) / (double(rows + cols + 2) * u * norm);
        EXPECT_LT(units, 1.0) << rows << "x" << cols << " seed " << seed;
        worst_units = std::max(worst_units, units);
      }
      const double slack = worst_slack(X, qr);
      EXPECT_LE(slack, 1.0) << rows << "x" << cols << " seed " << seed;
      RecordProperty("slack_" + std::to_string(rows) + "x" + std::to_string(cols) + "_" + std::to_string(seed),
                     std::to_string(slack));
    }
  RecordProperty("dependent_R_kk_units", std::to_string(worst_units));
}

// The data's rank cut reads ‖A‖_F from the stored values: the same as the
// dense norm, also for a matrix with gaps between its columns (built by
// insert() and not compressed).
TEST(SparseQR, TheFrobeniusNormOfAnUncompressedMatrixIsItsDenseOne) {
  Matrix<double> D(3, 4);
  D << 1e200, 0, 2e200, 0, 0, 3e200, 0, 0, 4, 0, 0, 5;
  EXPECT_EQ(sparse_scaled_frobenius_norm(SparseMatrix<double>(D.sparseView(0.0, 0.0))),
            scaled_frobenius_norm<double>(D));
  SparseMatrix<double> U(3, 4);
  U.reserve(Eigen::VectorXi::Constant(4, 3));
  U.insert(0, 0) = 3;
  U.insert(2, 3) = 4;
  ASSERT_FALSE(U.isCompressed());
  EXPECT_EQ(sparse_scaled_frobenius_norm(U), 5.0);
}

// sparse_product (sparse_linalg.hpp) is the dense product, entry for entry:
// integers, so every sum is exact in double and in MPFR. X is left
// uncompressed and Y has an empty column. At MPFR precision the suite's
// AddressSanitizer stage also checks that the product leaks nothing (Eigen's
// own sparse product leaked one number per product there).
template <class S>
void expect_the_dense_product() {
  Matrix<S> X(3, 4), Y(4, 3);
  X << 1, 0, 2, 0, 0, -3, 0, 4, 5, 0, 0, 6;
  Y << 0, 7, 0, 1, 0, 0, 0, -8, 0, 2, 9, 0;
  SparseMatrix<S> Xs(3, 4);
  Xs.reserve(Eigen::VectorXi::Constant(4, 3));
  for (Index j = 0; j < 4; ++j)
    for (Index i = 0; i < 3; ++i)
      if (X(i, j) != S(0)) Xs.insert(i, j) = X(i, j);
  ASSERT_FALSE(Xs.isCompressed());
  const SparseMatrix<S> Ys = Y.sparseView(S(0), S(0));
  const SparseMatrix<S> Z = sparse_product(Xs, Ys);
  EXPECT_EQ(Z.rows(), 3);
  EXPECT_EQ(Z.cols(), 3);
  EXPECT_EQ(Z.col(2).nonZeros(), 0);
  EXPECT_EQ(Matrix<S>(Z), Matrix<S>(X * Y));
}

TEST(SparseLinalg, TheProductIsTheDenseOne) {
  expect_the_dense_product<double>();
  const MpfrPrecision bits(256);
  expect_the_dense_product<mpfr::mpreal>();
}

// ---------------------------------------------------------------------------

// A diagonal M is factored as diag(√m_ii) with κ₁ = max/min exactly; the
// general path (Eigen's SimplicialLLT) gives the same F, and a matrix with
// one nonzero off the diagonal takes that path.
TEST(SparseCholesky, ADiagonalMIsItsSquareRootWithItsExactCondition) {
  SparseMatrix<double> M(3, 3);
  M.insert(0, 0) = 4, M.insert(1, 1) = 9, M.insert(2, 2) = 0.25;
  M.makeCompressed();
  SparseCholesky<double> chol;
  ASSERT_TRUE(chol.compute(M));
  EXPECT_EQ(chol.kappa(), 36.0);  // 9 / 0.25, exact: the estimate would be a lower bound
  EXPECT_EQ(chol.norm1(), 9.0);
  Matrix<double> root = Matrix<double>::Zero(3, 3);
  root.diagonal() << 2, 3, 0.5;
  EXPECT_EQ(Matrix<double>(chol.F()), root);
  Eigen::SimplicialLLT<SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> llt(M);
  const SparseMatrix<double> general = llt.permutationPinv() * SparseMatrix<double>(llt.matrixL());
  EXPECT_EQ(Matrix<double>(chol.F()), Matrix<double>(general));
  SparseMatrix<double> X(3, 2);
  X.insert(0, 0) = 2, X.insert(1, 1) = 6, X.insert(2, 1) = 1;
  EXPECT_EQ(Matrix<double>(chol.solve_F(X)), (Matrix<double>(3, 2) << 1, 0, 0, 2, 0, 2).finished());
  Vector<double> v(3);
  v << 2, 3, 1;
  chol.multiply_Ft(v);
  chol.solve_Ft(v);
  EXPECT_EQ(v, Vector<double>((Vector<double>(3) << 2, 3, 1).finished()));
  M.coeffRef(2, 0) = M.coeffRef(0, 2) = 0.5;  // not diagonal: Hager–Higham's estimate, a lower bound
  ASSERT_TRUE(chol.compute(M));
  const Matrix<double> dense = Matrix<double>(M);
  const double kappa = dense.cwiseAbs().colwise().sum().maxCoeff() * dense.inverse().cwiseAbs().colwise().sum().maxCoeff();
  EXPECT_LE(chol.kappa(), kappa * (1 + 16 * u));  // a few roundings in M⁻¹ and the sums
  EXPECT_GT(chol.kappa(), 1.0);
  M.coeffRef(1, 1) = -9;
  EXPECT_FALSE(chol.compute(M));
  M.coeffRef(1, 1) = 9, M.coeffRef(2, 0) = M.coeffRef(0, 2) = 0;
  M.coeffRef(2, 2) = 0;  // a zero on the diagonal of a diagonal M
  EXPECT_FALSE(chol.compute(M));
}

TEST(SparseSystem, ValidationNamesTheFieldAndTheEntry) {
  System<double> dense = make_system<double>(Matrix<double>::Identity(3, 3), Matrix<double>::Ones(1, 3),
                                             Vector<double>::Ones(1), Vector<double>::Zero(3));
  // solve() checks the entries and leaves definiteness to the method's own
  // factorizations: its message must be validate()'s, case for case.
  auto message = [](const SparseSystem<double>& s) {
    std::string validated = "accepted", solved = "accepted";
    try {
      validate(s);
    } catch (const InputError& e) {
      validated = e.what();
    }
    Options<double> opt;
    opt.method = Method::Sparse;
    try {
      solve(s, opt);
    } catch (const InputError& e) {
      solved = e.what();
    }
    EXPECT_EQ(solved, validated);
    return validated;
  };
  SparseSystem<double> s = to_sparse(dense);
  EXPECT_EQ(message(s), "accepted");
  s.M.coeffRef(0, 1) = 0.5;  // asymmetric
  EXPECT_NE(message(s).find("M"), std::string::npos);
  EXPECT_NE(message(s).find("not symmetric"), std::string::npos);
  s = to_sparse(dense);
  s.M.coeffRef(2, 2) = -1;  // indefinite
  EXPECT_NE(message(s).find("not positive definite"), std::string::npos);
  EXPECT_NE(message(s).find("M"), std::string::npos);
  s = to_sparse(dense);
  s.M.coeffRef(0, 1) = s.M.coeffRef(1, 0) = 2;  // indefinite and not diagonal (eigenvalues −1, 1, 3)
  EXPECT_NE(message(s).find("not positive definite"), std::string::npos);
  s = to_sparse(dense);
  s.W = SparseMatrix<double>(1, 1);
  s.W.coeffRef(0, 0) = -2;  // a weight, indefinite
  EXPECT_NE(message(s).find("not positive definite"), std::string::npos);
  EXPECT_NE(message(s).find("W"), std::string::npos);
  s = to_sparse(dense);
  s.A.coeffRef(0, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message(s).find("A[0][1]"), std::string::npos);
  s = to_sparse(dense);
  s.b.resize(2);
  EXPECT_NE(message(s).find("b"), std::string::npos);
  s = to_sparse(dense);
  s.W.resize(2, 2);
  EXPECT_NE(message(s).find("W"), std::string::npos);
}

TEST(SparseSystem, TheSparseEntryIsTheDenseOneForOtherMethodsAndBitForBitForSparse) {
  const auto ms = models::n_four_bar<double>(3, 1.0);
  const SparseSystem<double> sp = models::sparse_system_at(ms.model, ms.q, ms.qd);
  const System<double> dense = to_dense(sp);
  Options<double> opt;
  EXPECT_EQ(solve(sp, opt).qdd, solve(dense, opt).qdd);  // cod on the dense copy
  opt.method = Method::Sparse;
  EXPECT_EQ(solve(sp, opt).qdd, solve(dense, opt).qdd);
  opt.data_precision = DataPrecision(53);
  EXPECT_THROW(solve(sp, opt), InputError);
}

// ---------------------------------------------------------------------------
// The model layer.

TEST(SparseModels, TheSparseSystemOfAStateIsTheDenseOneEntryForEntry) {
  for (double angle : {1.5707963267948966, 0.3, 0.0}) {
    const auto ms = models::n_four_bar<double>(5, angle);
    const System<double> dense = models::system_at(ms.model, ms.q, ms.qd);
    const System<double> from_sparse = to_dense(models::sparse_system_at(ms.model, ms.q, ms.qd));
    EXPECT_EQ(from_sparse.M, dense.M);
    EXPECT_EQ(from_sparse.A, dense.A);
    EXPECT_EQ(from_sparse.b, dense.b);
    EXPECT_EQ(from_sparse.Q, dense.Q);
  }
}

// models/families.hpp's A02 is generate.py's a02_n_four_bar_40.json: the
// same bodies and joints, hence the same M and A at any state.
TEST(SparseModels, TheA02FamilyIsTheBenchmarkFile) {
  const auto file = to_planar_model<double>(
      read_planar_model_text(test::slurp(std::string(FEMC_MODELS) + "/benchmarks/a02_n_four_bar_40.json")));
  const auto ms = models::n_four_bar<double>(40, 1.5707963267948966);
  ASSERT_EQ(file.bodies.size(), ms.model.bodies.size());
  ASSERT_EQ(file.joints.size(), ms.model.joints.size());
  EXPECT_EQ(file.gravity, ms.model.gravity);
  const System<double> a = models::system_at(file, ms.q, ms.qd), b = models::system_at(ms.model, ms.q, ms.qd);
  EXPECT_EQ(a.M, b.M);
  EXPECT_EQ(a.A, b.A);
  EXPECT_EQ(a.b, b.b);
  EXPECT_EQ(a.Q, b.Q);
}

// ---------------------------------------------------------------------------
// The method on mechanisms, against cod.

template <class S>
struct Agreement {
  double difference = 0, bound = 0;
  Index rank_sparse = 0, rank_cod = 0;
};

// κ₂ of the rank-r part of B = A L⁻ᵀ, from an SVD in double.
double kappa_B(const System<double>& sys, Index r) {
  const Eigen::LLT<Matrix<double>> llt(sys.M);
  const Matrix<double> Bt = llt.matrixL().solve(Matrix<double>(sys.A.transpose()));
  const Eigen::BDCSVD<Matrix<double>> svd(Bt);
  return svd.singularValues()(0) / svd.singularValues()(r - 1);
}

template <class S>
Agreement<S> compare_with_cod(const models::ModelAndState<S>& ms, const Options<S>& base) {
  const SparseSystem<S> sp = models::sparse_system_at(ms.model, ms.q, ms.qd);
  Options<S> opt = base;
  opt.method = Method::Sparse;
  const Solution<S> s = solve(sp, opt);
  opt.method = Method::Cod;
  const System<S> dense = to_dense(sp);
  const Solution<S> c = solve(dense, opt);
  Agreement<S> out;
  out.rank_sparse = s.diagnostics.rank.rank;
  out.rank_cod = c.diagnostics.rank.rank;
  using std::abs;
  out.difference = double(S((s.qdd - c.qdd).norm() / c.qdd.norm()));
  const System<double> d{dense.M.template cast<double>(), dense.A.template cast<double>(), {}, {}, {}, {}};
  const double kM = double(*c.diagnostics.kappa_M);
  const double uS = double(unit_roundoff<S>());
  out.bound = 2 * uS * 4.0 * std::sqrt(double(dense.n() + dense.m())) * (kappa_B(d, out.rank_cod) + kM);
  return out;
}

TEST(SparseMethod, AgreesWithCodOnTheA02MechanismAndTheClosedChain) {
  for (double angle : {1.5707963267948966, 1.0, 2.5}) {
    const Agreement<double> a = compare_with_cod(models::n_four_bar<double>(40, angle), Options<double>{});
    EXPECT_EQ(a.rank_sparse, a.rank_cod);
    EXPECT_EQ(a.rank_sparse, 6 * 40 + 2);
    EXPECT_LE(a.difference, a.bound) << "angle " << angle;
    RecordProperty("a02_slack_" + std::to_string(angle), std::to_string(a.difference / a.bound));
  }
  const Agreement<double> a = compare_with_cod(models::closed_chain<double>(60), Options<double>{});
  EXPECT_EQ(a.rank_sparse, 2 * 60 + 2);
  EXPECT_LE(a.difference, a.bound);
  RecordProperty("chain_slack", std::to_string(a.difference / a.bound));
}

// At the flat configuration every loop is a degenerate parallelogram: the
// rank drops by N, and b is inconsistent with the dependent rows. A is exact
// there (angles 0), so at 256 bits the rank is exact for both methods, and
// their q̈ agree to the bound. (There the dependent rows' diagonals come out
// exactly 0, so even τ = 0 cuts them.) A cut that is too high (τ = 1/2)
// drops constraints that are there, and q̈ is wrong by many orders beyond
// the bound: the check can fail.
TEST(SparseMethod, CutsTheRedundantRowsOfTheFlatA02Configuration) {
  MpfrPrecision bits(256);
  using S = mpfr_real;
  const int N = 10;
  const auto ms = models::n_four_bar<S>(N, S(0));
  const Agreement<S> a = compare_with_cod(ms, Options<S>{});
  EXPECT_EQ(a.rank_cod, 6 * N + 2 - N);
  EXPECT_EQ(a.rank_sparse, a.rank_cod);
  EXPECT_LE(a.difference, a.bound);
  RecordProperty("flat_slack", std::to_string(a.difference / a.bound));

  Options<S> too_high;
  too_high.rank_tol = S(1) / S(2);
  too_high.method = Method::Sparse;
  const SparseSystem<S> sp = models::sparse_system_at(ms.model, ms.q, ms.qd);
  const Solution<S> wrong = solve(sp, too_high);
  Options<S> cod;
  const Solution<S> right = solve(to_dense(sp), cod);
  EXPECT_LT(wrong.diagnostics.rank.rank, a.rank_cod);
  EXPECT_GT(double(S((wrong.qdd - right.qdd).norm() / right.qdd.norm())), 1e6 * a.bound);
}

// ---------------------------------------------------------------------------
// Simulation with method `sparse` (dynamics/mechanism.hpp): a planar model's
// states are assembled and solved sparse, and its energy and constraint rate
// are computed from sparse M and A.

// The sparse path is taken only where these detections hold: a planar
// mechanism offers its sparse system and its energy, and a planar model (not
// a spatial one) its sparse Jacobian to the assembly.
using PlanarMechanism = dynamics::Mechanism<double, models::PlanarModel<double>>;
static_assert(dynamics::bilateral_detail::has<dynamics::bilateral_detail::sparse_at_call, PlanarMechanism, double>);
static_assert(dynamics::bilateral_detail::has<dynamics::bilateral_detail::kinetic_call, PlanarMechanism, double>);
static_assert(models::assemble_detail::has_sparse_jacobian<models::PlanarModel<double>, double>::value);
static_assert(!models::assemble_detail::has_sparse_jacobian<models::SpatialModel<double>, double>::value);

dynamics::BuiltinModel<double> a02_file_model(int N, std::optional<Method> method) {
  const std::string file = std::string(FEMC_MODELS) + "/benchmarks/a02_n_four_bar_" + std::to_string(N) + ".json";
  return dynamics::make_mechanism_model<double>(read_model_text(test::slurp(file)), method);
}

// At the states of the A02 family (N = 40, three crank angles) the model run
// with `sparse` gives cod's q̈ within the bound of the agreement test above;
// its kinetic energy is the dense ½q̇ᵀMq̇ exactly (M is diagonal: each row
// of M q̇ has one product, whichever way it is summed); its constraint rate
// A q̇ is the dense one within the summation bound γ₆·(|A||q̇|)ᵢ (at most six
// nonzeros in a row of A, two bodies of three coordinates).
TEST(SparseSimulation, TheModelsForcesEnergyAndRateAreTheDenseModels) {
  const auto sparse = a02_file_model(40, Method::Sparse), cod = a02_file_model(40, std::nullopt);
  const auto model = to_planar_model<double>(
      read_planar_model_text(test::slurp(std::string(FEMC_MODELS) + "/benchmarks/a02_n_four_bar_40.json")));
  double worst_forces = 0, worst_rate = 0;
  for (double angle : {1.5707963267948966, 1.0, 2.5}) {
    const auto ms = models::n_four_bar<double>(40, angle);
    const dynamics::Forces<double> fs = sparse.model->forces(ms.q, ms.qd, 0.0, {});
    const dynamics::Forces<double> fc = cod.model->forces(ms.q, ms.qd, 0.0, {});
    const Agreement<double> a = compare_with_cod(ms, Options<double>{});
    const double difference = (fs.qdd - fc.qdd).norm() / fc.qdd.norm();
    EXPECT_LE(difference, a.bound) << "angle " << angle;
    EXPECT_EQ(fs.extras[0], fc.extras[0]) << "the rank, angle " << angle;
    worst_forces = std::max(worst_forces, difference / a.bound);

    EXPECT_EQ(sparse.model->kinetic(ms.q, ms.qd), sparse.model->dynamics::Model<double>::kinetic(ms.q, ms.qd));

    const Matrix<double> A = models::constraint_jacobian(model, ms.q);
    const Vector<double> dense_rate = A * ms.qd, magnitude = A.cwiseAbs() * ms.qd.cwiseAbs();
    const Vector<double> rate = sparse.model->velocity_violation(ms.q, ms.qd, 0.0);
    const double gamma6 = test::gamma<double>(6);
    for (Index i = 0; i < rate.size(); ++i) {
      EXPECT_LE(std::abs(rate(i) - dense_rate(i)), 2 * gamma6 * magnitude(i)) << "row " << i;
      if (magnitude(i) > 0) worst_rate = std::max(worst_rate, std::abs(rate(i) - dense_rate(i)) / (2 * gamma6 * magnitude(i)));
    }
  }
  RecordProperty("forces_slack", std::to_string(worst_forces));
  RecordProperty("rate_slack", std::to_string(worst_rate));
}

// models::assemble with method sparse puts a state 10⁻³ off the constraints
// of A02 (N = 40, cranks at 1 rad: A of full row rank) back on them, by
// sparse solves only: |φ|∞ ≤ 64u (the tolerance asked; a wrong minimum-norm
// step does not converge to it), and q̇ projected onto A q̇ = 0 to within
// the rounding of the projection, ‖A q̇‖ ≤ c·u·κ(A)·‖A‖_F·‖q̇‖ with
// c = 4√(n + m) (Higham–Mary, as above). The file's model takes this path
// with --method sparse (assembled_initial_state, mechanism.hpp).
TEST(SparseSimulation, AStateIsAssembledBySparseSolves) {
  auto ms = models::n_four_bar<double>(40, 1.0);
  for (Index i = 0; i < ms.q.size(); ++i) ms.q(i) += 1e-3 * double((i * 7) % 5 - 2) / 2;
  ms.qd.setOnes();
  const double u = unit_roundoff<double>();
  const double left = models::assemble(ms.model, ms.q, ms.qd, 64 * u, 50, Method::Sparse);
  const double phi = models::constraints(ms.model, ms.q).cwiseAbs().maxCoeff();
  EXPECT_EQ(left, phi);
  EXPECT_LE(phi, 64 * u);
  const Matrix<double> A = models::constraint_jacobian(ms.model, ms.q);
  const Eigen::BDCSVD<Matrix<double>> svd(A);
  const double kappa = svd.singularValues()(0) / svd.singularValues()(A.rows() - 1);
  const double bound = 4 * std::sqrt(double(A.rows() + A.cols())) * u * kappa * A.norm() * ms.qd.norm();
  const double residual = (A * ms.qd).norm();
  EXPECT_LE(residual, bound);
  RecordProperty("phi_units", std::to_string(phi / u));
  RecordProperty("velocity_slack", std::to_string(residual / bound));
}

// `femc simulate MODEL --method sparse`: the run completes and says its
// method; a contact system and an exact method refuse --method (exit 2, one
// line naming the option).
TEST(SparseSimulation, TheCliRunsAModelFileWithMethodSparse) {
  auto femc = [](const std::string& args) { return test::run_cli(FEMC_CLI, args, "femc_sparse_sim"); };
  const std::string file = std::string(FEMC_MODELS) + "/benchmarks/a02_n_four_bar_2.json";
  const test::CliRun r = femc("simulate " + file + " --method sparse --stepper rk4 --dt 0.01 --t-end 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.err);
  EXPECT_EQ(summary["method"], "sparse");
  EXPECT_EQ(summary["completed"], true);
  EXPECT_EQ(summary["records"], 11);
  for (const char* args : {"two-bars --method cod", "spherical-pendulum --method exact",
                           "spherical-pendulum --method nosuch"}) {
    const test::CliRun bad = femc(std::string("simulate ") + args);
    EXPECT_EQ(bad.status, 2) << args << ": " << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << args << ": " << bad.err;
    EXPECT_NE(bad.err.find("method"), std::string::npos) << args << ": " << bad.err;
    EXPECT_TRUE(bad.out.empty()) << args;
  }
}

}  // namespace
}  // namespace femc
