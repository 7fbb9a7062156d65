// Counts heap allocations for the "allocations per solve" figures.
//
// glibc lets a program interpose malloc/free/calloc/realloc by defining them
// (every shared library then uses ours); they forward to glibc's own
// __libc_* entry points, so nothing about the allocator changes except the
// counting. The global operator new/delete are replaced too (the issue asks
// for it) and forward to malloc/free. GMP's allocator is replaced by
// mp_set_memory_functions: its functions forward to malloc as GMP's defaults do.
#include "alloc_count.hpp"

#include <gmp.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
// Relaxed atomics: OpenBLAS may own idle threads; the benchmark itself is
// single-threaded and reads the counters between solves.
std::atomic<std::uint64_t> g_mallocs{0}, g_bytes{0}, g_news{0}, g_gmp{0};

inline void count_malloc(std::size_t n) {
  g_mallocs.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(n, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) noexcept {
  count_malloc(n);
  return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) noexcept {
  count_malloc(k * n);
  return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) noexcept {
  count_malloc(n);  // a realloc may move the block: counted as an allocation
  return __libc_realloc(p, n);
}
void free(void* p) noexcept { __libc_free(p); }
}  // extern "C"

void* operator new(std::size_t n) {
  g_news.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  g_news.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// Over-aligned new is not used by femc (Eigen aligns by hand); it is left to
// the library's default, which allocates with aligned_alloc (not counted).

namespace femc::alloc {
namespace {
void* gmp_alloc(std::size_t n) {
  g_gmp.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n);
}
void* gmp_realloc(void* p, std::size_t, std::size_t n) {
  g_gmp.fetch_add(1, std::memory_order_relaxed);
  return std::realloc(p, n);
}
void gmp_free(void* p, std::size_t) { std::free(p); }
}  // namespace

AllocCounts alloc_counts() {
  return {g_mallocs.load(std::memory_order_relaxed), g_bytes.load(std::memory_order_relaxed),
          g_news.load(std::memory_order_relaxed), g_gmp.load(std::memory_order_relaxed)};
}

AllocCounts operator-(const AllocCounts& a, const AllocCounts& b) {
  return {a.mallocs - b.mallocs, a.bytes - b.bytes, a.news - b.news, a.gmp - b.gmp};
}

void install_gmp_counting() { mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free); }

}  // namespace femc::alloc
