#pragma once
// The femc side of the suite: one benchmark per (scalar, method, rank class,
// shape) timing femc::solve on a fixed system, repeated, after one warm-up
// solve; heap allocations per solve are counted over the timed loop.
//
// Names: femc/<scalar>/<method>/<full|deficient>/<n>x<m>. Method "cod" etc.
// runs with Options::assume_valid (the method alone, like the LAPACKE
// anchor); "cod+validate" is the call a user makes by default.
#include <benchmark/benchmark.h>

#include <exception>
#include <initializer_list>
#include <string>

#include "alloc_count.hpp"
#include "femc/solve.hpp"
#include "problems.hpp"

namespace femc::bench {

// How much of a combination to run (the slow ones are restricted).
enum class Budget {
  Skip,    // not run; the report says so
  Timed,   // warm-up solve, then as many solves as --benchmark_min_time needs
  Once,    // one cold solve, no warm-up (too slow to repeat in `make bench`)
};

struct NoGuard {
  explicit NoGuard(long) {}
};

inline void set_alloc_counters(benchmark::State& st, const AllocCounts& d) {
  using C = benchmark::Counter;
  st.counters["allocs"] = C(double(d.mallocs), C::kAvgIterations);
  st.counters["alloc_bytes"] = C(double(d.bytes), C::kAvgIterations);
  st.counters["news"] = C(double(d.news), C::kAvgIterations);
  st.counters["gmp_allocs"] = C(double(d.gmp), C::kAvgIterations);
}

// Guard sets the working precision (MpfrPrecision for MPFR) before any
// number of the system is created.
template <class S, class Guard>
void solve_case(benchmark::State& st, Method method, bool validate, Shape shape, RankClass rc, long bits,
                bool warmup) {
  Guard guard(bits);
  const System<S> sys = problem_as<S>(shape, rc);
  Options<S> opt;
  opt.method = method;
  opt.assume_valid = !validate;
  try {
    if (warmup) benchmark::DoNotOptimize(solve(sys, opt).qdd.data());
    Index rank = -1;
    const AllocCounts before = alloc_counts();
    for (auto _ : st) {
      const Solution<S> s = solve(sys, opt);
      benchmark::DoNotOptimize(s.qdd.data());
      rank = s.diagnostics.rank.rank;
    }
    set_alloc_counters(st, alloc_counts() - before);
    st.counters["rank"] = double(rank);
    st.counters["warm"] = warmup ? 1 : 0;
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
}

// Registers scalar × methods × shapes × both rank classes, asking budget()
// for each; kkt is not registered for a rank-deficient A (it refuses it by
// design). with_validate adds a "cod+validate" row per shape.
template <class S, class Guard = NoGuard>
void register_solves(const std::string& scalar, long bits, std::initializer_list<Method> methods,
                     std::initializer_list<Shape> shapes, Budget (*budget)(Method, Shape), bool with_validate) {
  for (RankClass rc : {RankClass::Full, RankClass::Deficient})
    for (Shape shape : shapes) {
      auto add = [&](Method method, bool validate) {
        const Budget b = budget(method, shape);
        if (b == Budget::Skip) return;
        const std::string name = "femc/" + scalar + "/" + to_string(method) + (validate ? "+validate" : "") + "/" +
                                 bench::name(rc) + "/" + shape.label();
        auto* bm = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
          solve_case<S, Guard>(st, method, validate, shape, rc, bits, b == Budget::Timed);
        });
        bm->Unit(benchmark::kMicrosecond);
        if (b == Budget::Once) bm->Iterations(1);
      };
      for (Method method : methods) {
        if (method == Method::Kkt && rc == RankClass::Deficient) continue;
        add(method, false);
      }
      if (with_validate) add(Method::Cod, true);
    }
}

// One registration function per translation unit (one scalar family each).
void register_builtin();
void register_qd();
void register_mpfr();
void register_exact();
void register_lapacke();
void register_mpfr_ops();
void register_op_counts();

}  // namespace femc::bench
