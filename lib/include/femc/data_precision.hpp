#pragma once
// The data's precision, apart from the working precision.
//
// The working precision (the scalar type S) is how femc computes. The data's
// precision is how the numbers of a system were rounded before femc read
// them: a system exported from an engine or computed in double carries each
// entry to a relative error of about u_d = 2⁻⁵³, whatever precision femc then
// solves it at. Rounding destroys exact redundancy: an exactly redundant
// constraint row becomes one whose singular value is at the rounding level,
// and a rank decided at 256 bits or exactly would keep it as a constraint.
// Given the data's precision, femc decides the rank (rank.hpp,
// data_rank_cut) and judges the symmetry and definiteness of M and W
// (system.hpp) relative to u_d instead.
//
// The model: each entry x of a k-long row or column of the data (k =
// max(m, n) for A, n for M) was computed in the data's precision with
// |x − x*| ≤ k·u_d·|x*|, u_d = 2^-bits: a rounded entry has u_d, and an
// entry computed by a short chain of operations (an engine's Jacobian, a
// mass matrix assembled from rotations) has γ_k ≈ k·u_d. The constant k is
// LAPACK's max(m, n) in its rank tolerance max(m, n)·ε, there for its own
// factorization's errors, here for the data's. Simbody 3.7's Bricard data
// (tests/data/simbody_bricard) have their rounded sixth singular value at
// 0.1–0.7 of the one-rounding level u_d·‖A‖_F·√‖M⁻¹‖; k = 6 leaves it
// 8–60× clear. Data with larger errors than the model's show it in the
// warnings of solve(), which flag decisions within 100× of the level.
#include <string>

#include "femc/linalg.hpp"

namespace femc {

struct DataPrecision {
  // Significand bits of the rounding (53 for double, 64 for x87 long double,
  // 113 for binary128); 0: the data are exact, taken at face value.
  long bits = 0;

  constexpr DataPrecision() = default;
  constexpr explicit DataPrecision(long significand_bits) : bits(significand_bits) {}

  bool exact() const { return bits == 0; }
  friend bool operator==(const DataPrecision& a, const DataPrecision& b) { return a.bits == b.bits; }
};

inline constexpr DataPrecision kExactData{0};
inline constexpr DataPrecision kDoubleData{53};

// The names of data precisions, from the precision table (scalar/
// precisions.hpp): "double, long-double, float128, exact", the formats of
// one significand width femc also works in. Any other width is "N bits".
std::string data_precision_names();

// The table's name of the width ("double"), or "N bits".
std::string to_string(const DataPrecision& p);

// Parses a name of data_precision_names() or BITS (2..65536, also "BITS
// bits"); throws InputError(field, …) naming the value.
DataPrecision parse_data_precision(const std::string& text, const std::string& field = "data-precision");

// u_d = 2^-bits at the working precision (0 for exact data). For exact S it
// is the exact power of two.
template <class S>
S data_unit_roundoff(const DataPrecision& p) {
  if (p.exact()) return S(0);
  S u(1);
  for (long k = 0; k < p.bits; ++k) u /= S(2);
  return u;
}

// The relative error per entry of the model above: k·u_d (0 for exact data).
template <class S>
S data_entry_error(const DataPrecision& p, Index k) {
  return S(k > 1 ? k : 1) * data_unit_roundoff<S>(p);
}

// The precision a rank decision compares with, and whether it decides: the
// data's precision when given (Options::data_precision), else the suspected
// one, which only warns (Options::suspected_data_precision).
struct DataLevel {
  DataPrecision precision;
  bool applied = false;
};
inline DataLevel data_level(const DataPrecision& given, const DataPrecision& suspected) {
  return given.exact() ? DataLevel{suspected, false} : DataLevel{given, true};
}

}  // namespace femc
