#pragma once
// femc's front door in C++: solve one System<S> by the method of Options<S>.
//
//   femc::System<double> sys = femc::make_system<double>(M, A, b, Q);
//   femc::Solution<double> s = femc::solve(sys);           // method cod
//
// With a data precision (Options::data_precision), M and W are first judged
// and symmetrized at it (prepare_rounded_data), and every rank is decided
// above the data's rounding level (rank.hpp). Then validate(sys) runs
// (unless opt.assume_valid): bad input throws
// InputError naming the field; a method that cannot solve a valid system
// throws MethodError. A result that is not finite (overflow at this
// precision) throws MethodError rather than returning NaN or Inf.
//
// Explicit instantiations (src/) exist for double, long double, float128,
// double_double, quad_double, mpfr_real (the floating methods of
// methods/list.hpp) and rational (method exact). Include the scalar's header from femc/scalar/.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/sparse_system.hpp"
#include "femc/system.hpp"

namespace femc {

// The methods' storage between solves: methods/workspace.hpp (include it to
// make one; solve.hpp needs only its name).
template <class S>
struct Workspace;

template <class S>
Solution<S> solve(const System<S>& sys, const Options<S>& opt = {});

// The same into sol, for repeated solves: a method with a workspace (cod, kkt,
// nullspace and literal) runs in its member of ws (methods/workspace.hpp: no heap allocation after the
// first solve of a shape, the factor of an unchanged M reused, and
// validate()'s check of that M skipped), the other methods as solve() runs
// them. The result is solve()'s, bit for bit. With a data precision
// (Options::data_precision) the solve runs as solve() runs it: M and W are
// judged, and perhaps symmetrized, at the data's precision first. On an
// exception sol is unspecified.
template <class S>
void solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol, Workspace<S>& ws);

// A sparse system (sparse_system.hpp): validate(sys) on its stored entries
// (unless opt.assume_valid), then method `sparse`, without a dense matrix;
// the definiteness of M and W is decided by the method's own Cholesky
// factorizations (the same InputError, before any result), not twice.
// Another method is run on the dense copy (to_dense), for comparisons on
// systems small enough to store dense. Rounded data (Options::
// data_precision) are judged by the dense entry only: InputError here.
template <class S>
Solution<S> solve(const SparseSystem<S>& sys, const Options<S>& opt = {});

}  // namespace femc
