#pragma once
// Radau IIA: the s-stage collocation method of order 2s − 1 and stage order
// s (Hairer & Wanner, Solving ODEs II, §IV.5 and §IV.8), L-stable and
// stiffly accurate, for stiff ODEs x′ = f(t, x) in any floating scalar type.
// It is the stiff stepper of simulate() (simulate.hpp, Stepper::RadauIIA):
// IFToMM A05's spring-dampers (eigenvalues near −10⁴ s⁻¹) hold an explicit
// method to steps of 10⁻⁴ s whatever its order, so a reference near the unit
// roundoff over the benchmark's 10 s would take hours; an L-stable method
// steps as the accuracy allows.
//
// Why this method: its error in the stiff regime is still a power of h, of
// order s + 1 at least (the stage order plus one; HW §IV.15), where the
// extrapolated linearly implicit Euler method's is not (tried on A05 and on
// Prothero–Robinson; models/benchmarks/README.md), and s is chosen at run
// time (the tableau is computed at the working precision,
// radau_tableau.hpp), so that near the unit roundoff of 128 bits the order
// can be 13 (s = 7) rather than Odeint's rosenbrock4's 4.
//
// One step of size h from (t₀, x₀): the stage increments Z = (z₁ … z_s),
//   z_i = h Σ_j a_ij f(t₀ + c_j h, x₀ + z_j),   x₁ = x₀ + z_s   [HW §IV.8]
// solved by simplified Newton iterations
//   (I − h A ⊗ J) ΔZ = −Z + h (A ⊗ I) F(Z),    Z ← Z + ΔZ     [HW §IV.8]
// with J ≈ ∂f/∂x(t₀, x₀) by forward differences. The residual, the stages
// and the solution are in S; the Newton matrix, its LU factorization and the
// correction ΔZ are in double. The matrix only sets how fast the iteration
// converges, not where to: its fixed point is the collocation solution at
// the working precision whatever the matrix, and a matrix accurate to
// double's 10⁻¹⁶ (against a forward-difference J accurate to 10⁻⁸) contracts
// as fast as an exact one. So an LU of the sN × sN matrix costs what it costs
// in double at every precision, and no complex transformation of A⁻¹ (HW
// IV.8, which brings it to s N³) is needed for A05's N = 58. The iteration
// runs in unknowns scaled by abs_tol + rel_tol·|x₀| and sends each residual
// to double divided by its max norm, so that tolerances outside double's
// range (10⁻⁴⁰⁰ at 2048 bits) neither overflow nor underflow it. Each
// iteration then gains about as many digits as J and the double LU carry
// (8 to 16): from a predictor at 1, 60 iterations reach below 10⁻⁴⁰⁰.
//
// The iteration starts from the collocation polynomial of the last step,
// extrapolated (try_step says when). It stops when the scaled correction is
// below 10⁻³ of the tolerance, or below the rounding floor of S at that
// tolerance; it fails (the step is retried four times shorter) when from the
// third correction on one is no smaller than the last, when the second is
// 100 times the first, when a stage is not finite, or after 60 iterations.
//
// Error and step control by step doubling: one step of H and two of H/2 from
// the same state; the two halves are kept, and their error is estimated as
// ‖x_{H/2,H/2} − x_H‖/(2^s − 1), the order s + 1 of the stiff regime (the
// non-stiff order 2s − 1 would make the estimate 2^(s−1) times smaller;
// taking the lower order is the safe side). The norm is the max norm scaled
// by abs_tol + rel_tol·|x|, as Odeint's steppers scale it. The next step is
// H·0.9·err^(−1/(s+1)), within [0.2 H, 4 H].
//
// Dense output (what simulate()'s loop asks of a stepper, as Odeint's dense
// steppers give it): every step ends on the next record time when it reaches
// it (the run's record clock, Run::record_time_after), so records are step
// ends, exact to the step's accuracy. Between ends,
// calc_state is the cubic Hermite interpolant of (x₀, f₀, x₁, f₁), of order
// 3: it serves to locate events (impacts) only.
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include <Eigen/LU>
#include <boost/numeric/odeint/integrate/max_step_checker.hpp>

#include "femc/dynamics/simulation/radau_tableau.hpp"
#include "femc/linalg.hpp"

namespace femc::dynamics::simulation {

template <class S>
class RadauIIA {
 public:
  using State = std::vector<S>;

  // record_time_after(t): the first record time after t, which a step that
  // reaches it ends on; stages: s, in [kMinRadauStages, kMaxRadauStages]
  // (InputError otherwise).
  RadauIIA(const S& abs_tol, const S& rel_tol, std::function<S(const S&)> record_time_after, int stages = 7)
      : abs_tol_(abs_tol), rel_tol_(rel_tol), record_time_after_(std::move(record_time_after)), s_(stages),
        tableau_(radau_iia_tableau<S>(stages)), a_(tableau_.A.template cast<double>()) {
    for (int i = 0; i < s_; ++i) c_.push_back(to_double(tableau_.c(i)));
    // The rounding floor of a scaled correction: a few units of S's roundoff
    // on |x|, over the tolerance.
    const S tol = rel_tol_ > S(0) && rel_tol_ < abs_tol_ ? rel_tol_ : abs_tol_;
    newton_floor_ = S(64) * unit_roundoff<S>() / tol;
  }

  void initialize(const State& x, const S& t, const S& h) {
    x1_ = x;
    t1_ = t;
    h_ = h;
    have_f1_ = false;
    last_rejected_ = false;
    have_last_ = false;  // a restart (an event, new modes): no polynomial to extrapolate
  }

  // Continues from x at the current time, x a small correction of the
  // current state (the projected formulation's projection onto the
  // constraints): the step size, the controller's state and the last
  // collocation polynomial stay, as the predictor of the next step's stages;
  // only the derivative at the new state is recomputed. initialize() would
  // drop the polynomial for the Euler predictor, whose first corrections a
  // fourfold step cannot take: A05 at double and 10⁻¹⁰ took 65 steps over
  // 0.1 s, restarted after each projection, against 8 unprojected.
  void continue_from(const State& x) {
    x1_ = x;
    have_f1_ = false;
  }

  const State& current_state() const { return x1_; }
  const S& current_time() const { return t1_; }
  const S& current_time_step() const { return h_; }

  // One accepted step from the current state; returns [t₀, t₁]. Throws what
  // system throws (simulate() retries a refused stage ten times shorter),
  // and boost::numeric::odeint::step_adjustment_error after 50 rejections in
  // a row.
  template <class System>
  std::pair<S, S> do_step(System&& system) {
    x0_ = x1_;
    t0_ = t1_;
    if (!have_f1_) system(x0_, f1_, t0_);
    f0_ = f1_;
    jacobian(system);
    for (int rejections = 0;; ++rejections) {
      if (rejections > 50)
        throw boost::numeric::odeint::step_adjustment_error("radau-iia: 50 rejected steps in a row");
      if (try_step(system)) break;
    }
    system(x1_, f1_, t1_);
    have_f1_ = true;
    return {t0_, t1_};
  }

  // x(t) for t in the last step [t₀, t₁]: the ends exactly, else the cubic
  // Hermite interpolant.
  void calc_state(const S& t, State& x) const {
    if (t == t1_) { x = x1_; return; }
    if (t == t0_) { x = x0_; return; }
    const S H = t1_ - t0_, s = (t - t0_) / H, s2 = s * s, s3 = s2 * s;
    const S h00 = S(2) * s3 - S(3) * s2 + S(1), h10 = s3 - S(2) * s2 + s, h01 = S(-2) * s3 + S(3) * s2,
            h11 = s3 - s2;
    x.resize(x0_.size());
    for (std::size_t i = 0; i < x0_.size(); ++i)
      x[i] = h00 * x0_[i] + h10 * H * f0_[i] + h01 * x1_[i] + h11 * H * f1_[i];
  }

  int stages() const { return s_; }
  const RadauTableau<S>& tableau() const { return tableau_; }
  long newton_iterations() const { return newton_iterations_; }
  long rejected_steps() const { return rejected_steps_; }

 private:
  using MatD = Eigen::MatrixXd;
  using VecD = Eigen::VectorXd;
  static double to_double(const S& a) { return static_cast<double>(a); }
  static S abs_of(const S& a) { return a < S(0) ? S(-a) : a; }

  // The step's scale d_r = abs_tol + rel_tol·|x₀_r| (in S), and
  // J̃ = D⁻¹ (∂f/∂x) D at (t₀, x₀) in double, D = diag(d), by forward
  // differences with the increment sqrt(u_double·max(10⁻⁵, |x_r|)) of
  // Hairer's codes. The Newton iteration runs in the scaled unknowns Z/d,
  // whose entries are near 1 in units of the tolerance at any precision:
  // unscaled, a correction below 10⁻³⁰⁸ (an MPFR run at tolerance 10⁻⁴⁰⁰)
  // would underflow double.
  template <class System>
  void jacobian(System& system) {
    const std::size_t N = x0_.size();
    scale_.resize(N);
    for (std::size_t r = 0; r < N; ++r) scale_[r] = abs_tol_ + rel_tol_ * abs_of(x0_[r]);
    J_.resize(Index(N), Index(N));
    State xp = x0_, fp;
    for (std::size_t c = 0; c < N; ++c) {
      const double a = std::abs(to_double(x0_[c]));
      const S vp = x0_[c] + S(std::sqrt(2.2e-16 * std::max(a, 1e-5))), d = vp - x0_[c];
      xp[c] = vp;
      system(xp, fp, t0_);
      xp[c] = x0_[c];
      for (std::size_t r = 0; r < N; ++r)
        J_(Index(r), Index(c)) = to_double(S((fp[r] - f0_[r]) / d * (scale_[c] / scale_[r])));
    }
  }

  // The LU of I − h A ⊗ J̃.
  Eigen::PartialPivLU<MatD> newton_matrix(const S& h) const {
    const Index N = J_.rows();
    const double hd = to_double(h);
    MatD M(s_ * N, s_ * N);
    for (int i = 0; i < s_; ++i)
      for (int j = 0; j < s_; ++j) {
        auto block = M.block(i * N, j * N, N, N);
        block = (-hd * a_(i, j)) * J_;
        if (i == j) block.diagonal().array() += 1.0;
      }
    return Eigen::PartialPivLU<MatD>(M);
  }

  // Stage increments Z (s·N, stage-major) are what a collocation step
  // solves for; its collocation polynomial is u(t + θh) = x + Σ_j Z_j L_j(θ),
  // with L_j the Lagrange polynomials of the nodes {0, c₁, …, c_s} (the value
  // at 0 being 0). The starting values of the Newton iteration are taken
  // from such a polynomial where one is at hand, as in Hairer's RADAU5: an
  // error of O(h^(s+1)) instead of an Euler predictor's O(h²), so fewer
  // iterations, and first corrections small enough for the frozen J.

  // Z_i = u(θ_i) − x_new for the polynomial of (x_src, Z_src), i = 1 … s.
  void predict(const State& x_src, const std::vector<S>& Z_src, const std::vector<double>& theta, const State& x_new,
               std::vector<S>& Z) const {
    const std::size_t N = x_src.size(), s = std::size_t(s_);
    Z.assign(s * N, S(0));
    std::vector<double> w(s);
    for (std::size_t i = 0; i < s; ++i) {
      for (std::size_t j = 0; j < s; ++j) {  // L_j(θ_i), node 0 included in the product
        double l = theta[i] / c_[j];
        for (std::size_t m = 0; m < s; ++m)
          if (m != j) l *= (theta[i] - c_[m]) / (c_[j] - c_[m]);
        w[j] = l;
      }
      for (std::size_t r = 0; r < N; ++r) {
        S u = x_src[r] - x_new[r];
        for (std::size_t j = 0; j < s; ++j) u += S(w[j]) * Z_src[j * N + r];
        Z[i * N + r] = u;
      }
    }
  }

  // Z_i = c_i h f(t, x): the Euler predictor, where no polynomial is at hand.
  void predict_euler(const State& fx, const S& h, std::vector<S>& Z) const {
    const std::size_t N = fx.size(), s = std::size_t(s_);
    Z.resize(s * N);
    for (std::size_t j = 0; j < s; ++j)
      for (std::size_t r = 0; r < N; ++r) Z[j * N + r] = tableau_.c(Index(j)) * h * fx[r];
  }

  // One collocation step of h from (t, x), Z holding the starting values on
  // entry and the solution on return, x + Z_s into out; the step's scale
  // and J̃ (jacobian()). False when the Newton iteration fails (see the
  // file's comment).
  template <class System>
  bool collocate(System& system, const State& x, const S& t, const S& h, const Eigen::PartialPivLU<MatD>& lu,
                 std::vector<S>& Z, State& out) {
    const std::size_t N = x.size(), s = std::size_t(s_);
    std::vector<S> F(s * N), scaled(s * N);
    State stage(N), fj;
    VecD residual(Index(s * N));
    S eta_prev(0);
    for (int it = 0; it < 60; ++it) {
      for (std::size_t j = 0; j < s; ++j) {
        for (std::size_t r = 0; r < N; ++r) stage[r] = x[r] + Z[j * N + r];
        system(stage, fj, S(t + tableau_.c(Index(j)) * h));
        std::copy(fj.begin(), fj.end(), F.begin() + std::ptrdiff_t(j * N));
      }
      // The scaled residual, and its max norm ρ: the residual goes to double
      // as r/ρ, so that neither a far predictor (r/d near 10⁴⁰⁰ at tolerance
      // 10⁻⁴⁰⁰) overflows double nor a converged one underflows it.
      S rho(0);
      for (std::size_t i = 0; i < s; ++i)
        for (std::size_t r = 0; r < N; ++r) {
          S sum(0);
          for (std::size_t j = 0; j < s; ++j) sum += tableau_.A(Index(i), Index(j)) * F[j * N + r];
          S& v = scaled[i * N + r];
          v = (h * sum - Z[i * N + r]) / scale_[r];
          const S a = abs_of(v);
          if (!(a == a)) return false;  // NaN
          if (a > rho) rho = a;
        }
      if (!(rho > S(0))) rho = S(1);
      for (std::size_t k = 0; k < s * N; ++k) {
        const double v = to_double(S(scaled[k] / rho));
        if (!std::isfinite(v)) return false;  // an infinite stage
        residual(Index(k)) = v;
      }
      const VecD dz = lu.solve(residual);  // the scaled correction over ρ
      double dz_max = 0;
      for (std::size_t k = 0; k < s * N; ++k) {
        if (!std::isfinite(dz(Index(k)))) return false;
        dz_max = std::max(dz_max, std::abs(dz(Index(k))));
        Z[k] += S(dz(Index(k))) * rho * scale_[k % N];
      }
      const S eta = S(dz_max) * rho;
      ++newton_iterations_;
      if (eta <= S(1e-3) || eta <= newton_floor_) {
        out.resize(N);
        for (std::size_t r = 0; r < N; ++r) out[r] = x[r] + Z[(s - 1) * N + r];  // c_s = 1
        return true;
      }
      // The contraction θ = η_k/η_{k−1}: the second correction may undo
      // part of the first (a predictor far from the solution, where the
      // frozen J is not the Jacobian along the way); from the third on, a
      // correction no smaller than the last is a failure.
      if ((it >= 2 && eta >= S(0.99) * eta_prev) || (it == 1 && eta >= S(100) * eta_prev)) return false;
      eta_prev = eta;
    }
    return false;
  }

  double error_of(const State& a, const State& b) const {
    S e(0);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const S x0 = abs_of(x0_[i]), xa = abs_of(a[i]);
      const S scale = abs_tol_ + rel_tol_ * (x0 > xa ? x0 : xa);
      const S r = abs_of(a[i] - b[i]) / scale;
      if (r > e) e = r;
    }
    return to_double(e);
  }

  template <class System>
  bool try_step(System& system) {
    const S t_record = record_time_after_(t0_);
    const bool lands = t0_ + h_ >= t_record;
    const S H = lands ? S(t_record - t0_) : h_, half = H / S(2);
    const S t_end = lands ? t_record : S(t0_ + H);
    // The two halves first, the first half's stages extrapolated from the
    // last step's polynomial, the second half's from the first half's; then
    // the whole step, its stages interpolated from the two halves. Steps
    // grow at most fourfold, so the extrapolation reaches θ ≤ 5 in a steady
    // run; the Euler predictor is kept for a restart and for θ > 9 (a step
    // planned long before a short one that landed on the record grid). With
    // the Euler predictor after every growth, A05 at double and 10⁻¹⁰ took
    // 89 steps over its first 0.1 s, every fourfold step failing its Newton
    // iteration; with the extrapolation, 8.
    const std::size_t N = x0_.size(), s = std::size_t(s_);
    State mid, end, whole;
    std::vector<S> Z_first, Z_second, Z_whole;
    std::vector<double> theta(s);
    const double ratio = have_last_ ? to_double(S(half / last_h_)) : 0.0;
    if (have_last_ && 1.0 + ratio <= 9.0) {
      for (std::size_t i = 0; i < s; ++i) theta[i] = 1.0 + c_[i] * ratio;
      predict(last_x_, last_Z_, theta, x0_, Z_first);
    } else {
      predict_euler(f0_, half, Z_first);
    }
    const auto lu_half = newton_matrix(half);
    bool ok = collocate(system, x0_, t0_, half, lu_half, Z_first, mid);
    if (ok) {
      for (std::size_t i = 0; i < s; ++i) theta[i] = 1.0 + c_[i];
      predict(x0_, Z_first, theta, mid, Z_second);
      ok = collocate(system, mid, S(t0_ + half), S(t_end - (t0_ + half)), lu_half, Z_second, end);
    }
    if (ok) {
      // Stage i of the whole step is at θ = 2c_i of the first half when
      // c_i ≤ 1/2, else at θ = 2c_i − 1 of the second.
      std::vector<double> theta_first(s), theta_second(s);
      for (std::size_t i = 0; i < s; ++i) {
        theta_first[i] = 2 * c_[i];
        theta_second[i] = 2 * c_[i] - 1;
      }
      std::vector<S> Z_from_second;
      predict(x0_, Z_first, theta_first, x0_, Z_whole);
      predict(mid, Z_second, theta_second, x0_, Z_from_second);
      for (std::size_t i = 0; i < s; ++i)
        if (c_[i] > 0.5)
          std::copy(Z_from_second.begin() + std::ptrdiff_t(i * N), Z_from_second.begin() + std::ptrdiff_t((i + 1) * N),
                    Z_whole.begin() + std::ptrdiff_t(i * N));
      ok = collocate(system, x0_, t0_, H, newton_matrix(H), Z_whole, whole);
    }
    if (!ok) {
      h_ = H / S(4);
      last_rejected_ = true;
      ++rejected_steps_;
      return false;
    }
    const double err = error_of(end, whole) / (std::ldexp(1.0, s_) - 1.0);
    const double fac = std::clamp(0.9 * std::pow(std::max(err, 1e-300), -1.0 / (s_ + 1)), 0.2, 4.0);
    if (!(err <= 1.0)) {
      h_ = H * S(std::min(fac, 0.9));
      last_rejected_ = true;
      ++rejected_steps_;
      return false;
    }
    x1_ = std::move(end);
    t1_ = t_end;  // a record time exactly, when the step lands on one
    last_x_ = std::move(mid);
    last_Z_ = std::move(Z_second);
    last_h_ = S(t_end - (t0_ + half));
    have_last_ = true;
    const S h_next = H * S(last_rejected_ ? std::min(fac, 1.0) : fac);
    // A step cut short to land on the record grid says little of the next
    // one's size: the planned step stays when it is the longer.
    h_ = lands && h_ > h_next ? h_ : h_next;
    last_rejected_ = false;
    return true;
  }

  S abs_tol_, rel_tol_;
  std::function<S(const S&)> record_time_after_;
  int s_;
  RadauTableau<S> tableau_;
  MatD a_;                // A in double, for the Newton matrix
  std::vector<double> c_;  // c in double, for the predictors
  S newton_floor_ = S(0);
  S h_ = S(0), t0_ = S(0), t1_ = S(0);
  State x0_, x1_, f0_, f1_;
  bool have_f1_ = false, last_rejected_ = false;
  // The last accepted collocation (the second half of the last step): its
  // start, stage increments and step, for the next step's predictor.
  State last_x_;
  std::vector<S> last_Z_;
  S last_h_ = S(0);
  bool have_last_ = false;
  std::vector<S> scale_;  // the step's abs_tol + rel_tol·|x₀|
  MatD J_;                // D⁻¹ (∂f/∂x) D in double
  long newton_iterations_ = 0, rejected_steps_ = 0;
};

}  // namespace femc::dynamics::simulation
