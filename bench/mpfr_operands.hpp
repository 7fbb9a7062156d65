#pragma once
// Operands for timing MPFR's arithmetic on raw mpfr_t (no allocation):
// arrays of random full-precision numbers of mixed sign (a > 0, for sqrt)
// and magnitude, as the entries of a factorization are, few enough to stay
// in cache. mpfr_ops.cpp times each operation alone (the unit costs of the
// multiprecision floor); floor_pair.cpp times them around each solve.
//
// Each run visits the operands in an order of its own. MPFR branches on its
// operands (signs, exponent differences, carries, normalization), and a
// sequence of a few hundred operations repeated run after run is learnt by
// the branch predictor, which no solve's sequence is: the same mul + sub on
// the same operands costs about 1.4× more with the order changed at every
// run than repeated (bench/README.md, "The floor's unit costs"), and
// mpfr_kernels' Cholesky factorization costs per multiply-add what the
// changing order costs. Order::Repeated keeps one of these orders (that of
// run 1, not the sequential one of run 0, so that only the repetition
// differs, not the pattern of memory accesses), for that comparison.
// mpreal.h first: it includes mpfr.h with MPFR's function-like macros off.
#include "femc/scalar/mpfr.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <vector>

namespace femc::bench {

inline constexpr int kN = 512;  // operands per run(): a few cache-resident rows

// Operand k of run r, 0 ≤ k < kN: an arithmetic progression modulo kN with
// an odd stride (so a permutation, kN being a power of two), stride and
// start changing from run to run; an order recurs only every 512 runs, far
// beyond what a branch predictor's history holds.
inline int visit(unsigned run, int k) {
  static_assert((kN & (kN - 1)) == 0, "kN must be a power of two");
  const unsigned stride = 2 * ((run * 37u) % (kN / 2)) + 1, start = (run * 97u) % kN;
  return int((start + unsigned(k) * stride) % kN);
}

enum class Order { Changing, Repeated };

enum class Op { Add, Mul, Fma, Div, Sqrt };
inline constexpr Op kOps[] = {Op::Add, Op::Mul, Op::Fma, Op::Div, Op::Sqrt};

inline const char* name(Op op) {
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
  explicit Operands(long bits, Order order = Order::Changing) : order_(order), a_(kN), b_(kN), c_(kN), d_(kN) {
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
      mpfr_init2(d_[i].x, bits);
      mpfr_set_zero(d_[i].x, 1);
    }
    gmp_randclear(rs);
  }
  ~Operands() {
    for (int i = 0; i < kN; ++i)
      for (auto* v : {&a_[i], &b_[i], &c_[i], &d_[i]}) mpfr_clear(v->x);
  }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;

  // kN operations op, each into d[i] from the fixed a, b (and c, the addend
  // of fma): every run, and every kind, sees the same operands whatever ran
  // before, in the run's order.
  void run(Op op) {
    const unsigned r = order_ == Order::Changing ? runs_++ : 1;
    for (int k = 0; k < kN; ++k) {
      const int i = visit(r, k);
      mpfr_ptr d = d_[i].x;
      mpfr_srcptr a = a_[i].x, b = b_[(i + 1) % kN].x, c = c_[i].x;
      switch (op) {
        case Op::Add: mpfr_add(d, a, b, MPFR_RNDN); break;
        case Op::Mul: mpfr_mul(d, a, b, MPFR_RNDN); break;
        case Op::Fma: mpfr_fma(d, a, b, c, MPFR_RNDN); break;
        case Op::Div: mpfr_div(d, a, b, MPFR_RNDN); break;
        case Op::Sqrt: mpfr_sqrt(d, a, MPFR_RNDN); break;
      }
    }
  }

 private:
  struct Var { mpfr_t x; };
  Order order_;
  unsigned runs_ = 0;
  std::vector<Var> a_, b_, c_, d_;
};

}  // namespace femc::bench
