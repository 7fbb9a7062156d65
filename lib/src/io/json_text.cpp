#include "json_text.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "femc/errors.hpp"
#include "femc/io/json_system.hpp"  // the document limits
#include "femc/scalar/number_text.hpp"

namespace femc::json_text {
namespace {

constexpr char kNumberMarker = '\x1e';

// nlohmann's lexer converts every JSON number to double and stops the parse
// at one beyond double's range (error 406), although such a number is valid
// JSON and femc reads numbers from their text, never through double. So
// before parsing, each number token (outside strings) that overflows double
// is overwritten in a copy of the document by "0" and spaces, the same
// length, so that byte offsets in later errors stay true; its text is kept,
// in document order. The SAX handler counts numbers and puts the kept text
// back where the placeholder arrives.
struct OverflowingNumbers {
  std::string document;                        // the copy, when a token was overwritten
  std::map<std::size_t, std::string> by_index; // number's index in document order → its text
};

OverflowingNumbers find_overflowing_numbers(std::string_view text) {
  OverflowingNumbers out;
  bool in_string = false;
  std::size_t index = 0;  // numbers seen so far
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && !(c >= '0' && c <= '9')) continue;
    std::size_t j = i;  // the token: the characters a JSON number may contain
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '-' ||
                               text[j] == '+' || text[j] == '.' || text[j] == 'e' || text[j] == 'E'))
      ++j;
    const std::string token(text.substr(i, j - i));
    static const std::regex json_number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)");
    if (!std::isfinite(std::strtod(token.c_str(), nullptr)) && std::regex_match(token, json_number)) {
      // beyond double, and a well-formed number (a malformed one is the lexer's to reject): overwrite, keep the text
      if (out.document.empty()) out.document.assign(text);
      out.document.replace(i, token.size(), "0" + std::string(token.size() - 1, ' '));
      out.by_index[index] = token;
    }
    ++index;
    i = j - 1;
  }
  return out;
}

// A SAX handler that builds a DOM in which every number is kept as its text
// (so that "0.1" written as a JSON number is read exactly later), with a
// nesting limit and duplicate-key detection. Errors become InputError.
class TextDomBuilder : public nlohmann::json_sax<json> {
 public:
  json root;
  const std::map<std::size_t, std::string>* overflowing = nullptr;  // find_overflowing_numbers

  bool null() override { return put(json(nullptr)); }
  bool boolean(bool v) override { return put(json(v)); }
  bool number_integer(number_integer_t v) override { return put(number_text(std::to_string(v))); }
  bool number_unsigned(number_unsigned_t v) override { return put(number_text(std::to_string(v))); }
  bool number_float(number_float_t, const string_t& s) override { return put(number_text(s)); }
  bool string(string_t& s) override {
    if (!s.empty() && s[0] == kNumberMarker) s.insert(0, 1, ' ');  // a string never passes for a number
    return put(json(std::move(s)));
  }
  bool binary(binary_t&) override { return put(json(nullptr)); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    json& obj = *stack_.back();
    if (obj.contains(k)) throw InputError(k.substr(0, 40), "key appears more than once");
    key_ = k;
    return true;
  }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();
    auto colon = what.rfind(": ");
    throw InputError("document", "malformed JSON at byte " + std::to_string(pos) + ": " +
                                     (colon == std::string::npos ? what : what.substr(colon + 2)));
  }

  // A number is stored as its text behind a marker byte (U+001E), apart
  // from strings: a string that starts with that byte is shifted by a space.
  static json number(const std::string& text) { return json(kNumberMarker + text); }

 private:
  // The next number in document order: its own text, or the kept text of
  // an overflowing one (find_overflowing_numbers).
  json number_text(const std::string& text) {
    const std::size_t index = numbers_++;
    if (overflowing) {
      auto it = overflowing->find(index);
      if (it != overflowing->end()) return number(it->second);
    }
    return number(text);
  }
  std::size_t numbers_ = 0;

  bool put(json v) {
    if (++values_ > kMaxJsonValues)
      throw InputError("document", "more than " + std::to_string(kMaxJsonValues) + " values");
    if (stack_.empty()) {
      root = std::move(v);
      return true;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) parent.push_back(std::move(v));
    else parent[key_] = std::move(v);
    return true;
  }
  bool open(json v) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth)
      throw InputError("document", "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    json* slot;
    if (stack_.empty()) {
      root = std::move(v);
      slot = &root;
    } else {
      json& parent = *stack_.back();
      if (parent.is_array()) {
        parent.push_back(std::move(v));
        slot = &parent.back();
      } else {
        parent[key_] = std::move(v);
        slot = &parent[key_];
      }
    }
    stack_.push_back(slot);
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  std::vector<json*> stack_;
  std::string key_;
  std::size_t values_ = 0;
};


}  // namespace

json parse(std::string_view text) {
  if (text.size() > kMaxDocumentBytes)
    throw InputError("document", "larger than " + std::to_string(kMaxDocumentBytes >> 20) + " MiB");
  const OverflowingNumbers big = find_overflowing_numbers(text);
  const std::string_view document = big.document.empty() ? text : std::string_view(big.document);
  TextDomBuilder dom;
  dom.overflowing = &big.by_index;
  json::sax_parse(document.begin(), document.end(), &dom);
  return std::move(dom.root);
}

bool is_number(const json& v) {
  return v.is_string() && !v.get_ref<const std::string&>().empty() && v.get_ref<const std::string&>()[0] == kNumberMarker;
}

std::string entry_text(const json& v, const std::string& field) {
  if (is_number(v)) return v.get_ref<const std::string&>().substr(1);
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    try {
      check_number_syntax(s);
    } catch (const NumberError& e) {
      throw InputError(field, e.what());
    }
    return s;
  }
  throw InputError(field, std::string("expected a number or a numeric string, got ") + v.type_name());
}

const char* kind_name(const json& v) { return is_number(v) ? "number" : v.type_name(); }


// An object's keys, each known; `what` names the expected ones in the error.
void check_keys(const json& obj, const std::string& field, const std::set<std::string>& known) {
  if (!obj.is_object() || is_number(obj))
    throw InputError(field, std::string("expected an object, got ") + kind_name(obj));
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (!known.count(it.key())) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(field + "." + it.key().substr(0, 40), "unknown key (expected " + list + ")");
    }
}

std::string text_of(const json& v, const std::string& field) {
  if (!v.is_string() || is_number(v))
    throw InputError(field, std::string("expected a string, got ") + kind_name(v));
  return v.get<std::string>();
}

std::string number_of(const json& obj, const std::string& key, const std::string& field, const char* fallback) {
  if (!obj.contains(key)) {
    if (fallback) return fallback;
    throw InputError(field + "." + key, "missing");
  }
  return entry_text(obj[key], field + "." + key);
}

// "joints[2] (B)" when named.
std::string item(const char* list, std::size_t i, const json& obj) {
  std::string f = std::string(list) + "[" + std::to_string(i) + "]";
  if (obj.is_object() && obj.contains("name") && obj["name"].is_string() && !is_number(obj["name"]))
    f += " (" + obj["name"].get<std::string>().substr(0, 40) + ")";
  return f;
}

const json& array_of(const json& root, const char* key) {
  static const json empty = json::array();
  if (!root.contains(key)) return empty;
  const json& v = root[key];
  if (!v.is_array()) throw InputError(key, std::string("expected an array, got ") + kind_name(v));
  return v;
}

std::vector<std::string> numbers_of(const json& obj, const std::string& key, const std::string& field,
                                    std::size_t count, const std::vector<std::string>& fallback) {
  const std::string f = field + "." + key;
  if (!obj.contains(key)) {
    if (fallback.empty()) throw InputError(f, "missing");
    return fallback;
  }
  const json& v = obj[key];
  if (!v.is_array() || is_number(v) || v.size() != count)
    throw InputError(f, "expected an array of " + std::to_string(count) + " numbers, got " +
                            (v.is_array() && !is_number(v) ? std::to_string(v.size()) + " entries" : kind_name(v)));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(entry_text(v[i], f + "[" + std::to_string(i) + "]"));
  return out;
}

ModelHeader read_model_header(const json& root, const std::string& kind, const std::set<std::string>& extra) {
  std::set<std::string> known{"kind", "name", "description", "sources", "gravity", "bodies", "joints", "forces", "t_end",
                               "formulation", "step"};
  known.insert(extra.begin(), extra.end());
  check_keys(root, "model", known);
  if (!root.contains("kind")) throw InputError("kind", "missing (\"" + kind + "\")");
  const std::string got = text_of(root["kind"], "kind");
  if (got != kind) throw InputError("kind", "'" + got.substr(0, 40) + "' is not a kind of model femc reads (" + kind + ")");
  ModelHeader h;
  if (root.contains("name")) h.name = text_of(root["name"], "name");
  if (root.contains("description")) h.description = text_of(root["description"], "description");
  if (root.contains("sources")) {
    const json& s = root["sources"];
    if (!s.is_array()) throw InputError("sources", std::string("expected an array of strings, got ") + kind_name(s));
    for (std::size_t i = 0; i < s.size(); ++i) h.sources.push_back(text_of(s[i], "sources[" + std::to_string(i) + "]"));
  }
  if (root.contains("t_end")) h.t_end = entry_text(root["t_end"], "t_end");
  if (root.contains("formulation")) {
    h.formulation = text_of(root["formulation"], "formulation");
    if (h.formulation != "projected" && h.formulation != "index-3" && h.formulation != "index-1")
      throw InputError("formulation", "'" + h.formulation.substr(0, 40) + "' is not projected, index-3 or index-1");
  }
  if (root.contains("step")) h.step = entry_text(root["step"], "step");
  return h;
}

std::string BodyNames::add(const json& body, const std::string& field, int i) {
  if (!body.contains("name")) throw InputError(field + ".name", "missing");
  const std::string name = text_of(body["name"], field + ".name");
  if (name.empty()) throw InputError(field + ".name", "empty");
  if (!index_.emplace(name, i).second)
    throw InputError(field + ".name", name == "ground" ? "'ground' names the fixed frame" : "'" + name + "' names two bodies");
  return name;
}

int BodyNames::find(const json& obj, const std::string& key, const std::string& field, bool required) const {
  if (!obj.contains(key)) {
    if (required) throw InputError(field + "." + key, "missing");
    return -1;
  }
  const std::string name = text_of(obj[key], field + "." + key);
  const auto it = index_.find(name);
  if (it == index_.end()) throw InputError(field + "." + key, "'" + name.substr(0, 40) + "' is not a body (nor the ground)");
  return it->second;
}

}  // namespace femc::json_text
