#include "femc/io/json_model.hpp"

#include <map>
#include <set>

#include "femc/errors.hpp"
#include "femc/scalar/number_text.hpp"
#include "json_text.hpp"

namespace femc {
namespace {

using json_text::json;
using json_text::kind_name;
using PJ = models::PlanarJointType;
using PF = models::PlanarForceType;
static_assert(models::kGround == -1, "json_text::BodyNames gives the ground as -1");
using json_text::array_of;
using json_text::check_keys;
using json_text::item;
using json_text::number_of;
using json_text::text_of;

Vec2Text pair_of(const json& obj, const std::string& key, const std::string& field, bool required,
                 Vec2Text fallback = {"0", "0"}) {
  const std::string f = field + "." + key;
  if (!obj.contains(key)) {
    if (required) throw InputError(f, "missing");
    return fallback;
  }
  const json& v = obj[key];
  if (!v.is_array() || v.size() != 2) throw InputError(f, std::string("expected [x, y], got ") + kind_name(v));
  return {json_text::entry_text(v[0], f + "[0]"), json_text::entry_text(v[1], f + "[1]")};
}

}  // namespace

bool is_model_document(std::string_view document) {
  try {
    const json root = json_text::parse(document);
    return root.is_object() && root.contains("kind");
  } catch (const InputError&) {
    return false;
  }
}

ModelStateText read_model_state_text(std::string_view document) {
  const json root = json_text::parse(document);
  check_keys(root, "state", {"q", "qd"});
  ModelStateText t;
  for (const auto& [out, key] : {std::pair{&t.q, "q"}, std::pair{&t.qd, "qd"}}) {
    const std::string f = std::string("state.") + key;
    if (!root.contains(key)) throw InputError(f, "missing");
    const json& v = root[key];
    if (!v.is_array() || json_text::is_number(v)) throw InputError(f, std::string("expected an array, got ") + kind_name(v));
    for (std::size_t i = 0; i < v.size(); ++i) out->push_back(json_text::entry_text(v[i], f + "[" + std::to_string(i) + "]"));
  }
  return t;
}

PlanarModelText read_planar_model_text(std::string_view document) {
  const json root = json_text::parse(document);
  const json_text::ModelHeader header = json_text::read_model_header(root, "planar", {"contacts"});
  PlanarModelText t;
  t.name = header.name;
  t.description = header.description;
  t.sources = header.sources;
  t.t_end = header.t_end;
  t.formulation = header.formulation;
  t.step = header.step;
  t.gravity = pair_of(root, "gravity", "model", false);

  json_text::BodyNames names;
  const json& bodies = array_of(root, "bodies");
  if (bodies.empty()) throw InputError("bodies", "a model needs at least one body");
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const json& b = bodies[i];
    const std::string f = item("bodies", i, b);
    check_keys(b, f, {"name", "mass", "inertia", "position", "angle", "velocity", "angular_velocity"});
    PlanarModelText::Body body;
    body.name = names.add(b, f, int(i));
    body.mass = number_of(b, "mass", f, nullptr);
    body.inertia = number_of(b, "inertia", f, nullptr);
    body.position = pair_of(b, "position", f, true);
    body.angle = number_of(b, "angle", f, "0");
    body.velocity = pair_of(b, "velocity", f, false);
    body.angular_velocity = number_of(b, "angular_velocity", f, "0");
    t.bodies.push_back(body);
  }
  auto body_of = [&](const json& obj, const std::string& key, const std::string& f, bool required) {
    return names.find(obj, key, f, required);
  };

  const json& joints = array_of(root, "joints");
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const json& j = joints[i];
    const std::string f = item("joints", i, j);
    check_keys(j, f, {"name", "type", "body1", "point1", "body2", "point2", "axis", "angle", "length"});
    PlanarModelText::Joint joint;
    if (j.contains("name")) joint.name = text_of(j["name"], f + ".name");
    if (!j.contains("type")) throw InputError(f + ".type", "missing (revolute, prismatic, weld or distance)");
    const std::string type = text_of(j["type"], f + ".type");
    static const std::map<std::string, PJ> types{
        {"revolute", PJ::Revolute}, {"prismatic", PJ::Prismatic}, {"weld", PJ::Weld}, {"distance", PJ::Distance}};
    const auto it = types.find(type);
    if (it == types.end())
      throw InputError(f + ".type", "'" + type.substr(0, 40) + "' is not revolute, prismatic, weld or distance");
    joint.type = it->second;
    joint.body1 = body_of(j, "body1", f, true);
    joint.body2 = body_of(j, "body2", f, true);
    joint.point1 = pair_of(j, "point1", f, false);
    joint.point2 = pair_of(j, "point2", f, false);
    joint.axis = pair_of(j, "axis", f, joint.type == PJ::Prismatic, {"1", "0"});
    joint.angle = number_of(j, "angle", f, "0");
    joint.length = number_of(j, "length", f, joint.type == PJ::Distance ? nullptr : "0");
    t.joints.push_back(joint);
  }

  const json& forces = array_of(root, "forces");
  for (std::size_t i = 0; i < forces.size(); ++i) {
    const json& x = forces[i];
    const std::string f = item("forces", i, x);
    if (!x.is_object()) throw InputError(f, std::string("expected an object, got ") + kind_name(x));
    if (!x.contains("type")) throw InputError(f + ".type", "missing (torque, force or spring)");
    const std::string type = text_of(x["type"], f + ".type");
    PlanarModelText::Force force;
    if (type == "torque") {
      check_keys(x, f, {"name", "type", "body", "reaction", "torque"});
      force.type = PF::Torque;
      force.body1 = body_of(x, "body", f, true);
      force.body2 = body_of(x, "reaction", f, false);
      force.torque = number_of(x, "torque", f, nullptr);
    } else if (type == "force") {
      check_keys(x, f, {"name", "type", "body", "point", "force"});
      force.type = PF::Force;
      force.body1 = body_of(x, "body", f, true);
      force.point1 = pair_of(x, "point", f, false);
      force.force = pair_of(x, "force", f, true);
    } else if (type == "spring") {
      check_keys(x, f, {"name", "type", "body1", "point1", "body2", "point2", "stiffness", "length"});
      force.type = PF::Spring;
      force.body1 = body_of(x, "body1", f, true);
      force.point1 = pair_of(x, "point1", f, false);
      force.body2 = body_of(x, "body2", f, true);
      force.point2 = pair_of(x, "point2", f, false);
      force.stiffness = number_of(x, "stiffness", f, nullptr);
      force.length = number_of(x, "length", f, nullptr);
    } else {
      throw InputError(f + ".type", "'" + type.substr(0, 40) + "' is not torque, force or spring");
    }
    if (x.contains("name")) force.name = text_of(x["name"], f + ".name");
    t.forces.push_back(force);
  }

  const json& contacts = array_of(root, "contacts");
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const json& x = contacts[i];
    const std::string f = item("contacts", i, x);
    check_keys(x, f, {"name", "body", "point", "origin", "normal", "friction"});
    PlanarModelText::Contact contact;
    if (x.contains("name")) contact.name = text_of(x["name"], f + ".name");
    contact.body = body_of(x, "body", f, true);
    if (contact.body == models::kGround) throw InputError(f + ".body", "is the ground (a contact is a point of a body)");
    contact.point = pair_of(x, "point", f, false);
    contact.origin = pair_of(x, "origin", f, false);
    contact.normal = pair_of(x, "normal", f, false, {"0", "1"});
    contact.friction = number_of(x, "friction", f, "0");
    t.contacts.push_back(contact);
  }
  return t;
}

}  // namespace femc
