#pragma once
// Bricard's mechanism of bricard.hpp (Simbody's example geometry) as femc's
// own model file (issue "Three more engines": the engines' mechanisms at 256
// bits from femc's model files), so that each engine's extracted data are
// set against femc's construction of the same mechanism at a configuration
// where the redundancy is exact.
//
// femc's spatial model is in maximal coordinates: per body the centre of
// mass r and the Euler parameters p (models/spatial.hpp). The engines'
// coordinates are the six pin angles q of bricard.hpp. At q, each link's
// frame follows from its parent's along the pin,
//   R_B = R_P R_F Rz(q) R_Mᵀ,   o_B = o_P + R_P (o_F − R_F Rz(q) R_Mᵀ o_M),
// (X_PF = (R_F, o_F), X_BM = (R_M, o_M); the pins with parent −1 hang from
// the grounded link, fixed at kGroundedLink), and the body's coordinates are
// r = o_B + R_B c (c its centre of mass in the link frame) and p, the unit
// quaternion of R_B. The Jacobian T = ∂x/∂q: pin j turns every link below it
// about its axis a_j = R_P R_F e_z through its point o_j = o_P + R_P o_F, so
// for each such body ṙ = a_j × (r − o_j) and ṗ = ½E(p)ᵀa_j
// (models::quaternion_rate). The tree's pins hold identically along x(q),
// the loop's closure does not: the engines' data at q are TᵀM T, TᵀQ (at
// rest) and the null space of the closure's rows of A T.
//
// Two forms of the cut link (the engines differ): Simbody and MuJoCo keep
// its two halves as two bodies, each on its own pin, welded with the
// identity relative pose (6 bodies, 6 pins, a weld: the closure is the
// weld's 6 rows, of rank 5 on the mechanism); ODE makes them one body, kOdd,
// and closes the loop with the sixth pin (5 bodies, the closure is that
// pin's 5 rows, of rank 4). The numbers are bricard.hpp's decimals, read
// exactly; the halves' masses and inertias are exactly half of them.
#include <array>
#include <string>
#include <vector>

#include "femc/engines/bricard.hpp"
#include "femc/engines/model_text.hpp"
#include "femc/linalg.hpp"
#include "femc/models/spatial.hpp"

namespace femc::engines::bricard {

using Pins = std::array<Pin, 6>;

enum class Cut {
  welded_halves,  // Simbody, MuJoCo: 6 bodies (one per pin), a weld closes the loop
  one_body,       // ODE: 5 bodies, the sixth pin closes the loop
};

// The body each pin's child link is (pin 5's is pin 2's when the halves are
// one body), the number of bodies, and the pins along which x(q) is built
// (the first ones; the others close the loop).
inline std::array<int, 6> body_of_pin(Cut cut) {
  return cut == Cut::welded_halves ? std::array<int, 6>{0, 1, 2, 3, 4, 5} : std::array<int, 6>{0, 1, 2, 3, 4, 2};
}
inline int body_count(Cut cut) { return cut == Cut::welded_halves ? 6 : 5; }
inline int tree_pins(Cut cut) { return body_count(cut); }
// The closure's rows: the last rows of the model's A (the file's last joint).
inline Index closure_rows(Cut cut) { return cut == Cut::welded_halves ? 6 : 5; }

namespace model_detail {

template <class S>
models::Mat3<S> rotation(const Frame& f) {
  models::Mat3<S> R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = at<S>(f.R[std::size_t(3 * i + j)]);
  return R;
}
template <class S>
models::Vec3<S> origin(const Frame& f) {
  return {at<S>(f.p[0]), at<S>(f.p[1]), at<S>(f.p[2])};
}
template <class S>
models::Vec3<S> centre(const MassProperties& p) {
  return {at<S>(p.com[0]), at<S>(p.com[1]), at<S>(p.com[2])};
}
template <class S>
models::Mat3<S> rz(const S& q) {
  using std::cos;
  using std::sin;
  models::Mat3<S> R = models::Mat3<S>::Identity();
  R(0, 0) = R(1, 1) = cos(q);
  R(1, 0) = sin(q);
  R(0, 1) = -R(1, 0);
  return R;
}

// The unit quaternion of a rotation (Shepperd's choice of the largest of
// p0², …, p3², so that no division is by a small number), in the convention
// of models::rotation_matrix.
template <class S>
models::Quaternion<S> quaternion_of(const models::Mat3<S>& R) {
  using std::sqrt;
  const S t = R.trace();
  models::Quaternion<S> p;
  if (t >= R(0, 0) && t >= R(1, 1) && t >= R(2, 2)) {
    p(0) = sqrt(S(1) + t) / 2;
    p(1) = (R(2, 1) - R(1, 2)) / (4 * p(0));
    p(2) = (R(0, 2) - R(2, 0)) / (4 * p(0));
    p(3) = (R(1, 0) - R(0, 1)) / (4 * p(0));
  } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
    p(1) = sqrt(S(1) + R(0, 0) - R(1, 1) - R(2, 2)) / 2;
    p(0) = (R(2, 1) - R(1, 2)) / (4 * p(1));
    p(2) = (R(0, 1) + R(1, 0)) / (4 * p(1));
    p(3) = (R(0, 2) + R(2, 0)) / (4 * p(1));
  } else if (R(1, 1) >= R(2, 2)) {
    p(2) = sqrt(S(1) - R(0, 0) + R(1, 1) - R(2, 2)) / 2;
    p(0) = (R(0, 2) - R(2, 0)) / (4 * p(2));
    p(1) = (R(0, 1) + R(1, 0)) / (4 * p(2));
    p(3) = (R(1, 2) + R(2, 1)) / (4 * p(2));
  } else {
    p(3) = sqrt(S(1) - R(0, 0) - R(1, 1) + R(2, 2)) / 2;
    p(0) = (R(1, 0) - R(0, 1)) / (4 * p(3));
    p(1) = (R(0, 2) + R(2, 0)) / (4 * p(3));
    p(2) = (R(1, 2) + R(2, 1)) / (4 * p(3));
  }
  return p;
}

// A link frame in the ground's, and a pin's axis and point in the ground's.
template <class S>
struct Placed {
  models::Mat3<S> R;
  models::Vec3<S> o, axis, point;
};

// The tree pins' child links at q (q.size() ≥ tree_pins(cut)).
template <class S>
std::vector<Placed<S>> place(Cut cut, const Vector<S>& q, const Pins& pins) {
  std::vector<Placed<S>> out;
  const models::Mat3<S> R_G = rotation<S>(kGroundedLink);
  const models::Vec3<S> o_G = origin<S>(kGroundedLink);
  for (int i = 0; i < tree_pins(cut); ++i) {
    const Pin& pin = pins[std::size_t(i)];
    const models::Mat3<S>& R_P = pin.parent < 0 ? R_G : out[std::size_t(pin.parent)].R;
    const models::Vec3<S>& o_P = pin.parent < 0 ? o_G : out[std::size_t(pin.parent)].o;
    const models::Mat3<S> R_F = rotation<S>(pin.X_PF), R_PB = R_F * rz<S>(q(i)) * rotation<S>(pin.X_BM).transpose();
    Placed<S> p;
    p.R = R_P * R_PB;
    p.o = o_P + R_P * (origin<S>(pin.X_PF) - R_PB * origin<S>(pin.X_BM));
    p.axis = R_P * R_F.col(2);
    p.point = o_P + R_P * origin<S>(pin.X_PF);
    out.push_back(p);
  }
  return out;
}

// Whether tree pin i's link lies below pin j (j itself included).
inline bool below(const Pins& pins, int i, int j) {
  for (int k = i; k >= 0; k = pins[std::size_t(k)].parent)
    if (k == j) return true;
  return false;
}

}  // namespace model_detail

// The mechanism as a model file ("kind": "spatial"): the bodies in pin
// order (names of bricard.hpp; the one-body cut link "odd3"), the pins as
// revolute joints from parent to child (the grounded link is the ground),
// then the weld of the halves' frames (welded_halves); gravity kGravity
// along −y. Each body's state is the example's angles q0, at rest, to a
// double's digits (the assembled state at 256 bits is given to the model
// apart: maximal_coordinates).
inline std::string model_file(Cut cut, const Pins& pins = kPins) {
  using model_detail::place;
  const std::array<int, 6> body_of = body_of_pin(cut);
  const int bodies = body_count(cut);
  std::vector<MassProperties> props(static_cast<std::size_t>(bodies));
  std::vector<std::string> names(static_cast<std::size_t>(bodies));
  for (int i = 0; i < tree_pins(cut); ++i) {
    props[std::size_t(i)] = pins[std::size_t(i)].body;
    names[std::size_t(i)] = pins[std::size_t(i)].name;
  }
  auto quoted = [](const std::string& s) { return "\"" + s + "\""; };
  auto vec = [&](const std::array<rational, 3>& v) {
    return "[" + quoted(text(v[0])) + ", " + quoted(text(v[1])) + ", " + quoted(text(v[2])) + "]";
  };
  auto com = [](const MassProperties& p) { return std::array<rational, 3>{exact(p.com[0]), exact(p.com[1]), exact(p.com[2])}; };
  // A body's mass properties as written: mass, then the six inertia
  // entries. bricard.hpp computes the halves in double (kOddHalf); where a
  // half is kOddHalf the file states exactly half of kOdd's decimals, and
  // the one-body form's cut link the sum of its halves.
  auto same = [](const MassProperties& a, const MassProperties& b) {
    return a.mass == b.mass && a.com == b.com && a.inertia == b.inertia;
  };
  auto written = [&](const MassProperties& p) {
    const bool half = same(p, kOddHalf);
    const MassProperties& from = half ? kOdd : p;
    const rational f = half ? rational(1) / 2 : rational(1);
    std::array<rational, 7> out{};
    out[0] = exact(from.mass) * f;
    for (std::size_t k = 0; k < 6; ++k) out[k + 1] = exact(from.inertia[k]) * f;
    return out;
  };
  auto mass_of = [&](int b) {
    std::array<rational, 7> out = written(props[std::size_t(b)]);
    if (cut == Cut::one_body && b == body_of[std::size_t(kWeldA)]) {
      const std::array<rational, 7> other = written(pins[std::size_t(kWeldA)].body);
      for (std::size_t k = 0; k < 7; ++k) out[k] += other[k];
    }
    return out;
  };
  if (cut == Cut::one_body) names[2] = "odd3";

  const Vector<double> q0 = [&] {
    Vector<double> q(6);
    for (std::size_t i = 0; i < 6; ++i) q(Index(i)) = pins[i].q0;
    return q;
  }();
  const std::vector<model_detail::Placed<double>> at_q0 = place<double>(cut, q0, pins);
  std::string text_bodies, text_joints;
  for (int b = 0; b < bodies; ++b) {
    const std::array<rational, 7> m = mass_of(b);
    const MassProperties& p = props[std::size_t(b)];
    const models::Vec3<double> r = at_q0[std::size_t(b)].o + at_q0[std::size_t(b)].R * model_detail::centre<double>(p);
    const models::Quaternion<double> quat = model_detail::quaternion_of<double>(at_q0[std::size_t(b)].R);
    // bricard.hpp's inertia is xx, yy, zz, xy, xz, yz; a model file's
    // Jxx, Jyy, Jzz, Jxy, Jyz, Jzx.
    text_bodies += std::string(text_bodies.empty() ? "" : ",\n    ") + "{\"name\": " + quoted(names[std::size_t(b)]) +
                   ", \"mass\": " + quoted(text(m[0])) + ", \"inertia\": [" + quoted(text(m[1])) + ", " +
                   quoted(text(m[2])) + ", " + quoted(text(m[3])) + ", " + quoted(text(m[4])) + ", " +
                   quoted(text(m[6])) + ", " + quoted(text(m[5])) + "], \"position\": [" + quoted(decimal(r(0))) +
                   ", " + quoted(decimal(r(1))) + ", " + quoted(decimal(r(2))) + "], \"orientation\": {\"quaternion\": [" +
                   quoted(decimal(quat(0))) + ", " + quoted(decimal(quat(1))) + ", " + quoted(decimal(quat(2))) + ", " +
                   quoted(decimal(quat(3))) + "]}}";
  }
  // Exact products of bricard.hpp's frames (entries 0, ±1 and lengths).
  auto times = [](const Frame& A, const std::array<rational, 3>& v) {
    std::array<rational, 3> out{};
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) out[i] += exact(A.R[3 * i + j]) * v[j];
    return out;
  };
  auto column = [](const Frame& A, std::size_t j) {
    return std::array<rational, 3>{exact(A.R[j]), exact(A.R[3 + j]), exact(A.R[6 + j])};
  };
  auto plus = [](std::array<rational, 3> a, const std::array<rational, 3>& b) {
    for (std::size_t i = 0; i < 3; ++i) a[i] += b[i];
    return a;
  };
  auto minus = [](std::array<rational, 3> a, const std::array<rational, 3>& b) {
    for (std::size_t i = 0; i < 3; ++i) a[i] -= b[i];
    return a;
  };
  auto point = [](const Frame& A) { return std::array<rational, 3>{exact(A.p[0]), exact(A.p[1]), exact(A.p[2])}; };
  auto joint = [&](const std::string& name, const std::string& type, const std::string& b1,
                   const std::array<rational, 3>& p1, const std::string& b2, const std::array<rational, 3>& p2,
                   const std::string& axes) {
    text_joints += std::string(text_joints.empty() ? "" : ",\n    ") + "{\"name\": " + quoted(name) +
                   ", \"type\": " + quoted(type) + ", \"body1\": " + quoted(b1) + ", \"point1\": " + vec(p1) +
                   ", \"body2\": " + quoted(b2) + ", \"point2\": " + vec(p2) + axes + "}";
  };
  for (std::size_t i = 0; i < 6; ++i) {
    const Pin& pin = pins[i];
    const int child = body_of[i];
    // Points from the body's centre of mass, in its frame; axes e_z of F
    // (in the parent's frame) and of M (in the child's).
    const std::array<rational, 3> p2 = minus(point(pin.X_BM), com(props[std::size_t(child)]));
    const std::array<rational, 3> axis2 = column(pin.X_BM, 2);
    std::string b1;
    std::array<rational, 3> p1, axis1;
    if (pin.parent < 0) {
      b1 = "ground";
      p1 = plus(times(kGroundedLink, point(pin.X_PF)), point(kGroundedLink));
      axis1 = times(kGroundedLink, column(pin.X_PF, 2));
    } else {
      const int parent = body_of[std::size_t(pin.parent)];
      b1 = names[std::size_t(parent)];
      p1 = minus(point(pin.X_PF), com(props[std::size_t(parent)]));
      axis1 = column(pin.X_PF, 2);
    }
    joint(pin.name, "revolute", b1, p1, names[std::size_t(child)], p2,
          ", \"axis1\": " + vec(axis1) + ", \"axis2\": " + vec(axis2));
  }
  if (cut == Cut::welded_halves) {
    const std::array<rational, 3> zero{};
    joint("weld", "weld", names[std::size_t(kWeldA)], minus(zero, com(props[std::size_t(kWeldA)])),
          names[std::size_t(kWeldB)], minus(zero, com(props[std::size_t(kWeldB)])), "");
  }
  return std::string("{\n  \"kind\": \"spatial\",\n  \"name\": \"Bricard\",\n  \"description\": \"") +
         "Bricard's mechanism of Simbody 3.7's example (engines/common/include/femc/engines/bricard.hpp), " +
         (cut == Cut::welded_halves ? "the cut link's halves welded" : "the cut link one body, closed by its second pin") +
         ", written by bricard_model.hpp\",\n  \"gravity\": [\"0\", \"-" + decimal(kGravity) +
         "\", \"0\"],\n  \"bodies\": [\n    " + text_bodies + "\n  ],\n  \"joints\": [\n    " + text_joints + "\n  ]\n}\n";
}

// x(q): each body's centre of mass and Euler parameters, at S.
template <class S>
Vector<S> maximal_coordinates(Cut cut, const Vector<S>& q, const Pins& pins = kPins) {
  const std::vector<model_detail::Placed<S>> links = model_detail::place<S>(cut, q, pins);
  Vector<S> x(7 * Index(links.size()));
  for (std::size_t b = 0; b < links.size(); ++b) {
    x.template segment<3>(7 * Index(b)) = links[b].o + links[b].R * model_detail::centre<S>(pins[b].body);
    x.template segment<4>(7 * Index(b) + 3) = model_detail::quaternion_of<S>(links[b].R);
  }
  return x;
}

// T = ∂x/∂q (7·bodies × tree_pins) at q, at S.
template <class S>
Matrix<S> coordinate_map(Cut cut, const Vector<S>& q, const Pins& pins = kPins) {
  const std::vector<model_detail::Placed<S>> links = model_detail::place<S>(cut, q, pins);
  const Vector<S> x = maximal_coordinates<S>(cut, q, pins);
  const Index k = Index(links.size());
  Matrix<S> T = Matrix<S>::Zero(7 * k, k);
  for (Index j = 0; j < k; ++j) {
    const models::Vec3<S>& a = links[std::size_t(j)].axis;
    for (Index i = 0; i < k; ++i) {
      if (!model_detail::below(pins, int(i), int(j))) continue;
      const models::Vec3<S> r = x.template segment<3>(7 * i);
      const models::Quaternion<S> p = x.template segment<4>(7 * i + 3);
      T.col(j).template segment<3>(7 * i) = a.cross(models::Vec3<S>(r - links[std::size_t(j)].point));
      T.col(j).template segment<4>(7 * i + 3) = models::quaternion_rate<S>(p, a);
    }
  }
  return T;
}

}  // namespace femc::engines::bricard
