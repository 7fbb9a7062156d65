#pragma once
// The conformance report of `femc verify` as data, and its writer: what
// the claims and the studies found (computed by run_claims.hpp and the
// studies' verdicts), and the files a user reads, apart from each other.
//
// DIR/ holds README.md (the claims' table with each check's slack and what
// it detects, the failures, the studies' verdicts), conformance.json (the
// same as data), counterexamples/ (each failing claim's minimal case and
// each failing study cell's systems, as `femc solve` inputs) and
// solver-stderr.txt for a process solver.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "femc/io/json_system.hpp"
#include "femc/solvers/capabilities.hpp"
#include "femc/verify/run_claims.hpp"

namespace femc::verify {

// A study's verdict on the solver: its rule, and each failing cell with why
// and the systems it gave the solver.
struct StudyVerdict {
  std::string study, rule;
  struct Failure {
    std::string cell, precision, why;
    std::vector<SystemText> systems;
  };
  std::vector<Failure> failures;
  bool passed() const { return failures.empty(); }
};

struct ConformanceReport {
  std::string name;           // the report's
  std::string declared_name;  // the solver's own (a process's handshake), or empty
  std::string command;        // a process's command line, or "femc method <name>"
  std::string precision;      // the working precision's name
  double unit_roundoff = 0;
  int cases_per_claim = 0;
  unsigned long seed = 0;
  Capabilities capabilities;
  std::vector<std::string> precisions;  // those the solver declares
  std::vector<ClaimOutcome> claims;
  struct Process {
    long calls = 0, refusals = 0, crashes = 0, timeouts = 0, protocol_errors = 0, starts = 0;
    std::string stderr_text;
  };
  std::optional<Process> process;  // a process solver's
  std::vector<std::string> study_lines;  // the studies' files and plots, one markdown line each
  std::vector<StudyVerdict> studies;

  int claims_failed() const;   // fail or gave up
  int studies_failed() const;
  bool passed() const { return claims_failed() == 0 && studies_failed() == 0; }
};

// Writes the report's files into dir (which exists).
void write_conformance_report(const std::filesystem::path& dir, const ConformanceReport& report);

}  // namespace femc::verify
