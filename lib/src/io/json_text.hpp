#pragma once
// Reading JSON documents whose numbers femc keeps as text (src/io only: the
// system reader, json_system.cpp, and the model reader, json_model.cpp).
// Every number, written as a JSON number or as a numeric string, reaches
// the caller as its own text, so that it is read exactly at the working
// precision later; nothing passes through double.
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace femc::json_text {

using json = nlohmann::json;

// Parses a document of at most kMaxDocumentBytes, nested at most
// kMaxJsonDepth deep, with at most kMaxJsonValues values and no key twice.
// Numbers are stored as marked strings (is_number, entry_text). Throws
// InputError ("document: malformed JSON at byte 12: ...").
json parse(std::string_view text);

// Whether a value of the parsed document is a JSON number.
bool is_number(const json& v);
// A number's text: a JSON number's, or a string's checked for numeric
// syntax. Anything else is an InputError naming `field`.
std::string entry_text(const json& v, const std::string& field);
// "number", "string", "array", ... for messages.
const char* kind_name(const json& v);

// The fields of a model document (json_model.cpp, json_spatial_model.cpp).
// Each throws InputError naming the field.
//   check_keys: `obj` is an object whose keys are all in `known`;
//   text_of:    a string (not a number);
//   number_of:  obj[key]'s number text, `fallback` when absent (nullptr: required);
//   numbers_of: obj[key] as an array of `count` numbers' texts, `fallback` when
//               absent (empty: required);
//   item:       "joints[2] (B)" for the i-th entry of a list, with its name;
//   array_of:   root[key] as an array (empty when absent).
void check_keys(const json& obj, const std::string& field, const std::set<std::string>& known);
std::string text_of(const json& v, const std::string& field);
std::string number_of(const json& obj, const std::string& key, const std::string& field, const char* fallback);
std::vector<std::string> numbers_of(const json& obj, const std::string& key, const std::string& field,
                                    std::size_t count, const std::vector<std::string>& fallback);
std::string item(const char* list, std::size_t i, const json& obj);
const json& array_of(const json& root, const char* key);

// The top level of a model document of `kind`: its keys checked (those every
// kind has and the kind's `extra` ones), its "kind" required to be `kind`,
// and the fields every kind has.
struct ModelHeader {
  std::string name, description, t_end;  // t_end empty when absent
  // The model's simulation defaults (empty when absent): the formulation
  // ("projected", "index-3" or "index-1") and index-3's step, for a
  // mechanism that needs them (IFToMM A02's singular configurations).
  std::string formulation, step;
  std::vector<std::string> sources;
};
ModelHeader read_model_header(const json& root, const std::string& kind, const std::set<std::string>& extra = {});

// The bodies' names, "ground" the fixed frame (-1), each body once.
class BodyNames {
 public:
  // Reads bodies[i]'s name (field: "bodies[i] (name)"), required, new and
  // not "ground"; its index is i.
  std::string add(const json& body, const std::string& field, int i);
  // obj[key] as a body's index or -1 for the ground; absent: -1 unless required.
  int find(const json& obj, const std::string& key, const std::string& field, bool required) const;

 private:
  std::map<std::string, int> index_{{"ground", -1}};
};

}  // namespace femc::json_text
