#include "runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <mpfr.h>

#include <nlohmann/json.hpp>

#include "femc/solvers/registry.hpp"
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "build_info.hpp"
#include "distribute.hpp"
#include "femc/errors.hpp"
#include "femc/io/output_file.hpp"

namespace femc::studies {
namespace fs = std::filesystem;
using nlohmann::json;

std::string to_string(Size s) { return s == Size::Quick ? "quick" : "full"; }

std::size_t Table::column(const std::string& name) const {
  auto it = std::find(columns.begin(), columns.end(), name);
  if (it == columns.end()) throw std::out_of_range("no column '" + name + "'");
  return static_cast<std::size_t>(it - columns.begin());
}

double Table::number(const Row& row, const std::string& name) const {
  const std::string& t = row.at(column(name));
  if (t == "nan" || t.empty()) return std::numeric_limits<double>::quiet_NaN();
  if (t == "inf") return std::numeric_limits<double>::infinity();
  return std::stod(t);
}

const std::string& Table::text(const Row& row, const std::string& name) const { return row.at(column(name)); }

namespace {

std::string quote(const std::string& field) {
  if (field.find_first_of(",\"\n") == std::string::npos) return field;
  std::string q = "\"";
  for (char c : field) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Splits CSV text into records (RFC 4180: quoted fields may hold commas,
// doubled quotes and newlines); lines starting with '#' are comments.
std::vector<Row> parse_csv(const std::string& text) {
  std::vector<Row> records;
  Row row;
  std::string field;
  bool quoted = false, at_line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (at_line_start && c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    at_line_start = false;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field), field.clear();
    } else if (c == '\n') {
      row.push_back(field), field.clear();
      records.push_back(row), row.clear();
      at_line_start = true;
    } else {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) row.push_back(field), records.push_back(row);
  return records;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError("input", "cannot read '" + p.string() + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Table parse_table_impl(const std::string& text, const std::string& where) {
  std::vector<Row> records = parse_csv(text);
  if (records.empty()) throw InputError("input", "'" + where + "' has no header");
  Table t;
  t.columns = records.front();
  for (std::size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() != t.columns.size())
      throw InputError("input", "'" + where + "' row " + std::to_string(i) + " has " +
                                    std::to_string(records[i].size()) + " fields, the header " +
                                    std::to_string(t.columns.size()));
    t.rows.push_back(std::move(records[i]));
  }
  return t;
}

json config_json(const Study& study, const StudyConfig& c) {
  return json{{"study", study.name()},
              {"commit", build_commit()},
              {"size", to_string(c.size)},
              {"seed", c.seed},
              {"solvers", c.solvers.empty() ? json(solvers().names()) : json(c.solvers)}};
}

// A cell's file: a comment with its compute time, then the CSV.
std::string cell_text(const Study& study, const std::vector<Row>& rows, double seconds) {
  Table t{study.columns(), rows};
  return "# seconds " + std::to_string(seconds) + "\n" + to_csv(t);
}

double cell_seconds(const std::string& text) {
  if (text.rfind("# seconds ", 0) != 0) return 0;
  return std::stod(text.substr(10, text.find('\n') - 10));
}

}  // namespace

std::string to_csv(const Table& table) {
  std::string out;
  auto line = [&](const Row& r) {
    for (std::size_t i = 0; i < r.size(); ++i) out += (i ? "," : "") + quote(r[i]);
    out += '\n';
  };
  line(table.columns);
  for (const Row& r : table.rows) line(r);
  return out;
}

Table parse_table(const std::string& text, const std::string& where) { return parse_table_impl(text, where); }

Table read_table(const std::string& csv_path) { return parse_table(read_file(csv_path), csv_path); }

namespace {

// An exclusive lock on OUT/<study>/.lock for as long as it lives: shards
// started together (or on machines sharing the folder) take turns over the
// cells' folder, so that one never removes what another has just written.
class FolderLock {
 public:
  explicit FolderLock(const fs::path& dir) {
    const std::string path = (dir / ".lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
    if (fd_ < 0) throw InputError("out", "cannot open '" + path + "'");
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) throw InputError("out", "cannot lock '" + path + "'");
  }
  ~FolderLock() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

// The pending cells on the threads of this process; store(i, text) is
// called from the thread that computed cell i.
void run_on_threads(const std::vector<std::size_t>& order, unsigned jobs, const distributed::Compute& compute,
                    const distributed::Store& store) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::string failure;
  auto worker = [&] {
    // MPFR caches constants (π, log 2, …) per thread; a worker that used
    // them frees its caches before it ends, or they leak (LeakSanitizer).
    struct FreeMpfrCache {
      ~FreeMpfrCache() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
    } free_cache;
    for (;;) {
      const std::size_t k = next++;
      if (k >= order.size() || failed) return;
      try {
        store(order[k], compute(order[k]));
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failed) failure = e.what();
        failed = true;
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::min<unsigned>(jobs, static_cast<unsigned>(std::max<std::size_t>(order.size(), 1)));
  for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (failed) throw MethodError(failure);
}

}  // namespace

namespace {

fs::path cell_path(const fs::path& cells_dir, const Cell& c) { return cells_dir / (c.key + ".csv"); }

// Phase 1: OUT/<study>/cells/ ready for this run's options (created, cells
// of another build dropped, cells of other options refused), and the cells
// this shard still has to compute, longest first. Counts the reused ones.
std::vector<std::size_t> prepare_cells(const Study& study, const StudyConfig& config, const RunOptions& opt,
                                       const std::vector<Cell>& cells, const fs::path& dir, const json& cfg,
                                       RunResult& result) {
  if (opt.shard_count == 0 || opt.shard_index < 1 || opt.shard_index > opt.shard_count)
    throw InputError("shard", std::to_string(opt.shard_index) + "/" + std::to_string(opt.shard_count) +
                                  " is not K/N with 1 ≤ K ≤ N");
  if (opt.jobs == 0 || opt.jobs > 256) throw InputError("jobs", "must be in 1..256, got " + std::to_string(opt.jobs));
  const fs::path cells_dir = dir / "cells";
  std::error_code ec;
  // --out is created when missing, as femc verify's -o is.
  fs::create_directories(dir, ec);
  if (ec) throw InputError("out", "cannot create '" + dir.string() + "': " + ec.message());
  const FolderLock lock(dir);
  if (opt.fresh && !opt.merge_only) fs::remove_all(cells_dir, ec);
  fs::create_directories(cells_dir, ec);
  if (ec) throw InputError("out", "cannot create '" + cells_dir.string() + "': " + ec.message());

  // The cells on disk must come from the same options.
  const fs::path cfg_path = cells_dir / "config.json";
  // Cells of another build are stale: dropped with a note. Cells of other
  // options are refused: the user may have meant to resume them.
  if (fs::exists(cfg_path)) {
    json old = json::parse(read_file(cfg_path), nullptr, false);
    json old_options = old, options_now = cfg;
    if (old_options.is_object()) old_options.erase("commit");
    options_now.erase("commit");
    if (old_options != options_now)
      throw InputError("cells", "'" + cells_dir.string() + "' holds cells computed with " + old.dump() +
                                    ", not " + cfg.dump() + "; rerun with --fresh or the same options");
    if (old != cfg) {
      if (opt.merge_only)
        throw InputError("cells", "'" + cells_dir.string() + "' holds cells of commit " +
                                      old.value("commit", "?") + "; this build is " + build_commit());
      std::cerr << study.name() << ": discarding cells of commit " << old.value("commit", "?") << "\n";
      fs::remove_all(cells_dir, ec);
      fs::create_directories(cells_dir, ec);
      io::write_atomically(cfg_path.string(), cfg.dump(2) + "\n");
    }
  } else if (!opt.merge_only) {
    io::write_atomically(cfg_path.string(), cfg.dump(2) + "\n");
  }

  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i % opt.shard_count != opt.shard_index - 1) continue;
    if (fs::exists(cell_path(cells_dir, cells[i]))) ++result.cells_reused;
    else if (!opt.merge_only) order.push_back(i);
  }
  // Longest first, so that no long cell is left to the end of the run.
  std::vector<double> cost(cells.size(), 1.0);
  for (std::size_t i : order) cost[i] = study.cost(cells[i], config);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  return order;
}

// Phase 3: the sweep's table from the cells on disk (all shards'), with
// the seconds the cells took; counts the missing ones.
struct Assembled {
  Table table;
  double cell_seconds_total = 0;
};
Assembled assemble_cells(const Study& study, const std::vector<Cell>& cells, const fs::path& cells_dir,
                         RunResult& result) {
  Assembled a{Table{study.columns(), {}}, 0};
  for (const Cell& c : cells) {
    const fs::path path = cell_path(cells_dir, c);
    if (!fs::exists(path)) {
      ++result.cells_missing;
      continue;
    }
    const std::string text = read_file(path);
    Table part = parse_table(text, path.string());
    if (part.columns != a.table.columns)
      throw InputError("cells", "'" + path.string() + "' has other columns than " + study.name());
    a.cell_seconds_total += cell_seconds(text);
    for (Row& r : part.rows) a.table.rows.push_back(std::move(r));
  }
  return a;
}

// Phase 4: the study's JSON record: its options, the build, each solver's
// declared error law, the sizes and times, and the metrics the gate reads.
json study_record(const Study& study, const StudyConfig& config, const RunOptions& opt, const json& cfg,
                  const Assembled& a, std::size_t cell_count, double wall_seconds) {
  json record = cfg;
  record["summary"] = study.summary();
  record["commit"] = build_commit();
  record["compiler"] = build_compiler();
  record["build"] = build_type();
  record["precisions"] = study.precisions(config);
  // Each solver's declared error law (capabilities.hpp) and femc's default
  // method, for the plots: they draw u·κ(B)^p from the law and anchor on the
  // default rather than on a method's name.
  json laws = json::object();
  for (const RegisteredSolver& r : solvers().all())
    laws[r.name()] = json{{"error_growth", r.capabilities().error_growth},
                          {"residual_mass_power", r.capabilities().residual_mass_power},
                          {"rank_deficient", r.capabilities().rank_deficient}};
  record["error_laws"] = laws;
  record["default_method"] = to_string(Options<double>{}.method);
  record["cells"] = cell_count;
  record["rows"] = a.table.rows.size();
  record["jobs"] = opt.jobs;
  record["wall_seconds_last_invocation"] = wall_seconds;
  record["cell_seconds_total"] = a.cell_seconds_total;
  json metrics = json::array();
  for (const Metric& m : study.metrics(a.table))
    metrics.push_back(json{{"name", m.name}, {"value", m.value}, {"floor", m.floor}});
  record["metrics"] = metrics;
  return record;
}

}  // namespace

RunResult run_study(const Study& study, const StudyConfig& config, const RunOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Cell> cells = study.cells(config);
  RunResult result;
  result.cells_total = cells.size();
  // A cell computed: its rows as a cell file's text. Named on failure.
  auto compute = [&](std::size_t i) {
    try {
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<Row> rows = study.run(cells[i], config);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return cell_text(study, rows, s);
    } catch (const std::exception& e) {
      throw std::runtime_error("cell " + cells[i].key + ": " + e.what());
    }
  };
  // In an MPI job the ranks other than 0 only compute (distribute.hpp).
  const bool mpi = opt.distribute && distributed::active();
  if (mpi && distributed::rank() != 0) {
    if (distributed::agree(false)) distributed::run_cells({}, 0, compute, {});
    return result;
  }

  // 1. The cells' folder, and the cells to compute. Every rank learns
  // whether rank 0 got this far.
  const fs::path dir = fs::path(opt.out_dir) / study.name();
  const fs::path cells_dir = dir / "cells";
  json cfg;
  std::vector<std::size_t> order;
  try {
    cfg = config_json(study, config);
    order = prepare_cells(study, config, opt, cells, dir, cfg, result);
  } catch (...) {
    if (mpi) distributed::agree(false);
    throw;
  }
  if (mpi) distributed::agree(true);

  // 2. Compute them, each written as it is done.
  std::atomic<std::size_t> finished{0};
  std::mutex progress_mutex;
  auto store = [&](std::size_t i, const std::string& text) {
    io::write_atomically(cell_path(cells_dir, cells[i]).string(), text);
    ++finished;
    if (!opt.progress) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::lock_guard<std::mutex> lock(progress_mutex);
    std::cerr << "\r" << study.name() << ": " << finished.load() << "/" << order.size() << " cells, "
              << static_cast<long>(s) << " s " << std::flush;
  };
  try {
    if (mpi) distributed::run_cells(order, opt.jobs, compute, store);
    else run_on_threads(order, opt.jobs, compute, store);
  } catch (const std::exception& e) {
    if (opt.progress && !order.empty()) std::cerr << "\n";
    throw MethodError(study.name() + ": " + e.what());
  }
  if (opt.progress && !order.empty()) std::cerr << "\n";
  result.cells_computed = finished;

  // 3. Assemble when every cell of the sweep is there (all shards), and
  // 4. write the table and the record.
  const FolderLock lock(dir);
  const Assembled assembled = assemble_cells(study, cells, cells_dir, result);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.cells_missing > 0) return result;
  const json record = study_record(study, config, opt, cfg, assembled, cells.size(), result.wall_seconds);
  io::write_atomically((dir / (study.name() + ".csv")).string(), to_csv(assembled.table));
  io::write_atomically((dir / (study.name() + ".json")).string(), record.dump(2) + "\n");
  std::error_code ec;
  if (!opt.keep_cells) fs::remove_all(cells_dir, ec);
  result.assembled = true;
  return result;
}

}  // namespace femc::studies
