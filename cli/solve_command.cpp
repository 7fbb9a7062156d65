// femc solve SYSTEM.json|MODEL.json [--state STATE.json] [--precision P] [--data-precision D] [--method M] [--rank-tol X] [-o OUT.json]
//
// The precision is chosen here, once, at run time; below this file nothing
// knows about the command line.
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <sstream>
#include <type_traits>

#include "commands.hpp"
#include "femc/io/input_file.hpp"
#include "femc/io/output_file.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/visit_precision.hpp"
#include "femc/dynamics/mechanism.hpp"
#include "femc/io/json_model.hpp"
#include "femc/io/json_system.hpp"
#include "femc/io/system_text.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"

namespace femc::cli {
namespace {

struct SolveArgs {
  std::string input;
  SolveRequest request;
  std::string output;
  std::string state;  // a model's coordinates (--state)
};

// The data's precision of a solve and the sentence that says where it came
// from (the output's diagnostics.data_precision_rule). The rule: stated by
// --data-precision, else by the input's "data_precision", else exact (every
// number at face value, as femc always read them). Data whose precision was
// not stated may have been rounded to double, whatever their digits: data
// symmetrized or averaged in extended precision carry 18 and more digits and
// still the rounding of double (Simbody's Bricard, M made exactly symmetric,
// kept a noise constraint at 256 bits). That only warns (Options::
// suspected_data_precision), since typed data such as "0.1" or 2 are as often
// exact; `--data-precision exact` (or the input's "data_precision": "exact")
// states it and silences the warning.
struct DataPrecisionChoice {
  DataPrecision data, suspected;
  std::string rule;
};

DataPrecisionChoice choose_data_precision(const SystemText& text, const SolveRequest& r) {
  DataPrecisionChoice c;
  if (!r.data_precision.empty()) {
    c.data = parse_data_precision(r.data_precision, r.names.data_precision);
    c.rule = r.data_precision_origin.empty() ? "given by " + r.names.data_precision_option : r.data_precision_origin;
    if (!text.data_precision.empty()) c.rule += " (over the input's \"data_precision\": \"" + text.data_precision + "\")";
  } else if (!text.data_precision.empty()) {
    c.data = parse_data_precision(text.data_precision, "data_precision");
    c.rule = "given by the input's \"data_precision\"";
  } else {
    c.rule = "default: the numbers are exact; their precision was not stated, so a rank decision within 100x of "
             "double's rounding level is warned about (" + r.names.stating_exact + " states them exact)";
    c.suspected = kDoubleData;
  }
  if (!c.data.exact())
    c.rule += ": rank is decided above the data's rounding level (rank_tol_data), and M, W are judged symmetric and "
              "positive definite at it";
  return c;
}

template <class S, class Sys>
std::string solve_at(const Sys& sys, Method method, const SolveRequest& r, const DataPrecisionChoice& data) {
  const std::string& rank_tol = r.rank_tol;
  Options<S> opt;
  opt.method = method;
  opt.data_precision = data.data;
  opt.suspected_data_precision = data.suspected;
  if (!rank_tol.empty()) {
    S tol = detail::parse_entry<S>(rank_tol, r.names.rank_tol);
    if (!(tol >= S(0)) || !(tol < S(1))) throw InputError(r.names.rank_tol, "must be in [0, 1), got " + rank_tol);
    opt.rank_tol = tol;
  }
  SolutionText out = to_solution_text(solve(sys, opt));
  out.data_precision_rule = data.rule;
  return write_solution_json(out);
}

template <class S>
[[noreturn]] void no_model_at() {
  throw InputError("precision", "a model is evaluated at " + model_precision_names() + ", not " +
                                    ScalarTraits<S>::name());
}

// The input at the working precision S: a system file's entries, or a
// model file's system at its initial state.
template <class S>
System<S> input_system(const SystemText* text, const ModelText* model, const ModelStateText* state) {
  if constexpr (!kEvaluatesModels<S>) {
    if (model) no_model_at<S>();
    return to_system<S>(*text);
  } else {
    if (model) return dynamics::model_system<S>(*model, state);
    return to_system<S>(*text);
  }
}

// The solve at S: method sparse on exact data takes the input stored sparse
// (no dense matrix: a system file's sparse matrices, a planar model's
// sparse system); everything else the dense system.
template <class S>
std::string solve_input(const SystemText* t, const ModelText* mt, const ModelStateText* st, Method method,
                        const SolveRequest& r, const DataPrecisionChoice& data) {
  if (method == Method::Sparse && data.data.exact()) {
    if (t) return solve_at<S>(to_sparse_system<S>(*t), method, r, data);
    if constexpr (kEvaluatesModels<S>) return solve_at<S>(dynamics::model_sparse_system<S>(*mt, st), method, r, data);
  }
  return solve_at<S>(input_system<S>(t, mt, st), method, r, data);
}

}  // namespace

namespace {

// A state document ({"q": …, "qd": …}), read; its malformed JSON named as
// the state's, not the model's.
std::optional<ModelStateText> read_state(const std::string* document) {
  if (!document) return std::nullopt;
  try {
    return read_model_state_text(*document);
  } catch (const InputError& e) {  // "document: malformed …"
    if (e.field() == "document") throw InputError("state", std::string(e.what()));
    throw;
  }
}

}  // namespace

std::string solve_document(const std::string& document, const SolveRequest& a, const std::string* state_document,
                           const std::string& input_name) {
  // A model file (it has a "kind") is evaluated in floating point; its
  // numbers are exact decimals, so its data are exact.
  std::optional<ModelText> model;
  std::optional<SystemText> text;
  if (is_model_document(document)) model = read_model_text(document);
  else text = read_system_text(document);
  DataPrecisionChoice data;
  if (text) {
    data = choose_data_precision(*text, a);
  } else if (!a.data_precision.empty()) {
    data.data = parse_data_precision(a.data_precision, a.names.data_precision);
    data.rule = a.data_precision_origin.empty() ? "given by " + a.names.data_precision_option : a.data_precision_origin;
  } else {
    data.rule = "the system is computed from the model at the working precision";
  }
  // The default method is cod, or the first exact one at --precision exact;
  // a method runs at the precisions of its arithmetic (methods/list.hpp).
  auto first_of = [](Arithmetic ar) {
    for (const MethodInfo& info : methods())
      if (info.capabilities.arithmetic == ar) return info.method;
    return Method::Cod;
  };
  const Method method = !a.method.empty()         ? parse_method(a.method)
                        : a.precision == "exact" ? first_of(Arithmetic::Exact)
                        : text && text->sparse() ? Method::Sparse
                                                 : Method::Cod;
  const bool exact_method = method_info(method).capabilities.arithmetic == Arithmetic::Exact;
  const std::string p = !a.precision.empty() ? a.precision : exact_method ? "exact" : "double";
  if (exact_method && p != "exact")
    throw InputError("precision", "method " + to_string(method) + " runs in exact arithmetic; use --precision exact, not '" + p + "'");
  const SystemText* t = text ? &*text : nullptr;
  const ModelText* mt = model ? &*model : nullptr;
  if (state_document && !model)
    throw InputError("state", "a state gives a model's coordinates; " + input_name + " is a system, not a model");
  const std::optional<ModelStateText> state = read_state(state_document);
  const ModelStateText* st = state ? &*state : nullptr;
  return visit_precision(p, [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (std::is_same_v<S, rational>) {
      if (!exact_method)
        throw InputError("method", "'" + to_string(method) + "' needs square roots; --precision exact runs only 'exact'");
      if (model)
        throw InputError("precision", "a model's matrices involve sines and cosines: no exact evaluation; use a "
                                      "floating-point precision (e.g. 256)");
      return solve_at<rational>(to_system<rational>(*t), method, a, data);
    } else {
      return solve_input<S>(t, mt, st, method, a, data);
    }
  });
}

std::string model_system_document(const std::string& model_document, const std::string& precision,
                                  const std::string* state_document) {
  if (!is_model_document(model_document))
    throw InputError("model", "not a model file (it has no \"kind\": planar or spatial)");
  const ModelText model = read_model_text(model_document);
  const std::optional<ModelStateText> state = read_state(state_document);
  const std::string p = precision.empty() ? "double" : precision;
  return visit_precision(p, [&](auto tag) -> std::string {
    using S = typename decltype(tag)::type;
    if constexpr (!kEvaluatesModels<S>) {
      no_model_at<S>();
    } else {
      return system_json(to_system_text(dynamics::model_system<S>(model, state ? &*state : nullptr))) + "\n";
    }
  });
}

namespace {

std::string run(const SolveArgs& a) {
  const std::string document = io::read_input_file(a.input);
  if (a.state.empty()) return solve_document(document, a.request);
  const std::string state = io::read_input_file(a.state, "state");
  return solve_document(document, a.request, &state, "'" + a.input + "'");
}

}  // namespace

std::function<int()> add_solve_command(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* cmd = app.add_subcommand("solve", "Solve one system (JSON) for q̈, Qᴺ, Qᵂ, Qᶜ, λ, G_g, ‖δ‖");
  cmd->add_option("system", args->input,
                  "System JSON (M, A, b, Q, optional C, W; a matrix dense as rows or sparse as {rows, cols, "
                  "entries: [[i, j, x], ...]}) or a model file (\"kind\": \"planar\" or \"spatial\"; solved at its "
                  "initial state)")
      ->required();
  cmd->add_option("--state", args->state,
                  "with a model: a JSON file {\"q\": [...], \"qd\": [...]} of its coordinates (x, y, θ per body), "
                  "used as given");
  cmd->add_option("--precision", args->request.precision,
                  precision_names() + " (default double)");
  cmd->add_option("--method", args->request.method,
                  "one of " + method_names() + " (default cod; sparse for a system with a sparse matrix)");
  cmd->add_option("--rank-tol", args->request.rank_tol, "relative rank tolerance τ (default max(m,n)·ε)");
  cmd->add_option("--data-precision", args->request.data_precision,
                  "the precision the data were rounded to: " + data_precision_names() +
                      ", or significand bits (default: the input's data_precision, else exact)");
  cmd->add_option("-o,--output", args->output, "write the result here (atomically) instead of stdout");
  return [args]() -> int {
    return with_exit_status([&]() -> int {
      if (!args->output.empty()) io::check_output_path(args->output);
      std::string out = run(*args);
      if (args->output.empty()) std::cout << out << std::flush;
      else io::write_atomically(args->output, out);
      return 0;
    });
  };
}

}  // namespace femc::cli
