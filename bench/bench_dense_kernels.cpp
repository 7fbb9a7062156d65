// cod's four dense kernels in double, alone (decomposition/dense_cholesky.hpp,
// householder_qr.hpp: LAPACK's dpotrf, dtrsm, dgeqp3, dgeqrf): their sum is
// what cod cannot go below with its two-QR algorithm, the yardstick of the
// targets against the dgelsd and dgelsy pipelines. Each kernel runs on the
// matrix cod gives it (M; Aᵀ; P = L⁻¹Aᵀ transposed; the transposed kept
// rows of P's R), restored by a copy that is timed with it, as in cod.
#include <string>

#include "femc/decomposition/dense_cholesky.hpp"
#include "femc/decomposition/householder_qr.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

struct CodMatrices {
  Matrix<double> M, At, P, kept_rows_t;
};

CodMatrices matrices(Shape shape) {
  const System<double>& sys = problem(shape, RankClass::Full);
  CodMatrices c;
  c.M = sys.M;
  c.At = sys.A.transpose();
  DenseCholesky<double> chol;
  chol.compute(c.M);
  Matrix<double> Bt = c.At;
  chol.solve_L_in_place(Bt);
  c.P = Bt.transpose();
  PivotedHouseholderQR<double> qr;
  qr.compute(c.P);
  c.kept_rows_t = qr.matrixQR().topRows(shape.m).transpose();
  c.kept_rows_t.triangularView<Eigen::StrictlyUpper>().setZero();
  return c;
}

void kernel(benchmark::State& st, const std::string& which, Shape shape) {
  const CodMatrices c = matrices(shape);
  DenseCholesky<double> chol;
  chol.compute(c.M);
  DenseCholesky<double> work;
  Matrix<double> X;
  Vector<double> tau;
  PivotedHouseholderQR<double> pqr;
  HouseholderQRInPlace<double> qr;
  auto run = [&] {
    if (which == "dpotrf") {
      work.compute(c.M);
    } else if (which == "dtrsm") {
      X = c.At;
      chol.solve_L_in_place(X);
    } else if (which == "dgeqp3") {
      pqr.compute(c.P);
    } else {
      X = c.kept_rows_t;
      qr.compute(X, tau);
    }
  };
  run();  // warm-up: storage and work arrays
  for (auto _ : st) {
    run();
    benchmark::ClobberMemory();
  }
}

}  // namespace

void register_dense_kernels() {
  for (Shape shape : kShapes)
    for (const char* which : {"dpotrf", "dtrsm", "dgeqp3", "dgeqrf"}) {
      const std::string name = std::string("dense_kernels/double/") + which + "/full/" + shape.label();
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { kernel(st, which, shape); })
          ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace femc::bench
