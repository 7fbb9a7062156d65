// Operation counts of each method (counted.hpp): one solve per method,
// rank class and multiprecision shape, with the method's body instantiated
// here for the counting scalar. The report multiplies these counts by MPFR's
// per-operation costs (mpfr_ops.cpp) to get the floor of a multiprecision
// solve: the time its arithmetic alone needs, with no temporaries, copies
// or allocation.
#include <string>

#include "counted.hpp"
#include "femc/methods/units.hxx"  // every method's body (generated from methods/list.hpp)
#include "femc_case.hpp"

namespace femc::bench {
namespace {

using Solver = Solution<Counted> (*)(const System<Counted>&, const Options<Counted>&);

void count_ops(benchmark::State& st, Solver solver, Shape shape, RankClass rc) {
  const System<Counted> sys = problem_as<Counted>(shape, rc);
  const Options<Counted> opt;
  OpCounts total;
  for (auto _ : st) {
    g_ops = OpCounts{};
    const Solution<Counted> s = solver(sys, opt);
    benchmark::DoNotOptimize(s.qdd.data());
    total = g_ops;
    st.counters["rank"] = double(s.diagnostics.rank.rank);
  }
  st.counters["add"] = double(total.add);
  st.counters["mul"] = double(total.mul);
  st.counters["div"] = double(total.div);
  st.counters["sqrt"] = double(total.sqrt);
  st.counters["cmp"] = double(total.cmp);
}

}  // namespace

// Every method of floating arithmetic in the one list (methods/list.hpp); a
// method that refuses rank-deficient A is counted on full-rank cases only.
void register_op_counts() {
  const struct {
    Method method;
    Solver solver;
  } methods[] = {
#define FEMC_OP_COUNT(name, Enumerator, arithmetic, ...) FEMC_OP_COUNT_##arithmetic(name, Enumerator)
#define FEMC_OP_COUNT_Floating(name, Enumerator) {Method::Enumerator, solve_##name<Counted>},
#define FEMC_OP_COUNT_Exact(name, Enumerator)
      FEMC_METHODS(FEMC_OP_COUNT)
#undef FEMC_OP_COUNT
#undef FEMC_OP_COUNT_Floating
#undef FEMC_OP_COUNT_Exact
  };
  for (RankClass rc : {RankClass::Full, RankClass::Deficient})
    for (Shape shape : {kShapes[0], kShapes[1], kShapes[2]})
      for (const auto& m : methods) {
        if (rc == RankClass::Deficient && !method_info(m.method).capabilities.rank_deficient) continue;
        const std::string name = "opcount/" + to_string(m.method) + "/" + bench::name(rc) + "/" + shape.label();
        Solver solver = m.solver;
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { count_ops(st, solver, shape, rc); })
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
}

}  // namespace femc::bench
