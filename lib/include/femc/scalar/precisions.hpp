#pragma once
// femc's precisions: the one list, beside the methods' (methods/list.hpp).
// Everything that runs a method at every precision of its arithmetic reads
// it: the solver registry (solvers/registry.cpp) and `femc describe`, whose
// JSON the scripts read.
//
// A line:  X(Type, name, arithmetic, bits, description)
//   Type         the scalar type (its header: scalar/<kind>.hpp)
//   name         its name on the command line (--precision); "BITS" for MPFR,
//                whose precision is chosen at run time by the number of bits
//   arithmetic   Floating or Exact (capabilities.hpp): the methods of that
//                arithmetic run at it
//   bits         the bits of its significand (0: MPFR's are its name's, and
//                exact has none); the Python module reads a result at them
//
// The macro names no header: a unit that expands it includes the types it
// instantiates.
#define FEMC_PRECISIONS(X)                                                                                   \
  X(double, "double", Floating, 53, "IEEE binary64 (53 bits)")                                              \
  X(long double, "long-double", Floating, 64, "x87 extended precision (64 bits)")                           \
  X(float128, "float128", Floating, 113, "IEEE binary128 (113 bits, libquadmath)")                          \
  X(double_double, "dd", Floating, 106, "double-double (106 bits, the QD library)")                         \
  X(quad_double, "qd", Floating, 212, "quad-double (212 bits, the QD library)")                             \
  X(mpfr_real, "BITS", Floating, 0, "MPFR at BITS bits of significand, 24 to 65536 (e.g. 256)")             \
  X(rational, "exact", Exact, 0, "GMP rationals: exact, no square root")
