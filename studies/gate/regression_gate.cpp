#include "regression_gate.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../framework/build_info.hpp"
#include "../framework/distribute.hpp"
#include "../framework/runner.hpp"
#include "femc/errors.hpp"
#include "femc/io/output_file.hpp"

namespace femc::studies {
namespace fs = std::filesystem;
using nlohmann::json;

MetricSet run_quick_studies(const std::string& work_dir, unsigned jobs, bool progress,
                            const std::vector<std::string>& only_solvers, bool distribute) {
  StudyConfig config;
  config.size = Size::Quick;
  config.solvers = only_solvers;
  std::vector<const Study*> studies;
  for (const auto& study : all_studies())
    if (only_solvers.empty() || study->compares_solvers()) studies.push_back(study.get());
  return run_studies(studies, config, work_dir, jobs, progress, distribute);
}

MetricSet run_studies(const std::vector<const Study*>& studies, const StudyConfig& config, const std::string& work_dir,
                      unsigned jobs, bool progress, bool distribute) {
  MetricSet out;
  const bool computes_only = distribute && distributed::active() && distributed::rank() != 0;
  RunOptions opt;
  opt.distribute = distribute;
  opt.out_dir = work_dir;
  opt.jobs = jobs;
  opt.fresh = true;
  opt.progress = progress;
  for (const Study* study : studies) {
    RunResult r = run_study(*study, config, opt);
    if (computes_only) continue;
    if (!r.assembled) throw MethodError(study->name() + ": the quick run did not assemble");
    const fs::path record = fs::path(work_dir) / study->name() / (study->name() + ".json");
    std::ifstream in(record);
    json j = json::parse(in);
    for (const json& m : j.at("metrics"))
      out[study->name()].push_back(
          Metric{m.at("name"), m.at("value").is_null() ? NAN : m.at("value").get<double>(), m.at("floor")});
  }
  return out;
}

MetricSet read_baseline(const std::string& dir) {
  const fs::path p = fs::path(dir) / "metrics.json";
  std::ifstream in(p);
  if (!in) throw InputError("baseline", "cannot read '" + p.string() + "'");
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.contains("studies")) throw InputError("baseline", "'" + p.string() + "' is not a baseline");
  MetricSet out;
  for (auto& [study, metrics] : j.at("studies").items())
    for (auto& [name, m] : metrics.items())
      out[study].push_back(Metric{name, m.at("value").is_null() ? NAN : m.at("value").get<double>(), m.at("floor")});
  return out;
}

void write_baseline(const std::string& dir, const MetricSet& metrics, unsigned long seed) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("baseline", "cannot create '" + dir + "': " + ec.message());
  json studies = json::object();
  for (const auto& [study, ms] : metrics)
    for (const Metric& m : ms) studies[study][m.name] = json{{"value", m.value}, {"floor", m.floor}};
  json j{{"what", "accuracy metrics of the quick studies; change only with femc report --update-baseline"},
         {"commit", build_commit()},
         {"compiler", build_compiler()},
         {"build", build_type()},
         {"seed", seed},
         {"studies", studies}};
  io::write_atomically((fs::path(dir) / "metrics.json").string(), j.dump(1) + "\n");
}

GateVerdict compare(const MetricSet& baseline, const MetricSet& now, double factor) {
  GateVerdict v;
  std::map<std::string, std::map<std::string, Metric>> current;
  for (const auto& [study, ms] : now)
    for (const Metric& m : ms) current[study][m.name] = m;
  for (const auto& [study, ms] : baseline) {
    for (const Metric& b : ms) {
      ++v.compared;
      auto s = current.find(study);
      if (s == current.end() || s->second.count(b.name) == 0) {
        v.lines.push_back({study, b.name, "missing", b.value, NAN});
        ++v.worse;
        continue;
      }
      auto it = s->second.find(b.name);
      const double x = it->second.value;
      const bool exact = b.floor == 0;  // a count: any growth is a regression (study.hpp)
      if (exact) ++v.exact;
      else if (!(factor * b.value > b.floor)) ++v.at_floor;
      const double base = std::isnan(b.value) ? 0 : b.value;
      // NaN now where the baseline had a number is worse (a result vanished).
      const bool worse = (std::isnan(x) && !std::isnan(b.value)) ||
                         (exact ? x > base : x > factor * base && x > b.floor);
      if (worse) {
        v.lines.push_back({study, b.name, "worse", b.value, x});
        ++v.worse;
      }
      s->second.erase(it);
    }
  }
  for (const auto& [study, ms] : current)
    for (const auto& [name, m] : ms) v.lines.push_back({study, name, "new", NAN, m.value});
  return v;
}

void print_verdict(std::ostream& out, const GateVerdict& v, double factor) {
  if (!v.lines.empty()) {
    out << std::left << std::setw(22) << "study" << std::setw(48) << "metric" << std::setw(12) << "baseline"
        << std::setw(12) << "now" << std::setw(10) << "now/base" << "verdict\n";
    for (const auto& l : v.lines) {
      char b[32], n[32], r[32];
      std::snprintf(b, sizeof b, "%.3g", l.baseline);
      std::snprintf(n, sizeof n, "%.3g", l.now);
      std::snprintf(r, sizeof r, "%.3g", l.baseline > 0 ? l.now / l.baseline : NAN);
      out << std::setw(22) << l.study << std::setw(48) << l.metric << std::setw(12) << b << std::setw(12) << n
          << std::setw(10) << r << l.verdict << "\n";
    }
  }
  out << v.compared << " metrics compared against the baseline (" << v.compared - v.at_floor - v.exact
      << " guard " << factor << " × their baseline, " << v.exact << " are counts that may not grow, " << v.at_floor
      << " only their floor), " << v.worse << " worse (now > " << factor
      << " × baseline and above the metric's floor; a count above its baseline)";
  std::size_t fresh = 0;
  for (const auto& l : v.lines) fresh += l.verdict == "new";
  if (fresh) out << ", " << fresh << " new (not in the baseline)";
  out << "\n";
}

}  // namespace femc::studies
