// Solve times and allocations of every method in double, long double and
// binary128 (femc_case.hpp). double runs every shape; the software and x87
// types stop where one solve takes seconds.
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

// sparse on dense data (its Givens rotations cost about n·m² with the
// merging of sparse rows on top): once at 1000×400. Its own scaling runs are
// bench_sparse.cpp's.
Budget double_budget(Method method, Shape s) {
  return (method == Method::Literal || method == Method::Sparse) && s.n >= 1000 ? Budget::Once : Budget::Timed;
}

// x87: about ten times double. literal at 1000×400 would take minutes.
Budget long_double_budget(Method method, Shape s) {
  if (s.n >= 1000) return method == Method::Literal ? Budget::Skip : Budget::Once;
  return Budget::Timed;
}

// Software binary128: up to 200×80 only.
Budget float128_budget(Method method, Shape s) {
  if (s.n >= 1000) return Budget::Skip;
  return method == Method::Literal && s.n >= 200 ? Budget::Once : Budget::Timed;
}

}  // namespace

void register_builtin() {
  register_solves<double>("double", 0, methods_of(Arithmetic::Floating), {kShapes[0], kShapes[1], kShapes[2], kShapes[3]}, double_budget, true);
  register_solves<long double>("long-double", 0, methods_of(Arithmetic::Floating), {kShapes[0], kShapes[1], kShapes[2], kShapes[3]},
                               long_double_budget, false);
  register_solves<float128>("float128", 0, methods_of(Arithmetic::Floating), {kShapes[0], kShapes[1], kShapes[2]}, float128_budget, false);
}

}  // namespace femc::bench
