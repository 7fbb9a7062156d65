#pragma once
// The regression metrics of a study, gathered by name while Study::metrics
// reads its table: each is created once, with its floor and value 0, then
// counted or raised to a maximum; list() gives them in name order.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "study.hpp"

namespace femc::studies {

class MetricTable {
 public:
  // The metric `name`, created with `floor` and value 0 on first use.
  Metric& operator()(const std::string& name, double floor) {
    return metrics_.try_emplace(name, Metric{name, 0, floor}).first->second;
  }
  // A count (floor 0): one more when `hit`.
  void count(const std::string& name, bool hit) {
    Metric& m = (*this)(name, 0);
    if (hit) m.value += 1;
  }
  // A maximum: raised to `value`, which a NaN leaves as it is.
  void raise(const std::string& name, double value, double floor) {
    Metric& m = (*this)(name, floor);
    if (!std::isnan(value)) m.value = std::max(m.value, value);
  }
  std::vector<Metric> list() const {
    std::vector<Metric> out;
    for (const auto& [name, m] : metrics_) out.push_back(m);
    return out;
  }

 private:
  std::map<std::string, Metric> metrics_;
};

}  // namespace femc::studies
