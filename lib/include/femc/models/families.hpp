#pragma once
// Planar mechanisms of any size, built in code for scaling runs (the
// benchmark of the sparse solver, reports/performance.md) and tests: the
// model and a consistent state, in the scalar type S.
//
// - n_four_bar(N): IFToMM A02, N four-bar loops in a row; the same model as
//   models/benchmarks/generate.py writes for a02_n_four_bar_N.json (checked
//   for N = 40, tests/test_sparse.cpp), with every crank at the angle a
//   (π/2: the file's upright start). 2N + 1 links of 1 m and 1 kg, 3N + 1
//   revolute joints: n = 6N + 3 coordinates, m = 6N + 2 constraint rows, of
//   full row rank except at the flat configurations a = 0, π, where the rank
//   drops by N (the mobility jumps from 1 to N + 1).
// - closed_chain(N): N links of 1 m and 1 kg as a regular N-gon, each joined
//   to the next by a revolute joint, the last to the first (the loop), and
//   the first pinned to the ground at its start: n = 3N, m = 2N + 2, full
//   row rank, N − 2 degrees of freedom. The loop couples the first body to
//   the last: no ordering makes its A banded with a width independent of N.
#include <string>

#include "femc/models/planar.hpp"

namespace femc::models {

template <class S>
struct ModelAndState {
  PlanarModel<S> model;
  Vector<S> q, qd;
};

namespace family_detail {
template <class S>
void add_revolute(PlanarModel<S>& model, const std::string& name, int body1, const Vec2<S>& point1, int body2,
                  const Vec2<S>& point2) {
  PlanarJoint<S> j;
  j.name = name;
  j.type = PlanarJointType::Revolute;
  j.body1 = body1;
  j.body2 = body2;
  j.point1 = point1;
  j.point2 = point2;
  model.joints.push_back(j);
}
}  // namespace family_detail

template <class S>
ModelAndState<S> n_four_bar(int N, const S& crank_angle) {
  using std::cos;
  using std::sin;
  ModelAndState<S> out;
  PlanarModel<S>& model = out.model;
  model.name = "A02 N-four-bar, N = " + std::to_string(N);
  model.gravity = Vec2<S>(S(0), S(S(-981) / S(100)));
  const S inertia = S(1) / S(12), half(S(1) / S(2));
  const S c = cos(crank_angle), s = sin(crank_angle);
  using family_detail::add_revolute;
  const Index n = 3 * Index(2 * N + 1);
  out.q.resize(n);
  out.qd.resize(n);
  for (int i = 0; i <= N; ++i) {  // crank i about A_i = (i, 0), turning at −1 rad/s
    model.bodies.push_back({"crank" + std::to_string(i), S(1), inertia});
    const Index o = 3 * Index(i);
    out.q.template segment<3>(o) << S(i) + half * c, half * s, crank_angle;
    out.qd.template segment<3>(o) << half * s, -half * c, S(-1);
    add_revolute(model, "A" + std::to_string(i), kGround, Vec2<S>(S(i), S(0)), i, Vec2<S>(-half, S(0)));
  }
  for (int i = 1; i <= N; ++i) {  // coupler i from B_{i−1} to B_i, translating
    const int body = N + i;
    model.bodies.push_back({"coupler" + std::to_string(i), S(1), inertia});
    const Index o = 3 * Index(body);
    out.q.template segment<3>(o) << S(i) - half + c, s, S(0);
    out.qd.template segment<3>(o) << s, -c, S(0);
    add_revolute(model, "B" + std::to_string(i - 1) + "-left", i - 1, Vec2<S>(half, S(0)), body, Vec2<S>(-half, S(0)));
    add_revolute(model, "B" + std::to_string(i) + "-right", i, Vec2<S>(half, S(0)), body, Vec2<S>(half, S(0)));
  }
  return out;
}

template <class S>
ModelAndState<S> closed_chain(int N) {
  using std::cos;
  using std::sin;
  ModelAndState<S> out;
  PlanarModel<S>& model = out.model;
  model.name = "closed chain, N = " + std::to_string(N);
  model.gravity = Vec2<S>(S(0), S(S(-981) / S(100)));
  using std::atan;
  const S pi = S(4) * atan(S(1)), half(S(1) / S(2));
  const S radius = half / sin(pi / S(N));  // of the N-gon with sides of 1
  auto vertex = [&](int k) {
    const S t = S(2) * pi * S(k) / S(N);
    return Vec2<S>(radius * cos(t), radius * sin(t));
  };
  using family_detail::add_revolute;
  out.q.resize(3 * Index(N));
  out.qd = Vector<S>::Zero(3 * Index(N));
  for (int k = 0; k < N; ++k) {
    model.bodies.push_back({"link" + std::to_string(k), S(1), S(1) / S(12)});
    const Vec2<S> a = vertex(k), b = vertex(k + 1), mid = half * (a + b);
    using std::atan2;
    out.q.template segment<3>(3 * Index(k)) << mid(0), mid(1), S(atan2(S(b(1) - a(1)), S(b(0) - a(0))));
  }
  add_revolute(model, "pin", kGround, vertex(0), 0, Vec2<S>(-half, S(0)));
  for (int k = 0; k < N; ++k)
    add_revolute(model, "J" + std::to_string(k), k, Vec2<S>(half, S(0)), (k + 1) % N, Vec2<S>(-half, S(0)));
  return out;
}

}  // namespace femc::models
