#pragma once
// Method `nullspace`: reduce the Gaussian to a basis of Null(A).
//
// Every member of Z_W is z_p + Z y, with z_p one weighted least-squares
// solution of A z ≃ b and Z an orthonormal basis of Null(A) (001 (23): the
// members differ by Null(P) = M^{1/2} Null(A)). Minimizing the Gaussian over y
// (001 (25)–(27)) gives the reduced SPD system
//   (ZᵀMZ) y = Zᵀ(Q + C − M z_p),   q̈ = z_p + Z y,
// and the working part of the constraint force is the M⁻¹-orthogonal
// projection of C on M·Null(A):
//   Qᵂ = M Z (ZᵀMZ)⁻¹ Zᵀ C          (= M^{1/2}(I − B⁺B)M^{-1/2}C, 002 (33))
//   Qᴺ = M q̈ − Q − Qᵂ,  λ = (Aᵀ)⁺Qᴺ.
// Z, λ and (W = I) z_p come from one complete orthogonal decomposition of A;
// rank is decided on A itself. Independent of the cod method's algebra: it
// never forms P or M^{-1/2}.
// In double, the factors of M, W and ZᵀMZ are LAPACK's dpotrf, the QRs
// dgeqp3 and dgeqrf, and M Z and Zᵀ(M Z) OpenBLAS's dsymm and dgemm
// (dense_products.hpp).
#include "femc/decomposition/complete_orthogonal.hpp"
#include "femc/methods/method_workspace.hpp"
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_nullspace(const System<S>& sys, const Options<S>& opt);

// The storage of method nullspace kept between solves, as CodWorkspace keeps
// cod's (cod.hpp): after a first solve of a shape (n, m) and rank, a solve of
// the same shape and rank makes no heap allocation (in MPFR with the limb
// pool), the factors of an unchanged M and W are reused, and the result is
// solve_nullspace's bit for bit.
template <class S>
class NullspaceWorkspace : public MethodWorkspace<S> {
 public:
  void solve(const System<S>& sys, const Options<S>& opt, Solution<S>& sol);

 private:
  using MethodWorkspace<S>::mass_;
  using MethodWorkspace<S>::weight_;
  CompleteOrthogonal<S> codA_, codRA_;  // of A, and of L_Wᵀ A when W ≠ I
  Matrix<S> Z_, MZ_, ZMZ_, RA_;         // Z, M Z, ZᵀM Z, L_Wᵀ A
  DenseCholesky<S> reduced_;            // ZᵀM Z = L_Z L_Zᵀ
  Vector<S> zp_, bt_, rhs_, y_;
  Vector<S> r_;         // L⁻¹(Qᶜ − C), of size n
  Vector<S> rA_, WrA_;  // A q̈ − b and W(A q̈ − b), of size m
};

}  // namespace femc
