#include "femc/io/json_system.hpp"

#include "json_text.hpp"

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
using json_text::entry_text;
using json_text::is_number;
using json_text::kind_name;

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

// A non-negative integer given as a JSON number (an index or a size), at
// most `limit`.
Index read_index(const json& v, const std::string& field, Index limit) {
  if (!is_number(v)) throw InputError(field, std::string("expected an integer, got ") + kind_name(v));
  const std::string t = entry_text(v, field);
  if (t.empty() || t.size() > 12 || t.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(field, "expected a non-negative integer, got " + t.substr(0, 40));
  const Index x = std::stoll(t);
  if (x > limit) throw InputError(field, t + " exceeds " + std::to_string(limit));
  return x;
}

// {"rows": R, "cols": C, "entries": [[i, j, x], ...]}; rows/cols < 0: any
// (within kMaxSparseDimension).
SparseText read_sparse(const json& v, const char* name, Index rows, Index cols) {
  const std::string base(name);
  static const std::set<std::string> known = {"rows", "cols", "entries"};
  for (auto it = v.begin(); it != v.end(); ++it)
    if (!known.count(it.key()))
      throw InputError(base + "." + it.key().substr(0, 40), "unknown key (a sparse matrix has rows, cols, entries)");
  for (const char* k : {"rows", "cols", "entries"})
    if (!v.contains(k)) throw InputError(base + "." + k, "missing");
  SparseText t;
  t.rows = read_index(v["rows"], base + ".rows", kMaxSparseDimension);
  t.cols = read_index(v["cols"], base + ".cols", kMaxSparseDimension);
  if (rows >= 0 && t.rows != rows)
    throw InputError(base + ".rows", "expected " + std::to_string(rows) + ", got " + std::to_string(t.rows));
  if (cols >= 0 && t.cols != cols)
    throw InputError(base + ".cols", "expected " + std::to_string(cols) + ", got " + std::to_string(t.cols));
  const json& e = v["entries"];
  if (!e.is_array()) throw InputError(base + ".entries", std::string("expected an array, got ") + kind_name(e));
  std::set<std::pair<Index, Index>> seen;
  for (std::size_t k = 0; k < e.size(); ++k) {
    const std::string field = base + ".entries[" + std::to_string(k) + "]";
    if (!e[k].is_array() || e[k].size() != 3)
      throw InputError(field, "expected [row, column, value]");
    const Index i = read_index(e[k][0], field + "[0]", kMaxSparseDimension);
    const Index j = read_index(e[k][1], field + "[1]", kMaxSparseDimension);
    if (i >= t.rows) throw InputError(field, "row " + std::to_string(i) + " outside 0.." + std::to_string(t.rows - 1));
    if (j >= t.cols) throw InputError(field, "column " + std::to_string(j) + " outside 0.." + std::to_string(t.cols - 1));
    if (!seen.insert({i, j}).second)
      throw InputError(field, "position (" + std::to_string(i) + ", " + std::to_string(j) + ") given twice");
    t.row.push_back(i);
    t.col.push_back(j);
    t.value.push_back(entry_text(e[k][2], field + "[2]"));
  }
  return t;
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
  const json parsed = json_text::parse(text);
  const json& root = parsed;
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
  if (M.is_object() && !is_number(M)) {
    t.M_sparse = read_sparse(M, "M", -1, -1);
    t.n = t.M_sparse->rows;
    if (t.M_sparse->cols != t.n)
      throw InputError("M.cols", "M must be square: " + std::to_string(t.n) + " rows, " +
                                     std::to_string(t.M_sparse->cols) + " columns");
    if (t.n == 0) throw InputError("M", "must have at least one row (n ≥ 1)");
  } else {
    if (!M.is_array()) throw InputError("M", std::string("expected an array of rows or a sparse matrix, got ") + kind_name(M));
    if (M.empty()) throw InputError("M", "must have at least one row (n ≥ 1)");
    t.n = static_cast<Index>(M.size());
    if (t.n > kMaxJsonDimension)
      throw InputError("M", "n = " + std::to_string(t.n) + " exceeds the limit " + std::to_string(kMaxJsonDimension) +
                                " of a dense matrix (give M sparse: {\"rows\", \"cols\", \"entries\"})");
    read_matrix(M, "M", t.n, t.n, t.M);
  }
  if (root["A"].is_object() && !is_number(root["A"])) {
    t.A_sparse = read_sparse(root["A"], "A", -1, t.n);
    t.m = t.A_sparse->rows;
  } else {
    t.m = read_matrix(root["A"], "A", -1, t.n, t.A);
  }
  read_vector(root["b"], "b", t.m, t.b);
  read_vector(root["Q"], "Q", t.n, t.Q);
  if (root.contains("C")) read_vector(root["C"], "C", t.n, t.C);
  if (root.contains("W")) {
    if (root["W"].is_object() && !is_number(root["W"])) t.W_sparse = read_sparse(root["W"], "W", t.m, t.m);
    else read_matrix(root["W"], "W", t.m, t.m, t.W);
  }
  if (root.contains("data_precision")) {
    t.data_precision = root["data_precision"].get<std::string>();
    parse_data_precision(t.data_precision, "data_precision");  // checked here, named by its key
  }
  for (const auto* sp : {&t.M_sparse, &t.A_sparse, &t.W_sparse})
    if (*sp)
      for (const std::string& x : (*sp)->value)
        if (!could_be_double(x)) {
          t.every_number_could_be_double = false;
          return t;
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
