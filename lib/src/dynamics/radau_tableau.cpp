// radau_iia_tableau_text (dynamics/simulation/radau_tableau.hpp): the
// Radau IIA nodes and matrix at `bits` + 64 bits, as decimal text.
#include "femc/dynamics/simulation/radau_tableau.hpp"

#include <cmath>
#include <utility>

#include "femc/errors.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/number_text.hpp"

namespace femc::dynamics::simulation {
namespace {

using mpfr::mpreal;

// R(x) = P_s(2x − 1) − P_{s−1}(2x − 1) and R′(x), by the three-term
// recurrence (k + 1) P_{k+1} = (2k + 1) y P_k − k P_{k−1} and its derivative
// P′_{k+1} = P′_{k−1} + (2k + 1) P_k, with y = 2x − 1.
template <class T>
std::pair<T, T> radau_polynomial(int s, const T& x) {
  const T y = T(2) * x - T(1);
  T p_prev(1), p(y), d_prev(0), d(1);  // P_0, P_1 and their derivatives in y
  if (s == 1) return {p - p_prev, T(2) * (d - d_prev)};
  for (int k = 1; k < s; ++k) {
    const T p_next = (T(2 * k + 1) * y * p - T(k) * p_prev) / T(k + 1);
    const T d_next = d_prev + T(2 * k + 1) * p;
    p_prev = std::move(p);
    p = p_next;
    d_prev = std::move(d);
    d = d_next;
  }
  return {p - p_prev, T(2) * (d - d_prev)};  // dy/dx = 2
}

// The s − 1 zeros of R in (0, 1): sign changes on a grid finer than their
// spacing (about 1/(2s²)), bisected in double, then Newton at the current
// MPFR default precision until the step is below its unit roundoff.
std::vector<mpreal> interior_nodes(int s, long bits) {
  std::vector<mpreal> nodes;
  const int grid = 64 * s * s;
  double x_left = 0, r_left = radau_polynomial<double>(s, 0.0).first;
  for (int g = 1; g < grid; ++g) {
    const double x_right = double(g) / grid, r_right = radau_polynomial<double>(s, x_right).first;
    if ((r_left < 0) != (r_right < 0)) {
      double lo = x_left, hi = x_right;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        ((radau_polynomial<double>(s, mid).first < 0) == (r_left < 0) ? lo : hi) = mid;
      }
      mpreal x = 0.5 * (lo + hi);
      const mpreal tiny = mpfr::ldexp(mpreal(1), int(-bits));
      for (int it = 0; it < 200; ++it) {
        const auto [r, dr] = radau_polynomial<mpreal>(s, x);
        const mpreal step = r / dr;
        x -= step;
        if (mpfr::abs(step) <= tiny) break;
      }
      nodes.push_back(x);
    }
    x_left = x_right;
    r_left = r_right;
  }
  if (int(nodes.size()) != s - 1)
    throw MethodError("radau tableau: found " + std::to_string(nodes.size()) + " interior nodes for s = " +
                      std::to_string(s) + ", expected " + std::to_string(s - 1));
  return nodes;
}

}  // namespace

RadauTableauText radau_iia_tableau_text(int s, long bits) {
  if (s < kMinRadauStages || s > kMaxRadauStages)
    throw InputError("stages", "must be in [" + std::to_string(kMinRadauStages) + ", " +
                                   std::to_string(kMaxRadauStages) + "], got " + std::to_string(s));
  const long guard_bits = bits + 64;
  const MpfrPrecision precision(guard_bits);
  std::vector<mpreal> c = interior_nodes(s, guard_bits);
  c.push_back(mpreal(1));
  RadauTableauText text;
  const int digits = roundtrip_digits(guard_bits);
  for (const mpreal& ci : c) text.c.push_back(mpfr_to_decimal(ci.mpfr_srcptr(), digits));
  // ℓ_j(τ) = Π_{m≠j} (τ − c_m)/(c_j − c_m) as monomial coefficients, then
  // a_ij = Σ_k coef_k c_i^{k+1}/(k + 1).
  std::vector<std::vector<mpreal>> lagrange(static_cast<std::size_t>(s));
  for (int j = 0; j < s; ++j) {
    std::vector<mpreal> coef{mpreal(1)};
    for (int m = 0; m < s; ++m) {
      if (m == j) continue;
      const mpreal denominator = c[std::size_t(j)] - c[std::size_t(m)];
      std::vector<mpreal> next(coef.size() + 1, mpreal(0));
      for (std::size_t k = 0; k < coef.size(); ++k) {
        next[k + 1] += coef[k] / denominator;
        next[k] -= coef[k] * c[std::size_t(m)] / denominator;
      }
      coef = std::move(next);
    }
    lagrange[std::size_t(j)] = std::move(coef);
  }
  for (int i = 0; i < s; ++i) {
    for (int j = 0; j < s; ++j) {
      const std::vector<mpreal>& coef = lagrange[std::size_t(j)];
      mpreal a(0), power = c[std::size_t(i)];  // c_i^{k+1}
      for (std::size_t k = 0; k < coef.size(); ++k) {
        a += coef[k] * power / mpreal(long(k + 1));
        power *= c[std::size_t(i)];
      }
      text.a.push_back(mpfr_to_decimal(a.mpfr_srcptr(), digits));
    }
  }
  return text;
}

}  // namespace femc::dynamics::simulation
