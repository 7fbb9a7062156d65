#include "femc/scalar/mpfr_pool.hpp"

#include <gmp.h>
#include <malloc.h>  // malloc_usable_size (glibc)

#include <cstdlib>
#include <cstring>
#include <new>

namespace femc {
namespace {

// Size classes of 16 bytes: 64 lists cover every request up to 1024 bytes.
constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = kMaxPooledBytes / kGranule;
// A list keeps at most this many blocks (a 200×80 system at 256 bits has
// about 60 000 numbers alive at once; beyond the cap blocks go back to free).
constexpr std::uint32_t kMaxBlocksPerClass = 1u << 20;

struct FreeBlock {
  FreeBlock* next;
};

// Trivially destructible, so that a free after the thread's lists were
// drained (a thread_local number destroyed late) still finds `drained`.
struct Lists {
  FreeBlock* head[kClasses];
  std::uint32_t size[kClasses];
  bool drained;
  LimbPoolCounts counts;
};
thread_local Lists t_lists{};

// Returns the lists' blocks to malloc when the thread ends.
struct Drain {
  Drain() = default;
  ~Drain() {
    for (std::size_t c = 0; c < kClasses; ++c) {
      for (FreeBlock* b = t_lists.head[c]; b != nullptr;) {
        FreeBlock* next = b->next;
        std::free(b);
        b = next;
      }
      t_lists.head[c] = nullptr;
      t_lists.size[c] = 0;
    }
    t_lists.drained = true;
  }
};
thread_local Drain t_drain;

// The class of a request, or kClasses when it is not pooled. A block of
// class c has (c + 1)·16 bytes: rounding up lets sizes 1..16 share class 0.
inline std::size_t size_class(std::size_t n) { return n == 0 || n > kMaxPooledBytes ? kClasses : (n - 1) / kGranule; }

void* pool_allocate(std::size_t n) {
  const std::size_t c = size_class(n);
  if (c == kClasses || t_lists.drained) return std::malloc(n);
  (void)&t_drain;  // registers the drain at this thread's first pooled request
  if (FreeBlock* b = t_lists.head[c]) {
    t_lists.head[c] = b->next;
    --t_lists.size[c];
    ++t_lists.counts.reused;
    return b;
  }
  ++t_lists.counts.fresh;
  void* p = std::malloc((c + 1) * kGranule);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void pool_free(void* p, std::size_t n) {
  if (p == nullptr) return;
  const std::size_t c = size_class(n);
  // A block of a pooled class came from pool_allocate (the class's full
  // size) or from malloc(n) before the pool was installed, possibly smaller
  // than its class: only blocks that can hold the class's full size are kept.
  if (c == kClasses || t_lists.drained || t_lists.size[c] >= kMaxBlocksPerClass ||
      malloc_usable_size(p) < (c + 1) * kGranule) {
    std::free(p);
    return;
  }
  auto* b = static_cast<FreeBlock*>(p);
  b->next = t_lists.head[c];
  t_lists.head[c] = b;
  ++t_lists.size[c];
}

void* pool_reallocate(void* p, std::size_t old_n, std::size_t new_n) {
  if (p == nullptr) return pool_allocate(new_n);
  if (size_class(old_n) == kClasses && size_class(new_n) == kClasses) {
    void* q = std::realloc(p, new_n);
    if (q == nullptr) throw std::bad_alloc();
    return q;
  }
  void* q = pool_allocate(new_n);
  std::memcpy(q, p, old_n < new_n ? old_n : new_n);
  pool_free(p, old_n);
  return q;
}

}  // namespace

void install_mpfr_limb_pool() { mp_set_memory_functions(pool_allocate, pool_reallocate, pool_free); }

LimbPoolCounts limb_pool_counts() { return t_lists.counts; }

}  // namespace femc
