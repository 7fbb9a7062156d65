#pragma once
// A per-thread free-list allocator for GMP's and MPFR's limbs.
//
// Why: every mpreal temporary is an mpfr_init2, i.e. a malloc, and its end a
// free. Eigen's kernels make one or two temporaries per multiply-add, so a
// 200×80 solve at 256 bits made 8.6 million mallocs (reports/performance.md),
// and malloc/free with their bookkeeping took about a quarter of its time.
// The limbs of one precision all have one size: a freed block is kept on a
// free list of its size class and handed out again at the next request of
// that class, so after a warm-up solve no call reaches malloc.
//
// Scope: process-wide (GMP has one set of memory functions), opt-in. The
// `femc` command installs it at start. The blocks are plain malloc blocks, so
// numbers made before install_mpfr_limb_pool() or freed after another
// allocator is installed stay valid: a block can always go back to free().
// Each thread keeps its own lists (no locks); a block freed by another thread
// than the one that made it joins that thread's lists. The lists are returned
// to malloc when their thread ends. Requests above kMaxPooledBytes go to
// malloc directly.
#include <cstddef>
#include <cstdint>

namespace femc {

inline constexpr std::size_t kMaxPooledBytes = 1024;  // 8000 bits of mantissa

// Routes GMP's (hence MPFR's and mpreal's) allocations through the pool.
void install_mpfr_limb_pool();

struct LimbPoolCounts {
  std::uint64_t reused = 0;   // requests served from a free list
  std::uint64_t fresh = 0;    // requests that went to malloc
};

// Counts of this thread since it started (for tests and benchmarks).
LimbPoolCounts limb_pool_counts();

}  // namespace femc
