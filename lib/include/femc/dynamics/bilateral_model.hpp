#pragma once
// A Model (model.hpp) for systems with equality constraints: each state is
// one FEMC problem M q̈ = Q + Qᶜ, A q̈ = b, solved by femc::solve.
//
// The system type Sys provides (see systems/ for examples)
//   System<S> at(q, q̇)            M, A, b, Q and the non-ideal C
//   Matrix<S> mass(q),  S potential(q)
//   Vector<S> constraint(q)        φ with φ̈ = A q̈ − b (0 on non-holonomic rows)
//   Vector<S> constraint_rate(q, q̇)  φ̇ (or ψ = A q̇ − c on velocity-level rows)
//   optional: Vector<S> nonconservative(q, q̇)  forces in Q without a potential
//     (dampers), reported with Qᵂ so that the energy balance holds
//   optional: SparseSystem<S> sparse_at(q, q̇)  the same problem stored sparse,
//     solved at each state when the method is `sparse` (large mechanisms:
//     no dense matrix is formed), and S kinetic(q, q̇) = ½ q̇ᵀM q̇ without
//     the dense mass(q)
// Baumgarte: b ← b − 2α φ̇ − β² φ.
// Extras per step: the rank of A the solver decided, and its gap
// (smallest kept / largest dropped magnitude), for the redundant linkages.
//
// Drift-aware rank (redundant constraints). On the constraint manifold a
// permanently redundant A has σ_min = 0 exactly; at a drifted state q + δq
// Weyl's inequality gives σ_min(A(q + δq)) ≤ ‖∂A/∂q‖·‖δq‖, and the normal
// drift is ‖δq‖ ≲ ‖φ‖/σ_r (σ_r the smallest nonzero singular value). So a
// singular value below c·‖φ‖ cannot be told from drift; with
// drift_rank_factor = c > 0 the relative rank tolerance becomes
//   τ = max(τ_base, c·‖φ‖∞ / ‖A‖_F),
// c to be chosen above ‖∂A/∂q‖/σ_r (≈ 1–3 for the built-in linkage; its
// default c = 10³ leaves a safety factor of a few hundred).
// The argument is first order in the drift: it holds near the constraints,
// not at the trial states of a long step, which can be far from them. There
// c·‖φ‖∞/‖A‖_F can exceed 1 and cut every singular value, σ₁ too, dropping
// the constraints wholesale (found on IFToMM A01: a first step of 0.5 s had
// stages of |φ| ≈ 0.5, all of them in free fall, hence a zero error
// estimate; the pendulum then fell freely for 2000 s). So the drift's share
// of τ is capped at ½: a singular value of at least σ₁/2 is never called
// drift. (A cap of 10⁻³ was tried first; the regression gate caught it:
// coarse runs of the redundant linkage drift until its spurious singular
// value exceeds 10⁻³·σ₁, and keeping it cost a factor 100 in the balance.)
//
// Projection (simulate.hpp's projected formulation): Gauss's principle at
// the position and the velocity level, solved by the same femc::solve as
// each state's forces, so at any rank and with the same method (dense or
// sparse). The velocities get the correction Δq̇ that minimizes ‖Δq̇‖_M
// subject to A(q)Δq̇ = −φ̇(q, q̇): the mass-orthogonal projection of
// Bayo & Ledesma's index-3 augmented Lagrangian with projections (1996),
// and the q̈ of femc's solve for (M, A, b = −φ̇, Q = 0). The positions get
// Gauss–Newton steps, each the smallest in M: Δq minimizes ‖Δq‖_M subject
// to A(q)Δq = −φ(q). Near a singular configuration the linearization holds
// only along directions with σ² well above ‖∂A/∂q‖·‖φ‖: a step along a
// smaller σ is of size ‖φ‖/σ, larger than the distance σ/‖∂A/∂q‖ to the
// other branch through the singular point, and lands there. Such a step
// does not contract |φ| (its quadratic remainder exceeds ‖φ‖), so every step
// must halve |φ|∞ (Newton's contraction) or be retaken with the smallest
// kept direction dropped: a rank-aware Gauss–Newton that never jumps
// branches, and leaves the dropped component, of the size of the step's
// local error, to the next steps, taken farther from the singular point.
#include <functional>
#include <type_traits>
#include <utility>

#include "femc/dynamics/model.hpp"
#include "femc/rank.hpp"
#include "femc/solve.hpp"

namespace femc::dynamics {

namespace bilateral_detail {
// Whether Sys has the optional members of the header comment: Op<Sys, S>
// names the member's call.
template <class, template <class...> class Op, class... Args>
struct detector : std::false_type {};
template <template <class...> class Op, class... Args>
struct detector<std::void_t<Op<Args...>>, Op, Args...> : std::true_type {};
template <template <class...> class Op, class Sys, class S>
inline constexpr bool has = detector<void, Op, Sys, S>::value;

template <class Sys, class S>
using nonconservative_call =
    decltype(std::declval<const Sys&>().nonconservative(std::declval<const Vector<S>&>(), std::declval<const Vector<S>&>()));
template <class Sys, class S>
using sparse_at_call =
    decltype(std::declval<const Sys&>().sparse_at(std::declval<const Vector<S>&>(), std::declval<const Vector<S>&>()));
template <class Sys, class S>
using kinetic_call =
    decltype(std::declval<const Sys&>().kinetic(std::declval<const Vector<S>&>(), std::declval<const Vector<S>&>()));
}  // namespace bilateral_detail

template <class S, class Sys>
class BilateralModel : public Model<S> {
 public:
  BilateralModel(std::string name, Sys sys, std::vector<std::string> coordinates, Options<S> options = {})
      : name_(std::move(name)), sys_(std::move(sys)), coordinates_(std::move(coordinates)),
        options_(std::move(options)) {}

  S drift_rank_factor = S(0);  // 0: off (see the header comment)

  std::string name() const override { return name_; }
  std::vector<std::string> coordinate_names() const override { return coordinates_; }
  std::vector<std::string> extra_names() const override { return {"rank_A", "rank_gap"}; }
  const Sys& system() const { return sys_; }

  Matrix<S> mass(const Vector<S>& q) const override { return sys_.mass(q); }
  S potential(const Vector<S>& q) const override { return sys_.potential(q); }
  S kinetic(const Vector<S>& q, const Vector<S>& qd) const override {
    if constexpr (bilateral_detail::has<bilateral_detail::kinetic_call, Sys, S>) return sys_.kinetic(q, qd);
    else return Model<S>::kinetic(q, qd);
  }

  Forces<S> forces(const Vector<S>& q, const Vector<S>& qd, const S&, const Baumgarte<S>& stab) const override {
    if constexpr (bilateral_detail::has<bilateral_detail::sparse_at_call, Sys, S>)
      if (options_.method == Method::Sparse) return forces_of(sys_.sparse_at(q, qd), q, qd, stab);
    return forces_of(sys_.at(q, qd), q, qd, stab);
  }
  bool projects() const override { return true; }
  Projection<S> project(Vector<S>& q, Vector<S>& qd, const S&) const override {
    Projection<S> out;
    out.applied = true;
    using std::max;
    S scale(1);
    for (Index i = 0; i < q.size(); ++i) scale = max<S>(scale, abs_of(q(i)));
    const S tol = S(64) * unit_roundoff<S>() * scale;  // |φ|∞ at which the positions are on the constraints
    Vector<S> phi = sys_.constraint(q);
    out.position_before = max_abs(phi);
    Options<S> opt = options_;
    for (int it = 0; it < kMaxNewtonSteps && max_abs(phi) > tol; ++it) {
      bool accepted = false;
      for (int retry = 0; retry < kMaxNewtonSteps && !accepted; ++retry) {
        RankDecision<S> decided;
        const Vector<S> dq = correction(q, qd, Vector<S>(-phi), opt, decided);
        const Vector<S> q_new = q + dq;
        const Vector<S> phi_new = sys_.constraint(q_new);
        if (max_abs(phi_new) <= max_abs(phi) / S(2) || max_abs(phi_new) <= tol) {
          q = q_new, phi = phi_new, accepted = true;
        } else if (decided.rank > 1 && decided.largest > S(0)) {
          // Not contracting: drop the smallest direction kept (rank.hpp keeps d_i > τ·d₁).
          opt.rank_tol = decided.smallest_kept / decided.largest;
          ++out.directions_dropped;
        } else {
          break;
        }
      }
      ++out.iterations;
      if (!accepted) break;
    }
    out.position_after = max_abs(phi);
    out.velocity_before = max_abs(sys_.constraint_rate(q, qd));
    project_velocity_with(q, qd, drift_aware(options_, max_abs(sys_.constraint(q)), q, qd));
    out.velocity_after = max_abs(sys_.constraint_rate(q, qd));
    return out;
  }

  // The index-3 formulation's velocity projection. Its velocities, the
  // trapezoidal rule's, leave a constraint rate φ̇ of the order of the
  // rule's error (3.3·10⁻⁶ m/s at A02's step of 5·10⁻⁴ s), not of a
  // tolerance; the correction along a direction of singular value σᵢ is
  // (uᵢᵀφ̇)/σᵢ, which at a singular configuration (σ_min/σ₁ = 1.4·10⁻⁹,
  // A02 N = 1000 at its first flat configuration) took 1.2 J of kinetic
  // energy out of a motion whose error budget is 10⁻³. So, as the
  // positions' drift does (the header), the rate raises τ: a direction whose
  // correction could exceed |q̇|∞/c, c = drift_rank_factor, is not corrected
  // (τ ≥ c·|φ̇|∞/(|q̇|∞·‖A‖_F)); its rate, of the rule's order, stays.
  // (The same c for both: A02's links are of unit length.)
  S project_velocity(const Vector<S>& q, Vector<S>& qd) const override {
    const S speed = max_abs(qd), phi = max_abs(sys_.constraint(q));
    const S rate = speed > S(0) ? S(max_abs(sys_.constraint_rate(q, qd)) / speed) : S(0);
    const Options<S> opt = drift_aware(options_, rate > phi ? rate : phi, q, qd);
    project_velocity_with(q, qd, opt);
    return opt.rank_tol ? *opt.rank_tol : S(0);
  }

  Vector<S> newton_acceleration(const Vector<S>& q, const Vector<S>& qd, const Vector<S>& a_prev, const S& c,
                                const std::optional<S>& rank_tol, RankDecision<S>& decided) const override {
    // At the iterate's drift (the header): a permanently redundant row
    // (A04) has σ_min of the drift's size there, not zero.
    const Vector<S> phi = sys_.constraint(q);
    Options<S> opt = drift_aware(options_, max_abs(phi), q, qd);
    if (rank_tol && (!opt.rank_tol || *rank_tol > *opt.rank_tol)) opt.rank_tol = *rank_tol;
    return solve_at(q, qd, opt, decided, [&](auto& s) { s.b = s.A * a_prev - c * phi; });
  }

  Vector<S> position_violation(const Vector<S>& q, const S&) const override { return sys_.constraint(q); }
  Vector<S> velocity_violation(const Vector<S>& q, const Vector<S>& qd, const S&) const override {
    return sys_.constraint_rate(q, qd);
  }

 private:
  // One state's solve, of the dense System or the SparseSystem.
  template <class SystemT>
  Forces<S> forces_of(SystemT s, const Vector<S>& q, const Vector<S>& qd, const Baumgarte<S>& stab) const {
    if (stab.active())
      s.b -= S(2) * stab.alpha * sys_.constraint_rate(q, qd) + stab.beta * stab.beta * sys_.constraint(q);
    const Options<S> opt = drift_aware(options_, max_abs(sys_.constraint(q)), s.A);
    const Solution<S> sol = solve(s, opt);
    Forces<S> f;
    f.qdd = sol.qdd;
    f.ideal = sol.QN;
    f.nonideal = sol.QW;
    if constexpr (bilateral_detail::has<bilateral_detail::nonconservative_call, Sys, S>) f.nonideal += sys_.nonconservative(q, qd);
    const auto& r = sol.diagnostics.rank;
    f.extras = {S(r.rank), r.largest_dropped > S(0) ? S(r.smallest_kept / r.largest_dropped) : S(0)};
    f.rank = r;
    if (opt.rank_tol && !options_.rank_tol) f.drift_tol = *opt.rank_tol;
    return f;
  }

  // The options of a solve at a state of drift φ, for a constraint matrix A
  // (dense or sparse): τ raised to drift_rank_factor·|φ|∞/‖A‖_F (the header).
  template <class MatrixT>
  Options<S> drift_aware(const Options<S>& base_options, const S& drift, const MatrixT& A) const {
    Options<S> opt = base_options;
    if (drift_rank_factor > S(0)) {
      const S base = opt.rank_tol ? *opt.rank_tol : default_rank_tolerance<S>(A.rows(), A.cols());
      const S norm = A.norm();
      if (norm > S(0) && drift_rank_factor * drift / norm > base)
        opt.rank_tol = std::min<S>(drift_rank_factor * drift / norm, S(1) / S(2));
    }
    return opt;
  }
  Options<S> drift_aware(const Options<S>& base_options, const S& drift, const Vector<S>& q,
                         const Vector<S>& qd) const {
    if constexpr (bilateral_detail::has<bilateral_detail::sparse_at_call, Sys, S>)
      if (options_.method == Method::Sparse) return drift_aware(base_options, drift, sys_.sparse_at(q, qd).A);
    return drift_aware(base_options, drift, sys_.at(q, qd).A);
  }

  void project_velocity_with(const Vector<S>& q, Vector<S>& qd, const Options<S>& opt) const {
    RankDecision<S> decided;
    const Vector<S> rate = sys_.constraint_rate(q, qd);
    qd += correction(q, qd, Vector<S>(-rate), opt, decided);
  }

  // The smallest correction in the metric of M with A(q)·Δ = rhs: femc's
  // solve of (M, A, rhs, Q = 0, C = 0), dense or sparse as the forces.
  Vector<S> correction(const Vector<S>& q, const Vector<S>& qd, const Vector<S>& rhs, const Options<S>& opt,
                       RankDecision<S>& decided) const {
    return solve_at(q, qd, opt, decided, [&](auto& s) {
      s.b = rhs;
      s.Q.setZero();
      s.C.setZero();
    });
  }

  // q̈ of the system at (q, q̇), dense or sparse as the forces, after
  // `change` edits it; the rank decided goes to `decided`.
  template <class Change>
  Vector<S> solve_at(const Vector<S>& q, const Vector<S>& qd, const Options<S>& opt, RankDecision<S>& decided,
                     Change&& change) const {
    auto of = [&](auto s) {
      change(s);
      Solution<S> sol = solve(s, opt);
      decided = sol.diagnostics.rank;
      return Vector<S>(sol.qdd);
    };
    if constexpr (bilateral_detail::has<bilateral_detail::sparse_at_call, Sys, S>)
      if (options_.method == Method::Sparse) return of(sys_.sparse_at(q, qd));
    return of(sys_.at(q, qd));
  }

  static S abs_of(const S& x) { return x < S(0) ? S(-x) : x; }
  static S max_abs(const Vector<S>& v) {
    S m(0);
    for (Index i = 0; i < v.size(); ++i) m = std::max<S>(m, abs_of(v(i)));
    return m;
  }
  static constexpr int kMaxNewtonSteps = 8;

  std::string name_;
  Sys sys_;
  std::vector<std::string> coordinates_;
  Options<S> options_;
};

}  // namespace femc::dynamics
