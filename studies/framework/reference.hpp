#pragma once
// The reference every accuracy study measures against: the exact solution
// (method exact, rational arithmetic) of the very data the working precision
// was given, and the condition numbers that the theory's bounds are stated in
// (femc/verify/reference.hpp, shared with the claims).
#include "femc/solution.hpp"
#include "femc/system.hpp"
#include "femc/verify/error_law.hpp"
#include "femc/verify/reference.hpp"
#include "numerics.hpp"

namespace femc::studies {

using verify::ExactReference;
using verify::exact_reference;

// The first-order bound on the relative forward error of q̈, Qᴺ and Qᵂ at
// unit roundoff u for a solver whose error grows as κ(B)^p
// (Capabilities::error_growth): u·(κ(B)^p + κ(M) + κ(B)²η)
// (femc/verify/error_law.hpp states where it comes from).
inline double forward_error_bound(const ExactReference& ref, double u, int error_growth) {
  return verify::relative_law(ref, u, error_growth);
}

template <class S>
System<rational> exact_system(const System<S>& s) {
  return System<rational>{to_rational(s.M), to_rational(s.A), to_rational(s.b),
                          to_rational(s.Q), to_rational(s.C), to_rational(s.W)};
}

template <class S>
System<S> system_as(const System<rational>& s) {
  return from_rational<S>(s);
}

// Frobenius norm of an exact matrix, to double accuracy.
double frobenius(const Matrix<rational>& X);

}  // namespace femc::studies
