#pragma once
// The `femc` command line: one subcommand per file. CLI11 is declared, not
// included: it costs a unit about 5 s to compile (its validators are objects
// every unit constructs), and the units that share this header without
// registering a command (the exit statuses, simulate_run.cpp, the Python
// module) use none of it. A unit that registers one includes <CLI/CLI.hpp>.
#include <functional>
#include <optional>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace femc::cli {

// Exit statuses: 0 success, 1 the regression gate found a metric worse than
// its baseline (femc report --check), 2 bad input, a bad option or an unusable input or
// output path (one line on stderr naming the field), 3 a valid system the
// chosen method cannot solve (or a simulation the model stopped early),
// 4 any other failure, 5 a simulation that reached its end but carries a
// warning: femc cannot vouch for its motion (its summary says why).
inline constexpr int kExitRegression = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitMethod = 3;
inline constexpr int kExitIo = 4;
inline constexpr int kExitWarning = 5;

// The value of text made of 1 to max_digits decimal digits (max_digits at
// most 18, so that it fits a long); nullopt for any other text. The one
// reading of an integer option: its range is the caller's to check.
std::optional<long> decimal_integer(const std::string& text, std::size_t max_digits);

// Runs a subcommand's body and maps femc's errors to the exit statuses
// above, with one line "femc: <field>: <what>" on stderr.
int with_exit_status(const std::function<int()>& body);
// The same for study, report and verify, which may run as ranks of an MPI
// job: an error (not a verdict) on any rank ends every rank
// (campaign_exit_status.cpp, in femc_campaign_commands).
int with_exit_status_on_every_rank(const std::function<int()>& body);

// `femc solve` on a document: a system (or a model file, at its initial
// state or at the state document's coordinates), solved at `precision` by
// `method` (empty: the command's defaults), its result as the command's
// JSON. Throws InputError naming the field, MethodError for a system the
// method cannot solve. The Python module calls it, so that both give the
// same answer.
struct SolveRequest {
  std::string precision;       // default: double (exact for an exact method)
  std::string method;          // default: cod (exact for precision exact; sparse for a sparse system)
  std::string rank_tol;        // default: max(m, n)·ε
  std::string data_precision;  // default: the document's "data_precision", else exact
  // Why the data precision is the one given, for the result's rule, when the
  // caller decided it (the Python module's rule for binary floats); empty:
  // "given by" the option.
  std::string data_precision_origin;
  // The caller's names of its options, in errors and in the rule: the
  // command's by default (the Python module's are its keyword arguments).
  struct Names {
    std::string rank_tol = "rank-tol", data_precision = "data-precision", data_precision_option = "--data-precision",
                stating_exact = "--data-precision exact";
  } names;
};
std::string solve_document(const std::string& document, const SolveRequest& request,
                           const std::string* state_document = nullptr, const std::string& input_name = "the input");
// A model file's system (M, A, b, Q, and C, W when it has them) at its
// initial state or the state document's, evaluated at `precision`, as
// `femc solve`'s input document: what `femc solve` solves for that model.
std::string model_system_document(const std::string& model_document, const std::string& precision,
                                  const std::string* state_document = nullptr);
// `femc describe --json`'s document.
std::string describe_document();

// Registers `femc solve` on app; the returned callback runs it.
std::function<int()> add_solve_command(CLI::App& app);
// Registers `femc simulate`.
std::function<int()> add_simulate_command(CLI::App& app);
// Registers `femc study` and `femc report` (the studies and the regression
// gate, studies/).
std::function<int()> add_study_command(CLI::App& app);
std::function<int()> add_report_command(CLI::App& app);
// Registers `femc verify` (the claims and studies against a solver process,
// verify/).
std::function<int()> add_verify_command(CLI::App& app);
// Registers `femc engines` (the engine adapters' campaign, engines/).
std::function<int()> add_engines_command(CLI::App& app);
// Registers `femc describe` (the methods and precisions as data).
std::function<int()> add_describe_command(CLI::App& app);

}  // namespace femc::cli
