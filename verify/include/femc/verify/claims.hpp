#pragma once
// The property of every claim, as a template over the scalar type and the
// solver under test. Each draws one exact case (generators.hpp) over the
// whole range the working precision resolves, gives it to the solver
// rounded to that precision, and checks the claim against femc's exact
// solution of the very same data (reference.hpp). Every check evaluates the
// solver's outputs exactly (rationals), so that the only errors measured
// are the solver's, and holds them to the solver's own first-order error
// law (error_law.hpp): its declared error growth p, the constant c measured
// and stated there. An identity between outputs is held to the sum of the
// laws of its terms, each in the norm the law is stated in (the metric of
// M for accelerations, of M⁻¹ for forces). u is the unit roundoff of S, so
// the same property is far sharper at 256 bits than in double.
#include <rapidcheck.h>

#include <functional>
#include <limits>
#include <sstream>

#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/gaussian.hpp"
#include "femc/solve.hpp"
#include "femc/solvers/registry.hpp"
#include "femc/verify/error_law.hpp"
#include "femc/verify/exact_data.hpp"
#include "femc/verify/generators.hpp"
#include "femc/verify/rank_policy.hpp"
#include "femc/verify/reference.hpp"

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

// The largest value ÷ bound among the checks run since reset (this thread):
// how close a solver came to failing. Its inverse is a check's slack, which
// `femc verify` reports, so that a user knows how small an error it can see.
// Also what each case could detect: the bound relative to the case's scale
// (T/(‖x‖ + ‖y‖)), the smallest relative error that fails, in the best-
// and in the worst-conditioned case seen.
struct RatioRecord {
  double worst = 0;
  double finest_well = std::numeric_limits<double>::infinity();  // at κ(B), κ(M) ≤ 10 (cases of zero scale aside)
  double ill_kappa = 0, ill_relative = 0;  // the largest κ(B)·κ(M) seen, and its relative bound
  void note(double value, double bound) {
    const double r = bound > 0 ? value / bound : value > 0 ? std::numeric_limits<double>::infinity() : 0;
    if (r > worst) worst = r;
  }
  void note_case(double relative_bound, double kappa_B, double kappa_M) {
    if (kappa_B <= 10 && kappa_M <= 10 && relative_bound > 0 && relative_bound < finest_well) finest_well = relative_bound;
    if (kappa_B * kappa_M > ill_kappa) ill_kappa = kappa_B * kappa_M, ill_relative = relative_bound;
  }
  void reset() { *this = RatioRecord{}; }
};
inline RatioRecord& ratio_record() {
  thread_local RatioRecord record;
  return record;
}

// The significand bits of S (0 for exact types): u = 2^-bits.
template <class S>
long significand_bits() {
  if constexpr (ScalarTraits<S>::exact) return 0;
  else if constexpr (std::is_same_v<S, mpfr_real>) return ScalarTraits<mpfr_real>::bits();
  else return std::lround(-std::log2(dbl(unit_roundoff<S>())));
}

// The solver's relative rank tolerance: declared, or femc's default.
inline double solver_rank_tol(const Capabilities& caps, Index m, Index n, double u) {
  return caps.rank_tol > 0 ? caps.rank_tol : verify::default_rank_tol(m, n, u);
}

// One case at precision S: the exact data, the same data at S, femc's
// exact solution of them and the solver's error bounds.
template <class S>
struct Ctx {
  Case c;
  System<S> sys;
  verify::ExactReference ref;
  Capabilities caps;  // of the solver under test
  double u = 0;
  double c_law = 0;  // the law's constant c (error_law.hpp)
  double T = 0;      // forward bound of the solver: ‖q̂ − q̈‖_M, ‖F̂ − F‖_{M⁻¹}
  double T_formula = 0;  // the same for the formula solver it is compared with
  double R = 0;      // residual bound ‖W^{1/2}(A q̂ − b)‖ (consistent constraints)
  long bits = 0;     // the working precision's (0: exact)

  const Solution<rational>& exact() const { return ref.solution; }
  // ‖q̂ − q̈‖_M, exactly but for the square root.
  double err_qdd(const Vector<S>& q) const { return m_norm(Vector<rational>(to_rational(q) - exact().qdd)); }
  // ‖F̂ − F‖_{M⁻¹} for a force.
  double err_force(const Vector<S>& F, const Vector<rational>& F_ref) const {
    return minv_norm(Vector<rational>(to_rational(F) - F_ref));
  }
  double m_norm(const Vector<rational>& v) const { return norm_in(c.sys.M, v); }
  double minv_norm(const Vector<rational>& v) const { return norm_in(ref.M_inverse, v); }
  // ‖W^{1/2}(A q̂ − b)‖, and its square exactly.
  double residual(const Vector<S>& q) const {
    return c.sys.m() == 0 ? 0 : norm_in(c.sys.W, Vector<rational>(c.sys.A * to_rational(q) - c.sys.b));
  }
  rational residual_sq(const Vector<S>& q) const {
    if (c.sys.m() == 0) return rational(0);
    const Vector<rational> r = c.sys.A * to_rational(q) - c.sys.b;
    return r.dot(c.sys.W * r);
  }
  // ‖λ̂ − λ‖₂ ≤ ‖L‖·T/σ_r(A) + c·u·κ(A)‖λ‖: Qᴺ's error through (Aᵀ)⁺, and the
  // least-squares solve of Aᵀλ = Qᴺ itself.
  double bound_lambda() const {
    if (ref.rank == 0) return 0;
    return std::sqrt(ref.norm_M) * T / ref.sigma_r_A + c_law * u * ref.kappa_A * norm2(exact().lambda);
  }
  // |Ĝ − G| for G_g = ‖x‖² from an x̂ within t of x, and its evaluation.
  double bound_G(double t) const { return 2 * ref.norm_x * t + t * t + c_law * u * ref.norm_x * ref.norm_x; }
  // |ρ̂ − ‖δ‖²| for a residual norm² ρ̂ of an answer within t of q̈ in M:
  // U_W A(q̂ − q̈) = B Lᵀ(q̂ − q̈), and the residual's evaluation at S.
  double bound_delta(double t) const {
    const double e = ref.norm_B * t + c_law * u * std::sqrt(ref.norm_W) * (ref.norm_A * norm2(exact().qdd) + norm2(c.sys.b));
    return 2 * ref.norm_r * e + e * e;
  }
  // The case's conditioning, for a failure message.
  std::string conditioning() const {
    std::ostringstream os;
    os.precision(2);
    os << "[" << c.kind << "; κ(M) = " << ref.kappa_M << ", κ(B) = " << ref.kappa_B << ", κ(A) = " << ref.kappa_A;
    if (ref.eta > 0) os << ", η = " << ref.eta;
    if (ref.rank > 0 && !ref.sigma_B.empty())
      os << ", σ_min/σ₁ of B = " << ref.sigma_B[std::size_t(ref.rank - 1)] / ref.sigma_B[0];
    os << "; bound c·u·law with c = " << c_law << "]";
    return os.str();
  }
  // Why q̂ is wrong, when a rank decision explains it (rank_policy.hpp).
  // tau: the solver's tolerance for this answer (0: its declared one).
  std::string rank_diagnosis(const Vector<S>& q, double tau = 0) const {
    if (!all_finite(q)) return "";
    return verify::explain_rank_decision(c.sys, ref, to_rational(q),
                                         tau > 0 ? tau : solver_rank_tol(caps, c.sys.m(), c.sys.n(), u),
                                         verify::reference_bits(bits));
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

// The working precision and the solver's law set how far the draws go: to
// where c·u·κ(B)^p reaches 1/100 (error_law.hpp), and no closer than
// kRankSafety to the solver's rank tolerance (rank_policy.hpp), whose band
// the property Rank_DeclaredPolicy judges apart. At exact precision the
// draws stay within 10⁴ (exact arithmetic has no conditioning; larger
// numbers only cost time).
template <class S>
Spec with_precision_range(Spec spec, const Capabilities& caps) {
  spec.bits = significand_bits<S>();
  if (spec.bits == 0) {
    spec.max_log10_kappa = 4;
    return spec;
  }
  const double u = dbl(unit_roundoff<S>());
  const Index k = std::max(spec.n_max + 2, Index(15));  // the largest m, n a draw has (A02 with N = 2: 15)
  const double law = verify::law_limit_log10(u, verify::law_constant(k, k)) / std::max(1, caps.error_growth);
  const double rank = std::log10(1 / (verify::kRankSafety * solver_rank_tol(caps, k, k, u))) - 0.5;
  spec.max_log10_kappa = std::max(0.0, std::min(law, rank));
  return spec;
}

// Fills x from its exact case (x.c) and the solver's capabilities.
template <class S>
void complete(Ctx<S>& x) {
  x.sys = convert<S>(x.c.sys);
  x.u = dbl(unit_roundoff<S>());
  x.bits = significand_bits<S>();
  x.ref = verify::memoized_exact_reference(x.c.sys, verify::reference_bits(x.bits));
  const Index m = x.sys.m(), n = x.sys.n();
  x.c_law = verify::law_constant(m, n);
  const verify::ErrorLaw law = verify::ErrorLaw::of(x.caps);
  x.T = x.c_law * verify::forward_law(x.ref, x.u, law);
  x.T_formula = x.c_law * verify::forward_law(x.ref, x.u, verify::ErrorLaw{1, 1});
  x.R = x.c_law * verify::residual_law(x.ref, x.u, law);
}

// The case of an exact system built inside a property (a transformed copy
// of the drawn one), with its own reference and bounds.
template <class S>
Ctx<S> ctx_of(const System<rational>& sys, const Ctx<S>& like) {
  Ctx<S> x;
  x.caps = like.caps;
  x.c = like.c;
  x.c.sys = sys;
  x.c.rank = exact_rank(sys.A);
  complete(x);
  return x;
}

// A drawn case. Unless `spec` asks for the rank draws (Spec::
// small_sigma_log10), a case with a direction in the band of the solver's
// rank tolerance is discarded: either rank is right there, and
// Rank_DeclaredPolicy judges it.
template <class S>
Ctx<S> make_ctx(const Spec& wanted, const Solver<S>& solver) {
  Spec spec = wanted.small_sigma_log10 > 0 ? wanted : with_precision_range<S>(accepted_by(wanted, solver.caps), solver.caps);
  Ctx<S> x;
  x.caps = solver.caps;
  x.c = draw_case(spec);
  RC_LOG() << x.c.describe() << "\n";  // printed with a (shrunk) counterexample only
  RC_TAG(x.c.sys.m() == 0 ? "m=0" : x.c.rank < x.c.sys.m() ? "rank-deficient" : "full row rank");
  complete(x);
  if (spec.small_sigma_log10 == 0) {
    const verify::RankBand band = verify::rank_band(x.ref, solver_rank_tol(x.caps, x.sys.m(), x.sys.n(), x.u));
    RC_PRE(band.must_keep == x.ref.rank);
  }
  ratio_record().note_case(x.T / std::max(x.ref.norm_x + x.ref.norm_y, std::numeric_limits<double>::min()),
                           x.ref.kappa_B, x.ref.kappa_M);
  return x;
}

// A random exact member u of Null(A) (an integer combination of an exact basis).
inline Vector<rational> draw_null_vector(const Matrix<rational>& A) {
  const Matrix<rational> N = null_space_basis_exact(A);
  Vector<rational> y = draw_integer_vector(N.cols(), -3, 3);
  return N * y;
}

// Fails the property (with the values) unless value ≤ bound; NaN fails.
// FEMC_CHECK_LE_WHY adds `why` (evaluated on failure only) to the message.
#define FEMC_CHECK_LE_WHY(value, bound, what, why)              \
  do {                                                          \
    const double v_ = (value), b_ = (bound);                    \
    ::femc::prop::ratio_record().note(v_, b_);                  \
    if (!(v_ <= b_)) {                                          \
      std::ostringstream os_;                                   \
      os_ << what << ": " << v_ << " > bound " << b_;           \
      const std::string w_ = (why);                             \
      if (!w_.empty()) os_ << " " << w_;                        \
      RC_FAIL(os_.str());                                       \
    }                                                           \
  } while (0)
#define FEMC_CHECK_LE(value, bound, what) FEMC_CHECK_LE_WHY(value, bound, what, std::string())

}  // namespace femc::prop
