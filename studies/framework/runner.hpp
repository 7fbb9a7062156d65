#pragma once
// Running a study: cells in parallel (--jobs) or over the ranks of an MPI
// job (distribute.hpp), a slice of them (--shard),
// finished cells kept on disk so that an interrupted run resumes where it
// stopped, and the report written atomically once every cell is there.
//
// Layout of OUT/<study>/ (OUT is reports/ for `make report`):
//   cells/            one CSV per finished cell, plus config.json (the
//                     options the cells were computed with); removed once
//                     the report is assembled unless --keep-cells
//   <study>.csv       the table: every cell's rows, in sweep order
//   <study>.json      the record: commit, compiler, precisions, seed, size,
//                     cells, wall time, and the regression metrics
// A shard computes its cells into cells/; after all shards (on any machines,
// their cells/ directories copied together) `--merge` assembles the report.
#include <optional>
#include <string>

#include "study.hpp"

namespace femc::studies {

struct RunOptions {
  std::string out_dir = "reports";
  unsigned jobs = 1;
  unsigned shard_index = 1, shard_count = 1;  // --shard K/N: cells i with i mod N = K − 1
  bool merge_only = false;                    // --merge: assemble, compute nothing
  bool fresh = false;                         // --fresh: discard finished cells first
  bool keep_cells = false;
  bool progress = false;                      // progress line on stderr
  // In an MPI job of several ranks, spread the cells over them
  // (distribute.hpp): rank 0 returns the result, the others an empty one.
  // `femc study` sets it; the commands that run studies inside a larger
  // task (report, verify) run them in one process.
  bool distribute = false;
};

struct RunResult {
  std::size_t cells_total = 0, cells_computed = 0, cells_reused = 0, cells_missing = 0;
  bool assembled = false;  // <study>.csv and .json written
  double wall_seconds = 0;
};

// Throws InputError when the options are inconsistent with what cells/
// already holds (another size or seed) unless fresh is set.
RunResult run_study(const Study& study, const StudyConfig& config, const RunOptions& options);

// Reads OUT/<study>/<study>.csv back.
Table read_table(const std::string& csv_path);
// Parses CSV text (header first; '#' lines are comments); where names it in errors.
Table parse_table(const std::string& text, const std::string& where);

// CSV with RFC 4180 quoting where a field needs it.
std::string to_csv(const Table& table);

}  // namespace femc::studies
