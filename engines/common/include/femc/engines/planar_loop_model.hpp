#pragma once
// The planar loops of planar_loop.hpp as femc's own model files (issue
// "Three more engines": the engines' mechanisms at 256 bits from femc's model
// files), so that an engine's extracted data can be set against femc's
// construction of the same mechanism instead of against another engine's.
//
// femc's planar model is in maximal coordinates: x, y, θ of each link's
// centre (models/README.md). The engines' coordinates (planar_loop.hpp) are
// joint angles: each serial link's angle relative to the one before it (the
// first's from +x), and the rocker's from +x. At joint angles q the links'
// absolute angles are φ_i = q₁ + … + q_i (the rocker's φ = its q), and
//   centre_i = Σ_{j<i} L_j e(φ_j) + (L_i/2) e(φ_i),  e(φ) = (cos φ, sin φ),
// the rocker's (ground, 0) + (L_r/2) e(φ_r). Its Jacobian T = ∂x/∂q maps
// joint velocities to maximal ones; the tree joints (every pin but the
// closure R) hold identically along it, so an engine's M, Q and constraint
// null space at q are, exactly, TᵀM T, TᵀQ (at rest) and the null space of
// the model's A T, and its accelerations map to the model's as ẍ = T q̈
// (at rest; ẍ = T q̈ + Ṫq̇ in general).
#include <cmath>
#include <string>
#include <vector>

#include "femc/engines/model_text.hpp"
#include "femc/engines/planar_loop.hpp"
#include "femc/linalg.hpp"

namespace femc::engines::planar_loop {

// The loop as a model file ("kind": "planar"): uniform rods of kMass and
// kRadius, inertia transverse_inertia exactly (p/q), gravity kGravity along
// −y, pins O (ground–first link), one between consecutive serial links, D
// (ground–rocker) and the closure R (last serial link–rocker). The bodies
// are the serial links, then the rocker; each body's state is the loop's at
// joint angles q, at rest, to the 17 digits of a double (a state at 256 bits
// is given to the model apart: maximal_coordinates).
inline std::string model_file(const Loop& L, const std::vector<double>& q) {
  const std::size_t k = L.serial.size();
  const rational m = ScalarTraits<rational>::parse(decimal(kMass)), r = ScalarTraits<rational>::parse(decimal(kRadius));
  auto inertia = [&](double length) {
    const rational l = ScalarTraits<rational>::parse(decimal(length));
    return ScalarTraits<rational>::format(rational(m * (l * l / 12 + r * r / 4)));
  };
  auto number = [](double x) { return "\"" + decimal(x) + "\""; };
  auto half = [](double length) {  // L/2 exactly, as a JSON string
    return "\"" + ScalarTraits<rational>::format(rational(ScalarTraits<rational>::parse(decimal(length)) / 2)) + "\"";
  };
  std::string bodies, joints;
  double x = 0, y = 0, phi = 0;
  auto body = [&](const std::string& name, double length, double cx, double cy, double angle) {
    bodies += std::string(bodies.empty() ? "" : ",\n    ") + "{\"name\": \"" + name + "\", \"mass\": " + number(kMass) +
              ", \"inertia\": \"" + inertia(length) + "\", \"position\": [" + number(cx) + ", " + number(cy) +
              "], \"angle\": " + number(angle) + "}";
  };
  auto pin = [&](const std::string& name, const std::string& b1, const std::string& p1, const std::string& b2,
                 const std::string& p2) {
    joints += std::string(joints.empty() ? "" : ",\n    ") + "{\"name\": \"" + name +
              "\", \"type\": \"revolute\", \"body1\": \"" + b1 + "\", \"point1\": [" + p1 + ", \"0\"], \"body2\": \"" +
              b2 + "\", \"point2\": [" + p2 + ", \"0\"]}";
  };
  for (std::size_t i = 0; i < k; ++i) {
    phi += q.at(i);
    body("link" + std::to_string(i + 1), L.serial[i], x + L.serial[i] / 2 * std::cos(phi),
         y + L.serial[i] / 2 * std::sin(phi), phi);
    x += L.serial[i] * std::cos(phi);
    y += L.serial[i] * std::sin(phi);
    const std::string minus_half = "\"-" + half(L.serial[i]).substr(1);
    if (i == 0) pin("O", "ground", "\"0\"", "link1", minus_half);
    else
      pin("P" + std::to_string(i), "link" + std::to_string(i), half(L.serial[i - 1]), "link" + std::to_string(i + 1),
          minus_half);
  }
  const double rocker_angle = q.at(k);
  body("rocker", L.rocker, L.ground + L.rocker / 2 * std::cos(rocker_angle), L.rocker / 2 * std::sin(rocker_angle),
       rocker_angle);
  pin("D", "ground", number(L.ground), "rocker", "\"-" + half(L.rocker).substr(1));
  pin("R", "link" + std::to_string(k), half(L.serial.back()), "rocker", half(L.rocker));
  return "{\n  \"kind\": \"planar\",\n  \"name\": \"" + L.name + "\",\n  \"description\": \"the engines' " + L.name +
         " (engines/common/include/femc/engines/planar_loop.hpp: " + describe(L) +
         "), written by planar_loop_model.hpp\",\n  \"gravity\": [\"0\", \"-" + decimal(kGravity) +
         "\"],\n  \"bodies\": [\n    " + bodies + "\n  ],\n  \"joints\": [\n    " + joints + "\n  ]\n}\n";
}

// A length of planar_loop.hpp at S as the model file states it: its decimal
// read at S (0.4, not the double nearest 0.4), so that the model's pins hold
// along coordinate_map to S's rounding.
template <class S>
S length(double x) {
  return at<S>(x);
}

// x(q): each link's centre and angle (the model's coordinates), at S.
template <class S>
Vector<S> maximal_coordinates(const Loop& L, const std::vector<double>& q) {
  using std::cos;
  using std::sin;
  const std::size_t k = L.serial.size();
  Vector<S> out(3 * Index(k + 1));
  S x(0), y(0), phi(0);
  for (std::size_t i = 0; i < k; ++i) {
    phi += S(q.at(i));
    const S l = length<S>(L.serial[i]);
    out.segment(3 * Index(i), 3) << x + l / 2 * cos(phi), y + l / 2 * sin(phi), phi;
    x += l * cos(phi);
    y += l * sin(phi);
  }
  const S rocker(q.at(k)), lr = length<S>(L.rocker);
  out.tail(3) << length<S>(L.ground) + lr / 2 * cos(rocker), lr / 2 * sin(rocker), rocker;
  return out;
}

// T = ∂x/∂q (3(k + 1) × (k + 1)) at q, at S.
template <class S>
Matrix<S> coordinate_map(const Loop& L, const std::vector<double>& q) {
  using std::cos;
  using std::sin;
  const Index k = Index(L.serial.size());
  Matrix<S> T = Matrix<S>::Zero(3 * (k + 1), k + 1);
  std::vector<S> phi(std::size_t(k), S(0));
  S sum(0);
  for (Index i = 0; i < k; ++i) phi[std::size_t(i)] = sum += S(q.at(std::size_t(i)));
  for (Index i = 0; i < k; ++i) {  // link i's centre and angle against joint j ≤ i: e⊥(φ) = (−sin φ, cos φ)
    for (Index j = 0; j <= i; ++j) {
      S dx(0), dy(0);
      for (Index l = j; l < i; ++l) {
        const S len = length<S>(L.serial[std::size_t(l)]);
        dx -= len * sin(phi[std::size_t(l)]);
        dy += len * cos(phi[std::size_t(l)]);
      }
      const S half = length<S>(L.serial[std::size_t(i)]) / 2;
      T(3 * i, j) = dx - half * sin(phi[std::size_t(i)]);
      T(3 * i + 1, j) = dy + half * cos(phi[std::size_t(i)]);
      T(3 * i + 2, j) = S(1);
    }
  }
  const S rocker(q.at(std::size_t(k))), half = length<S>(L.rocker) / 2;
  T(3 * k, k) = -half * sin(rocker);
  T(3 * k + 1, k) = half * cos(rocker);
  T(3 * k + 2, k) = S(1);
  return T;
}

}  // namespace femc::engines::planar_loop
