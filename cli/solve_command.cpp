// femc solve SYSTEM.json [--precision P] [--data-precision D] [--method M] [--rank-tol X] [-o OUT.json]
//
// The precision is chosen here, once, at run time; below this file nothing
// knows about the command line.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "femc/io/output_file.hpp"
#include "femc/errors.hpp"
#include "femc/io/json_system.hpp"
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
  std::string precision;  // default: double (exact for --method exact)
  std::string method;  // default: cod (exact for --precision exact)
  std::string rank_tol;
  std::string data_precision;  // default: the input's "data_precision", else exact
  std::string output;
};

// The data's precision of a solve and the sentence that says where it came
// from (the output's diagnostics.data_precision_rule). The rule: stated by
// --data-precision, else by the input's "data_precision", else exact (every
// number at face value, as femc always read them). Exact data whose every
// number could be a double written to round-trip (at most 17 significant
// digits) may have been rounded to double: that only warns (Options::
// suspected_data_precision), since typed data such as "0.1" or 2 are as
// often exact.
struct DataPrecisionChoice {
  DataPrecision data, suspected;
  std::string rule;
};

DataPrecisionChoice choose_data_precision(const SystemText& text, const std::string& option) {
  DataPrecisionChoice c;
  if (!option.empty()) {
    c.data = parse_data_precision(option, "data-precision");
    c.rule = "given by --data-precision";
    if (!text.data_precision.empty()) c.rule += " (over the input's \"data_precision\": \"" + text.data_precision + "\")";
  } else if (!text.data_precision.empty()) {
    c.data = parse_data_precision(text.data_precision, "data_precision");
    c.rule = "given by the input's \"data_precision\"";
  } else {
    c.rule = "default: the numbers are exact";
    if (text.every_number_could_be_double) {
      c.suspected = kDoubleData;
      c.rule += "; each has at most 17 significant digits, as a double written to round-trip has, so a rank decision "
                "within 100x of double's rounding level is warned about";
    }
  }
  if (!c.data.exact())
    c.rule += ": rank is decided above the data's rounding level (rank_tol_data), and M, W are judged symmetric and "
              "positive definite at it";
  return c;
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError("input", "cannot read '" + path + "': " + ec.message());
  if (std::filesystem::is_directory(path)) throw InputError("input", "'" + path + "' is a directory");
  if (size > kMaxDocumentBytes)
    throw InputError("input", "'" + path + "' is larger than " + std::to_string(kMaxDocumentBytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("input", "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <class S>
std::string solve_at(const SystemText& text, Method method, const std::string& rank_tol, const DataPrecisionChoice& data) {
  System<S> sys = to_system<S>(text);
  Options<S> opt;
  opt.method = method;
  opt.data_precision = data.data;
  opt.suspected_data_precision = data.suspected;
  if (!rank_tol.empty()) {
    S tol = detail::parse_entry<S>(rank_tol, "rank-tol");
    if (!(tol >= S(0)) || !(tol < S(1))) throw InputError("rank-tol", "must be in [0, 1), got " + rank_tol);
    opt.rank_tol = tol;
  }
  SolutionText out = to_solution_text(solve(sys, opt));
  out.data_precision_rule = data.rule;
  return write_solution_json(out);
}

std::string run(const SolveArgs& a) {
  const SystemText text = read_system_text(read_file(a.input));
  const DataPrecisionChoice data = choose_data_precision(text, a.data_precision);
  // The default method is cod, or the first exact one at --precision exact;
  // a method runs at the precisions of its arithmetic (methods/list.hpp).
  auto first_of = [](Arithmetic ar) {
    for (const MethodInfo& info : methods())
      if (info.capabilities.arithmetic == ar) return info.method;
    return Method::Cod;
  };
  const Method method = !a.method.empty()         ? parse_method(a.method)
                        : a.precision == "exact" ? first_of(Arithmetic::Exact)
                                                 : Method::Cod;
  const bool exact_method = method_info(method).capabilities.arithmetic == Arithmetic::Exact;
  const std::string p = !a.precision.empty() ? a.precision : exact_method ? "exact" : "double";
  if (exact_method && p != "exact")
    throw InputError("precision", "method " + to_string(method) + " runs in exact arithmetic; use --precision exact, not '" + p + "'");
  if (p == "exact") {
    if (!exact_method)
      throw InputError("method", "'" + to_string(method) + "' needs square roots; --precision exact runs only 'exact'");
    return solve_at<rational>(text, method, a.rank_tol, data);
  }
  if (p == "double") return solve_at<double>(text, method, a.rank_tol, data);
  if (p == "long-double") return solve_at<long double>(text, method, a.rank_tol, data);
  if (p == "float128") return solve_at<float128>(text, method, a.rank_tol, data);
  if (p == "dd") return solve_at<double_double>(text, method, a.rank_tol, data);
  if (p == "qd") return solve_at<quad_double>(text, method, a.rank_tol, data);
  if (const auto bits = mpfr_bits(p)) {
    MpfrPrecision guard(*bits);
    return solve_at<mpfr_real>(text, method, a.rank_tol, data);
  }
  throw InputError("precision", "unknown precision '" + p.substr(0, 40) +
                                    "' (double, long-double, float128, dd, qd, exact, or MPFR bits 24..65536)");
}

}  // namespace

std::function<int()> add_solve_command(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* cmd = app.add_subcommand("solve", "Solve one system (JSON) for q̈, Qᴺ, Qᵂ, Qᶜ, λ, G_g, ‖δ‖");
  cmd->add_option("system", args->input, "System JSON: M, A, b, Q, optional C, W")->required();
  cmd->add_option("--precision", args->precision,
                  "double | long-double | float128 | dd | qd | BITS (MPFR) | exact (default double)");
  cmd->add_option("--method", args->method, "one of " + method_names() + " (default cod)");
  cmd->add_option("--rank-tol", args->rank_tol, "relative rank tolerance τ (default max(m,n)·ε)");
  cmd->add_option("--data-precision", args->data_precision,
                  "the precision the data were rounded to: exact | double | long-double | float128 | BITS "
                  "(default: the input's data_precision, else exact)");
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
