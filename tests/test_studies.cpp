// The study runner and the regression gate (studies/framework, studies/gate):
// exact conversion, determinism, resuming, sharding and merging, the refusal
// to mix cells of other options, and the gate's verdicts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "femc/errors.hpp"
#include "framework/numerics.hpp"
#include "framework/registry.hpp"
#include "framework/runner.hpp"
#include "gate/regression_gate.hpp"
#include "support/extra_solver.hpp"

namespace femc::studies {
namespace {
namespace fs = std::filesystem;

rational two_pow(int k) {
  rational r(1);
  for (int i = 0; i < k; ++i) r *= 2;
  return r;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A study small enough to run in a test: cell i yields the rows (i, x) for
// x drawn from the cell's own random stream; run() counts its calls so that
// a test can see which cells were computed.
class ToyStudy : public Study {
 public:
  mutable std::atomic<int> runs{0};
  std::string name() const override { return "toy"; }
  std::string summary() const override { return "toy"; }
  std::vector<std::string> columns() const override { return {"cell", "x", "note"}; }
  std::vector<Cell> cells(const StudyConfig& c) const override {
    std::vector<Cell> v;
    for (int i = 0; i < (c.size == Size::Quick ? 7 : 11); ++i)
      v.push_back(Cell{"c" + std::to_string(i), {{"i", std::to_string(i)}}});
    return v;
  }
  std::vector<Row> run(const Cell& cell, const StudyConfig& c) const override {
    ++runs;
    Random rng(c.seed, cell.key);
    return {{cell.params.at("i"), num(rng.uniform()), "a, \"quoted\" note"}};
  }
  std::vector<Metric> metrics(const Table& t) const override {
    double s = 0;
    for (const Row& r : t.rows) s += t.number(r, "x");
    return {Metric{"sum", s, 0}};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override { return {"double"}; }
};

class StudyRunner : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("femc-test-studies-" + std::to_string(::getpid()));
  void SetUp() override { fs::remove_all(dir), fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  RunOptions options(unsigned jobs = 1) {
    RunOptions o;
    o.out_dir = dir.string();
    o.jobs = jobs;
    return o;
  }
};

// A solver a program registers (tests/support/extra_solver.hpp) is studied
// by the studies as they are: it gets its rows in conditioning and, as it
// declares a rank policy, in rank; the outputs it does not return are NaN,
// not a figure.
TEST(StudiesReadTheRegistry, AnAddedSolverIsStudiedWithoutEditingTheStudy) {
  solvers().add(test::schur_solver());
  const StudyConfig config;
  for (const auto& study : {make_conditioning_study(), make_rank_study()}) {
    const std::vector<Cell> cells = study->cells(config);
    ASSERT_FALSE(cells.empty());
    Table t;
    t.columns = study->columns();
    t.rows = study->run(cells.front(), config);
    int schur_rows = 0, measured = 0;
    for (const Row& row : t.rows) {
      if (t.text(row, "method") != "schur") continue;
      ++schur_rows;
      EXPECT_TRUE(t.text(row, "precision") == "double" || t.text(row, "precision") == "float128")
          << study->name() << ": schur runs at double and float128 only, not " << t.text(row, "precision");
      if (study->name() == "conditioning" && t.text(row, "status") == "ok") {
        ++measured;
        // Within the study's first-order bound u·(κ(B) + κ(M) + κ(B)²η) times
        // the claims' constant c = 16(n + m)² (n = 6, m = 3).
        EXPECT_LE(t.number(row, "c_qdd"), 16.0 * 9 * 9) << t.text(row, "precision");
        std::cout << "schur at " << t.text(row, "precision") << ": err_qdd / bound = " << t.number(row, "c_qdd") << "\n";
        EXPECT_TRUE(std::isnan(t.number(row, "err_QN"))) << "schur does not return Qᴺ";
      }
    }
    if (study->name() == "conditioning") EXPECT_EQ(measured, 2) << "the first cell has full row rank";
    EXPECT_GE(schur_rows, 2) << study->name();
  }
}

TEST(StudyNumerics, ToRationalIsExactForEveryType) {
  const double x = -0x1.23456789abcdfp-70;
  EXPECT_EQ(to_rational(x), rational(x));
  const long double ld = 1 + 0x1p-60L;  // beyond double's 53 bits
  EXPECT_EQ(to_rational(ld), rational(1) + 1 / two_pow(60));
  double_double d(1.0);
  d += 0x1p-200;  // 1 + 2⁻²⁰⁰: two doubles far apart
  EXPECT_EQ(to_rational(d), rational(1) + 1 / two_pow(200));
  MpfrPrecision guard(300);
  const mpfr_real third = mpfr_real(1) / 3;
  const rational r = to_rational(third);
  EXPECT_LT(boost::multiprecision::abs(r - rational(1) / 3), 1 / two_pow(300));
  EXPECT_EQ(from_rational<mpfr_real>(r), third);  // round trip
}

TEST_F(StudyRunner, SameSeedSameTableAnyJobs) {
  ToyStudy a, b;
  run_study(a, StudyConfig{}, options(1));
  const std::string first = read(dir / "toy" / "toy.csv");
  RunOptions o = options(3);
  o.fresh = true;
  run_study(b, StudyConfig{}, o);
  EXPECT_EQ(read(dir / "toy" / "toy.csv"), first);
  EXPECT_FALSE(fs::exists(dir / "toy" / "cells"));  // removed once assembled
  const Table t = read_table((dir / "toy" / "toy.csv").string());
  ASSERT_EQ(t.rows.size(), 7u);
  EXPECT_EQ(t.text(t.rows[3], "note"), "a, \"quoted\" note");  // CSV quoting round-trips
}

TEST_F(StudyRunner, ShardsThenMergeEqualOneRun) {
  ToyStudy whole, s1, s2, merger;
  run_study(whole, StudyConfig{}, options());
  const std::string expected = read(dir / "toy" / "toy.csv");
  fs::remove_all(dir / "toy");
  RunOptions o = options();
  o.shard_count = 2;
  o.keep_cells = true;
  o.shard_index = 1;
  RunResult r1 = run_study(s1, StudyConfig{}, o);
  EXPECT_FALSE(r1.assembled);
  EXPECT_EQ(r1.cells_computed, 4u);  // cells 0, 2, 4, 6
  EXPECT_EQ(r1.cells_missing, 3u);
  o.shard_index = 2;
  RunResult r2 = run_study(s2, StudyConfig{}, o);
  EXPECT_EQ(r2.cells_computed, 3u);
  EXPECT_TRUE(r2.assembled);  // the last shard completes the sweep
  EXPECT_EQ(read(dir / "toy" / "toy.csv"), expected);
  RunOptions m = options();
  m.merge_only = true;
  m.keep_cells = true;
  EXPECT_TRUE(run_study(merger, StudyConfig{}, m).assembled);
  EXPECT_EQ(merger.runs.load(), 0);  // a merge computes nothing
}

TEST_F(StudyRunner, ResumesWithoutRecomputingFinishedCells) {
  ToyStudy first, second;
  RunOptions o = options();
  o.shard_count = 2, o.shard_index = 1, o.keep_cells = true;  // an "interrupted" run: half the cells
  run_study(first, StudyConfig{}, o);
  const RunResult r = run_study(second, StudyConfig{}, options());
  EXPECT_EQ(second.runs.load(), 3);
  EXPECT_EQ(r.cells_reused, 4u);
  EXPECT_TRUE(r.assembled);
  for (const auto& e : fs::recursive_directory_iterator(dir))  // no temporary left behind
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST_F(StudyRunner, RefusesCellsOfOtherOptions) {
  ToyStudy a, b;
  RunOptions o = options();
  o.shard_count = 2, o.keep_cells = true;
  run_study(a, StudyConfig{}, o);
  StudyConfig other;
  other.seed = 7;
  EXPECT_THROW(run_study(b, other, options()), InputError);
  RunOptions fresh = options();
  fresh.fresh = true;
  EXPECT_TRUE(run_study(b, other, fresh).assembled);
}

TEST_F(StudyRunner, RejectsBadShardAndJobs) {
  ToyStudy a;
  RunOptions o = options();
  o.shard_index = 3, o.shard_count = 2;
  EXPECT_THROW(run_study(a, StudyConfig{}, o), InputError);
  EXPECT_THROW(run_study(a, StudyConfig{}, options(0)), InputError);
  // A missing out_dir is created (as femc verify's -o is); one under a
  // file cannot be.
  std::ofstream(dir / "a-file") << "x";
  RunOptions under_a_file = options();
  under_a_file.out_dir = (dir / "a-file" / "out").string();
  EXPECT_THROW(run_study(a, StudyConfig{}, under_a_file), InputError);
}

TEST(RegressionGate, VerdictsFollowFactorAndFloor) {
  MetricSet base{{"s", {{"err", 2.0, 1.0}, {"count", 0.0, 0.0}, {"small", 0.01, 1.0}, {"gone", 1.0, 0.0}}}};
  MetricSet now{{"s", {{"err", 19.0, 1.0}, {"count", 0.0, 0.0}, {"small", 0.9, 1.0}, {"fresh", 5.0, 0.0}}}};
  GateVerdict v = compare(base, now, 10);
  EXPECT_EQ(v.compared, 4u);
  EXPECT_EQ(v.worse, 1u);  // "gone" is missing; err 19 < 20, small 0.9 under its floor
  now["s"][0].value = 21;  // err > 10 × 2
  now["s"][1].value = 1;   // a new failure: count > 0 = floor
  v = compare(base, now, 10);
  EXPECT_EQ(v.worse, 3u);
  EXPECT_FALSE(v.passed());
  // A count grows by one: worse, although 10 × the baseline is far above it.
  MetricSet counted{{"s", {{"failures", 10.0, 0.0}}}};
  MetricSet one_more{{"s", {{"failures", 11.0, 0.0}}}};
  EXPECT_EQ(compare(counted, one_more, 10).worse, 1u);
  EXPECT_EQ(compare(counted, counted, 10).worse, 0u);
  EXPECT_EQ(compare(one_more, counted, 10).worse, 0u);  // fewer failures is not a regression
  std::ostringstream table;
  print_verdict(table, v, 10);
  EXPECT_NE(table.str().find("worse"), std::string::npos);
  EXPECT_NE(table.str().find("missing"), std::string::npos);
  EXPECT_NE(table.str().find("new"), std::string::npos);
}

}  // namespace
}  // namespace femc::studies
