#pragma once
// System<S>: one instant of a constrained mechanical system (001 Section 2),
//   M q̈ = Q + Qᶜ,   constraints A q̈ ≃ b (in the least-squares sense, weight W),
//   vᵀQᶜ = vᵀC for every virtual displacement v (A v = 0)   [001 (7)].
// M is n×n symmetric positive definite, A is m×n of any rank (m may be 0),
// b an m-vector (possibly inconsistent), Q the impressed force, C the force
// with which non-ideal constraints do work (0 for ideal constraints), W an
// m×m symmetric positive definite weight (I unless given).
//
// validate() is the single gate for bad input: every method may assume a
// system that passed it. Methods read only the lower triangles of M and W.
#include <string>
#include <vector>

#include "femc/data_precision.hpp"
#include "femc/linalg.hpp"

namespace femc {

// Largest n or m accepted: a dense solve beyond it is not what femc is for,
// and the check runs before any allocation.
inline constexpr Index kMaxDimension = 20000;

template <class S>
struct System {
  Matrix<S> M;  // n×n, SPD
  Matrix<S> A;  // m×n
  Vector<S> b;  // m
  Vector<S> Q;  // n
  Vector<S> C;  // n, zero for ideal constraints
  Matrix<S> W;  // m×m, SPD, identity by default

  Index n() const { return M.rows(); }
  Index m() const { return A.rows(); }
};

// A system with C = 0 and W = I.
template <class S>
System<S> make_system(Matrix<S> M, Matrix<S> A, Vector<S> b, Vector<S> Q) {
  System<S> s{std::move(M), std::move(A), std::move(b), std::move(Q), Vector<S>(), Matrix<S>()};
  s.C = Vector<S>::Zero(s.n());
  s.W = Matrix<S>::Identity(s.m(), s.m());
  return s;
}

// Tolerance on the relative asymmetry max|X_ij − X_ji| / max|X_ij| of M and W:
// 16·u, u the larger of the working precision's and the data's unit
// roundoff. Data typed as a symmetric matrix is exactly symmetric at any
// precision (the same text gives the same value). A matrix computed in
// floating point is symmetric to a few units of its roundoff only: each
// entry is a sum whose rounding errors the two halves do not share (Simbody
// 3.7's mass matrix of Bricard's mechanism: up to 1.8e-14 = 40·u relative to
// its entry, 4.5e-17 = 0.4·u relative to max|M|). The constant 16 admits a
// few units of that at the scale of the largest entry. Read at a higher
// working precision such a matrix is rejected unless the data's precision
// is given (prepare_rounded_data).
template <class S>
S symmetry_tolerance(const DataPrecision& data = kExactData) {
  const S u = unit_roundoff<S>(), ud = data_unit_roundoff<S>(data);
  return S(16) * (ud > u ? ud : u);
}

// Throws InputError (field and what is wrong) unless: the shapes agree
// (M n×n, A m×n, b m, Q n, C n, W m×m), n ≥ 1, n, m ≤ kMaxDimension, every
// entry is finite, M and W are symmetric within symmetry_tolerance() and
// positive definite (a Cholesky factorization at the working precision
// succeeds; LDLᵀ with all pivots > 0 for exact types).
template <class S>
void validate(const System<S>& sys);

// Rounded data (Options::data_precision, data_precision.hpp): M and W judged
// at the data's precision, before validate().
// - Symmetry: an asymmetry within symmetry_tolerance(data) is the data's
//   rounding, and femc solves with (X + Xᵀ)/2, exactly symmetric at every
//   precision (both halves round the same sum). Beyond it: InputError naming
//   the field, the entry and the size of the asymmetry.
// - Definiteness: the true X* = X − E with |E_ij| ≤ e|X*_ij|, e = k·u_d for
//   X of order k (data_precision.hpp, data_entry_error), has ‖E‖₂ ≤ e‖X‖_F
//   (to first order), and λ_min(X) ≥ 1/‖X⁻¹‖₁. X* is surely positive
//   definite when e·‖X‖_F·‖X⁻¹‖₁ < 1; otherwise the data's errors could
//   have made a singular (semi-definite) matrix definite, and femc refuses
//   it (InputError naming the field and the product).
// Returns sys when nothing changes; else the symmetrized copy, in storage.
// Each change is said in notes. Exact data: sys, untouched.
template <class S>
const System<S>& prepare_rounded_data(const System<S>& sys, const DataPrecision& data, System<S>& storage,
                                      std::vector<std::string>& notes);

// True when W is exactly the identity (then no weighting is applied).
template <class S>
bool is_identity(const Matrix<S>& W) {
  for (Index j = 0; j < W.cols(); ++j)
    for (Index i = 0; i < W.rows(); ++i)
      if (W(i, j) != (i == j ? S(1) : S(0))) return false;
  return true;
}

}  // namespace femc
