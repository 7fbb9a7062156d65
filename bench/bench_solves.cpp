// Solve times and allocations of every method at every precision of the
// table (scalar/precisions.hpp; femc_case.hpp times one combination): a
// precision added to the table is timed here without an edit. How far a
// precision runs follows from its arithmetic, not from its name:
//
//   hardware (the table's header `builtin`)  every shape. At 1000×400 the
//       anchor, double (the precision of the LAPACKE rows), times every
//       method but literal and sparse, which run once; the others (x87 long
//       double, about ten times double) run once, and literal, which would
//       take minutes, not at all.
//   software floating (binary128, libqd, MPFR)  up to 200×80, literal once
//       at 200×80: at 1000×400 one solve takes a minute or more.
//   exact  10×4 and 50×20, the latter once: entries grow with every
//       elimination step.
//
// MPFR runs at the floor target's bits (kFloorBits: every method, and the
// cod+validate and workspace rows) and at the bits of each of libqd's types
// (the rows of header `qd`: dd at 106, qd at 212), factor-based methods only,
// to set double-double and quad-double against MPFR at their precision
// (mpfr_bench_bits()).
#include <iterator>

#include "femc/scalar/visit_precision.hpp"  // every scalar type of the table
#include "femc_case.hpp"

namespace femc::bench {
namespace {

enum class Kind { Hardware, Software, Exact };

// The one rule of how far a precision runs: every shape is asked, and the
// skipped ones are not registered.
template <class S>
Budget budget(Kind kind, Method method, Shape s) {
  switch (kind) {
    case Kind::Hardware:
      if (s.n < 1000) return Budget::Timed;
      // sparse on dense data (its Givens rotations cost about n·m², with the
      // merging of sparse rows on top) and literal: once at 1000×400 in
      // double. bench_sparse.cpp has sparse's own scaling runs.
      if (std::is_same_v<S, double>) return method == Method::Literal || method == Method::Sparse ? Budget::Once : Budget::Timed;
      return method == Method::Literal ? Budget::Skip : Budget::Once;
    case Kind::Software:
      if (s.n >= 1000) return Budget::Skip;
      return method == Method::Literal && s.n >= 200 ? Budget::Once : Budget::Timed;
    case Kind::Exact:
      if (s.n >= 200) return Budget::Skip;
      return s.n >= 50 ? Budget::Once : Budget::Timed;
  }
  return Budget::Skip;
}

// One row of the table: a fixed-precision type, or MPFR at each of
// mpfr_bench_bits().
template <class S>
void register_row(const std::string& name, Kind kind, Arithmetic arithmetic) {
  if constexpr (std::is_same_v<S, mpfr_real>) {
    for (long bits : mpfr_bench_bits()) {
      const bool floor = bits == kFloorBits;
      register_solves<S, MpfrPrecision>(mpfr_precision_name(bits), bits,
                                        floor ? methods_of(arithmetic) : methods_of(arithmetic, {Method::Literal}),
                                        {std::begin(kShapes), std::end(kShapes)}, [kind](Method m, Shape s) { return budget<S>(kind, m, s); },
                                        floor);
    }
  } else {
    register_solves<S>(name, 0, methods_of(arithmetic), {std::begin(kShapes), std::end(kShapes)},
                       [kind](Method m, Shape s) { return budget<S>(kind, m, s); }, std::is_same_v<S, double>);
  }
}

}  // namespace

void register_solves_at_every_precision() {
#define FEMC_BENCH_PRECISION(Type, tag, header, name, arithmetic, models, bits, what)                          \
  register_row<Type>(name, Arithmetic::arithmetic == Arithmetic::Exact ? Kind::Exact                           \
                           : std::string(#header) == "builtin"         ? Kind::Hardware                        \
                                                                       : Kind::Software,                       \
                     Arithmetic::arithmetic);
  FEMC_PRECISIONS(FEMC_BENCH_PRECISION)
#undef FEMC_BENCH_PRECISION
}

}  // namespace femc::bench
