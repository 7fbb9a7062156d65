// Operation counts of each method (counted.hpp): one solve per method,
// rank class and multiprecision shape, with the method's body instantiated
// here for the counting scalar. The report multiplies these counts by MPFR's
// per-operation costs (mpfr_ops.cpp) to get the floor of a multiprecision
// solve: the time its arithmetic alone needs, with no temporaries, copies
// or allocation.
#include <string>

#include "counted.hpp"
#include "femc/methods/cod.hxx"
#include "femc/methods/kkt.hxx"
#include "femc/methods/literal.hxx"
#include "femc/methods/nullspace.hxx"
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

void register_op_counts() {
  const struct {
    const char* name;
    Solver solver;
  } methods[] = {{"literal", solve_literal<Counted>},
                 {"cod", solve_cod<Counted>},
                 {"kkt", solve_kkt<Counted>},
                 {"nullspace", solve_nullspace<Counted>}};
  for (RankClass rc : {RankClass::Full, RankClass::Deficient})
    for (Shape shape : {kShapes[0], kShapes[1], kShapes[2]})
      for (const auto& m : methods) {
        if (std::string(m.name) == "kkt" && rc == RankClass::Deficient) continue;
        const std::string name = std::string("opcount/") + m.name + "/" + bench::name(rc) + "/" + shape.label();
        Solver solver = m.solver;
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { count_ops(st, solver, shape, rc); })
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
}

}  // namespace femc::bench
