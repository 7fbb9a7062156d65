#pragma once
#include <cmath>

#include "femc/errors.hpp"
#include "femc/methods/workspace.hpp"
#include "femc/methods/declarations.hpp"
#include "femc/methods/sparse.hpp"
#include "femc/scalar/traits.hpp"
#include "femc/solve.hpp"
#include "femc/system.hxx"

namespace femc {
namespace detail {

template <class S>
bool all_finite(const Solution<S>& s) {
  auto ok = [](const Vector<S>& v) {
    for (Index i = 0; i < v.size(); ++i)
      if (!Eigen::numext::isfinite(v(i))) return false;
    return true;
  };
  return ok(s.qdd) && ok(s.QN) && ok(s.QW) && ok(s.Qc) && ok(s.lambda) && Eigen::numext::isfinite(s.Gg_min) &&
         Eigen::numext::isfinite(s.delta_norm_sq);
}

// The warnings of a floating working precision: the rank near its own
// tolerance, and ill-conditioning at its unit roundoff.
template <class S>
void add_floating_warnings(Diagnostics<S>& d) {
  const S margin(100);
  const auto& r = d.rank;
  const S u = unit_roundoff<S>();
  if (r.rank > 0 && r.smallest_kept <= margin * r.tol * r.largest)
    d.warnings.push_back("rank decision is close to the tolerance: the smallest kept magnitude is " +
                         ScalarTraits<S>::format(S(r.smallest_kept / r.largest)) + " of the largest");
  if (d.kappa_M && *d.kappa_M * u > S(1) / S(1000))
    d.warnings.push_back("M is ill-conditioned at this precision: kappa_M·u = " +
                         ScalarTraits<S>::format(S(*d.kappa_M * u)));
  if (d.kappa_B && *d.kappa_B * u > S(1) / S(1000))
    d.warnings.push_back("the constraints are ill-conditioned at this precision: kappa_B·u = " +
                         ScalarTraits<S>::format(S(*d.kappa_B * u)));
}

// Warnings that tell a user when to distrust the digits of a result. A kept
// magnitude within a factor 100 of the cut could have been dropped by a
// slightly different tolerance (the pseudoinverse is discontinuous there);
// dropped magnitudes are at most τ·d₁ by definition, of the order of the
// rounding errors of an exactly rank-deficient matrix, and not warned about.
// The same holds of the data's rounding level (rank.hpp, data_rank_cut), at
// every working precision, exact included: a kept magnitude within 100× of
// it may be the rounding's creation (data whose errors exceed the model of
// data_precision.hpp), and so may the answer.
template <class S>
void add_warnings(Diagnostics<S>& d) {
  const S margin(100);
  const auto& r = d.rank;
  if (r.rank > 0 && r.data_tol > S(0) && r.smallest_kept <= margin * r.data_tol * r.largest) {
    const std::string kept = format_short(S(r.smallest_kept / r.largest));
    const std::string level = format_short(r.data_tol);
    if (r.data_tol_applied)
      d.warnings.push_back("rank decision is close to the data's rounding level: the smallest kept magnitude is " +
                           kept + " of the largest, within 100× of the level " + level + " of " +
                           to_string(d.data_precision) + " data; the answer may depend on the data's rounding");
    else
      d.warnings.push_back("the rank keeps a magnitude " + kept + " of the largest, within 100× of the level " +
                           level + " that rounding to " + to_string(d.suspected_data_precision) +
                           " creates: if the data were rounded to " + to_string(d.suspected_data_precision) +
                           ", this constraint direction may be rounding noise; state the data's precision");
  }
  if constexpr (!ScalarTraits<S>::exact) add_floating_warnings(d);
}

}  // namespace detail

namespace detail {
// What solve() does after the method: no non-finite result, warnings, notes
// of what was done to the data (before the method's own), names.
template <class S>
void finish(const Options<S>& opt, Solution<S>& sol, std::vector<std::string>& data_notes) {
  if constexpr (!ScalarTraits<S>::exact) {
    if (!all_finite(sol))
      throw MethodError("the result overflows " + ScalarTraits<S>::name() +
                        " (an intermediate is not finite); rescale the system or raise the precision");
  }
  Diagnostics<S>& d = sol.diagnostics;
  d.data_precision = opt.data_precision;
  d.suspected_data_precision = opt.suspected_data_precision;
  add_warnings(d);
  d.notes.insert(d.notes.begin(), data_notes.begin(), data_notes.end());
  d.method = to_string(opt.method);
  d.precision = ScalarTraits<S>::name();
}
// "'exact'": the methods of an arithmetic, quoted, for messages.
inline std::string methods_of(Arithmetic a) {
  std::string s;
  for (const MethodInfo& info : methods())
    if (info.capabilities.arithmetic == a) s += (s.empty() ? "'" : ", '") + std::string(info.name) + "'";
  return s;
}
}  // namespace detail

template <class S>
Solution<S> solve(const System<S>& given, const Options<S>& opt) {
  std::vector<std::string> notes;
  System<S> storage;
  const System<S>& sys = prepare_rounded_data(given, opt.data_precision, storage, notes);
  if (!opt.assume_valid) validate(sys);
  Solution<S> sol;
  // One case per line of methods/list.hpp; a method runs at the scalar types
  // of its arithmetic only (the others are not instantiated).
  constexpr Arithmetic here = ScalarTraits<S>::exact ? Arithmetic::Exact : Arithmetic::Floating;
  switch (opt.method) {
#define FEMC_DISPATCH(name, Enumerator, arithmetic, ...)                                                      \
  case Method::Enumerator:                                                                                    \
    if constexpr (here == Arithmetic::arithmetic) sol = solve_##name(sys, opt);                               \
    else throw InputError("method", here == Arithmetic::Exact                                                 \
                                        ? "'" #name "' needs square roots; exact arithmetic runs only " +     \
                                              detail::methods_of(Arithmetic::Exact)                           \
                                        : "'" #name "' runs in exact rational arithmetic only (precision exact)"); \
    break;
    FEMC_METHODS(FEMC_DISPATCH)
#undef FEMC_DISPATCH
  }
  detail::finish(opt, sol, notes);
  return sol;
}

template <class S>
void solve(const System<S>& given, const Options<S>& opt, Solution<S>& sol, Workspace<S>& ws) {
  if constexpr (ScalarTraits<S>::exact) {
    sol = solve(given, opt);
  } else {
    auto run = [&](auto& method_ws) {
      std::vector<std::string> notes;
      if (!opt.assume_valid)
        detail::validate_system(given, [&] { method_ws.validate_mass(given.M); },
                                [&] { method_ws.validate_weight(given.W); });
      method_ws.solve(given, opt, sol);
      detail::finish(opt, sol, notes);
    };
    if (!opt.data_precision.exact()) {  // rounded data: judged, maybe copied
      sol = solve(given, opt);
      return;
    }
    // A method with a workspace (methods/list.hpp) runs in its member; the
    // others as solve() runs them.
    switch (opt.method) {
#define FEMC_RUN(name, Enumerator, arithmetic, workspace, ...) \
  FEMC_IF_WORKSPACE(workspace, case Method::Enumerator: run(ws.name); break;)
      FEMC_METHODS(FEMC_RUN)
#undef FEMC_RUN
      default:
        sol = solve(given, opt);
    }
  }
}

template <class S>
Solution<S> solve(const SparseSystem<S>& sys, const Options<S>& opt) {
  if (opt.method != Method::Sparse) return solve(to_dense(sys), opt);
  if (!opt.data_precision.exact())
    throw InputError("data_precision", "a sparse system is solved as exact data; rounded data (" +
                                           to_string(opt.data_precision) + ") are judged by the dense entry");
  if (!opt.assume_valid) validate_entries(sys);  // solve_sparse's Cholesky factors decide definiteness
  Solution<S> sol;
  if constexpr (ScalarTraits<S>::exact) {
    throw InputError("method", "'sparse' needs square roots; exact arithmetic runs only " +
                                   detail::methods_of(Arithmetic::Exact));
  } else {
    sol = solve_sparse(sys, opt);
  }
  std::vector<std::string> notes;
  detail::finish(opt, sol, notes);
  return sol;
}

}  // namespace femc
