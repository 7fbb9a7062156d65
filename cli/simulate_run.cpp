// femc simulate at each scalar type it offers: the options as text, parsed
// and checked here (errors name the option), then the library's run
// (dynamics/simulate.hpp, instantiated in lib/).
#include <sstream>

#include "femc/dynamics/builtin_models.hpp"
#include "femc/dynamics/mechanism.hpp"
#include "femc/io/input_file.hpp"
#include "femc/io/json_system.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/number_text.hpp"
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

inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

}  // namespace detail_simulate

// Record limit: t_end/dt rows are kept in memory before the atomic write.
inline constexpr long kMaxRecords = 2000000;

template <class S>
SimulateOutput simulate_builtin(const SimulateArgs& a, const std::string& precision_name) {
  using detail_simulate::number;
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
  std::optional<Method> method;
  if (!a.method.empty()) {
    method = parse_method(a.method);
    if (method_info(*method).capabilities.arithmetic == Arithmetic::Exact)
      throw InputError("method", "method " + a.method + " runs in exact arithmetic; simulate integrates in floating "
                                 "point (choose a floating method: see femc solve --help)");
  }
  BuiltinModel<S> b = model_file ? make_mechanism_model<S>(read_model_text(io::read_input_file(a.system, "system")), method)
                                 : make_builtin_model<S>(a.system, formulation, ctol, method);
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

  const Trajectory<S> traj = simulate(*b.model, b.q0, b.qd0, opt);

  SimulateOutput out;
  out.completed = traj.completed;
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
  out.csv = csv.str();

  using detail_simulate::json_string;
  std::ostringstream js;
  js << "{\n  \"system\": " << json_string(a.system) << ",\n  \"description\": " << json_string(b.description)
     << ",\n  \"precision\": " << json_string(precision_name) << ",\n  \"stepper\": " << json_string(a.stepper)
     << ",\n  \"stages\": " << (opt.stepper == Stepper::RadauIIA ? std::to_string(opt.stages) : std::string("null"))
     << ",\n  \"contact_model\": " << json_string(a.contact_model)
     << ",\n  \"method\": " << json_string(method ? to_string(*method) : std::string())
     << ",\n  \"record_every\": " << opt.record_every
     << ",\n  \"t_end\": " << format_scalar(opt.t_end) << ",\n  \"dt\": " << format_scalar(opt.dt)
     << ",\n  \"tol\": " << format_scalar(opt.abs_tol) << ",\n  \"baumgarte\": [" << format_scalar(opt.baumgarte.alpha)
     << ", " << format_scalar(opt.baumgarte.beta) << "]"
     << ",\n  \"completed\": " << (traj.completed ? "true" : "false")
     << ",\n  \"stop_reason\": " << json_string(traj.stop_reason) << ",\n  \"steps\": " << traj.steps
     << ",\n  \"force_evaluations\": " << traj.force_evaluations << ",\n  \"records\": " << traj.records.size()
     << ",\n  \"max_abs_balance\": " << format_scalar(traj.max_abs_balance)
     << ",\n  \"max_position_violation\": " << format_scalar(traj.max_position_violation)
     << ",\n  \"max_velocity_violation\": " << format_scalar(traj.max_velocity_violation) << ",\n  \"events\": [";
  for (std::size_t i = 0; i < traj.events.size(); ++i)
    js << (i ? ", " : "") << "{\"t\": " << format_scalar(traj.events[i].t) << ", \"what\": " << json_string(traj.events[i].what)
       << "}";
  js << "]\n}\n";
  out.summary = js.str();
  return out;
}

template SimulateOutput simulate_builtin<double>(const SimulateArgs&, const std::string&);
template SimulateOutput simulate_builtin<long double>(const SimulateArgs&, const std::string&);
template SimulateOutput simulate_builtin<femc::float128>(const SimulateArgs&, const std::string&);
template SimulateOutput simulate_builtin<femc::mpfr_real>(const SimulateArgs&, const std::string&);

}  // namespace femc::cli
