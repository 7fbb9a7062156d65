// The 256-bit floor target of issue 18 measured in pairs. The floor of a
// solve is its operation counts (op_count.cpp) × MPFR's unit costs. Timed
// apart, as the mpfr_op/ rows and the femc/ rows are, minutes from each
// other, the two move independently on a shared machine: the unit costs
// alone moved by 0.71–1.54× between adjacent runs of the -march=native
// comparison (bench/README.md), whose two builds make the same MPFR calls,
// and the ratio with them. Here every iteration times the unit costs on cache-resident
// operands (mpfr_operands.hpp) right before and right after one solve, all
// on the benchmark thread's CPU clock, so that the solve and the costs it is
// set against see the same state of the machine. scripts/bench-report.py
// multiplies the opcount/ rows by these costs, with the formula of the
// unpaired floor.
//
// Names: floor_pair/256/<cod|cod+ws>/<full|deficient>/200x80, the solves of
// femc/mpfr-256/cod (a fresh solve()) and femc/mpfr-256/cod+ws (one workspace,
// M alternating, the limb pool). Counters: solve (seconds per solve) and
// add, mul, fma, div, sqrt (seconds per operation, the mean of the samples
// around the solves).
//
// floor_pair/256/cholesky/<n>: mpfr_kernels' Cholesky factorization alone,
// of the benchmark's M at n = 50 (its 2500 numbers and their limbs, 0.16 MB,
// stay in cache) and at n = 200 (2.6 MB, cod's M at 200×80), with the same
// unit costs around it. The kernel is all MPFR calls, so its time over its
// own floor is what MPFR's arithmetic costs on a factorization's operands
// against the unit-cost operands, and the two sizes tell the working set's
// share of that. Counters: solve (seconds per factorization), the unit
// costs, and the kernel's operation counts: pairs (a mul and a sub:
// (n³ − n)/6, less the n − j that an exact zero L(j, k) skips), divs
// (n(n − 1)/2) and sqrts (n).
#include "mpfr_operands.hpp"  // first: mpreal.h before mpfr.h

#include <time.h>

#include <array>
#include <exception>
#include <iterator>
#include <string>

#include "femc/methods/workspace.hpp"
#include "femc/decomposition/mpfr_kernels.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

constexpr long kBits = kFloorBits;
constexpr int kSampleRuns = 40;  // of kN operations each: about 10 ms for the five kinds at 256 bits
constexpr int kSolves = 4;       // per benchmark: two of each M for cod+ws

double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Adds each kind's seconds per operation, sampled now, to sum. One untimed
// run first brings the operands back into cache after a solve (2.6 MB at
// 200×80) has pushed them out, as the unpaired mpfr_op/ rows have them.
void sample_unit_costs(Operands& ops, std::array<double, std::size(kOps)>& sum) {
  for (std::size_t k = 0; k < std::size(kOps); ++k) {
    ops.run(kOps[k]);
    const double t0 = thread_seconds();
    for (int r = 0; r < kSampleRuns; ++r) ops.run(kOps[k]);
    sum[k] += (thread_seconds() - t0) / (double(kSampleRuns) * kN);
  }
}

// The benchmark's iterations: per iteration prepare(), untimed, then the
// unit costs sampled, work() timed, the unit costs sampled again. Sets the
// counters solve (seconds per work()) and add … sqrt (seconds per operation,
// the mean of the samples). False, at once, when work() returns false.
template <class Prepare, class Work>
bool time_paired(benchmark::State& st, Operands& ops, Prepare&& prepare, Work&& work) {
  std::array<double, std::size(kOps)> costs{};
  double seconds = 0;
  long runs = 0;
  for (auto _ : st) {
    prepare();
    sample_unit_costs(ops, costs);
    const double t0 = thread_seconds();
    const bool ok = work();
    seconds += thread_seconds() - t0;
    sample_unit_costs(ops, costs);
    ++runs;
    if (!ok) return false;
  }
  st.counters["solve"] = seconds / double(runs);
  for (std::size_t k = 0; k < std::size(kOps); ++k) st.counters[name(kOps[k])] = costs[k] / (2.0 * double(runs));
  return true;
}

void paired(benchmark::State& st, bool workspace, RankClass rc) {
  Operands ops(kBits);  // before the limb pool: malloc'd limbs, as in the mpfr_op/ rows, in both modes
  LimbPoolScope pool(workspace);
  MpfrPrecision guard(kBits);
  const System<mpfr_real> sys = problem_as<mpfr_real>(kShapes[2], rc);
  System<mpfr_real> doubled = sys;
  doubled.M *= mpfr_real(2);
  Options<mpfr_real> opt;
  opt.method = Method::Cod;
  opt.assume_valid = true;
  Workspace<mpfr_real> ws;
  Solution<mpfr_real> sol;
  bool flip = false;
  auto solve_once = [&] {
    if (workspace) {
      solve(flip ? doubled : sys, opt, sol, ws);
      flip = !flip;
    } else {
      sol = solve(sys, opt);
    }
    benchmark::DoNotOptimize(sol.qdd.data());
  };
  try {
    // The warm-ups of femc_case.hpp: rounds of both systems for cod+ws, one solve for cod.
    for (int k = 0; k < (workspace ? 2 * kWorkspaceWarmupRounds : 1); ++k) solve_once();
    time_paired(st, ops, [] {}, [&] {
      solve_once();
      return true;
    });
    st.counters["rank"] = double(sol.diagnostics.rank.rank);
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
}

// The kernel's factorization of the n×n M of the benchmark problems, timed
// between unit-cost samples as the solves are.
void cholesky_paired(benchmark::State& st, Index n) {
  Operands ops(kBits);
  MpfrPrecision guard(kBits);
  const Shape shape = n == kShapes[1].n ? kShapes[1] : kShapes[2];
  const Matrix<mpfr_real> M = problem_as<mpfr_real>(shape, RankClass::Full).M;
  Matrix<mpfr_real> L = M;
  mpfr_kernels::Scratch scratch;
  if (!time_paired(st, ops, [&] { L = M; }, [&] { return mpfr_kernels::cholesky_lower_in_place(L, scratch); })) {
    st.SkipWithError("M not positive definite");
    return;
  }
  const double d = double(n);
  double skipped = 0;
  for (Index k = 0; k < n; ++k)
    for (Index j = k + 1; j < n; ++j)
      if (mpfr_zero_p(L(j, k).mpfr_srcptr())) skipped += d - double(j);
  st.counters["pairs"] = (d * d * d - d) / 6 - skipped;
  st.counters["divs"] = d * (d - 1) / 2;
  st.counters["sqrts"] = d;
}

}  // namespace

void register_floor_pairs() {
  for (const Shape& shape : {kShapes[1], kShapes[2]}) {
    const std::string n = "floor_pair/" + std::to_string(kBits) + "/cholesky/" + std::to_string(shape.n);
    benchmark::RegisterBenchmark(n.c_str(), [=](benchmark::State& st) { cholesky_paired(st, shape.n); })
        ->Iterations(shape.n == kShapes[1].n ? 40 : kSolves)
        ->Unit(benchmark::kMillisecond);
  }
  for (RankClass rc : {RankClass::Full, RankClass::Deficient})
    for (bool workspace : {false, true}) {
      const std::string n = "floor_pair/" + std::to_string(kBits) + "/cod" + (workspace ? "+ws" : "") + "/" +
                            name(rc) + "/" + kShapes[2].label();
      benchmark::RegisterBenchmark(n.c_str(), [=](benchmark::State& st) { paired(st, workspace, rc); })
          ->Iterations(kSolves)
          ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace femc::bench
