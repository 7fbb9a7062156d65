#include "femc/io/system_text.hpp"

#include <nlohmann/json.hpp>

namespace femc {
std::string system_json(const SystemText& t, const std::string& name, const std::string& description) {
  using json = nlohmann::ordered_json;
  auto matrix = [](const std::vector<std::string>& v, Index rows, Index cols) {
    json out = json::array();
    for (Index i = 0; i < rows; ++i) {
      json row = json::array();
      for (Index j = 0; j < cols; ++j) row.push_back(v[std::size_t(i * cols + j)]);
      out.push_back(row);
    }
    return out;
  };
  json doc;
  if (!name.empty()) doc["name"] = name;
  if (!description.empty()) doc["description"] = description;
  doc["M"] = matrix(t.M, t.n, t.n);
  doc["A"] = matrix(t.A, t.m, t.n);
  doc["b"] = t.b;
  doc["Q"] = t.Q;
  if (!t.C.empty()) doc["C"] = t.C;
  if (!t.W.empty()) doc["W"] = matrix(t.W, t.m, t.m);
  if (!t.data_precision.empty()) doc["data_precision"] = t.data_precision;
  if (name.empty() && description.empty()) return doc.dump();
  // A file for people: a key per line, each value compact (a matrix on one line).
  std::string out = "{";
  for (auto it = doc.begin(); it != doc.end(); ++it)
    out += std::string(it == doc.begin() ? "\n" : ",\n") + "  " + json(it.key()).dump() + ": " + it.value().dump();
  return out + "\n}";
}

}  // namespace femc
