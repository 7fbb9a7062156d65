#pragma once
// Reading a spatial mechanism from a model file (JSON; docs: models/README.md).
//
//   {"kind": "spatial", "name": ..., "description": ..., "sources": [...],
//    "gravity": [gx, gy, gz],
//    "bodies": [{"name", "mass", "inertia": [Jxx, Jyy, Jzz] or [Jxx, Jyy, Jzz, Jxy, Jyz, Jzx],
//                "position": [x, y, z], "orientation", "velocity": [vx, vy, vz],
//                "angular_velocity": [ωx, ωy, ωz]}],
//    "joints": [{"name", "type": spherical | revolute | universal | cylindrical | prismatic | weld | distance,
//                "body1", "point1": [x, y, z], "body2", "point2", "axis1", "axis2", "rotation", "length"}],
//    "forces": [{"name", "type": force | spring-damper, "body", "point", "force",
//                "body1", "point1", "body2", "point2", "stiffness", "damping", "length"}],
//    "t_end": ..., "formulation": "projected" | "index-3" | "index-1", "step": ...}
//
// An orientation (a body's, or a joint's `rotation`, R₁ᵀR₂) is
// {"axis": [x, y, z], "degrees": d} or {"quaternion": [p0, p1, p2, p3]}
// (normalized at the working precision); absent, the identity. The inertia
// is the matrix J about the centre of mass in the body frame (its entries,
// not products of inertia with a sign); the angular velocity is in the
// ground frame. Numbers as in a planar file: text, read exactly at the
// working precision.
#include <string>
#include <string_view>
#include <vector>

#include "femc/io/json_model.hpp"  // ModelStateText, parse_entry
#include "femc/models/spatial.hpp"

namespace femc {

struct OrientationText {
  std::vector<std::string> axis{"0", "0", "1"}, quaternion;  // quaternion empty: axis and degrees
  std::string degrees = "0";
};

struct SpatialModelText {
  std::string name, description;
  std::vector<std::string> sources;
  std::vector<std::string> gravity{"0", "0", "0"};
  struct Body {
    std::string name, mass;
    std::vector<std::string> inertia;  // 3 or 6 entries
    std::vector<std::string> position{"0", "0", "0"}, velocity{"0", "0", "0"}, angular_velocity{"0", "0", "0"};
    OrientationText orientation;
  };
  struct Joint {
    std::string name;
    models::SpatialJointType type = models::SpatialJointType::Spherical;
    int body1 = models::kGround, body2 = models::kGround;
    std::vector<std::string> point1{"0", "0", "0"}, point2{"0", "0", "0"}, axis1{"0", "0", "1"}, axis2{"0", "0", "1"};
    OrientationText rotation;
    std::string length = "0";
  };
  struct Force {
    std::string name;
    models::SpatialForceType type = models::SpatialForceType::Force;
    int body1 = models::kGround, body2 = models::kGround;
    std::vector<std::string> point1{"0", "0", "0"}, point2{"0", "0", "0"}, force{"0", "0", "0"};
    std::string stiffness = "0", damping = "0", length = "0";
  };
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Force> forces;
  std::string t_end;  // empty when absent
  // Simulation defaults (empty when absent): "projected" | "index-3" |
  // "index-1", and index-3's step (dynamics/simulate.hpp).
  std::string formulation, step;
};

// Parses and checks the document's structure and names. Throws InputError.
SpatialModelText read_spatial_model_text(std::string_view json);

// Every number read at the working precision of S; the model validated.
template <class S>
models::SpatialModel<S> to_spatial_model(const SpatialModelText& t);

// The state the file gives, at the working precision of S, before any
// projection onto the constraints: ṗ = ½ E(p)ᵀ ω.
template <class S>
void initial_state(const SpatialModelText& t, Vector<S>& q, Vector<S>& qd);

// A state file's coordinates (7 per body: x, y, z, p0..p3) at the working
// precision of S.
template <class S>
void state_from_text(const ModelStateText& t, const models::SpatialModel<S>& model, Vector<S>& q, Vector<S>& qd);

}  // namespace femc
