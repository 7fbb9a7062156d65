#pragma once
// Reading a system from JSON and writing a solution to JSON.
//
// Input: an object with keys M (n rows of n), A (m rows of n; [] for no
// constraints), b (m), Q (n), optional C (n), W (m rows of m), optional
// "name"/"description" strings, and an optional "data_precision" string
// (data_precision.hpp: a name of data_precision_names() or bits). Each number is a JSON number or a string
// holding a decimal ("0.1") or a rational ("1/3"); either way its text is
// kept and read at the working precision (a JSON number is never passed
// through double). Anything else is an InputError naming the field.
//
// M, A and W may each be given sparse, as an object
//   {"rows": R, "cols": C, "entries": [[i, j, x], ...]}
// of 0-based row and column indices and values (each position at most once,
// the rest zero; M and W whole, both triangles). A document with a sparse
// matrix is a sparse system (SystemText::sparse()), read with
// to_sparse_system() up to kMaxSparseDimension coordinates; to_system()
// reads it dense up to kMaxJsonDimension only.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "femc/errors.hpp"
#include "femc/scalar/number_text.hpp"
#include "femc/scalar/traits.hpp"
#include "femc/solution.hpp"
#include "femc/sparse_system.hpp"
#include "femc/system.hpp"

namespace femc {

// Limits checked while reading, before anything is allocated for the system:
// the document's size, its nesting, the rows of M and A (a dense JSON system
// beyond 2048 coordinates belongs in the C++ API), and the number of values,
// which bounds the memory of the parsed document (≈ 64 bytes a value).
inline constexpr std::size_t kMaxDocumentBytes = std::size_t(256) << 20;
inline constexpr int kMaxJsonDepth = 8;
inline constexpr Index kMaxJsonDimension = 2048;
inline constexpr std::size_t kMaxJsonValues = 3 * std::size_t(kMaxJsonDimension) * (kMaxJsonDimension + 1);

// A matrix given sparse: its entries as (row, column, decimal text), each
// position once, indices checked against the shape.
struct SparseText {
  Index rows = 0, cols = 0;
  std::vector<Index> row, col;
  std::vector<std::string> value;
};

// A system as decimal texts, row-major; shapes already checked.
struct SystemText {
  Index n = 0, m = 0;
  std::vector<std::string> M, A, b, Q, C, W;  // C and W empty when absent
  // A matrix given sparse is here, its dense texts above empty.
  std::optional<SparseText> M_sparse, A_sparse, W_sparse;
  bool sparse() const { return M_sparse || A_sparse || W_sparse; }
  std::string data_precision;  // the "data_precision" key, checked; empty when absent
  // Every number could be a double written to round-trip: a decimal of at
  // most 17 significant digits within double's exponent range (no "p/q").
  bool every_number_could_be_double = true;
};

// Whether one number text could be a double written to round-trip (see
// SystemText): every double prints exactly so in 17 significant digits.
bool could_be_double(std::string_view text);

// Parses and shape-checks a JSON document. Throws InputError.
SystemText read_system_text(std::string_view json);

namespace detail {
template <class S>
S parse_entry(const std::string& text, const std::string& field) {
  try {
    return ScalarTraits<S>::parse(text);
  } catch (const NumberError& e) {
    throw InputError(field, e.what());
  }
}

template <class S>
Matrix<S> to_matrix(const std::vector<std::string>& t, Index rows, Index cols, const char* name) {
  Matrix<S> X(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j)
      X(i, j) = parse_entry<S>(t[std::size_t(i * cols + j)],
                               std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]");
  return X;
}

template <class S>
SparseMatrix<S> to_sparse_matrix(const SparseText& t, const char* name) {
  std::vector<Eigen::Triplet<S, int>> entries;
  entries.reserve(t.value.size());
  for (std::size_t k = 0; k < t.value.size(); ++k)
    entries.emplace_back(int(t.row[k]), int(t.col[k]),
                         parse_entry<S>(t.value[k], std::string(name) + ".entries[" + std::to_string(k) + "]"));
  SparseMatrix<S> X(t.rows, t.cols);
  X.setFromTriplets(entries.begin(), entries.end());
  return X;
}

template <class S>
Vector<S> to_vector(const std::vector<std::string>& t, Index size, const char* name) {
  Vector<S> v(size);
  for (Index i = 0; i < size; ++i)
    v(i) = parse_entry<S>(t[std::size_t(i)], std::string(name) + "[" + std::to_string(i) + "]");
  return v;
}
}  // namespace detail

// Reads every entry at the working precision of S. Throws InputError naming
// the entry ("A[2][0]: number \"1e99999\" overflows double").
template <class S>
System<S> to_system(const SystemText& t) {
  if (t.sparse() && (t.n > kMaxJsonDimension || t.m > kMaxJsonDimension))
    throw InputError("method", "a sparse system of n = " + std::to_string(t.n) + ", m = " + std::to_string(t.m) +
                                   " is solved sparse (method sparse); dense solves stop at " +
                                   std::to_string(kMaxJsonDimension) + " rows");
  System<S> s;
  s.M = t.M_sparse ? Matrix<S>(detail::to_sparse_matrix<S>(*t.M_sparse, "M")) : detail::to_matrix<S>(t.M, t.n, t.n, "M");
  s.A = t.A_sparse ? Matrix<S>(detail::to_sparse_matrix<S>(*t.A_sparse, "A")) : detail::to_matrix<S>(t.A, t.m, t.n, "A");
  s.b = detail::to_vector<S>(t.b, t.m, "b");
  s.Q = detail::to_vector<S>(t.Q, t.n, "Q");
  s.C = t.C.empty() ? Vector<S>(Vector<S>::Zero(t.n)) : detail::to_vector<S>(t.C, t.n, "C");
  if (t.W_sparse) s.W = Matrix<S>(detail::to_sparse_matrix<S>(*t.W_sparse, "W"));
  else s.W = t.W.empty() ? Matrix<S>(Matrix<S>::Identity(t.m, t.m)) : detail::to_matrix<S>(t.W, t.m, t.m, "W");
  return s;
}

// The same, stored sparse (a dense matrix of the document is stored sparse).
template <class S>
SparseSystem<S> to_sparse_system(const SystemText& t) {
  SparseSystem<S> s;
  auto matrix = [](const std::optional<SparseText>& sp, const std::vector<std::string>& dense, Index rows, Index cols,
                   const char* name) {
    return sp ? detail::to_sparse_matrix<S>(*sp, name)
              : SparseMatrix<S>(detail::to_matrix<S>(dense, rows, cols, name).sparseView(S(0), S(0)));
  };
  s.M = matrix(t.M_sparse, t.M, t.n, t.n, "M");
  s.A = matrix(t.A_sparse, t.A, t.m, t.n, "A");
  s.b = detail::to_vector<S>(t.b, t.m, "b");
  s.Q = detail::to_vector<S>(t.Q, t.n, "Q");
  s.C = t.C.empty() ? Vector<S>(Vector<S>::Zero(t.n)) : detail::to_vector<S>(t.C, t.n, "C");
  if (t.W_sparse || !t.W.empty()) s.W = matrix(t.W_sparse, t.W, t.m, t.m, "W");
  return s;
}

// The output document of `femc solve` (keys in this order): qdd, QN, QW, Qc,
// lambda (arrays of decimal strings that read back to the same values at the
// working precision), rank, delta_norm, delta_norm_sq, Gg_min, precision,
// data_precision, method, diagnostics. The diagnostics carry rank_tol (the
// working precision's) and rank_tol_data (the data's rounding level, null
// unless the data's precision was given) side by side.
struct SolutionText {
  std::vector<std::string> qdd, QN, QW, Qc, lambda;
  long rank = 0;
  std::string delta_norm, delta_norm_sq, Gg_min, precision, method;
  std::string rank_tol, rank_largest, rank_smallest_kept, rank_largest_dropped;
  std::string kappa_M, kappa_B;  // empty when not estimated
  std::string rank_tol_data;     // empty unless the data's precision was given
  std::string data_precision, data_precision_rule;
  std::vector<std::string> warnings, notes;
};

std::string write_solution_json(const SolutionText& s);

// √q of a rational as decimal text, correctly rounded to `bits` bits.
std::string sqrt_of_rational_text(mpq_srcptr q, long bits);

// √x as decimal text at the precision of S (for exact types: 256 bits).
template <class S>
std::string format_sqrt(const S& x) {
  if constexpr (ScalarTraits<S>::exact) {
    return sqrt_of_rational_text(x.backend().data(), 256);
  } else {
    using std::sqrt;
    return ScalarTraits<S>::format(S(sqrt(x)));
  }
}

template <class S>
SolutionText to_solution_text(const Solution<S>& s) {
  auto vec = [](const Vector<S>& v) {
    std::vector<std::string> out;
    for (Index i = 0; i < v.size(); ++i) out.push_back(ScalarTraits<S>::format(v(i)));
    return out;
  };
  SolutionText t;
  t.qdd = vec(s.qdd);
  t.QN = vec(s.QN);
  t.QW = vec(s.QW);
  t.Qc = vec(s.Qc);
  t.lambda = vec(s.lambda);
  const auto& d = s.diagnostics;
  t.rank = static_cast<long>(d.rank.rank);
  t.delta_norm = format_sqrt(s.delta_norm_sq);
  t.delta_norm_sq = ScalarTraits<S>::format(s.delta_norm_sq);
  t.Gg_min = ScalarTraits<S>::format(s.Gg_min);
  t.precision = d.precision;
  t.method = d.method;
  t.rank_tol = ScalarTraits<S>::format(d.rank.tol);
  t.rank_largest = ScalarTraits<S>::format(d.rank.largest);
  t.rank_smallest_kept = ScalarTraits<S>::format(d.rank.smallest_kept);
  t.rank_largest_dropped = ScalarTraits<S>::format(d.rank.largest_dropped);
  if (d.kappa_M) t.kappa_M = ScalarTraits<S>::format(*d.kappa_M);
  if (d.kappa_B) t.kappa_B = ScalarTraits<S>::format(*d.kappa_B);
  if (d.rank.data_tol_applied) t.rank_tol_data = ScalarTraits<S>::format(d.rank.data_tol);
  t.data_precision = to_string(d.data_precision);
  t.warnings = d.warnings;
  t.notes = d.notes;
  return t;
}

}  // namespace femc
