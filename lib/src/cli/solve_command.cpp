// femc solve SYSTEM.json [--precision P] [--method M] [--rank-tol X] [-o OUT.json]
//
// The precision is chosen here, once, at run time; below this file nothing
// knows about the command line.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "output_file.hpp"
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
  std::string output;
};

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
std::string solve_at(const SystemText& text, Method method, const std::string& rank_tol) {
  System<S> sys = to_system<S>(text);
  Options<S> opt;
  opt.method = method;
  if (!rank_tol.empty()) {
    S tol = detail::parse_entry<S>(rank_tol, "rank-tol");
    if (!(tol >= S(0)) || !(tol < S(1))) throw InputError("rank-tol", "must be in [0, 1), got " + rank_tol);
    opt.rank_tol = tol;
  }
  return write_solution_json(to_solution_text(solve(sys, opt)));
}

std::string run(const SolveArgs& a) {
  const SystemText text = read_system_text(read_file(a.input));
  Method method = a.method.empty() ? (a.precision == "exact" ? Method::Exact : Method::Cod) : parse_method(a.method);
  const std::string p = !a.precision.empty() ? a.precision : method == Method::Exact ? "exact" : "double";
  if (method == Method::Exact && p != "exact")
    throw InputError("precision", "method exact runs in exact arithmetic; use --precision exact, not '" + p + "'");
  if (p == "exact") {
    if (method != Method::Exact)
      throw InputError("method", "'" + to_string(method) + "' needs square roots; --precision exact runs only 'exact'");
    return solve_at<rational>(text, method, a.rank_tol);
  }
  if (p == "double") return solve_at<double>(text, method, a.rank_tol);
  if (p == "long-double") return solve_at<long double>(text, method, a.rank_tol);
  if (p == "float128") return solve_at<float128>(text, method, a.rank_tol);
  if (p == "dd") return solve_at<double_double>(text, method, a.rank_tol);
  if (p == "qd") return solve_at<quad_double>(text, method, a.rank_tol);
  if (const auto bits = mpfr_bits(p)) {
    MpfrPrecision guard(*bits);
    return solve_at<mpfr_real>(text, method, a.rank_tol);
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
  cmd->add_option("--method", args->method, "literal | cod | kkt | nullspace | exact (default cod)");
  cmd->add_option("--rank-tol", args->rank_tol, "relative rank tolerance τ (default max(m,n)·ε)");
  cmd->add_option("-o,--output", args->output, "write the result here (atomically) instead of stdout");
  return [args]() -> int {
    return with_exit_status([&]() -> int {
      if (!args->output.empty()) check_output_path(args->output);
      std::string out = run(*args);
      if (args->output.empty()) std::cout << out << std::flush;
      else write_atomically(args->output, out);
      return 0;
    });
  };
}

}  // namespace femc::cli
