#pragma once
// A solver outside femc, run as one long-lived process that speaks the femc
// solver protocol over its stdin and stdout (verify/PROTOCOL.md):
//
//   solver → femc, first line:  {"protocol": "femc-solver/1", "name": …,
//                                "outputs": ["qdd", "QN", "QW", "lambda"],
//                                "rank_deficient": true, "weighted": true,
//                                "working_forces": true, "precisions": ["double"]}
//   femc → solver, per system:  {"id": 7, "precision": "double", "n": 3, "m": 1,
//                                "M": [[…]], "A": [[…]], "b": […], "Q": […], "C": […], "W": [[…]]}
//                                (the `femc solve` input, numbers as decimal strings)
//   solver → femc, per system:  {"id": 7, "qdd": […], "QN": […], "QW": […], "lambda": […]}
//                                or {"id": 7, "error": "why it refuses"}
//
// Everything that can go wrong with the process is a SolverFault naming it:
// it crashed or closed its output, it did not answer within the per-call
// timeout, it answered a line that is not JSON, another id, a vector of the
// wrong size, or a number that is not finite. femc then kills the process
// and starts it again at the next call; femc itself never stops.
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "femc/io/json_system.hpp"
#include "femc/verify/system_json.hpp"  // to_system_text
#include "femc/solvers/registry.hpp"

namespace femc::verify {

// A fault of the process, not a refusal: the solver broke the protocol.
class SolverFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the first line declares.
struct Handshake {
  std::string name;
  Capabilities capabilities;            // outputs: q̈; Qᴺ, Qᵂ, λ as declared; Qᶜ with Qᴺ and Qᵂ
  std::vector<std::string> precisions;  // femc solve's names: double, float128, exact, or MPFR bits
};

// A first line that is not the protocol's handshake.
class HandshakeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The handshake a solver's first line declares (a pure function: the
// process's start() reads the line and calls it). Throws HandshakeError
// naming the field and what it got. Unset fields take the protocol's
// defaults (PROTOCOL.md): q̈ alone, at double, and Capabilities' defaults
// for the rest.
Handshake parse_handshake(const std::string& line);

// An answer, as the texts the solver wrote (JSON numbers keep their text).
struct Answer {
  std::vector<std::string> qdd, QN, QW, lambda;
  long rank = -1;        // the rank the solver decided (outputs "rank")
  std::string rank_tol;  // its relative tolerance τ (kept σ_i > τσ₁); empty when not given
};

class SolverProcess {
 public:
  // Starts `command` through /bin/sh and reads its handshake. Its stderr goes
  // to stderr_path (appended; empty: discarded). Throws InputError("solver",
  // …) when it does not start or its handshake is not the protocol's.
  SolverProcess(std::string command, std::chrono::milliseconds timeout, std::string stderr_path = "");
  ~SolverProcess();
  SolverProcess(const SolverProcess&) = delete;
  SolverProcess& operator=(const SolverProcess&) = delete;

  const Handshake& handshake() const { return handshake_; }

  // Sends one system and reads its answer. Throws MethodError when the
  // solver refuses it ("error"), SolverFault when the process fails.
  Answer solve(const SystemText& system, const std::string& precision);

  // After a timeout, later calls fail at once with SolverFault until
  // forgive_hang() (a hung solver would otherwise cost a timeout per
  // shrinking step); femc verify forgives at the start of every claim.
  void forgive_hang() { hung_ = false; }

  struct Counts {
    long calls = 0, refusals = 0, crashes = 0, timeouts = 0, protocol_errors = 0, starts = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  void start();
  void stop();
  std::string read_line();  // throws SolverFault
  [[noreturn]] void fault(const std::string& what, long Counts::*counter);

  std::string command_, stderr_path_;
  std::chrono::milliseconds timeout_;
  Handshake handshake_;
  int pid_ = -1, to_child_ = -1, from_child_ = -1;
  std::string buffer_;  // read but not yet consumed
  long next_id_ = 1;
  bool hung_ = false;
  Counts counts_;
};

// The registry entry of a process solver at S (the working precision named
// `precision`): the answer is read at S, Qᶜ = Qᴺ + Qᵂ when both are given,
// else M q̈ − Q.
template <class S>
RegisteredSolver process_solver(const std::shared_ptr<SolverProcess>& process, const std::string& name,
                                const std::string& precision);

}  // namespace femc::verify
