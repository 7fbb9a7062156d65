// The scaling of the sparse solve with the size of a mechanism (issue
// "Large mechanisms"): IFToMM A02 (N four-bar loops in a row) and a closed
// chain of N links (models/families.hpp), N = 10 … 1000, in double and at
// 128 bits, each at a generic state (cranks at 1 rad: full row rank).
//
// Names: sparse_scaling/<family>/<scalar>/<method>/<N>, counters n, m and
// nnz(A). Method "sparse" is femc::solve of the SparseSystem (validate()
// included, as a user calls it); "cod" the dense default on the same system
// stored dense, up to N = 100 in double and N = 40 at 128 bits (at N = 400
// a dense solve takes seconds in double and minutes at 128 bits).
// scripts/bench-report.py fits the exponent of time against N over 40…1000.
#include "femc/models/families.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

template <class S>
models::ModelAndState<S> family(const std::string& name, int N) {
  return name == "a02" ? models::n_four_bar<S>(N, S(1)) : models::closed_chain<S>(N);
}

template <class S, class Guard>
void sparse_case(benchmark::State& st, const std::string& name, int N, Method method, long bits) {
  Guard guard(bits);
  const auto ms = family<S>(name, N);
  const SparseSystem<S> sp = models::sparse_system_at(ms.model, ms.q, ms.qd);
  Options<S> opt;
  opt.method = method;
  System<S> dense;
  if (method != Method::Sparse) dense = to_dense(sp);
  auto once = [&] {
    const Solution<S> sol = method == Method::Sparse ? solve(sp, opt) : solve(dense, opt);
    benchmark::DoNotOptimize(sol.qdd.data());
  };
  try {
    once();  // warm-up
    for (auto _ : st) once();
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
  st.counters["n"] = double(sp.n());
  st.counters["m"] = double(sp.m());
  st.counters["nnz"] = double(sp.A.nonZeros());
}

template <class S, class Guard = NoGuard>
void register_family(const std::string& scalar, long bits, int dense_up_to) {
  for (const std::string name : {"a02", "chain"})
    for (int N : {10, 40, 100, 400, 1000})
      for (Method method : {Method::Sparse, Method::Cod}) {
        if (method == Method::Cod && N > dense_up_to) continue;
        const std::string label =
            "sparse_scaling/" + name + "/" + scalar + "/" + to_string(method) + "/" + std::to_string(N);
        benchmark::RegisterBenchmark(label.c_str(), [=](benchmark::State& st) {
          sparse_case<S, Guard>(st, name, N, method, bits);
        })->Unit(benchmark::kMillisecond);
      }
}

}  // namespace

void register_sparse_scaling() {
  register_family<double>("double", 0, 100);
  register_family<mpfr_real, MpfrPrecision>(mpfr_precision_name(128), 128, 40);
}

}  // namespace femc::bench
