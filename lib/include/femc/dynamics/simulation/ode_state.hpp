#pragma once
// The state simulate() integrates (simulate.hpp): x = (q, q̇, W_nonideal,
// W_ideal), the motion and the two work integrals ∫ q̇ᵀQᵂ dt and
// ∫ q̇ᵀQᴺ dt, as one std::vector for Boost.Odeint.
#include <vector>

#include "femc/linalg.hpp"

namespace femc::dynamics::simulation {

template <class S>
using OdeState = std::vector<S>;

// Where each part of x lives, for n coordinates.
struct OdeLayout {
  Index n = 0;
  std::size_t size() const { return std::size_t(2 * n + 2); }
  std::size_t q(Index i) const { return std::size_t(i); }
  std::size_t qd(Index i) const { return std::size_t(n + i); }
  std::size_t work_nonideal() const { return std::size_t(2 * n); }
  std::size_t work_ideal() const { return std::size_t(2 * n + 1); }

  template <class S>
  OdeState<S> pack(const Vector<S>& q, const Vector<S>& qd) const {
    OdeState<S> x(size(), S(0));
    for (Index i = 0; i < n; ++i) {
      x[this->q(i)] = q(i);
      x[this->qd(i)] = qd(i);
    }
    return x;
  }
  template <class S>
  void unpack(const OdeState<S>& x, Vector<S>& q, Vector<S>& qd) const {
    q.resize(n);
    qd.resize(n);
    for (Index i = 0; i < n; ++i) {
      q(i) = x[this->q(i)];
      qd(i) = x[this->qd(i)];
    }
  }
  template <class S>
  void set_velocity(OdeState<S>& x, const Vector<S>& qd) const {
    for (Index i = 0; i < n; ++i) x[this->qd(i)] = qd(i);
  }
};

template <class S>
S max_norm(const Vector<S>& v) {
  S m(0);
  for (Index i = 0; i < v.size(); ++i) {
    const S a = v(i) < S(0) ? S(-v(i)) : v(i);
    if (a > m) m = a;
  }
  return m;
}

}  // namespace femc::dynamics::simulation
