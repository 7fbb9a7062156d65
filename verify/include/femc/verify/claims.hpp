#pragma once
// The property of every claim, as a template over the scalar type and the
// solver under test. Each draws one exact case (support/generators.hpp),
// converts it to S, runs the solver and asserts the claim's identities with
// RC_ASSERT. Tolerances: each computed quantity v satisfies, to first order,
//   |v̂ − v| ≤ tol(|v|) = c·u·K·(data + |v|),   K = κ(M)·κ(P)²·κ(A),
//   c = 16(n + m)², data = 1 + ‖Q‖∞ + ‖C‖∞ + ‖b‖∞
// (the forward-error bound of tests/test_methods_agree.cpp: backward-stable
// factorizations, Higham Thms 10.3, 19.4, 20.1); an identity between computed
// quantities is checked to the sum of the bounds of its terms. u is the unit
// roundoff of S, so the same property is far sharper at 256 bits than in
// double — a double failure at high κ would be rounding, not the theorem.
#include <rapidcheck.h>

#include <Eigen/IterativeLinearSolvers>

#include <functional>
#include <limits>
#include <sstream>

#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/gaussian.hpp"
#include "femc/solve.hpp"
#include "femc/solvers/registry.hpp"
#include "femc/verify/exact_data.hpp"
#include "femc/verify/generators.hpp"

namespace femc::prop {


// A solver under test: a callable and what it declares (capabilities.hpp).
// The properties draw only the systems it accepts and check only the outputs
// it returns.
template <class S>
struct Solver {
  std::function<Solution<S>(const System<S>&)> solve;
  Capabilities caps;  // default: every output, every system
  std::string name = "solver";

  Solver() = default;
  template <class F, class = std::enable_if_t<std::is_invocable_v<const F&, const System<S>&>>>
  Solver(F f, Capabilities c = {}, std::string n = "solver") : solve(std::move(f)), caps(std::move(c)), name(std::move(n)) {}
  Solution<S> operator()(const System<S>& sys) const { return solve(sys); }
};

// A solver of the registry (solvers/registry.hpp) at S, default options.
template <class S>
Solver<S> registered_solver(const RegisteredSolver& r) {
  return Solver<S>([&r](const System<S>& sys) { return r.solve(sys, Options<S>{}); }, r.capabilities(), r.name());
}

template <class S>
Solver<S> femc_solver(Method m = Method::Cod) {
  return registered_solver<S>(solvers().get(to_string(m)));
}

// An independent evaluation to compare a solver with: the papers' literal
// formula (method literal) at floating types; at exact types, where no
// square root exists, the exact method, so that there the comparison adds
// nothing and the exact identities of each claim carry the check.
template <class S>
Solver<S> formula_solver() {
  return femc_solver<S>(ScalarTraits<S>::exact ? Method::Exact : Method::Literal);
}

// M⁻¹v by a pivoted LDLᵀ: backward stable for SPD M at every precision, and
// free of square roots, so that the same check runs on exact types.
template <class S>
Vector<S> spd_solve(const Matrix<S>& M, const Vector<S>& v) {
  return Eigen::LDLT<Matrix<S>>(M).solve(v);
}

template <class S>
double dbl(const S& x) {
  return as_double(x);
}

template <class S>
double inf_norm_s(const Vector<S>& v) {
  S r(0);
  for (Index i = 0; i < v.size(); ++i) {
    using std::abs;
    if (abs(v(i)) > r) r = abs(v(i));
  }
  return dbl(r);
}

// One drawn case at precision S with its exact solution and error bound.
template <class S>
struct Ctx {
  Case c;
  System<S> sys;
  Solution<rational> ref;
  Conditioning cond;
  Capabilities caps;  // of the solver under test
  double u = 0, cst = 0, data = 0;

  double tol(double magnitude) const { return cst * u * cond.K() * (data + magnitude); }
  // max |x̂ − x_ref| over entries, computed at S.
  double err(const Vector<S>& x, const Vector<rational>& ref_v) const {
    S worst(0);
    for (Index i = 0; i < x.size(); ++i) {
      using std::abs;
      S d = abs(S(x(i) - convert<S>(ref_v(i))));
      if (d > worst) worst = d;
    }
    return dbl(worst);
  }
  double err(const S& x, const rational& r) const {
    using std::abs;
    return dbl(S(abs(S(x - convert<S>(r)))));
  }
};

// The draws a solver accepts: full row rank only for one that refuses
// rank-deficient A (checked apart, by the refusal property), W = I and C = 0
// for one that declares it does not take them.
inline Spec accepted_by(Spec spec, const Capabilities& caps) {
  if (!caps.rank_deficient) {
    spec.full_row_rank_only = true;
    spec.consistent_only = true;
    spec.inconsistent_only = spec.rank_deficient_only = false;
  }
  if (!caps.weighted) spec.with_W = false;
  if (!caps.working_forces) spec.with_C = false;
  return spec;
}

template <class S>
Ctx<S> make_ctx(const Spec& wanted, const Solver<S>& solver) {
  const Spec spec = accepted_by(wanted, solver.caps);
  Ctx<S> x;
  x.caps = solver.caps;
  x.c = draw_case(spec);
  RC_LOG() << x.c.describe() << "\n";  // printed with a (shrunk) counterexample only
  RC_TAG(x.c.sys.m() == 0 ? "m=0" : x.c.rank < x.c.sys.m() ? "rank-deficient" : "full row rank");
  x.sys = convert<S>(x.c.sys);
  Options<rational> o;
  o.method = Method::Exact;
  x.ref = solve(x.c.sys, o);
  x.cond = conditioning(x.c.sys, x.c.rank);
  x.u = dbl(unit_roundoff<S>());
  const double nm = double(x.sys.n() + x.sys.m());
  x.cst = 16 * nm * nm;
  x.data = 1 + inf_norm(x.c.sys.Q) + inf_norm(x.c.sys.C) + inf_norm(x.c.sys.b);
  return x;
}

// A random exact member u of Null(A) (an integer combination of an exact basis).
inline Vector<rational> draw_null_vector(const Matrix<rational>& A) {
  const Matrix<rational> N = null_space_basis_exact(A);
  Vector<rational> y = draw_integer_vector(N.cols(), -3, 3);
  return N * y;
}

// The largest value ÷ bound among the checks run since reset (this thread):
// how close a solver came to failing. Its inverse is a check's slack, which
// `femc verify` reports, so that a user knows how small an error it can see.
struct RatioRecord {
  double worst = 0;
  void note(double value, double bound) {
    const double r = bound > 0 ? value / bound : value > 0 ? std::numeric_limits<double>::infinity() : 0;
    if (r > worst) worst = r;
  }
};
inline RatioRecord& ratio_record() {
  thread_local RatioRecord record;
  return record;
}

// Fails the property (with the values) unless value ≤ bound; NaN fails.
#define FEMC_CHECK_LE(value, bound, what)                       \
  do {                                                          \
    const double v_ = (value), b_ = (bound);                    \
    ::femc::prop::ratio_record().note(v_, b_);                  \
    if (!(v_ <= b_)) {                                          \
      std::ostringstream os_;                                   \
      os_ << what << ": " << v_ << " > bound " << b_;           \
      RC_FAIL(os_.str());                                       \
    }                                                           \
  } while (0)

}  // namespace femc::prop
