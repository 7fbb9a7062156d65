#include "registry.hpp"

#include "femc/errors.hpp"

namespace femc::studies {

const std::vector<std::unique_ptr<Study>>& all_studies() {
  static const std::vector<std::unique_ptr<Study>> studies = [] {
    std::vector<std::unique_ptr<Study>> v;
    v.push_back(make_conditioning_study());
    v.push_back(make_rank_study());
    v.push_back(make_perturbed_constraints_study());
    v.push_back(make_precision_study());
    v.push_back(make_trajectories_study());
    v.push_back(make_painleve_study());
    v.push_back(make_two_bars_study());
    return v;
  }();
  return studies;
}

const Study& find_study(const std::string& name) {
  std::string known;
  for (const auto& s : all_studies()) {
    if (s->name() == name) return *s;
    known += (known.empty() ? "" : ", ") + s->name();
  }
  throw InputError("study", "unknown study '" + name.substr(0, 40) + "'; the studies are " + known);
}

}  // namespace femc::studies
