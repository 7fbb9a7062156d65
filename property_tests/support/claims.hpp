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
#include <sstream>

#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/gaussian.hpp"
#include "femc/solve.hpp"
#include "support/convert.hpp"
#include "support/generators.hpp"

namespace femc::prop {

using test::Conditioning;
using test::convert;

template <class S>
using Solver = std::function<Solution<S>(const System<S>&)>;

template <class S>
Solver<S> femc_solver(Method m = Method::Cod) {
  return [m](const System<S>& sys) {
    Options<S> o;
    o.method = m;
    return solve(sys, o);
  };
}

template <class S>
double dbl(const S& x) {
  return test::as_double(x);
}

inline double inf_norm(const Vector<rational>& v) {
  double r = 0;
  for (Index i = 0; i < v.size(); ++i) r = std::max(r, std::abs(test::to_double(v(i))));
  return r;
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

template <class S>
Ctx<S> make_ctx(const Spec& spec) {
  Ctx<S> x;
  x.c = draw_case(spec);
  RC_LOG() << x.c.describe() << "\n";  // printed with a (shrunk) counterexample only
  RC_TAG(x.c.sys.m() == 0 ? "m=0" : x.c.rank < x.c.sys.m() ? "rank-deficient" : "full row rank");
  x.sys = convert<S>(x.c.sys);
  Options<rational> o;
  o.method = Method::Exact;
  x.ref = solve(x.c.sys, o);
  x.cond = test::conditioning(x.c.sys, x.c.rank);
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

// Fails the property (with the values) unless value ≤ bound; NaN fails.
#define FEMC_CHECK_LE(value, bound, what)                       \
  do {                                                          \
    const double v_ = (value), b_ = (bound);                    \
    if (!(v_ <= b_)) {                                          \
      std::ostringstream os_;                                   \
      os_ << what << ": " << v_ << " > bound " << b_;           \
      RC_FAIL(os_.str());                                       \
    }                                                           \
  } while (0)

}  // namespace femc::prop
