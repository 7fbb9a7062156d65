#pragma once
// Reading a planar mechanism from a model file (JSON; docs: models/README.md).
//
//   {"kind": "planar", "name": ..., "description": ..., "sources": [...],
//    "gravity": [gx, gy],
//    "bodies": [{"name", "mass", "inertia", "position": [x, y], "angle",
//                "velocity": [vx, vy], "angular_velocity"}],
//    "joints": [{"name", "type": revolute | prismatic | weld | distance,
//                "body1", "point1": [x, y], "body2", "point2", "axis", "angle", "length"}],
//    "forces": [{"name", "type": torque | force | spring, "body", "reaction", "torque",
//                "point", "force", "body1", "point1", "body2", "point2", "stiffness", "length"}],
//    "contacts": [{"name", "body", "point": [x, y], "origin": [x, y], "normal": [nx, ny], "friction"}],
//    "t_end": ..., "formulation": "projected" | "index-3" | "index-1", "step": ...}
//
// Bodies are named; "ground" is the fixed frame. A body's position is its
// centre of mass, its points are offsets from it in its own frame. Every
// number is a JSON number or a decimal (or p/q) string, kept as text and
// read exactly at the working precision. A malformed file, an unknown key,
// a joint naming a missing body, a non-positive mass: InputError naming the
// item ("joints[2] (B).body2: 'rockr' is not a body").
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "femc/io/json_system.hpp"
#include "femc/models/planar.hpp"

namespace femc {

using Vec2Text = std::array<std::string, 2>;

struct PlanarModelText {
  std::string name, description;
  std::vector<std::string> sources;
  Vec2Text gravity{"0", "0"};
  struct Body {
    std::string name, mass, inertia, angle = "0", angular_velocity = "0";
    Vec2Text position{"0", "0"}, velocity{"0", "0"};
  };
  struct Joint {
    std::string name;
    models::PlanarJointType type = models::PlanarJointType::Revolute;
    int body1 = models::kGround, body2 = models::kGround;
    Vec2Text point1{"0", "0"}, point2{"0", "0"}, axis{"1", "0"};
    std::string angle = "0", length = "0";
  };
  struct Force {
    std::string name;
    models::PlanarForceType type = models::PlanarForceType::Torque;
    int body1 = models::kGround, body2 = models::kGround;
    Vec2Text point1{"0", "0"}, point2{"0", "0"}, force{"0", "0"};
    std::string torque = "0", stiffness = "0", length = "0";
  };
  struct Contact {
    std::string name;
    int body = models::kGround;
    Vec2Text point{"0", "0"}, origin{"0", "0"}, normal{"0", "1"};
    std::string friction = "0";
  };
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Force> forces;
  std::vector<Contact> contacts;
  std::string t_end;  // empty when absent
  // Simulation defaults (empty when absent): "projected" | "index-3" |
  // "index-1", and index-3's step (dynamics/simulate.hpp).
  std::string formulation, step;
};

// Parses and checks the document's structure and names. Throws InputError.
PlanarModelText read_planar_model_text(std::string_view json);

// A state of a model (`femc solve MODEL.json --state STATE.json`):
//   {"q": [...], "qd": [...]}, the coordinates in the order
// models::coordinate_names gives (x, y, θ of each body in the file's order),
// each number kept as text.
struct ModelStateText {
  std::vector<std::string> q, qd;
};
ModelStateText read_model_state_text(std::string_view json);

// Whether a document is a model file ("kind" present at the top level), so
// that a command taking either a system or a model can tell them apart.
bool is_model_document(std::string_view json);

// Every number read at the working precision of S; the model validated.
template <class S>
models::PlanarModel<S> to_planar_model(const PlanarModelText& t);

// The state the file gives (each body's position, angle and velocities), at
// the working precision of S, before any projection onto the constraints.
template <class S>
void initial_state(const PlanarModelText& t, Vector<S>& q, Vector<S>& qd);

// A state file's coordinates at the working precision of S, for `model`
// (x, y, θ per body); InputError naming "state.q" when the length differs.
template <class S>
void state_from_text(const ModelStateText& t, const models::PlanarModel<S>& model, Vector<S>& q, Vector<S>& qd);

}  // namespace femc
