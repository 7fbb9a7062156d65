// The benchmark executable: forces one OpenBLAS thread, routes GMP's
// allocations through the counters, records the build and library versions
// in the JSON context, then registers and runs every family.
#include "femc_case.hpp"  // first: mpreal.h includes mpfr.h with MPFR's function-like macros off

#include <benchmark/benchmark.h>
#include <mpfr.h>

#include <Eigen/Core>
#include <string>

#include "alloc_count.hpp"
#include "framework/build_info.hpp"

extern "C" {
void openblas_set_num_threads(int);
int openblas_get_num_threads(void);
char* openblas_get_config(void);
}

int main(int argc, char** argv) {
  femc::alloc::install_gmp_counting();  // before any GMP/MPFR number exists
  openblas_set_num_threads(1);          // the anchors run on one thread, as femc does

  benchmark::AddCustomContext("femc_commit", femc::studies::build_commit());
  benchmark::AddCustomContext("femc_compiler", FEMC_BENCH_COMPILER);
  benchmark::AddCustomContext("femc_flags", FEMC_BENCH_FLAGS);
  benchmark::AddCustomContext("openblas_config", openblas_get_config());
  benchmark::AddCustomContext("openblas_threads", std::to_string(openblas_get_num_threads()));
  benchmark::AddCustomContext("eigen_version", std::to_string(EIGEN_WORLD_VERSION) + "." +
                                                   std::to_string(EIGEN_MAJOR_VERSION) + "." +
                                                   std::to_string(EIGEN_MINOR_VERSION));
  benchmark::AddCustomContext("mpfr_version", mpfr_get_version());
  benchmark::AddCustomContext("gmp_version", gmp_version);

  using namespace femc::bench;
  using namespace femc::alloc;
  register_mpfr_ops();  // first: the unit costs, on a quiet machine state
  register_op_counts();
  register_lapacke();
  register_dense_kernels();
  register_solves_at_every_precision();
  register_floor_pairs();
  register_sparse_scaling();
#ifdef FEMC_BENCH_SUITESPARSE
  register_suitesparse();
#endif
  std::string scalars;
  for (const std::string& s : registered_scalars()) scalars += (scalars.empty() ? "" : ",") + s;
  benchmark::AddCustomContext("femc_scalars", scalars);
  benchmark::AddCustomContext("femc_floor_bits", std::to_string(kFloorBits));

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
