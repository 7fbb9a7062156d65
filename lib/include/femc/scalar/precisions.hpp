#pragma once
// femc's precisions: the one list, beside the methods' (methods/list.hpp).
// Everything that runs a method at every precision of its arithmetic reads
// it: the solver registry (solvers/registry.cpp) and `femc describe`, whose
// JSON the scripts read.
//
// A line:  X(Type, tag, header, name, arithmetic, models, bits, description)
//   Type         the scalar type, as spelled in namespace femc
//   tag          its identifier in the build: the library's generated units
//                (lib/CMakeLists.txt reads this table) and FEMC_INSTANTIATE
//   header       its header: femc/scalar/<header>.hpp
//   name         its name on the command line (--precision); "BITS" for MPFR,
//                whose precision is chosen at run time by the number of bits
//   arithmetic   Floating or Exact (capabilities.hpp): the methods of that
//                arithmetic run at it
//   models       Models if a model is evaluated and simulated at it (sin and
//                cos through ScalarTraits: dynamics/, models/, contact/,
//                femc simulate), NoModels if not
//   bits         the bits of its significand (0: MPFR's are its name's, and
//                exact has none); the Python module reads a result at them
//
// The macro names no header: a unit that expands it includes the types it
// instantiates. FEMC_IF_FLOATING_##arithmetic(x) and FEMC_IF_MODELS_##models(x)
// keep x for the rows that are Floating (or Models) and drop it for the
// others, to expand the table over some rows in the preprocessor (explicit
// instantiations, type lists):
//   #define X(Type, tag, header, name, arithmetic, models, bits, what) FEMC_IF_MODELS_##models(template f<Type>();)
#define FEMC_PRECISIONS(X)                                                                                        \
  X(double, double, builtin, "double", Floating, Models, 53, "IEEE binary64 (53 bits)")                           \
  X(long double, long_double, builtin, "long-double", Floating, Models, 64, "x87 extended precision (64 bits)")   \
  X(float128, float128, float128, "float128", Floating, Models, 113, "IEEE binary128 (113 bits, libquadmath)")    \
  X(double_double, dd, qd, "dd", Floating, NoModels, 106, "double-double (106 bits, the QD library)")             \
  X(quad_double, qd, qd, "qd", Floating, NoModels, 212, "quad-double (212 bits, the QD library)")                 \
  X(mpfr_real, mpfr, mpfr, "BITS", Floating, Models, 0, "MPFR at BITS bits of significand, 24 to 65536 (e.g. 256)") \
  X(rational, rational, rational, "exact", Exact, NoModels, 0, "GMP rationals: exact, no square root")

#define FEMC_IF_FLOATING_Floating(...) __VA_ARGS__
#define FEMC_IF_FLOATING_Exact(...)
#define FEMC_IF_MODELS_Models(...) __VA_ARGS__
#define FEMC_IF_MODELS_NoModels(...)
