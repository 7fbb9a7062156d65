#include "femc/verify/report.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "femc/verify/error_law.hpp"
#include "femc/verify/system_json.hpp"

namespace femc::verify {

namespace fs = std::filesystem;

int ConformanceReport::claims_failed() const {
  int n = 0;
  for (const ClaimOutcome& o : claims) n += o.verdict == Verdict::Fail || o.verdict == Verdict::GaveUp;
  return n;
}

int ConformanceReport::studies_failed() const {
  int n = 0;
  for (const StudyVerdict& v : studies) n += !v.passed();
  return n;
}

namespace {

std::string sci(double x) {
  if (std::isinf(x)) return "∞";
  std::ostringstream s;
  s.precision(2);
  s << x;
  return s.str();
}

// "E1_FundamentalEquation" → "counterexamples/E1_FundamentalEquation.json",
// then -2, -3 … for a case of several systems.
std::string file_name(const std::string& stem, std::size_t k) {
  return "counterexamples/" + stem + (k ? "-" + std::to_string(k + 1) : "") + ".json";
}

// Writes the systems of one failure; returns their files (relative to dir).
std::vector<std::string> write_systems(const fs::path& dir, const std::string& stem,
                                       const std::vector<SystemText>& systems, const std::string& what) {
  std::vector<std::string> files;
  for (std::size_t k = 0; k < systems.size(); ++k) {
    const std::string file = file_name(stem, k);
    std::ofstream(dir / file) << system_json(systems[k], stem,
                                             what + " (system " + std::to_string(k + 1) + " of " +
                                                 std::to_string(systems.size()) + ")")
                              << "\n";
    files.push_back(file);
  }
  return files;
}

std::string links(const std::vector<std::string>& files) {
  std::string out;
  for (const std::string& f : files) out += (out.empty() ? "" : ", ") + ("[" + f + "](" + f + ")");
  return out;
}

}  // namespace

void write_conformance_report(const fs::path& dir, const ConformanceReport& r) {
  fs::create_directories(dir / "counterexamples");
  const Capabilities& caps = r.capabilities;
  nlohmann::ordered_json doc;
  doc["solver"] = {{"name", r.name},
                   {"declared_name", r.declared_name},
                   {"command", r.command},
                   {"outputs", describe_outputs(caps.outputs)},
                   {"systems", describe_systems(caps)},
                   {"error_model", describe_error_model(caps)},
                   {"precisions", r.precisions}};
  if (caps.rank_tol > 0) doc["solver"]["rank_tol"] = caps.rank_tol;
  doc["precision"] = r.precision;
  doc["unit_roundoff"] = r.unit_roundoff;
  doc["cases_per_claim"] = r.cases_per_claim;
  doc["seed"] = r.seed;
  doc["law_constant"] = kLawConstant;
  int pass = 0, fail = 0, na = 0;
  std::ostringstream table;
  table << "| claim | verdict | cases | worst error ÷ bound | slack | detects at κ ≈ 1 | detects at the worst κ(B)·κ(M) "
           "| counterexample, or why not applicable |\n"
        << "|---|---|---|---|---|---|---|---|\n";
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const ClaimOutcome& o : r.claims) {
    nlohmann::ordered_json c = {{"claim", o.id}, {"property", o.suite}, {"verdict", to_string(o.verdict)},
                                {"cases", o.cases}};
    std::string where;
    const bool passed = o.verdict == Verdict::Pass;
    if (passed) {
      ++pass;
      c["worst_ratio"] = o.worst_ratio;
      c["slack"] = o.worst_ratio > 0 ? 1 / o.worst_ratio : std::numeric_limits<double>::infinity();
      if (std::isfinite(o.finest_well)) c["detects_well_conditioned"] = o.finest_well;
      if (o.ill_kappa > 0)
        c["detects_ill_conditioned"] = {{"kappa_B_kappa_M", o.ill_kappa}, {"relative_error", o.ill_relative}};
    } else if (o.verdict == Verdict::NotApplicable) {
      ++na;
      c["reason"] = o.detail;
      where = o.detail;
    } else {
      ++fail;
      c["failure"] = o.detail;
      const std::vector<std::string> files =
          write_systems(dir, o.suite, o.counterexample,
                        "femc verify: minimal counterexample of " + o.id + " for '" + r.name + "' at " + r.precision);
      c["counterexample"] = files;
      where = files.empty() ? o.detail.substr(0, o.detail.find('\n')) : links(files);
    }
    claims.push_back(c);
    const bool detects = passed && o.ill_kappa > 0;
    table << "| " << o.suite << " | " << to_string(o.verdict) << " | " << o.cases << " | "
          << (passed ? sci(o.worst_ratio) : "") << " | "
          << (passed ? (o.worst_ratio > 0 ? sci(1 / o.worst_ratio) : "∞") : "") << " | "
          << (detects && std::isfinite(o.finest_well) ? sci(o.finest_well) : "") << " | "
          << (detects ? sci(o.ill_relative) + " at " + sci(o.ill_kappa) : "") << " | " << where << " |\n";
  }
  doc["claims"] = claims;
  nlohmann::ordered_json studies = nlohmann::ordered_json::array();
  std::ostringstream study_text;
  for (const StudyVerdict& v : r.studies) {
    nlohmann::ordered_json s = {{"study", v.study}, {"verdict", v.passed() ? "pass" : "fail"}, {"rule", v.rule}};
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    study_text << "\n### " << v.study << ": " << (v.passed() ? "pass" : "fail") << "\n\n" << v.rule << ".\n";
    if (!v.passed()) study_text << "\n| cell | precision | why | systems |\n|---|---|---|---|\n";
    for (const StudyVerdict::Failure& f : v.failures) {
      const std::vector<std::string> files =
          write_systems(dir, v.study + "-" + f.cell + "-" + f.precision, f.systems,
                        "femc verify: study " + v.study + ", cell " + f.cell + ", where '" + r.name + "' fails at " +
                            f.precision + ": " + f.why);
      failures.push_back({{"cell", f.cell}, {"precision", f.precision}, {"why", f.why}, {"systems", files}});
      study_text << "| " << f.cell << " | " << f.precision << " | " << f.why << " | " << links(files) << " |\n";
    }
    s["failures"] = failures;
    studies.push_back(s);
  }
  doc["studies"] = studies;
  if (r.process) {
    const ConformanceReport::Process& p = *r.process;
    doc["process"] = {{"calls", p.calls},       {"refusals", p.refusals},
                      {"crashes", p.crashes},   {"timeouts", p.timeouts},
                      {"protocol_errors", p.protocol_errors}, {"starts", p.starts}};
  }
  doc["summary"] = {{"pass", pass}, {"fail", fail}, {"not_applicable", na}, {"studies_failed", r.studies_failed()}};
  std::ofstream(dir / "conformance.json") << doc.dump(2) << "\n";

  std::ofstream md(dir / "README.md");
  md << "# Conformance of `" << r.name << "`\n\n"
     << "`femc verify` ran the claim properties of femc (`../shared/CLAIMS.md`) on this solver at " << r.precision
     << " (u = " << sci(r.unit_roundoff) << "), " << r.cases_per_claim << " cases per claim, seed " << r.seed
     << ". Each case is drawn exactly, given to the solver rounded to the working precision, and checked against "
        "femc's exact solution of the same data, every output evaluated exactly, within the solver's declared "
        "first-order error law "
     << kForwardLawText << " in the metric of M, c = " << kLawConstant
     << "·max(m, n, 4) (verify/include/femc/verify/error_law.hpp). The draws reach the "
        "condition numbers the working precision resolves (κ up to 1/(100·u·c), its p-th root for error growth p) "
        "and rank decisions are judged against the solver's declared tolerance (verify/PROTOCOL.md, \"Rank\").\n\n"
     << "- Command: `" << r.command << "`\n"
     << "- Declared: returns " << describe_outputs(caps.outputs) << "; takes " << describe_systems(caps) << "; "
     << describe_error_model(caps) << " (the studies' theory lines)\n"
     << "- Result: " << pass << " pass, " << fail << " fail, " << na << " not applicable";
  if (!r.studies.empty()) md << "; studies: " << r.studies.size() - r.studies_failed() << " pass, " << r.studies_failed() << " fail";
  md << "\n";
  if (r.process) {
    const ConformanceReport::Process& p = *r.process;
    md << "- Process: " << p.calls << " calls, " << p.refusals << " refusals, " << p.crashes << " crashes, "
       << p.timeouts << " timeouts, " << p.protocol_errors << " protocol errors, " << p.starts << " starts\n";
  }
  md << "\nThe worst error ÷ bound is the largest ratio over every check of the passing cases; the slack, its "
        "inverse, is how many times larger an error could have been and still passed. \"Detects\" is the "
        "smallest relative error (in the metric of M, relative to ‖x‖ + ‖y‖) that fails the claim: in the "
        "best-conditioned case drawn (κ(B), κ(M) ≤ 10), and in the worst-conditioned one, at its κ(B)·κ(M).\n\n"
     << table.str();
  if (fail) {
    md << "\n## Failures\n";
    for (const ClaimOutcome& o : r.claims)
      if (o.verdict == Verdict::Fail || o.verdict == Verdict::GaveUp)
        md << "\n### " << o.suite << "\n\n```\n" << o.detail << "\n```\n";
    md << "\nEach counterexample reproduces with `femc solve counterexamples/<claim>.json --precision " << r.precision
       << "` beside the solver's own answer.\n";
  }
  if (!r.study_lines.empty() || !r.studies.empty()) {
    md << "\n## Studies\n\nThe solver beside femc's cod on the same data (cod at every precision of the study, the "
          "solver at " << r.precision << "), with the theory lines of the study, and each study's verdict on the solver "
          "(the failing cells' systems in counterexamples/, `femc solve` inputs):\n\n";
    for (const std::string& l : r.study_lines) md << l << "\n";
    md << study_text.str();
  }
  md.close();
  if (r.process) std::ofstream(dir / "solver-stderr.txt", std::ios::binary) << r.process->stderr_text;
}

}  // namespace femc::verify
