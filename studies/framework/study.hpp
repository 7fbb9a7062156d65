#pragma once
// A study: a deterministic sweep of independent cells. Each cell is one point
// of the sweep (one κ, one seed, one system, ...); running it yields rows of
// a table whose columns the study declares. The runner (runner.hpp) owns
// everything else: threads, shards, resuming, atomic writes, the JSON record.
//
// A study never keeps state between cells: run(cell) depends only on the
// cell and the configuration, so a cell computed on another machine, or
// before an interrupt, is as good as one computed now.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "femc/scalar/rational.hpp"
#include "femc/system.hpp"

namespace femc::studies {

enum class Size { Quick, Full };

struct StudyConfig {
  Size size = Size::Quick;
  unsigned long seed = 20261121;  // the base seed; each cell derives its own
  // The registered solvers (femc/solvers/registry.hpp) the studies that
  // compare solvers run; empty: every one.
  std::vector<std::string> solvers;
};

// One point of a sweep. key is unique within the study and safe as a file
// name; it names every parameter, so that a resumed or merged run can tell
// its cells apart.
struct Cell {
  std::string key;
  std::map<std::string, std::string> params;
};

using Row = std::vector<std::string>;

struct Table {
  std::vector<std::string> columns;
  std::vector<Row> rows;
  // Index of a column; throws std::out_of_range naming it when absent.
  std::size_t column(const std::string& name) const;
  double number(const Row& row, const std::string& name) const;
  const std::string& text(const Row& row, const std::string& name) const;
};

// One accuracy figure of a study for the regression gate: smaller is better.
// A later run is worse when value > factor·baseline and value > floor: the
// floor is the level below which a change is not a regression (e.g. 1 for an
// error measured in units of its theoretical bound). Floor 0 marks an exact
// metric, a count (failures, rank mismatches) or a quantity exact arithmetic
// must give as 0: it is worse when it grows at all, whatever the factor.
struct Metric {
  std::string name;
  double value = 0;
  double floor = 0;
};

// A cell where a solver fails a study's verdict (femc verify): the cell's
// key, the precision, and why, with the measure and its threshold.
struct CellFailure {
  std::string cell;
  std::string precision;
  std::string why;
};

class Study {
 public:
  virtual ~Study() = default;
  virtual std::string name() const = 0;
  // One sentence: what the study shows (the report index quotes it).
  virtual std::string summary() const = 0;
  virtual std::vector<std::string> columns() const = 0;
  virtual std::vector<Cell> cells(const StudyConfig& config) const = 0;
  virtual std::vector<Row> run(const Cell& cell, const StudyConfig& config) const = 0;
  // A cell's cost relative to the others (any positive scale), for handing
  // the longest out first (runner.hpp, distribute.hpp); it changes no result.
  virtual double cost(const Cell&, const StudyConfig&) const { return 1; }
  // Whether it compares the registered solvers (StudyConfig::solvers): the
  // studies the gate runs for a solver outside femc.
  virtual bool compares_solvers() const { return false; }
  // The figures the regression gate compares, computed from the whole table.
  virtual std::vector<Metric> metrics(const Table& table) const = 0;
  // What the record lists as the study's precisions (names of scalar types).
  virtual std::vector<std::string> precisions(const StudyConfig& config) const = 0;

  // Verdicts (the studies that compare solvers): the thresholds in words,
  // the cells where `solver` fails them in the study's table, and the exact
  // data a cell gave the solvers at a precision, so that a failure is saved
  // as `femc solve` inputs. A study without a verdict returns "" and none.
  virtual std::string verdict_rule() const { return ""; }
  virtual std::vector<CellFailure> failures(const Table&, const std::string& /*solver*/) const { return {}; }
  virtual std::vector<System<rational>> cell_systems(const Cell&, const StudyConfig&,
                                                     const std::string& /*precision*/) const {
    return {};
  }
};

// Every study, in the order of the report.
const std::vector<std::unique_ptr<Study>>& all_studies();
// Throws InputError("study", …) naming the known studies.
const Study& find_study(const std::string& name);

std::string to_string(Size s);

}  // namespace femc::studies
