#include "femc/io/json_spatial_model.hpp"

#include <map>
#include <set>

#include "femc/errors.hpp"
#include "json_text.hpp"

namespace femc {
namespace {

using json_text::array_of;
using json_text::check_keys;
using json_text::item;
using json_text::json;
using json_text::kind_name;
using json_text::number_of;
using json_text::numbers_of;
using json_text::text_of;
using SJ = models::SpatialJointType;
using SF = models::SpatialForceType;

const std::vector<std::string> kZero3{"0", "0", "0"};

std::vector<std::string> triple(const json& obj, const std::string& key, const std::string& field, bool required,
                                const std::vector<std::string>& fallback = kZero3) {
  return numbers_of(obj, key, field, 3, required ? std::vector<std::string>{} : fallback);
}

OrientationText orientation_of(const json& obj, const std::string& key, const std::string& field) {
  OrientationText t;
  if (!obj.contains(key)) return t;
  const std::string f = field + "." + key;
  const json& o = obj[key];
  check_keys(o, f, {"axis", "degrees", "quaternion"});
  if (o.contains("quaternion")) {
    if (o.contains("axis") || o.contains("degrees"))
      throw InputError(f, "give a quaternion or an axis and degrees, not both");
    t.quaternion = numbers_of(o, "quaternion", f, 4, {});
    return t;
  }
  t.axis = numbers_of(o, "axis", f, 3, {});
  t.degrees = number_of(o, "degrees", f, nullptr);
  return t;
}

}  // namespace

SpatialModelText read_spatial_model_text(std::string_view document) {
  const json root = json_text::parse(document);
  const json_text::ModelHeader header = json_text::read_model_header(root, "spatial");
  SpatialModelText t;
  t.name = header.name;
  t.description = header.description;
  t.sources = header.sources;
  t.t_end = header.t_end;
  t.formulation = header.formulation;
  t.step = header.step;
  t.gravity = triple(root, "gravity", "model", false);

  json_text::BodyNames names;
  const json& bodies = array_of(root, "bodies");
  if (bodies.empty()) throw InputError("bodies", "a model needs at least one body");
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const json& b = bodies[i];
    const std::string f = item("bodies", i, b);
    check_keys(b, f, {"name", "mass", "inertia", "position", "orientation", "velocity", "angular_velocity"});
    SpatialModelText::Body body;
    body.name = names.add(b, f, int(i));
    body.mass = number_of(b, "mass", f, nullptr);
    if (!b.contains("inertia")) throw InputError(f + ".inertia", "missing");
    const std::size_t entries = b["inertia"].is_array() && !json_text::is_number(b["inertia"]) ? b["inertia"].size() : 0;
    body.inertia = numbers_of(b, "inertia", f, entries == 6 ? 6 : 3, {});
    body.position = triple(b, "position", f, true);
    body.orientation = orientation_of(b, "orientation", f);
    body.velocity = triple(b, "velocity", f, false);
    body.angular_velocity = triple(b, "angular_velocity", f, false);
    t.bodies.push_back(body);
  }
  auto body_of = [&](const json& obj, const std::string& key, const std::string& f) {
    return names.find(obj, key, f, true);
  };

  static const std::map<std::string, SJ> joint_types{
      {"spherical", SJ::Spherical},     {"revolute", SJ::Revolute}, {"universal", SJ::Universal},
      {"cylindrical", SJ::Cylindrical}, {"prismatic", SJ::Prismatic}, {"weld", SJ::Weld},
      {"distance", SJ::Distance}};
  const char* joint_list = "spherical, revolute, universal, cylindrical, prismatic, weld or distance";
  const json& joints = array_of(root, "joints");
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const json& j = joints[i];
    const std::string f = item("joints", i, j);
    check_keys(j, f, {"name", "type", "body1", "point1", "body2", "point2", "axis1", "axis2", "rotation", "length"});
    SpatialModelText::Joint joint;
    if (j.contains("name")) joint.name = text_of(j["name"], f + ".name");
    if (!j.contains("type")) throw InputError(f + ".type", std::string("missing (") + joint_list + ")");
    const std::string type = text_of(j["type"], f + ".type");
    const auto it = joint_types.find(type);
    if (it == joint_types.end()) throw InputError(f + ".type", "'" + type.substr(0, 40) + "' is not " + joint_list);
    joint.type = it->second;
    const bool axis1 = joint.type != SJ::Spherical && joint.type != SJ::Weld && joint.type != SJ::Distance;
    const bool axis2 = joint.type == SJ::Revolute || joint.type == SJ::Universal || joint.type == SJ::Cylindrical;
    const bool rotation = joint.type == SJ::Prismatic || joint.type == SJ::Weld;
    // A key that the type does not read is a mistake in the file, not a default.
    for (const auto& [key, read] : {std::pair{"axis1", axis1}, std::pair{"axis2", axis2},
                                    std::pair{"rotation", rotation}, std::pair{"length", joint.type == SJ::Distance}})
      if (!read && j.contains(key)) throw InputError(f + "." + key, "a " + type + " joint has no " + key);
    joint.body1 = body_of(j, "body1", f);
    joint.body2 = body_of(j, "body2", f);
    joint.point1 = triple(j, "point1", f, false);
    joint.point2 = triple(j, "point2", f, false);
    if (axis1) joint.axis1 = triple(j, "axis1", f, true);
    if (axis2) joint.axis2 = triple(j, "axis2", f, true);
    joint.rotation = orientation_of(j, "rotation", f);
    joint.length = number_of(j, "length", f, joint.type == SJ::Distance ? nullptr : "0");
    t.joints.push_back(joint);
  }

  const json& forces = array_of(root, "forces");
  for (std::size_t i = 0; i < forces.size(); ++i) {
    const json& x = forces[i];
    const std::string f = item("forces", i, x);
    if (!x.is_object()) throw InputError(f, std::string("expected an object, got ") + kind_name(x));
    if (!x.contains("type")) throw InputError(f + ".type", "missing (force or spring-damper)");
    const std::string type = text_of(x["type"], f + ".type");
    SpatialModelText::Force force;
    if (type == "force") {
      check_keys(x, f, {"name", "type", "body", "point", "force"});
      force.type = SF::Force;
      force.body1 = body_of(x, "body", f);
      force.point1 = triple(x, "point", f, false);
      force.force = triple(x, "force", f, true);
    } else if (type == "spring-damper") {
      check_keys(x, f, {"name", "type", "body1", "point1", "body2", "point2", "stiffness", "damping", "length"});
      force.type = SF::SpringDamper;
      force.body1 = body_of(x, "body1", f);
      force.point1 = triple(x, "point1", f, false);
      force.body2 = body_of(x, "body2", f);
      force.point2 = triple(x, "point2", f, false);
      force.stiffness = number_of(x, "stiffness", f, nullptr);
      force.damping = number_of(x, "damping", f, "0");
      force.length = number_of(x, "length", f, nullptr);
    } else {
      throw InputError(f + ".type", "'" + type.substr(0, 40) + "' is not force or spring-damper");
    }
    if (x.contains("name")) force.name = text_of(x["name"], f + ".name");
    t.forces.push_back(force);
  }
  return t;
}

}  // namespace femc
