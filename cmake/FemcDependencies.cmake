# Every dependency is a Debian 12 package (scripts/install-deps.sh installs
# them); nothing is downloaded at build time.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Boost 1.81 REQUIRED)  # header-only: Multiprecision (needs 1.81's Eigen fixes)
find_package(PkgConfig REQUIRED)
pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET mpfr)
pkg_check_modules(GMP REQUIRED IMPORTED_TARGET gmp)
# double's blocked Cholesky, triangular solve and QRs (lib/src/decomposition/lapack.cpp).
pkg_check_modules(LAPACKE REQUIRED IMPORTED_TARGET lapacke)
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
# Debian's qd.pc names a Fortran include path that does not exist; find the
# C++ library directly.
find_path(QD_INCLUDE_DIR qd/dd_real.h REQUIRED)
find_library(QD_LIBRARY qd REQUIRED)
if(NOT TARGET femc_deps::qd)
  add_library(femc_deps::qd INTERFACE IMPORTED)
  set_target_properties(femc_deps::qd PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${QD_INCLUDE_DIR}
                                                 INTERFACE_LINK_LIBRARIES ${QD_LIBRARY})
endif()
find_library(QUADMATH_LIBRARY NAMES quadmath libquadmath.so.0 REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(CLI11 REQUIRED)
# RapidCheck runs the claims: in the property tests and in femc::verify
# (femc verify, downstream checks), so always.
find_package(rapidcheck CONFIG REQUIRED)  # no version file in Debian's package
if(FEMC_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
# Optional: OpenMPI, for `mpirun -n K femc study …` (studies/framework/
# distribute.hpp). ON when found; without it femc runs studies in one process.
find_package(MPI QUIET COMPONENTS CXX)
option(FEMC_MPI "Run studies over the ranks of an MPI job (libopenmpi-dev, openmpi-bin)" ${MPI_CXX_FOUND})
if(FEMC_MPI AND NOT MPI_CXX_FOUND)
  message(FATAL_ERROR "FEMC_MPI is ON but MPI was not found (apt-get install libopenmpi-dev openmpi-bin)")
endif()
message(STATUS "femc: MPI runner ${FEMC_MPI}")
