#include "femc/verify/run_claims.hpp"

#include <rapidcheck.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "femc/verify/process_solver.hpp"
#include "femc/verify/system_json.hpp"

namespace femc::verify {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::NotApplicable: return "not applicable";
    case Verdict::GaveUp: return "gave up";
  }
  return "?";
}

std::string outcome_text(const ClaimOutcome& o) {
  auto bits = [](double x) {  // every bit
    char text[40];
    std::snprintf(text, sizeof text, "%a", x);
    return std::string(text);
  };
  nlohmann::json j = {{"suite", o.suite},
                      {"id", o.id},
                      {"verdict", to_string(o.verdict)},
                      {"detail", o.detail},
                      {"cases", o.cases},
                      {"worst_ratio", bits(o.worst_ratio)},
                      {"finest_well", bits(o.finest_well)},
                      {"ill_kappa", bits(o.ill_kappa)},
                      {"ill_relative", bits(o.ill_relative)}};
  nlohmann::json systems = nlohmann::json::array();
  for (const SystemText& t : o.counterexample) systems.push_back(system_json(t));
  j["counterexample"] = systems;
  return j.dump();
}

ClaimOutcome outcome_from_text(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    ClaimOutcome o;
    o.suite = j.at("suite");
    o.id = j.at("id");
    const std::string verdict = j.at("verdict");
    bool known = false;
    for (Verdict v : {Verdict::Pass, Verdict::Fail, Verdict::NotApplicable, Verdict::GaveUp})
      if (to_string(v) == verdict) o.verdict = v, known = true;
    if (!known) throw std::runtime_error("verdict '" + verdict + "'");
    o.detail = j.at("detail");
    o.cases = j.at("cases");
    auto number = [&](const char* key) { return std::strtod(j.at(key).get<std::string>().c_str(), nullptr); };
    o.worst_ratio = number("worst_ratio");
    o.finest_well = number("finest_well");
    o.ill_kappa = number("ill_kappa");
    o.ill_relative = number("ill_relative");
    for (const nlohmann::json& t : j.at("counterexample"))
      o.counterexample.push_back(read_system_text(t.get<std::string>()));
    return o;
  } catch (const std::exception& e) {
    throw MethodError(std::string("a claim's outcome from another process is not readable: ") + e.what());
  }
}

std::vector<const prop::ClaimProperty*> select_claims(const std::vector<std::string>& wanted) {
  std::vector<const prop::ClaimProperty*> out;
  for (const std::string& w : wanted) {
    bool known = false;
    for (const prop::ClaimProperty& p : prop::claim_properties()) known = known || p.id() == w || p.suite == w;
    if (!known) {
      std::string ids;
      for (const prop::ClaimProperty& p : prop::claim_properties())
        if (ids.find(p.id() + ",") == std::string::npos) ids += p.id() + ", ";
      throw InputError("claims", "unknown claim '" + w.substr(0, 40) + "' (" + ids.substr(0, ids.size() - 2) + ")");
    }
  }
  for (const prop::ClaimProperty& p : prop::claim_properties()) {
    bool take = wanted.empty();
    for (const std::string& w : wanted) take = take || p.id() == w || p.suite == w;
    if (take) out.push_back(&p);
  }
  return out;
}

template <class S>
std::vector<ClaimOutcome> run_claims(const std::vector<const prop::ClaimProperty*>& claims,
                                     const RegisteredSolver& solver, const ClaimRunOptions& options) {
  std::vector<ClaimOutcome> out;
  const bool is_cod = solver.method() == Method::Cod;
  for (const prop::ClaimProperty* p : claims) {
    ClaimOutcome o;
    o.suite = p->suite;
    o.id = p->id();
    o.detail = prop::not_applicable_at<S>(*p, solver.capabilities(), is_cod);
    if (!o.detail.empty()) {
      out.push_back(o);
      continue;
    }
    if (options.before_claim) options.before_claim();
    // The systems of the running case, and of the last case that failed:
    // RapidCheck accepts a shrink only when it fails, so the last failing
    // case is the minimal one it reports.
    std::vector<SystemText> current, last_failing;
    prop::RatioRecord seen;  // over the passing cases
    prop::Solver<S> recorded(
        [&](const System<S>& sys) {
          current.push_back(to_system_text(sys));
          return solver.solve(sys, Options<S>{});
        },
        solver.capabilities(), solver.name());
    const auto& check = p->at<S>();
    auto property = [&] {
      current.clear();
      prop::ratio_record().reset();
      try {
        check(recorded);
      } catch (const rc::detail::CaseResult& r) {
        if (r.type == rc::detail::CaseResult::Type::Failure) last_failing = current;
        throw;
      } catch (...) {
        last_failing = current;
        throw;
      }
      const prop::RatioRecord& r = prop::ratio_record();
      seen.worst = std::max(seen.worst, r.worst);
      seen.finest_well = std::min(seen.finest_well, r.finest_well);
      if (r.ill_kappa > seen.ill_kappa) seen.ill_kappa = r.ill_kappa, seen.ill_relative = r.ill_relative;
    };
    rc::detail::TestParams params;
    params.maxSuccess = options.cases;
    params.seed = options.seed;
    rc::detail::TestMetadata meta;
    meta.id = meta.description = p->suite + "." + solver.name();
    const rc::detail::TestResult result = rc::detail::checkTestable(property, meta, params);
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    if (result.template is<rc::detail::SuccessResult>()) {
      o.verdict = Verdict::Pass;
      o.cases = result.template get<rc::detail::SuccessResult>().numSuccess;
      o.worst_ratio = seen.worst;
      o.finest_well = seen.finest_well;
      o.ill_kappa = seen.ill_kappa;
      o.ill_relative = seen.ill_relative;
    } else if (result.template is<rc::detail::FailureResult>()) {
      o.verdict = Verdict::Fail;
      o.cases = result.template get<rc::detail::FailureResult>().numSuccess;
      o.detail = message.str();
      o.counterexample = last_failing;
    } else {
      o.verdict = result.template is<rc::detail::GaveUpResult>() ? Verdict::GaveUp : Verdict::Fail;
      o.detail = message.str();
    }
    out.push_back(o);
  }
  return out;
}

#define FEMC_INSTANTIATE_RUN_CLAIMS(Type)                                                               \
  template std::vector<ClaimOutcome> run_claims<Type>(const std::vector<const prop::ClaimProperty*>&, \
                                                      const RegisteredSolver&, const ClaimRunOptions&);
FEMC_CLAIM_TYPES(FEMC_INSTANTIATE_RUN_CLAIMS)
#undef FEMC_INSTANTIATE_RUN_CLAIMS

}  // namespace femc::verify
