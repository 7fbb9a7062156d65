// The double instantiations the fuzz target needs, compiled by clang with the
// fuzzer's sanitizers (the main library is built by the project's compiler).
#include "femc/methods/cod.hxx"
#include "femc/methods/kkt.hxx"
#include "femc/methods/literal.hxx"
#include "femc/methods/nullspace.hxx"
#include "femc/scalar/builtin.hpp"
#include "femc/solve.hxx"

namespace femc {
template Solution<double> solve_literal<double>(const System<double>&, const Options<double>&);
template Solution<double> solve_cod<double>(const System<double>&, const Options<double>&);
template Solution<double> solve_kkt<double>(const System<double>&, const Options<double>&);
template Solution<double> solve_nullspace<double>(const System<double>&, const Options<double>&);
template Solution<double> solve<double>(const System<double>&, const Options<double>&);
template void validate<double>(const System<double>&);
}  // namespace femc
