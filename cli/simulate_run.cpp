// femc simulate at each scalar type it offers: the options as text, parsed
// and checked here (errors name the option), then the library's run
// (dynamics/simulate.hpp, instantiated in lib/).
#include <nlohmann/json.hpp>
#include <sstream>

#include "femc/dynamics/builtin_models.hpp"
#include "femc/dynamics/mechanism.hpp"
#include "femc/io/input_file.hpp"
#include "femc/io/json_system.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/number_text.hpp"
#include "femc/scalar/precisions.hpp"
#include "commands.hpp"
#include "simulate_run.hpp"

namespace femc::cli {
namespace detail_simulate {

template <class S>
S number(const std::string& text, const std::string& field) {
  try {
    check_number_syntax(text);
  } catch (const NumberError& e) {
    throw InputError(field, e.what());
  }
  return femc::detail::parse_entry<S>(text, field);
}

// Record limit: t_end/dt rows are kept in memory before the atomic write.
inline constexpr long kMaxRecords = 2000000;

// The system: a built-in one or a model file, with the contact model and
// method the options name.
template <class S>
dynamics::BuiltinModel<S> system_of(const SimulateArgs& a, std::optional<Method>& method) {
  using namespace dynamics;
  ContactFormulation formulation;
  if (a.contact_model == "qp") formulation = ContactFormulation::GaussQp;
  else if (a.contact_model == "lcp") formulation = ContactFormulation::Lcp;
  else throw InputError("contact-model", "'" + a.contact_model.substr(0, 40) + "' is not qp or lcp");
  std::optional<S> ctol;
  if (!a.contact_tol.empty()) {
    ctol = number<S>(a.contact_tol, "contact-tol");
    if (!(*ctol > S(0)) || !(*ctol < S(1))) throw InputError("contact-tol", "must be in (0, 1), got " + a.contact_tol);
  }
  // A path (with a '/' or ending in .json) names a model file; anything else a built-in system.
  const bool model_file = a.system.find('/') != std::string::npos ||
                          (a.system.size() > 5 && a.system.compare(a.system.size() - 5, 5, ".json") == 0);
  if (!a.method.empty()) {
    method = parse_method(a.method);
    if (method_info(*method).capabilities.arithmetic == Arithmetic::Exact)
      throw InputError("method", "method " + a.method + " runs in exact arithmetic; simulate integrates in floating "
                                 "point (choose a floating method: see femc solve --help)");
  }
  return model_file ? make_mechanism_model<S>(read_model_text(io::read_input_file(a.system, "system")), method)
                    : make_builtin_model<S>(a.system, formulation, ctol, method);
}

// The integration options: the model's defaults, overridden by each option
// given, each checked (InputError naming it).
template <class S>
dynamics::SimulationOptions<S> options_of(const SimulateArgs& a, const dynamics::BuiltinModel<S>& b,
                                          const std::string& precision_name) {
  using namespace dynamics;
  SimulationOptions<S> opt = b.defaults;
  if (!a.t_end.empty()) opt.t_end = number<S>(a.t_end, "t-end");
  if (!a.dt.empty()) opt.dt = number<S>(a.dt, "dt");
  if (!(opt.t_end > S(0))) throw InputError("t-end", "must be positive, got " + format_scalar(opt.t_end));
  if (!(opt.dt > S(0)) || opt.dt > opt.t_end)
    throw InputError("dt", "must be in (0, t-end], got " + format_scalar(opt.dt));
  if (!a.record_every.empty()) {
    const std::optional<long> k = decimal_integer(a.record_every, 9);
    if (!k || *k < 1)
      throw InputError("record-every", "must be an integer from 1 to 999999999, got '" + a.record_every.substr(0, 40) + "'");
    opt.record_every = *k;
  }
  if (opt.t_end / opt.dt > S(kMaxRecords))
    throw InputError("dt", "t-end/dt exceeds " + std::to_string(kMaxRecords) + " records");
  if (!a.tol.empty()) {
    opt.abs_tol = opt.rel_tol = number<S>(a.tol, "tol");
    if (!(opt.abs_tol > S(0)) || !(opt.abs_tol < S(1))) throw InputError("tol", "must be in (0, 1), got " + a.tol);
    // Below ~100 u the error estimate is rounding noise and the step size
    // collapses: ask for more precision instead.
    if (opt.abs_tol < S(100) * unit_roundoff<S>())
      throw InputError("tol", a.tol + " is below 100 u = " + format_scalar(S(S(100) * unit_roundoff<S>())) +
                                  " of " + precision_name + "; raise --precision");
  }
  if (a.formulation.empty()) {
    // the model's default (a model file's "formulation", else projected)
  } else if (a.formulation == "projected") opt.formulation = Formulation::Projected;
  else if (a.formulation == "index-3") opt.formulation = Formulation::Index3;
  else if (a.formulation == "index-1") opt.formulation = Formulation::Index1;
  else throw InputError("formulation", "'" + a.formulation.substr(0, 40) + "' is not projected, index-3 or index-1");
  if (!a.step.empty()) {
    if (opt.formulation == Formulation::Index1)
      throw InputError("step", "is the index-3 formulation's (and the projected one's at singular configurations); the formulation is index-1");
    opt.step = number<S>(a.step, "step");
    if (!(opt.step > S(0)) || opt.step > opt.dt) throw InputError("step", "must be in (0, dt], got " + a.step);
  }
  if (a.stepper == "dopri5") opt.stepper = Stepper::Dopri5;
  else if (a.stepper == "rk4") opt.stepper = Stepper::Rk4;
  else if (a.stepper == "bulirsch-stoer") opt.stepper = Stepper::BulirschStoer;
  else if (a.stepper == "radau-iia") opt.stepper = Stepper::RadauIIA;
  else throw InputError("stepper", "'" + a.stepper.substr(0, 40) + "' is not dopri5, rk4, bulirsch-stoer or radau-iia");
  if (!a.stages.empty()) {
    if (opt.stepper != Stepper::RadauIIA) throw InputError("stages", "is radau-iia's; the stepper is " + a.stepper);
    // The range is simulate()'s to check (InputError naming stages); here only
    // that the text is an integer. Nine digits fit an int, so every
    // out-of-range integer of up to nine digits reaches that check.
    const std::optional<long> k = decimal_integer(a.stages, 9);
    if (!k) throw InputError("stages", "must be an integer of at most 9 digits, got '" + a.stages.substr(0, 40) + "'");
    opt.stages = static_cast<int>(*k);
  }
  if (!a.baumgarte.empty()) {
    const auto comma = a.baumgarte.find(',');
    if (comma == std::string::npos) throw InputError("baumgarte", "expected 'alpha,beta', got '" + a.baumgarte.substr(0, 40) + "'");
    opt.baumgarte.alpha = number<S>(a.baumgarte.substr(0, comma), "baumgarte");
    opt.baumgarte.beta = number<S>(a.baumgarte.substr(comma + 1), "baumgarte");
    if (opt.baumgarte.alpha < S(0) || opt.baumgarte.beta < S(0))
      throw InputError("baumgarte", "alpha and beta must be non-negative, got '" + a.baumgarte + "'");
  }
  return opt;
}

// The records as CSV: every digit of the working precision.
template <class S>
std::string records_csv(const dynamics::BuiltinModel<S>& b, const dynamics::Trajectory<S>& traj) {
  using namespace dynamics;
  std::ostringstream csv;
  csv << "t";
  const auto coords = b.model->coordinate_names();
  for (const auto& c : coords) csv << "," << c;
  for (const auto& c : coords) csv << ",d" << c;
  csv << ",energy,work_nonideal,work_ideal,work_impacts,balance,position_violation,velocity_violation";
  for (const auto& e : b.model->extra_names()) csv << "," << e;
  csv << "\n";
  for (const Record<S>& r : traj.records) {
    csv << format_scalar(r.t);
    for (Index i = 0; i < r.q.size(); ++i) csv << "," << format_scalar(r.q(i));
    for (Index i = 0; i < r.qd.size(); ++i) csv << "," << format_scalar(r.qd(i));
    for (const S* v : {&r.energy, &r.work_nonideal, &r.work_ideal, &r.work_impacts, &r.balance,
                       &r.position_violation, &r.velocity_violation})
      csv << "," << format_scalar(*v);
    for (const S& e : r.extras) csv << "," << format_scalar(e);
    csv << "\n";
  }
  return csv.str();
}

// The summary as JSON: settings, outcome, maxima, events and warnings.
template <class S>
std::string summary_json(const SimulateArgs& a, const dynamics::BuiltinModel<S>& b,
                         const dynamics::SimulationOptions<S>& opt, const std::optional<Method>& method,
                         const dynamics::Trajectory<S>& traj, const std::string& precision_name) {
  using namespace dynamics;
  // Numbers as doubles (magnitudes to report; the CSV keeps every digit).
  auto d = [](const S& x) { return static_cast<double>(x); };
  nlohmann::ordered_json js;
  js["system"] = a.system;
  js["description"] = b.description;
  js["precision"] = precision_name;
  js["stepper"] = a.stepper;
  js["stages"] = opt.stepper == Stepper::RadauIIA ? nlohmann::ordered_json(opt.stages) : nlohmann::ordered_json();
  js["formulation"] = b.model->projects() ? std::string(to_string(opt.formulation))
                                          : std::string("index-1 (the model does not project)");
  js["step"] = opt.formulation == Formulation::Index3 ? (opt.step > S(0) ? nlohmann::ordered_json(d(opt.step))
                                                                          : nlohmann::ordered_json("the largest h ≤ 1e-3 s dividing dt"))
                                                      : nlohmann::ordered_json();
  js["contact_model"] = a.contact_model;
  js["method"] = method ? to_string(*method) : std::string();
  js["record_every"] = opt.record_every;
  js["t_end"] = d(opt.t_end);
  js["dt"] = d(opt.dt);
  js["tol"] = d(opt.abs_tol);
  js["baumgarte"] = {d(opt.baumgarte.alpha), d(opt.baumgarte.beta)};
  js["completed"] = traj.completed;
  js["stop_reason"] = traj.stop_reason;
  js["steps"] = traj.steps;
  js["force_evaluations"] = traj.force_evaluations;
  js["records"] = traj.records.size();
  js["max_abs_balance"] = d(traj.max_abs_balance);
  js["max_position_violation"] = d(traj.max_position_violation);
  js["max_velocity_violation"] = d(traj.max_velocity_violation);
  js["projections"] = traj.projections;
  js["max_drift_before_projection"] = d(traj.max_drift_before_projection);
  js["directions_dropped"] = traj.directions_dropped;
  js["newton_iterations"] = traj.newton_iterations;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const Event<S>& e : traj.events) events.push_back({{"t", d(e.t)}, {"what", e.what}});
  js["events"] = events;
  nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
  for (const Warning<S>& w : traj.warnings)
    warnings.push_back({{"kind", w.kind},
                        {"t_first", d(w.t_first)},
                        {"t_last", d(w.t_last)},
                        {"records", w.records},
                        {"measure", d(w.measure)},
                        {"threshold", d(w.threshold)},
                        {"what", w.what}});
  js["warnings"] = warnings;
  return js.dump(2) + "\n";
}

}  // namespace detail_simulate

template <class S>
SimulateOutput simulate_builtin(const SimulateArgs& a, const std::string& precision_name) {
  using namespace detail_simulate;
  std::optional<Method> method;
  const dynamics::BuiltinModel<S> b = system_of<S>(a, method);
  const dynamics::SimulationOptions<S> opt = options_of(a, b, precision_name);
  const dynamics::Trajectory<S> traj = dynamics::simulate(*b.model, b.q0, b.qd0, opt);
  SimulateOutput out;
  out.completed = traj.completed;
  out.warned = !traj.warnings.empty();
  out.csv = records_csv(b, traj);
  out.summary = summary_json(a, b, opt, method, traj, precision_name);
  return out;
}

// At the precisions a model is evaluated at (the table's Models column).
#define FEMC_INSTANTIATE_SIMULATE(Type, tag, header, spelling, kind, models, bits, what) \
  FEMC_IF_MODELS_##models(template SimulateOutput simulate_builtin<Type>(const SimulateArgs&, const std::string&);)
FEMC_PRECISIONS(FEMC_INSTANTIATE_SIMULATE)
#undef FEMC_INSTANTIATE_SIMULATE

}  // namespace femc::cli
