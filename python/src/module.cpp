// femc._femc: the C++ half of `import femc` (python/femc/ is the other).
// It passes documents, not numbers: a system goes in as `femc solve`'s JSON,
// every number as its text, and the result comes back as `femc solve`'s JSON,
// so that the module and the command run the same code and give the same
// answer at every precision; the package turns the texts into numpy, mpmath
// or fractions.Fraction values without rounding them again.
//
// femc's errors become the package's exceptions (femc/_errors.py):
// InputError (a ValueError naming the field) and MethodError. The GIL is
// released while femc computes, and the interpreter's OpenBLAS thread count
// is put back when it returns (CallersBlasThreads). The module installs no GMP allocator: the
// MPFR limb pool (scalar/mpfr_pool.hpp) stays the command's, since gmpy2 or
// mpmath may share the process's GMP.
#include <cblas.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <mutex>
#include <string>

#include "commands.hpp"
#include "femc/errors.hpp"
#include "simulate_run.hpp"

namespace py = pybind11;

namespace {

// Raises the package's exception `name` (femc/_errors.py) with these
// arguments; never returns.
[[noreturn]] void raise(const char* name, const py::object& arg1, const py::object& arg2) {
  const py::object type = py::module_::import("femc._errors").attr(name);
  const py::object error = arg2.is_none() ? type(arg1) : type(arg1, arg2);
  PyErr_SetObject(type.ptr(), error.ptr());
  throw py::error_already_set();
}

// femc's kernels set OpenBLAS to one thread for the whole process
// (femc/decomposition/lapack.hpp: OpenBLAS 0.3.21 has no per-call count),
// and numpy in this interpreter shares that OpenBLAS: after the first femc
// call numpy ran on one thread, and its results changed in their last bits
// (the in-process femc.verify of the numpy example then differed from the
// process version, python/tests/test_verify.py). The caller's count is put
// back when the last femc call in flight returns; calls may overlap (the
// GIL is released), and none restores it while another computes.
class CallersBlasThreads {
 public:
  CallersBlasThreads() {
    const std::lock_guard<std::mutex> lock(mutex());
    if (state().active++ == 0) state().saved = openblas_get_num_threads();
  }
  ~CallersBlasThreads() {
    const std::lock_guard<std::mutex> lock(mutex());
    if (--state().active == 0 && openblas_get_num_threads() != state().saved) openblas_set_num_threads(state().saved);
  }
  CallersBlasThreads(const CallersBlasThreads&) = delete;
  CallersBlasThreads& operator=(const CallersBlasThreads&) = delete;

 private:
  struct State {
    int active = 0;
    int saved = 1;
  };
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static State& state() {
    static State s;
    return s;
  }
};

// Runs f with the GIL released, femc's errors translated.
template <class F>
std::string translated(F&& f) {
  std::string out;
  try {
    py::gil_scoped_release release;
    const CallersBlasThreads blas;
    out = f();
  } catch (const femc::InputError& e) {
    const std::string what = e.what();
    raise("InputError", py::str(e.field()), py::str(what.substr(e.field().size() + 2)));
  } catch (const femc::MethodError& e) {
    raise("MethodError", py::str(e.what()), py::none());
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_femc, m) {
  m.doc() = "femc's C++ core: documents in, documents out (use the package femc)";
  m.def(
      "solve_document",
      [](const std::string& document, const std::string& precision, const std::string& method,
         const std::string& rank_tol, const std::string& data_precision, py::object state,
         const std::string& data_precision_origin) {
        femc::cli::SolveRequest r{precision, method, rank_tol, data_precision, data_precision_origin};
        r.names = {"rank_tol", "data_precision", "data_precision", "data_precision='exact'"};  // its keywords
        const bool has_state = !state.is_none();
        const std::string state_text = has_state ? state.cast<std::string>() : std::string();
        return translated([&] {
          return femc::cli::solve_document(document, r, has_state ? &state_text : nullptr, "the document");
        });
      },
      py::arg("document"), py::arg("precision") = "", py::arg("method") = "", py::arg("rank_tol") = "",
      py::arg("data_precision") = "", py::arg("state") = py::none(), py::arg("data_precision_origin") = "",
      "femc solve on a system (or model) document; the result as femc solve's JSON");
  m.def(
      "simulate",
      [](const py::dict& options) {
        // The command's options as texts (simulate_run.hpp), by their names
        // as the package's keyword arguments; another key is refused here.
        femc::cli::SimulateArgs a;
        const std::pair<const char*, std::string*> fields[] = {
            {"system", &a.system},         {"precision", &a.precision},       {"t_end", &a.t_end},
            {"dt", &a.dt},                 {"tol", &a.tol},                   {"stepper", &a.stepper},
            {"stages", &a.stages},         {"baumgarte", &a.baumgarte},       {"formulation", &a.formulation},
            {"step", &a.step},             {"contact_model", &a.contact_model}, {"contact_tol", &a.contact_tol},
            {"method", &a.method},         {"record_every", &a.record_every}};
        for (const auto& item : options) {
          const std::string key = item.first.cast<std::string>();
          std::string names;
          for (const auto& f : fields) names += std::string(names.empty() ? "" : ", ") + f.first;
          const auto* f = std::find_if(std::begin(fields), std::end(fields), [&](const auto& f) { return key == f.first; });
          if (f == std::end(fields)) raise("InputError", py::str(key), py::str("not an option of simulate (" + names + ")"));
          *f->second = item.second.cast<std::string>();
        }
        femc::cli::SimulateOutput out;
        translated([&] {
          out = femc::cli::simulate_system(a);
          return std::string();
        });
        return py::make_tuple(py::bytes(out.csv), out.summary, out.completed, out.warned);
      },
      py::arg("options"), "femc simulate: (CSV, JSON summary, completed, warned)");
  m.def(
      "model_system_document",
      [](const std::string& model, const std::string& precision, py::object state) {
        const bool has_state = !state.is_none();
        const std::string state_text = has_state ? state.cast<std::string>() : std::string();
        return translated(
            [&] { return femc::cli::model_system_document(model, precision, has_state ? &state_text : nullptr); });
      },
      py::arg("model"), py::arg("precision") = "", py::arg("state") = py::none(),
      "a model file's M, A, b, Q at a state, as femc solve's input document");
  m.def(
      "describe_document", [] { return translated([] { return femc::cli::describe_document(); }); },
      "femc describe --json");
}
