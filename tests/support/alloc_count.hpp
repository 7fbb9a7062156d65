#pragma once
// Heap-allocation counters of the benchmark executable (alloc_count.cpp).
//
// Three levels, because femc's allocations do not all pass through one door:
//   - malloc: every malloc/calloc/realloc of the process. Eigen allocates
//     with std::malloc, not operator new, so this is the total that matters;
//   - operator new: the replaced global operator new (std::vector, strings…);
//   - GMP: mpfr_init2 and GMP's own allocations go through GMP's allocator,
//     which install_gmp_counting() replaces with mp_set_memory_functions.
// The malloc level includes the other two.
#include <cstdint>

namespace femc::alloc {

struct AllocCounts {
  std::uint64_t mallocs = 0;  // malloc + calloc + realloc(nullptr or growing)
  std::uint64_t bytes = 0;    // bytes requested by those calls
  std::uint64_t news = 0;     // global operator new (all forms)
  std::uint64_t gmp = 0;      // GMP/MPFR allocate + reallocate
};

AllocCounts alloc_counts();
AllocCounts operator-(const AllocCounts& a, const AllocCounts& b);

// Routes GMP's (and thereby MPFR's) allocations through counting wrappers.
// Call first thing in main(), before any GMP or MPFR number exists.
void install_gmp_counting();

}  // namespace femc::alloc
