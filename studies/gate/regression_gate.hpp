#pragma once
// The regression gate: the quick studies' accuracy metrics against a
// committed baseline (reports/baseline/metrics.json).
//
// A metric is worse when now > factor·baseline and now > floor (study.hpp),
// and a count (floor 0) when now > baseline:
// the metrics are maxima over a sweep of error constants c = error/bound,
// residual ratios and failure counts. A rerun of the same build reproduces
// them exactly (every cell's data come from a fixed seed); another compiler,
// flag or library changes the rounding and so the constants by small factors.
// The default factor 10 (3.3 bits) leaves room for that and still catches a
// real loss: q̈ by the normal equations multiplies c by up to κ(B)
// (tests/test_gate_catches_a_worse_solver.cpp).
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "../framework/study.hpp"

namespace femc::studies {

inline constexpr double kDefaultGateFactor = 10;

using MetricSet = std::map<std::string, std::vector<Metric>>;  // study → metrics

// Runs every study at quick size into work_dir (fresh) and collects the metrics.
// Every registered solver is studied (femc/solvers/registry.hpp): a test can
// wrap one to make it worse and see the gate catch it.
// With only_solvers, the studies that compare solvers run for those alone.
// With `distribute`, as run_studies below.
MetricSet run_quick_studies(const std::string& work_dir, unsigned jobs, bool progress,
                            const std::vector<std::string>& only_solvers = {}, bool distribute = false);

// Runs the given studies with config into work_dir (fresh) and collects their metrics.
// With `distribute`, in an MPI job of several ranks (framework/distribute.hpp)
// every rank calls it and shares the cells; rank 0 alone writes and gets the
// metrics, the others an empty set.
MetricSet run_studies(const std::vector<const Study*>& studies, const StudyConfig& config, const std::string& work_dir,
                      unsigned jobs, bool progress, bool distribute = false);

// Reads DIR/metrics.json; throws InputError("baseline", …) when absent or malformed.
MetricSet read_baseline(const std::string& dir);
void write_baseline(const std::string& dir, const MetricSet& metrics, unsigned long seed);

struct GateVerdict {
  struct Line {
    std::string study, metric, verdict;  // worse | missing | new
    double baseline = 0, now = 0;
  };
  std::vector<Line> lines;  // only what is not ok
  std::size_t compared = 0, worse = 0;
  // Metrics whose threshold is their floor (factor × baseline ≤ floor): they
  // guard against crossing the floor (a new failure, an error above its
  // theory line), not against a loss below it.
  std::size_t at_floor = 0;
  // Exact metrics (floor 0: counts): worse when they grow at all.
  std::size_t exact = 0;
  bool passed() const { return worse == 0; }
};

GateVerdict compare(const MetricSet& baseline, const MetricSet& now, double factor);
void print_verdict(std::ostream& out, const GateVerdict& v, double factor);

}  // namespace femc::studies
