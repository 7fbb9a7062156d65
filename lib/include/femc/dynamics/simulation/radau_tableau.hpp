#pragma once
// The Butcher tableau of the s-stage Radau IIA method at any precision: the
// collocation method whose nodes c₁ < … < c_s = 1 are the zeros of
//   P_s(2x − 1) − P_{s−1}(2x − 1)          (P_k: Legendre polynomials)
// and whose matrix is a_ij = ∫₀^{c_i} ℓ_j(τ) dτ, ℓ_j the Lagrange polynomial
// of the nodes with ℓ_j(c_k) = δ_jk [Hairer & Wanner, Solving ODEs II,
// §IV.5]; b_j = a_sj (the method is stiffly accurate).
// Order 2s − 1, stage order s.
//
// Computed, not typed in: the tableau of any s at any precision, with 64
// guard bits, then rounded once to the working type through decimal text
// (ScalarTraits<S>::parse), so the double, float128 and MPFR tableaus are
// the same numbers correctly rounded. The zeros are isolated in double and
// polished by Newton's method at the guard precision; ℓ_j is multiplied out
// into monomials and integrated term by term (its coefficients stay below
// 2^(2s) for s ≤ 12, within the guard bits).
#include <string>
#include <vector>

#include "femc/linalg.hpp"
#include "femc/scalar/traits.hpp"

namespace femc::dynamics::simulation {

inline constexpr int kMinRadauStages = 1;
inline constexpr int kMaxRadauStages = 12;

// c (s entries) and A (s × s, row-major) as decimal text carrying `bits` + 64
// bits. Throws InputError for s outside [kMinRadauStages, kMaxRadauStages].
struct RadauTableauText {
  std::vector<std::string> c, a;
};
RadauTableauText radau_iia_tableau_text(int stages, long bits);

template <class S>
struct RadauTableau {
  Vector<S> c;  // nodes, c(s − 1) = 1 exactly
  Matrix<S> A;  // b = A.row(s − 1)
};

// The number of bits of S's significand, counted: the smallest p with
// 1 + 2^−p == 1 in S (round to nearest even). For double-double types it is
// larger than their nominal precision, which only adds guard bits.
template <class S>
long significand_bits() {
  long p = 0;
  S e(1);
  while (S(S(1) + e) != S(1) && p < 200000) {
    e = e / S(2);
    ++p;
  }
  return p;
}

template <class S>
RadauTableau<S> radau_iia_tableau(int stages) {
  const RadauTableauText text = radau_iia_tableau_text(stages, significand_bits<S>());
  RadauTableau<S> t;
  t.c.resize(stages);
  t.A.resize(stages, stages);
  for (int i = 0; i < stages; ++i) {
    t.c(i) = parse_scalar<S>(text.c[std::size_t(i)]);
    for (int j = 0; j < stages; ++j) t.A(i, j) = parse_scalar<S>(text.a[std::size_t(i * stages + j)]);
  }
  return t;
}

}  // namespace femc::dynamics::simulation
