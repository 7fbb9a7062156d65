#include "distribute.hpp"

#include <cstdlib>

#include "femc/errors.hpp"

#ifdef FEMC_WITH_MPI
#include <mpfr.h>
// The C interface only (OpenMPI's deprecated C++ bindings warn under -Wextra).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#endif

namespace femc::studies::distributed {

#ifndef FEMC_WITH_MPI

bool active() { return false; }
int rank() { return 0; }
int size() { return 1; }
bool agree(bool ok) { return ok; }
void run_cells(const std::vector<std::size_t>&, unsigned, const Compute&, const Store&) {
  throw MethodError("distributed: femc was built without MPI");
}
std::vector<std::string> gather(const std::string& mine) { return {mine}; }
void abort_job(int status) { std::exit(status); }

#else

namespace {

enum Tag : int { kReady = 1, kResult = 2, kFailed = 3, kWork = 4, kStop = 5 };

bool launched_with_several_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* v = std::getenv(var);
    if (v && std::atoi(v) > 1) return true;
  }
  return false;
}

struct Mpi {
  bool on = false;
  int rank = 0, size = 1;
  Mpi() {
    if (!launched_with_several_ranks()) return;
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    on = size > 1;
  }
  ~Mpi() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized && !finalized) MPI_Finalize();
  }
};

Mpi& mpi() {
  static Mpi m;
  return m;
}

// A message: an index (8 bytes) and text.
std::string pack(std::size_t i, const std::string& text) {
  std::string m(8, '\0');
  for (int b = 0; b < 8; ++b) m[std::size_t(b)] = char((std::uint64_t(i) >> (8 * b)) & 0xff);
  return m + text;
}
std::pair<std::size_t, std::string> unpack(const std::string& m) {
  std::uint64_t i = 0;
  for (int b = 0; b < 8; ++b) i |= std::uint64_t(static_cast<unsigned char>(m[std::size_t(b)])) << (8 * b);
  return {std::size_t(i), m.substr(8)};
}

void send(const std::string& m, int to, int tag) {
  MPI_Send(m.data(), int(m.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// The next message from anyone, polled every millisecond (a blocking probe
// would spin a core that the computing threads need).
std::pair<MPI_Status, std::string> receive_any() {
  int flag = 0;
  MPI_Status st;
  for (;;) {
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  int count = 0;
  MPI_Get_count(&st, MPI_CHAR, &count);
  std::string m(std::size_t(count), '\0');
  MPI_Recv(m.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return {st, m};
}

void work(const Compute& compute) {
  send(std::string(), 0, kReady);
  for (;;) {
    auto [st, m] = receive_any();
    if (st.MPI_TAG == kStop) return;
    const std::size_t i = unpack(m).first;
    try {
      send(pack(i, compute(i)), 0, kResult);
    } catch (const std::exception& e) {
      send(pack(i, e.what()), 0, kFailed);
    }
  }
}

void coordinate(const std::vector<std::size_t>& order, unsigned threads, const Compute& compute, const Store& store) {
  std::mutex mutex;
  std::deque<std::size_t> queue(order.begin(), order.end());
  std::deque<std::pair<std::size_t, std::string>> done;  // the local threads' results, for the main thread
  std::string failure;
  std::atomic<bool> failed{false};
  auto take = [&](std::size_t& i) {
    std::lock_guard<std::mutex> lock(mutex);
    if (failed || queue.empty()) return false;
    i = queue.front();
    queue.pop_front();
    return true;
  };
  auto fail = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!failed) failure = what;
    failed = true;
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      // MPFR's per-thread caches (π, log 2, …) are freed when the thread ends.
      struct FreeMpfrCache {
        ~FreeMpfrCache() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
      } free_cache;
      std::size_t i = 0;
      while (take(i)) {
        try {
          std::string text = compute(i);
          std::lock_guard<std::mutex> lock(mutex);
          done.emplace_back(i, std::move(text));
        } catch (const std::exception& e) {
          fail(e.what());
        }
      }
    });
  auto store_done = [&] {
    for (;;) {
      std::pair<std::size_t, std::string> r;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (done.empty()) return;
        r = std::move(done.front());
        done.pop_front();
      }
      try {
        store(r.first, r.second);
      } catch (const std::exception& e) {
        fail(e.what());
      }
    }
  };
  int ranks_working = mpi().size - 1;
  while (ranks_working > 0) {
    // The other ranks' messages; the local threads' results in between.
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) {
      store_done();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    auto [status, m] = receive_any();
    if (status.MPI_TAG == kResult) {
      auto [i, text] = unpack(m);
      try {
        store(i, text);
      } catch (const std::exception& e) {
        fail(e.what());
      }
    } else if (status.MPI_TAG == kFailed) {
      fail(unpack(m).second);
    }
    std::size_t next = 0;
    if (take(next)) {
      send(pack(next, ""), status.MPI_SOURCE, kWork);
    } else {
      send(std::string(), status.MPI_SOURCE, kStop);
      --ranks_working;
    }
  }
  for (auto& t : pool) t.join();
  store_done();
  if (failed) throw MethodError(failure);
}

}  // namespace

bool active() { return mpi().on; }
int rank() { return mpi().rank; }
int size() { return mpi().size; }

bool agree(bool rank0_ok) {
  if (!active()) return rank0_ok;
  int ok = rank0_ok ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok == 1;
}

void run_cells(const std::vector<std::size_t>& order, unsigned threads, const Compute& compute, const Store& store) {
  if (!active()) throw MethodError("distributed: not an MPI job of several ranks");
  if (rank() == 0) coordinate(order, threads, compute, store);
  else work(compute);
}

std::vector<std::string> gather(const std::string& mine) {
  if (!active()) return {mine};
  int length = int(mine.size());
  std::vector<int> lengths(std::size_t(rank() == 0 ? size() : 0)), offsets(lengths.size());
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank() == 0) {
    for (std::size_t r = 1; r < lengths.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
    all.resize(std::size_t(offsets.back() + lengths.back()));
  }
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    out.push_back(all.substr(std::size_t(offsets[r]), std::size_t(lengths[r])));
  return out;
}

void abort_job(int status) {
  if (active()) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

#endif

}  // namespace femc::studies::distributed
