#pragma once
// The femc side of the suite: one benchmark per (scalar, method, rank class,
// shape) timing femc::solve on a fixed system, repeated, after one warm-up
// solve; heap allocations per solve are counted over the timed loop.
//
// Names: femc/<scalar>/<method>/<full|deficient>/<n>x<m>. Method "cod" etc.
// runs with Options::assume_valid (the method alone, like the LAPACKE
// anchor); "cod+validate" is the call a user makes by default. The workspace
// rows (methods/workspace.hpp) solve into one Solution through one
// femc::Workspace: "cod+ws" (likewise "kkt+ws", "nullspace+ws", "literal+ws") alternates
// between the system and a copy with 2·M (every solve factors M, as when
// M(q) changes along a trajectory), "cod+ws-fixedM" solves the same system
// (M's factor reused, as in a sweep over A, b, Q, C). Under MPFR the
// workspace rows run with the limb pool (scalar/mpfr_pool.hpp).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "alloc_count.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/mpfr_pool.hpp"
#include "femc/methods/workspace.hpp"
#include "femc/scalar/precisions.hpp"
#include "femc/solve.hpp"
#include "problems.hpp"

namespace femc::bench {
using namespace femc::alloc;  // tests/support/alloc_count.hpp

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

enum class Mode { Plain, Validate, Workspace, WorkspaceFixedM };

inline const char* suffix(Mode mode) {
  switch (mode) {
    case Mode::Plain: return "";
    case Mode::Validate: return "+validate";
    case Mode::Workspace: return "+ws";
    case Mode::WorkspaceFixedM: return "+ws-fixedM";
  }
  return "?";
}

// The limb pool for the duration of a workspace benchmark; the counting
// allocator of main() comes back after it (blocks of either are malloc's).
struct LimbPoolScope {
  explicit LimbPoolScope(bool on) : on_(on) {
    if (on_) install_mpfr_limb_pool();
  }
  ~LimbPoolScope() {
    if (on_) install_gmp_counting();
  }
  bool on_;
};

// Solves into one Solution through one workspace, alternating between a and
// b (the same system for cod+ws-fixedM), after a warm-up of two rounds (see
// tests/test_workspace.cpp). Returns the rank of the last solve.
inline constexpr int kWorkspaceWarmupRounds = 2;  // rounds of (a, b) before a workspace row is timed

template <class S>
Index time_workspace_solves(benchmark::State& st, const System<S>& a, const System<S>& b, const Options<S>& opt) {
  Workspace<S> ws;
  Solution<S> sol;
  for (int round = 0; round < kWorkspaceWarmupRounds; ++round) {
    solve(a, opt, sol, ws);
    solve(b, opt, sol, ws);
  }
  bool flip = false;
  const AllocCounts before = alloc_counts();
  for (auto _ : st) {
    solve(flip ? b : a, opt, sol, ws);
    flip = !flip;
    benchmark::DoNotOptimize(sol.qdd.data());
  }
  set_alloc_counters(st, alloc_counts() - before);
  return sol.diagnostics.rank.rank;
}

// solve() as a user calls it, a fresh Solution each time.
template <class S>
Index time_fresh_solves(benchmark::State& st, const System<S>& sys, const Options<S>& opt, bool warmup) {
  if (warmup) benchmark::DoNotOptimize(solve(sys, opt).qdd.data());
  Index rank = -1;
  const AllocCounts before = alloc_counts();
  for (auto _ : st) {
    const Solution<S> s = solve(sys, opt);
    benchmark::DoNotOptimize(s.qdd.data());
    rank = s.diagnostics.rank.rank;
  }
  set_alloc_counters(st, alloc_counts() - before);
  return rank;
}

// Guard sets the working precision (MpfrPrecision for MPFR) before any
// number of the system is created.
template <class S, class Guard>
void solve_case(benchmark::State& st, Method method, Mode mode, Shape shape, RankClass rc, long bits, bool warmup) {
  const bool workspace = mode == Mode::Workspace || mode == Mode::WorkspaceFixedM;
  LimbPoolScope pool(workspace && std::is_same_v<S, mpfr_real>);
  Guard guard(bits);
  const System<S> sys = problem_as<S>(shape, rc);
  Options<S> opt;
  opt.method = method;
  opt.assume_valid = mode != Mode::Validate;
  try {
    Index rank = -1;
    if constexpr (!ScalarTraits<S>::exact) {  // rational has no cod, hence no workspace
      if (workspace) {
        System<S> other = sys;
        if (mode == Mode::Workspace) other.M *= S(2);
        rank = time_workspace_solves(st, sys, other, opt);
      }
    }
    if (!workspace) rank = time_fresh_solves(st, sys, opt, warmup);
    st.counters["rank"] = double(rank);
    st.counters["warm"] = warmup || workspace ? 1 : 0;
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
}

// Registers scalar × methods × shapes × both rank classes, asking budget()
// for each; a method that refuses rank-deficient A (kkt) is not registered
// for one. with_validate adds the "cod+validate", "cod+ws",
// "cod+ws-fixedM", "kkt+ws", "nullspace+ws" and "literal+ws" rows per shape
// (a workspace row only where its method is timed, not run once: its
// warm-up alone is four solves).
// femc's methods of an arithmetic (methods/list.hpp), in the list's order,
// but `except`.
inline std::vector<Method> methods_of(Arithmetic a, std::initializer_list<Method> except = {}) {
  std::vector<Method> out;
  for (const MethodInfo& info : methods())
    if (info.capabilities.arithmetic == a && std::find(except.begin(), except.end(), info.method) == except.end())
      out.push_back(info.method);
  return out;
}

// The scalars the solve rows were registered at, in order, as "name=bits"
// (bits 0 but for MPFR): main.cpp writes them into the JSON context
// (femc_scalars), the order and bits scripts/bench-report.py reads.
inline std::vector<std::string>& registered_scalars() {
  static std::vector<std::string> list;
  return list;
}

// The MPFR precision of the floor target (floor_pair.cpp, the report's
// time ÷ floor), and the bits MPFR is timed at: those of libqd's types (the
// table's rows of header qd, in its order: dd's 106, qd's 212), to set them
// against MPFR at their precision, then the floor target's. The report's
// tables take them in this order (femc_scalars), ascending today.
inline constexpr long kFloorBits = 256;
inline std::vector<long> mpfr_bench_bits() {
  std::vector<long> out;
#define FEMC_BENCH_QD_BITS(Type, tag, header, name, arithmetic, models, bits, what) \
  if (std::string(#header) == "qd") out.push_back(bits);
  FEMC_PRECISIONS(FEMC_BENCH_QD_BITS)
#undef FEMC_BENCH_QD_BITS
  out.push_back(kFloorBits);
  return out;
}

template <class S, class Guard = NoGuard>
void register_solves(const std::string& scalar, long bits, const std::vector<Method>& methods,
                     const std::vector<Shape>& shapes, const std::function<Budget(Method, Shape)>& budget,
                     bool with_validate) {
  const std::string entry = scalar + "=" + std::to_string(bits);
  if (std::find(registered_scalars().begin(), registered_scalars().end(), entry) == registered_scalars().end())
    registered_scalars().push_back(entry);
  for (RankClass rc : {RankClass::Full, RankClass::Deficient})
    for (Shape shape : shapes) {
      auto add = [&](Method method, Mode mode) {
        const Budget b = budget(method, shape);
        if (b == Budget::Skip) return;
        const std::string name = "femc/" + scalar + "/" + to_string(method) + suffix(mode) + "/" +
                                 bench::name(rc) + "/" + shape.label();
        auto* bm = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
          solve_case<S, Guard>(st, method, mode, shape, rc, bits, b == Budget::Timed);
        });
        bm->Unit(benchmark::kMicrosecond);
        if (b == Budget::Once) bm->Iterations(1);
      };
      for (Method method : methods) {
        if (!method_info(method).capabilities.rank_deficient && rc == RankClass::Deficient) continue;
        add(method, Mode::Plain);
      }
      if (with_validate) {
        for (Mode mode : {Mode::Validate, Mode::Workspace, Mode::WorkspaceFixedM}) add(Method::Cod, mode);
        for (const MethodInfo& info : femc::methods()) {  // every other method with a workspace (methods/list.hpp)
          const Method method = info.method;
          if (!info.has_workspace || method == Method::Cod) continue;
          if ((info.capabilities.rank_deficient || rc == RankClass::Full) &&
              budget(method, shape) == Budget::Timed)
            add(method, Mode::Workspace);
        }
      }
    }
}

// The registration functions, one per translation unit.
void register_solves_at_every_precision();  // bench_solves.cpp: the precision table
void register_lapacke();
void register_dense_kernels();
void register_sparse_scaling();
void register_suitesparse();  // bench_suitesparse.cpp, when SuiteSparse is found
void register_mpfr_ops();
void register_floor_pairs();  // floor_pair.cpp: the 256-bit floor target, unit costs timed around each solve
void register_op_counts();

}  // namespace femc::bench
