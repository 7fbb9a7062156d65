#pragma once
// SparseSystem<S>: the System<S> of system.hpp with M, A and W stored
// sparse (compressed columns), for large mechanisms (a mechanism of N bodies
// has O(N) nonzeros in M and A, and O(N²) entries dense). The same problem,
// the same rules; the method `sparse` (methods/sparse.hpp) solves it
// without forming a dense matrix.
//
// M and W are stored whole (both triangles); the solver reads their lower
// triangles. W empty (0 × 0) with m > 0 stands for the identity.
// The bodies (sparse_system.hxx) are instantiated by the library for every
// scalar type (validate and validate_entries for the floating ones).
#include <string>

#include "femc/sparse_linalg.hpp"
#include "femc/system.hpp"

namespace femc {

// Largest n or m of a sparse system: its storage is linear in the nonzeros,
// so the limit is that of the indices (int) with room for the factors' fill.
inline constexpr Index kMaxSparseDimension = 10000000;

template <class S>
struct SparseSystem {
  SparseMatrix<S> M;  // n×n, SPD
  SparseMatrix<S> A;  // m×n
  Vector<S> b;        // m
  Vector<S> Q;        // n
  Vector<S> C;        // n, zero for ideal constraints
  SparseMatrix<S> W;  // m×m, SPD; empty for the identity

  Index n() const { return M.rows(); }
  Index m() const { return A.rows(); }
  bool weighted() const;  // W given and not exactly the identity
};

// The sparse form of a dense system (exact zeros are not stored) and back.
template <class S>
SparseSystem<S> to_sparse(const System<S>& sys);
template <class S>
System<S> to_dense(const SparseSystem<S>& sys);

// validate() of system.hpp for a sparse system: the same rules, checked on
// the stored entries (InputError naming the field and the entry): shapes,
// n ≥ 1, n, m ≤ kMaxSparseDimension, finite entries, M and W symmetric
// within symmetry_tolerance() and positive definite (a sparse Cholesky
// factorization at the working precision succeeds).
template <class S>
void validate(const SparseSystem<S>& sys);
// validate() but definiteness, for a caller whose next step is the Cholesky
// factorization of M and W that decides it (methods/sparse.hpp throws the
// same InputError): a sparse solve then factors M once, not twice.
template <class S>
void validate_entries(const SparseSystem<S>& sys);

}  // namespace femc

