// The LAPACKE/OpenBLAS anchors, one thread: the same problem as femc's
// double benchmarks solved by
//   M = L Lᵀ (dpotrf), a = M⁻¹Q (dpotrs), B = A L⁻ᵀ (dtrsm),
//   y = B⁺(b − A a) by dgelsd (SVD, divide and conquer) or dgelsy (complete
//   orthogonal factorization), q̈ = a + L⁻ᵀ y (dtrsv).
// Workspaces are allocated once outside the timed loop (the _work LAPACKE
// entry points), so the anchor is as fast as LAPACK allows. Before timing,
// q̈ is compared with femc's cod result (counter rel_diff_vs_cod); a
// difference above 1e-8 fails the benchmark.
#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "femc/scalar/builtin.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

enum class Solver { Gelsd, Gelsy };

class Pipeline {
 public:
  Pipeline(const System<double>& sys, Solver solver) : sys_(sys), solver_(solver) {
    n_ = int(sys.n());
    m_ = int(sys.m());
    ldr_ = std::max(n_, m_);
    L_.resize(n_, n_);
    B_.resize(m_, n_);
    a_.resize(n_);
    r_.resize(ldr_);
    s_.resize(std::min(m_, n_));
    jpvt_.resize(n_);
    // femc's default rank tolerance max(m, n)·ε, as rcond (the same relative
    // cut on singular values for dgelsd; on the R₁₁ condition for dgelsy).
    rcond_ = double(ldr_) * std::numeric_limits<double>::epsilon();
    double wq = 0;
    lapack_int iwq = 0, rank = 0;
    if (solver_ == Solver::Gelsd)
      LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m_, n_, 1, B_.data(), m_, r_.data(), ldr_, s_.data(), rcond_, &rank, &wq,
                          -1, &iwq);
    else
      LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, m_, n_, 1, B_.data(), m_, r_.data(), ldr_, jpvt_.data(), rcond_, &rank,
                          &wq, -1);
    work_.resize(std::size_t(wq) + 1);
    iwork_.resize(std::max<lapack_int>(iwq, 1));
  }

  // One solve; returns LAPACK's info (0 on success). q̈ is qdd().
  int run() {
    L_ = sys_.M;
    int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n_, L_.data(), n_);
    if (info) return info;
    a_ = sys_.Q;
    info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n_, 1, L_.data(), n_, a_.data(), n_);
    if (info) return info;
    B_ = sys_.A;
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, m_, n_, 1.0, L_.data(), n_,
                B_.data(), m_);
    r_.head(m_) = sys_.b;
    cblas_dgemv(CblasColMajor, CblasNoTrans, m_, n_, -1.0, sys_.A.data(), m_, a_.data(), 1, 1.0, r_.data(), 1);
    if (solver_ == Solver::Gelsd) {
      info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m_, n_, 1, B_.data(), m_, r_.data(), ldr_, s_.data(), rcond_,
                                 &rank_, work_.data(), lapack_int(work_.size()), iwork_.data());
    } else {
      std::fill(jpvt_.begin(), jpvt_.end(), 0);  // every column free to pivot
      info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, m_, n_, 1, B_.data(), m_, r_.data(), ldr_, jpvt_.data(), rcond_,
                                 &rank_, work_.data(), lapack_int(work_.size()));
    }
    if (info) return info;
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n_, L_.data(), n_, r_.data(), 1);  // L⁻ᵀy
    a_ += r_.head(n_);
    return 0;
  }

  const Eigen::VectorXd& qdd() const { return a_; }
  lapack_int rank() const { return rank_; }

 private:
  const System<double>& sys_;
  Solver solver_;
  int n_ = 0, m_ = 0, ldr_ = 0;
  double rcond_ = 0;
  lapack_int rank_ = 0;
  Eigen::MatrixXd L_, B_;
  Eigen::VectorXd a_, r_, s_;
  std::vector<double> work_;
  std::vector<lapack_int> iwork_, jpvt_;
};

void anchor(benchmark::State& st, Solver solver, Shape shape, RankClass rc) {
  const System<double>& sys = problem(shape, rc);
  Pipeline p(sys, solver);
  // Same problem: agreement with femc's cod, checked once outside timing.
  if (int info = p.run()) return st.SkipWithError(("LAPACK info " + std::to_string(info)).c_str());
  Options<double> opt;
  const Solution<double> ref = solve(sys, opt);
  const double diff = (p.qdd() - ref.qdd).norm() / ref.qdd.norm();
  st.counters["rel_diff_vs_cod"] = diff;
  st.counters["rank"] = double(p.rank());
  if (!(diff <= 1e-8) || p.rank() != ref.diagnostics.rank.rank)
    return st.SkipWithError("anchor disagrees with femc cod (rel. difference or rank)");
  const AllocCounts before = alloc_counts();
  for (auto _ : st) {
    p.run();
    benchmark::DoNotOptimize(p.qdd().data());
  }
  set_alloc_counters(st, alloc_counts() - before);
}

}  // namespace

void register_lapacke() {
  for (RankClass rc : {RankClass::Full, RankClass::Deficient})
    for (Shape shape : kShapes)
      for (Solver solver : {Solver::Gelsd, Solver::Gelsy}) {
        const std::string name = std::string("lapacke/double/") + (solver == Solver::Gelsd ? "dgelsd" : "dgelsy") +
                                 "/" + bench::name(rc) + "/" + shape.label();
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { anchor(st, solver, shape, rc); })
            ->Unit(benchmark::kMicrosecond);
      }
}

}  // namespace femc::bench
