#include "replay_support.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "femc/solve.hpp"

namespace femc::replay {

// ---------------------------------------------------------------- checks --
CheckLog& check_log() {
  static CheckLog log;
  return log;
}

namespace {

void count(std::string_view where) {
  CheckLog& log = check_log();
  ++log.total;
  const auto it = std::find(log.tags.begin(), log.tags.end(), where);
  if (it == log.tags.end()) {
    log.tags.emplace_back(where);
    log.counts.push_back(1);
  } else {
    ++log.counts[std::size_t(it - log.tags.begin())];
  }
}

std::string shape(const Mat& X) { return std::to_string(X.rows()) + "x" + std::to_string(X.cols()); }

}  // namespace

void expect_matrix_eq(const Mat& lhs, const Mat& rhs, std::string_view where) {
  count(where);
  if (lhs.rows() != rhs.rows() || lhs.cols() != rhs.cols()) {
    ADD_FAILURE() << "[" << where << "] shapes differ: lhs " << shape(lhs) << ", rhs " << shape(rhs);
    return;
  }
  for (Index j = 0; j < lhs.cols(); ++j)
    for (Index i = 0; i < lhs.rows(); ++i)
      if (lhs(i, j) - rhs(i, j) != 0) {
        ADD_FAILURE() << "[" << where << "] exact equality fails (" << shape(lhs) << "); first difference at (" << i
                      << "," << j << "): lhs = " << lhs(i, j).str() << ", rhs = " << rhs(i, j).str()
                      << ", lhs - rhs = " << rational(lhs(i, j) - rhs(i, j)).str();
        return;
      }
}

void expect_exact_eq(const rational& lhs, const rational& rhs, std::string_view where) {
  count(where);
  if (lhs - rhs != 0)
    ADD_FAILURE() << "[" << where << "] exact equality fails: lhs = " << lhs.str() << ", rhs = " << rhs.str()
                  << ", lhs - rhs = " << rational(lhs - rhs).str();
}

void expect_matrix_ne(const Mat& lhs, const Mat& rhs, std::string_view where) {
  count(where);
  if (lhs.rows() == rhs.rows() && lhs.cols() == rhs.cols() && lhs == rhs)
    ADD_FAILURE() << "[" << where << "] expected the printed form to fail on this generic instance, but it holds ("
                  << shape(lhs) << ")";
  else
    ++check_log().differences_shown;
}

void expect_exact_ne(const rational& lhs, const rational& rhs, std::string_view where) {
  count(where);
  if (lhs == rhs)
    ADD_FAILURE() << "[" << where << "] expected the printed form to fail on this generic instance, but both sides are "
                  << lhs.str();
  else
    ++check_log().differences_shown;
}

void expect_holds(bool ok, std::string_view where, std::string_view what) {
  count(where);
  if (!ok) ADD_FAILURE() << "[" << where << "] does not hold: " << what;
}

void Replay::SetUp() { check_log() = CheckLog{}; }

void Replay::TearDown() {
  // Printed on success too: the log of a run then lists every equation the
  // test replayed and how often.
  const CheckLog& log = check_log();
  std::ostringstream os;
  os << "[ replay   ] " << log.total << " exact checks (" << log.differences_shown
     << " of them show a printed form, or a formula outside its hypothesis, failing):";
  for (std::size_t i = 0; i < log.tags.size(); ++i) os << (i ? ", " : " ") << log.tags[i] << " x" << log.counts[i];
  std::cout << os.str() << std::endl;
}

// ------------------------------------------------------------- instances --
Mat Generator::integer_matrix(Index rows, Index cols, int lo, int hi) {
  Mat X(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) X(i, j) = integer(lo, hi);
  return X;
}

Mat Generator::spd_root(Index k) {
  // A coupled root (some off-diagonal entry ≠ 0) for k ≥ 2: with a diagonal or
  // identity root several printed errata (e.g. 002 (9)) would hold by accident.
  for (;;) {
    const Mat R = integer_matrix(k, k, -1, 1);
    Mat X = R.transpose() * R;
    for (Index i = 0; i < k; ++i) X(i, i) += rational(integer(1, 2));
    bool coupled = k == 1 && X(0, 0) != 1;
    for (Index i = 0; i < k; ++i)
      for (Index j = 0; j < k; ++j)
        if (i != j && X(i, j) != 0) coupled = true;
    if (coupled) return X;
  }
}

Mat Generator::rank_r(Index m, Index n, Index r) {
  for (;;) {
    const Mat X = r == 0 ? Mat(Mat::Zero(m, n)) : Mat(integer_matrix(m, r, -2, 2) * integer_matrix(r, n, -2, 2));
    if (exact_rank(X) == r) return X;
  }
}

Instance Generator::make(const Spec& spec) {
  Instance in;
  const Index n = spec.shape == Shape::FullColumnRank ? integer(2, 5) : integer(2, 6);
  Index m = 0, r = 0;
  const char* shape_name = "";
  switch (spec.shape) {
    case Shape::FullRowRank: m = integer(1, int(n)); r = m; shape_name = "full_row_rank"; break;
    case Shape::RankDeficient:
      m = integer(2, int(n) + 2);
      r = integer(1, int(std::min(m, n)) - 1);
      shape_name = "rank_deficient";
      break;
    case Shape::FullColumnRank: m = n + integer(1, 2); r = n; shape_name = "full_column_rank"; break;
    case Shape::ZeroA: m = integer(1, 3); r = 0; shape_name = "zero_A"; break;
  }
  in.n = n;
  in.m = m;
  in.r = r;
  in.S = spd_root(n);
  in.S_inv = exact_inverse(in.S);
  in.M = in.S * in.S;
  in.M_inv = in.S_inv * in.S_inv;
  in.A = rank_r(m, n, r);
  // Full row rank makes every b consistent.
  in.consistent = spec.consistent || spec.shape == Shape::FullRowRank;
  if (in.consistent) {
    in.b = in.A * vector(n);
  } else {
    for (;;) {  // b ∉ Range(A): rank [A b] > rank A
      in.b = vector(m, -5, 5);
      Mat Ab(m, n + 1);
      Ab << in.A, in.b;
      if (exact_rank(Ab) > r) break;
    }
  }
  // Q ≠ 0 and Q + C ≠ 0: a zero force would make some printed errata hold by
  // accident (both sides 0).
  do in.Q = vector(n, -5, 5);
  while (in.Q == zeros(n));
  in.C = zeros(n);
  if (spec.with_C) {
    do in.C = vector(n, -3, 3);
    while (in.C == zeros(n) || Vec(in.Q + in.C) == zeros(n));
  }
  in.weighted = spec.weighted;
  in.V = spec.weighted ? spd_root(m) : eye(m);
  in.V_inv = exact_inverse(in.V);
  in.W = in.V * in.V;
  in.label = std::string(shape_name) + " n=" + std::to_string(n) + " m=" + std::to_string(m) +
             " r=" + std::to_string(r) + (in.consistent ? " consistent" : " inconsistent") +
             (spec.with_C ? " C!=0" : " C=0") + (spec.weighted ? " W!=I" : " W=I");
  return in;
}

System<rational> Instance::system() const {
  System<rational> sys = make_system<rational>(M, A, b, Q);
  sys.C = C;
  sys.W = W;
  return sys;
}

std::vector<Instance> instances(unsigned seed, const std::vector<Shape>& shapes, const std::vector<bool>& consistent,
                                const std::vector<bool>& with_C, const std::vector<bool>& weighted, int repeats) {
  Generator gen(seed);
  std::vector<Instance> out;
  for (int k = 0; k < repeats; ++k)
    for (Shape s : shapes)
      for (bool cons : consistent) {
        if (s == Shape::FullRowRank && !cons) continue;  // no inconsistent b exists
        for (bool c : with_C)
          for (bool w : weighted) out.push_back(gen.make({s, cons, c, w}));
      }
  return out;
}

// ------------------------------------------------------------- femc check --
void expect_femc_agrees(const Instance& in, const Outcome& out, const std::string& paper) {
  Options<rational> opt;
  opt.method = Method::Exact;
  const Solution<rational> s = solve(in.system(), opt);
  const std::string tag = paper + " = femc::solve(exact) ";
  expect_exact_eq(s.qdd, out.qdd, tag + "qdd");
  expect_exact_eq(s.QN, out.QN, tag + "QN");
  expect_exact_eq(s.QW, out.QW, tag + "QW");
  expect_exact_eq(s.Qc, Vec(out.QN + out.QW), tag + "Qc");
  expect_exact_eq(s.lambda, out.lambda, tag + "lambda");
  expect_exact_eq(s.Gg_min, out.Gg_min, tag + "Gg_min");
  expect_exact_eq(s.delta_norm_sq, out.delta_norm_sq, tag + "delta_norm_sq");
  expect_holds(s.diagnostics.rank.rank == in.r, tag + "rank", "femc's exact rank equals the constructed rank");
}

}  // namespace femc::replay
