// The per-operation cost of MPFR at 106, 212 and 256 bits: add, mul, fma,
// div and sqrt on raw mpfr_t operands (no allocation), over arrays of
// random full-precision operands of mixed sign (a > 0, for sqrt) and magnitude, as the entries
// of a factorization are. These are the unit costs of the multiprecision
// floor (report: operation counts of op_count.cpp × these costs).
// "mpreal_axpy" is c += a·b through mpreal's operators (a temporary per
// product), for comparison with the raw mul + add.
// mpreal.h first: it includes mpfr.h with MPFR's function-like macros off.
#include "femc/scalar/mpfr.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <string>
#include <vector>

#include "femc_case.hpp"

namespace femc::bench {
namespace {

constexpr int kN = 512;  // operands per iteration: a few cache-resident rows

enum class Op { Add, Mul, Fma, Div, Sqrt };

const char* name(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Mul: return "mul";
    case Op::Fma: return "fma";
    case Op::Div: return "div";
    case Op::Sqrt: return "sqrt";
  }
  return "?";
}

class Operands {
 public:
  explicit Operands(long bits) : a_(kN), b_(kN), c_(kN) {
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 12345);
    for (int i = 0; i < kN; ++i) {
      for (auto* v : {&a_[i], &b_[i], &c_[i]}) {
        mpfr_init2(v->x, bits);
        mpfr_urandomb(v->x, rs);  // [0, 1), full precision
        mpfr_add_ui(v->x, v->x, 1, MPFR_RNDN);
        mpfr_mul_2si(v->x, v->x, (i * 7) % 9 - 4, MPFR_RNDN);  // exponents −4 … 4
        if (i % 3 == 0 && v != &a_[i]) mpfr_neg(v->x, v->x, MPFR_RNDN);  // a stays > 0 for sqrt
      }
    }
    gmp_randclear(rs);
  }
  ~Operands() {
    for (int i = 0; i < kN; ++i)
      for (auto* v : {&a_[i], &b_[i], &c_[i]}) mpfr_clear(v->x);
  }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;

  void run(Op op) {
    for (int i = 0; i < kN; ++i) {
      mpfr_ptr c = c_[i].x;
      mpfr_srcptr a = a_[i].x, b = b_[(i + 1) % kN].x;
      switch (op) {
        case Op::Add: mpfr_add(c, a, b, MPFR_RNDN); break;
        case Op::Mul: mpfr_mul(c, a, b, MPFR_RNDN); break;
        case Op::Fma: mpfr_fma(c, a, b, c, MPFR_RNDN); break;
        case Op::Div: mpfr_div(c, a, b, MPFR_RNDN); break;
        case Op::Sqrt: mpfr_sqrt(c, a, MPFR_RNDN); break;
      }
    }
  }

 private:
  struct Var { mpfr_t x; };
  std::vector<Var> a_, b_, c_;
};

void op_cost(benchmark::State& st, long bits, Op op) {
  Operands ops(bits);
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
  for (auto _ : st)
    for (int i = 0; i < kN; ++i) c[i] += a[i] * b[(i + 1) % kN];
  set_alloc_counters(st, alloc_counts() - before);
  st.counters["ops"] = kN;
}

}  // namespace

void register_mpfr_ops() {
  for (long bits : {106L, 212L, 256L}) {
    for (Op op : {Op::Add, Op::Mul, Op::Fma, Op::Div, Op::Sqrt}) {
      const std::string n = "mpfr_op/" + std::to_string(bits) + "/" + name(op);
      benchmark::RegisterBenchmark(n.c_str(), [=](benchmark::State& st) { op_cost(st, bits, op); });
    }
    const std::string n = "mpfr_op/" + std::to_string(bits) + "/mpreal_axpy";
    benchmark::RegisterBenchmark(n.c_str(), [=](benchmark::State& st) { mpreal_axpy(st, bits); });
  }
}

}  // namespace femc::bench
