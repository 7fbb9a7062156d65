// femc's sparse kernels against SuiteSparse's in double (issue "Large
// mechanisms": "a faster double path if a library gives one: measure and
// choose"), on the matrices method `sparse` factors for the scaling
// benchmark's mechanisms (bench_sparse.cpp): A02 and the closed chain,
// N = 10 … 1000, cranks at 1 rad.
//
//   sparse_kernels/<family>/cholesky/<library>/<N>   M = F Fᵀ
//     femc        SparseCholesky::compute, what the method runs: these
//                 planar mechanisms' M is diagonal, so F = diag(√m_ii)
//                 and κ₁(M) exactly (sparse_cholesky.hpp)
//     eigen-llt   Eigen's SimplicialLLT with AMD, SparseCholesky's path for
//                 a general M (without its κ₁ estimate)
//     cholmod     CHOLMOD's analyze + factorize (its own choice between
//                 simplicial and supernodal, AMD/COLAMD ordering)
//   sparse_kernels/<family>/qr/<library>/<N>         Pᵀ = F⁻¹Aᵀ (n × m)
//     femc        SparseQR::compute (COLAMD, Givens rows, Heath's cut)
//     spqr        SuiteSparseQR (its default ordering, Householder
//                 fronts, Heath's cut), the R and Householder vectors
//                 kept as femc keeps its rotations
// Both QRs get the same absolute cut, SPQR's default
// 20·(rows + cols)·ε·max column norm, which drops no column of these
// full-rank systems. Each compute() includes the symbolic analysis, as a
// solve along a trajectory does (femc keeps none between solves).
//
// scripts/bench-report.py sets them beside the whole solve
// (sparse_scaling/…/double/sparse/N): the share of each kernel, and what
// SuiteSparse would save.
#include <Eigen/CholmodSupport>
#include <Eigen/SPQRSupport>

#include "femc/decomposition/sparse_cholesky.hpp"
#include "femc/decomposition/sparse_qr.hpp"
#include "femc/models/families.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

struct Kernels {
  SparseMatrix<double> M, Pt;
  double cut = 0;
};

Kernels kernels_of(const std::string& family, int N) {
  const auto ms = family == "a02" ? models::n_four_bar<double>(N, 1.0) : models::closed_chain<double>(N);
  const SparseSystem<double> sp = models::sparse_system_at(ms.model, ms.q, ms.qd);
  Kernels k;
  k.M = sp.M;
  SparseCholesky<double> chol;
  if (!chol.compute(sp.M)) throw std::runtime_error("M is not positive definite");
  k.Pt = chol.solve_F(SparseMatrix<double>(sp.A.transpose()));
  double largest = 0;
  for (Index j = 0; j < k.Pt.cols(); ++j) largest = std::max(largest, k.Pt.col(j).norm());
  k.cut = 20.0 * double(k.Pt.rows() + k.Pt.cols()) * std::numeric_limits<double>::epsilon() * largest;
  return k;
}

template <class Body>
void timed(benchmark::State& st, const Kernels& k, Body body) {
  try {
    body();  // warm-up
    for (auto _ : st) body();
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
  st.counters["n"] = double(k.M.rows());
  st.counters["m"] = double(k.Pt.cols());
  st.counters["nnz"] = double(k.Pt.nonZeros());
}

void cholesky(benchmark::State& st, const std::string& family, int N, const std::string& library) {
  const Kernels k = kernels_of(family, N);
  if (library == "femc") {
    timed(st, k, [&] {
      SparseCholesky<double> chol;
      if (!chol.compute(k.M)) throw std::runtime_error("not positive definite");
      benchmark::DoNotOptimize(chol.kappa());
    });
  } else if (library == "eigen-llt") {
    Eigen::SimplicialLLT<SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> llt;
    timed(st, k, [&] {
      llt.compute(k.M);
      if (llt.info() != Eigen::Success) throw std::runtime_error("not positive definite");
    });
  } else {
    Eigen::CholmodDecomposition<SparseMatrix<double>, Eigen::Lower> chol;
    timed(st, k, [&] {
      chol.compute(k.M);
      if (chol.info() != Eigen::Success) throw std::runtime_error("not positive definite");
    });
  }
}

void qr(benchmark::State& st, const std::string& family, int N, const std::string& library) {
  const Kernels k = kernels_of(family, N);
  if (library == "femc") {
    SparseQR<double> f;
    timed(st, k, [&] {
      f.compute(k.Pt, k.cut);
      if (!f.full_column_rank()) throw std::runtime_error("femc's QR dropped a column");
    });
  } else {
    using LongIndexed = Eigen::SparseMatrix<double, Eigen::ColMajor, SuiteSparse_long>;
    const LongIndexed X = k.Pt;  // SPQR's index type, converted once
    Eigen::SPQR<LongIndexed> f;
    f.setPivotThreshold(k.cut);
    timed(st, k, [&] {
      f.compute(X);
      if (f.info() != Eigen::Success || f.rank() != X.cols()) throw std::runtime_error("SPQR dropped a column");
    });
  }
}

}  // namespace

void register_suitesparse() {
  for (const std::string family : {"a02", "chain"})
    for (int N : {10, 40, 100, 400, 1000}) {
      for (const std::string library : {"femc", "eigen-llt", "cholmod"}) {
        const std::string label = "sparse_kernels/" + family + "/cholesky/" + library + "/" + std::to_string(N);
        benchmark::RegisterBenchmark(label.c_str(), [=](benchmark::State& st) { cholesky(st, family, N, library); })
            ->Unit(benchmark::kMicrosecond);
      }
      for (const std::string library : {"femc", "spqr"}) {
        const std::string label = "sparse_kernels/" + family + "/qr/" + library + "/" + std::to_string(N);
        benchmark::RegisterBenchmark(label.c_str(), [=](benchmark::State& st) { qr(st, family, N, library); })
            ->Unit(benchmark::kMicrosecond);
      }
    }
}

}  // namespace femc::bench
