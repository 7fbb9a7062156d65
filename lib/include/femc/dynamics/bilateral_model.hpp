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
    Options<S> opt = options_;
    if (drift_rank_factor > S(0)) {
      const Vector<S> phi = sys_.constraint(q);
      S drift(0);
      for (Index i = 0; i < phi.size(); ++i) drift = std::max<S>(drift, phi(i) < S(0) ? S(-phi(i)) : phi(i));
      const S base = opt.rank_tol ? *opt.rank_tol : default_rank_tolerance<S>(s.A.rows(), s.A.cols());
      const S norm = s.A.norm();
      if (norm > S(0))
        opt.rank_tol = std::max<S>(base, std::min<S>(drift_rank_factor * drift / norm, S(1) / S(2)));
    }
    const Solution<S> sol = solve(s, opt);
    Forces<S> f;
    f.qdd = sol.qdd;
    f.ideal = sol.QN;
    f.nonideal = sol.QW;
    if constexpr (bilateral_detail::has<bilateral_detail::nonconservative_call, Sys, S>) f.nonideal += sys_.nonconservative(q, qd);
    const auto& r = sol.diagnostics.rank;
    f.extras = {S(r.rank), r.largest_dropped > S(0) ? S(r.smallest_kept / r.largest_dropped) : S(0)};
    return f;
  }

  std::string name_;
  Sys sys_;
  std::vector<std::string> coordinates_;
  Options<S> options_;
};

}  // namespace femc::dynamics
