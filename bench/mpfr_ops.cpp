// The per-operation cost of MPFR at 106, 212 and 256 bits: add, mul, fma,
// div and sqrt on raw mpfr_t operands (no allocation), over arrays of
// random full-precision operands of mixed sign (a > 0, for sqrt) and magnitude, as the entries
// of a factorization are, visited in an order that changes at every run
// (mpfr_operands.hpp). These are the unit costs of the multiprecision floor
// (report: operation counts of op_count.cpp × these costs). At 256 bits the
// rows mpfr_op/256/<op>/repeated time the same operations in one order
// repeated, which the branch predictor learns.
// "mpreal_axpy" is c += a·b through mpreal's operators (a temporary per
// product), in the changing order, for comparison with the raw mul + add.
#include "mpfr_operands.hpp"  // first: mpreal.h before mpfr.h

#include <string>
#include <vector>

#include "femc_case.hpp"

namespace femc::bench {
namespace {

void op_cost(benchmark::State& st, long bits, Op op, Order order) {
  Operands ops(bits, order);
  for (auto _ : st) ops.run(op);
  st.counters["ops"] = kN;  // per iteration; ns/op = time / ops
}

void mpreal_axpy(benchmark::State& st, long bits) {
  MpfrPrecision guard(bits);
  std::vector<mpfr_real> a(kN), b(kN), c(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = mpfr_real(1) + mpfr_real(i) / kN;
    b[i] = mpfr_real(2) - mpfr_real(i) / (3 * kN);
    c[i] = mpfr_real(i % 5) / 7;
  }
  const AllocCounts before = alloc_counts();
  unsigned run = 0;
  for (auto _ : st) {
    for (int k = 0; k < kN; ++k) {
      const int i = visit(run, k);
      c[i] += a[i] * b[(i + 1) % kN];
    }
    ++run;
  }
  set_alloc_counters(st, alloc_counts() - before);
  st.counters["ops"] = kN;
}

}  // namespace

void register_mpfr_ops() {
  for (long bits : mpfr_bench_bits()) {
    for (Op op : kOps) {
      const std::string n = "mpfr_op/" + std::to_string(bits) + "/" + name(op);
      benchmark::RegisterBenchmark(n.c_str(), [=](benchmark::State& st) { op_cost(st, bits, op, Order::Changing); });
      if (bits == kFloorBits)
        benchmark::RegisterBenchmark((n + "/repeated").c_str(),
                                     [=](benchmark::State& st) { op_cost(st, bits, op, Order::Repeated); });
    }
    const std::string n = "mpfr_op/" + std::to_string(bits) + "/mpreal_axpy";
    benchmark::RegisterBenchmark(n.c_str(), [=](benchmark::State& st) { mpreal_axpy(st, bits); });
  }
}

}  // namespace femc::bench
