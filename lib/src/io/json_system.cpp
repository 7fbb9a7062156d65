#include "femc/io/json_system.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <set>

namespace femc {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

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

void read_vector(const json& v, const char* name, Index expected, std::vector<std::string>& out) {
  if (!v.is_array()) throw InputError(name, std::string("expected an array, got ") + kind_name(v));
  if (static_cast<Index>(v.size()) != expected)
    throw InputError(name, "expected " + std::to_string(expected) + " entries, got " + std::to_string(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::string field = std::string(name) + "[" + std::to_string(i) + "]";
    if (v[i].is_array()) throw InputError(field, "expected a number, got an array");
    out.push_back(entry_text(v[i], field));
  }
}

// Reads an array of `rows` arrays of `cols` numbers; rows < 0 means "any".
Index read_matrix(const json& v, const char* name, Index rows, Index cols, std::vector<std::string>& out) {
  if (!v.is_array()) throw InputError(name, std::string("expected an array of rows, got ") + kind_name(v));
  if (rows >= 0 && static_cast<Index>(v.size()) != rows)
    throw InputError(name, "expected " + std::to_string(rows) + " rows, got " + std::to_string(v.size()));
  if (static_cast<Index>(v.size()) > kMaxJsonDimension)
    throw InputError(name, std::to_string(v.size()) + " rows exceed the limit " + std::to_string(kMaxJsonDimension));
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::string row = std::string(name) + "[" + std::to_string(i) + "]";
    if (!v[i].is_array()) throw InputError(row, std::string("expected a row (array), got ") + kind_name(v[i]));
    if (static_cast<Index>(v[i].size()) != cols)
      throw InputError(row, "expected " + std::to_string(cols) + " entries (n = " + std::to_string(cols) +
                                "), got " + std::to_string(v[i].size()));
    for (std::size_t j = 0; j < v[i].size(); ++j) {
      std::string field = row + "[" + std::to_string(j) + "]";
      if (v[i][j].is_array()) throw InputError(field, "expected a number, got an array");
      out.push_back(entry_text(v[i][j], field));
    }
  }
  return static_cast<Index>(v.size());
}

}  // namespace

bool could_be_double(std::string_view text) {
  if (text.find('/') != std::string_view::npos) return false;
  std::size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  const std::size_t e = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
  long exponent = 0;  // the decimal exponent of the leading significant digit
  if (e != std::string_view::npos) {
    const std::string_view ex = text.substr(e + 1);
    if (ex.size() > 7) return false;  // beyond any double
    exponent = std::stol(std::string(ex));
  }
  long first = -1, last = -1, point = long(mantissa.find('.')), pos = 0;
  if (point < 0) point = long(mantissa.size());
  for (char c : mantissa) {  // positions of digits only
    if (c == '.') continue;
    if (c != '0') {
      if (first < 0) first = pos;
      last = pos;
    }
    ++pos;
  }
  if (first < 0) return true;  // zero
  if (last - first + 1 > 17) return false;
  exponent += point - 1 - first;
  return exponent >= -324 && exponent <= 308;
}

SystemText read_system_text(std::string_view text) {
  if (text.size() > kMaxDocumentBytes)
    throw InputError("document", "larger than " + std::to_string(kMaxDocumentBytes >> 20) + " MiB");
  const OverflowingNumbers big = find_overflowing_numbers(text);
  const std::string_view document = big.document.empty() ? text : std::string_view(big.document);
  TextDomBuilder dom;
  dom.overflowing = &big.by_index;
  json::sax_parse(document.begin(), document.end(), &dom);
  const json& root = dom.root;
  if (!root.is_object() || is_number(root))
    throw InputError("document", std::string("expected a JSON object, got ") + kind_name(root));
  static const std::set<std::string> known = {"M", "A", "b", "Q", "C", "W", "name", "description", "data_precision"};
  for (auto it = root.begin(); it != root.end(); ++it)
    if (!known.count(it.key()))
      throw InputError(it.key().substr(0, 40),
                       "unknown key (expected M, A, b, Q, C, W, name, description, data_precision)");
  for (const char* k : {"M", "A", "b", "Q"})
    if (!root.contains(k)) throw InputError(k, "missing");
  for (const char* k : {"name", "description", "data_precision"})
    if (root.contains(k) && (!root[k].is_string() || is_number(root[k]))) throw InputError(k, "expected a string");

  SystemText t;
  const json& M = root["M"];
  if (!M.is_array()) throw InputError("M", std::string("expected an array of rows, got ") + kind_name(M));
  if (M.empty()) throw InputError("M", "must have at least one row (n ≥ 1)");
  t.n = static_cast<Index>(M.size());
  if (t.n > kMaxJsonDimension)
    throw InputError("M", "n = " + std::to_string(t.n) + " exceeds the limit " + std::to_string(kMaxJsonDimension));
  read_matrix(M, "M", t.n, t.n, t.M);
  t.m = read_matrix(root["A"], "A", -1, t.n, t.A);
  read_vector(root["b"], "b", t.m, t.b);
  read_vector(root["Q"], "Q", t.n, t.Q);
  if (root.contains("C")) read_vector(root["C"], "C", t.n, t.C);
  if (root.contains("W")) read_matrix(root["W"], "W", t.m, t.m, t.W);
  if (root.contains("data_precision")) {
    t.data_precision = root["data_precision"].get<std::string>();
    parse_data_precision(t.data_precision, "data_precision");  // checked here, named by its key
  }
  for (const auto* part : {&t.M, &t.A, &t.b, &t.Q, &t.C, &t.W})
    for (const std::string& x : *part)
      if (!could_be_double(x)) {
        t.every_number_could_be_double = false;
        return t;
      }
  return t;
}

std::string write_solution_json(const SolutionText& s) {
  ordered_json j;
  j["qdd"] = s.qdd;
  j["QN"] = s.QN;
  j["QW"] = s.QW;
  j["Qc"] = s.Qc;
  j["lambda"] = s.lambda;
  j["rank"] = s.rank;
  j["delta_norm"] = s.delta_norm;
  j["delta_norm_sq"] = s.delta_norm_sq;
  j["Gg_min"] = s.Gg_min;
  j["precision"] = s.precision;
  j["data_precision"] = s.data_precision;
  j["method"] = s.method;
  ordered_json d;
  d["rank"] = s.rank;
  d["rank_tol"] = s.rank_tol;
  d["rank_tol_data"] = s.rank_tol_data.empty() ? ordered_json(nullptr) : ordered_json(s.rank_tol_data);
  d["rank_largest"] = s.rank_largest;
  d["rank_smallest_kept"] = s.rank_smallest_kept;
  d["rank_largest_dropped"] = s.rank_largest_dropped;
  d["kappa_M"] = s.kappa_M.empty() ? ordered_json(nullptr) : ordered_json(s.kappa_M);
  d["kappa_B"] = s.kappa_B.empty() ? ordered_json(nullptr) : ordered_json(s.kappa_B);
  d["data_precision_rule"] = s.data_precision_rule;
  d["warnings"] = s.warnings;
  d["notes"] = s.notes;
  j["diagnostics"] = d;
  return j.dump(2) + "\n";
}

std::string sqrt_of_rational_text(mpq_srcptr q, long bits) {
  mpfr_t x;
  mpfr_init2(x, bits);
  mpfr_set_q(x, q, MPFR_RNDN);
  mpfr_sqrt(x, x, MPFR_RNDN);
  std::string s = mpfr_to_decimal(x, roundtrip_digits(bits));
  mpfr_clear(x);
  return s;
}

}  // namespace femc
