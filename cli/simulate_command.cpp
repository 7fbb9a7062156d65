// femc simulate SYSTEM|MODEL.json [--precision P] [--t-end T] [--dt DT] [--stepper S]
//                      [--tol X] [--baumgarte A,B] [--formulation F] [--step H] [--contact-model qp|lcp]
//                      [--contact-tol X] [--method M] [--record-every K] [-o FILE.csv]
//
// Integrates one of the built-in systems (dynamics/builtin_models.hpp), or a
// mechanism's model file (dynamics/mechanism.hpp), and
// writes one CSV row per record. With -o the CSV goes to the file
// (atomically) and a JSON summary to stdout; without, the CSV to stdout and
// the summary to stderr. Exit 0 when the run reached t-end, 3 when the model
// stopped it early (a Painlevé state, a point without a contact model on
// the ground: the summary says which; the CSV holds the run up to there),
// 5 when it reached t-end with a warning (simulation/monitors.hpp: an energy
// balance beyond the tolerance, a motion stalled at a singular
// configuration, a rank kept at the drift): femc cannot vouch for it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "femc/dynamics/builtin_models.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/visit_precision.hpp"
#include "femc/io/output_file.hpp"
#include "simulate_run.hpp"

namespace femc::cli {

SimulateOutput simulate_system(const SimulateArgs& a) {
  const std::string& p = a.precision;
  return visit_precision(p, [&](auto tag) -> SimulateOutput {
    using S = typename decltype(tag)::type;
    if constexpr (!kEvaluatesModels<S>)
      throw InputError("precision", "'" + p + "' for simulate: it runs at " + model_precision_names());
    else if constexpr (std::is_same_v<S, mpfr_real>)
      return simulate_builtin<mpfr_real>(a, mpfr_precision_name(*mpfr_bits_of(p)));  // as femc solve and the studies
    else
      return simulate_builtin<S>(a, p);
  });
}

std::function<int()> add_simulate_command(CLI::App& app) {
  auto a = std::make_shared<SimulateArgs>();
  auto list = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("simulate", "Integrate a built-in system or a model file; one CSV row per record");
  std::string names;
  for (const auto& n : dynamics::builtin_model_names()) names += (names.empty() ? "" : " | ") + n;
  cmd->add_option("system", a->system, names + " | a model file (a path: MODEL.json)");
  cmd->add_flag("--list", *list, "list the built-in systems with their data and exit");
  cmd->add_option("--precision", a->precision, model_precision_names() + " (default double)");
  cmd->add_option("--t-end", a->t_end, "final time (default: the system's)");
  cmd->add_option("--dt", a->dt, "record interval, the largest step of dopri5 and the step of rk4 (default 0.01)");
  cmd->add_option("--stepper", a->stepper, "dopri5 (adaptive, default) | rk4 (fixed step dt) | bulirsch-stoer (adaptive order, for tolerances near "
                 "the precision's) | radau-iia (implicit, order 2s − 1, for stiff models)");
  cmd->add_option("--tol", a->tol, "absolute and relative tolerance of the adaptive steppers (default 1e-10)");
  cmd->add_option("--stages", a->stages, "radau-iia's number of stages s, 1 to 12: order 2s − 1 (default 7)");
  cmd->add_option("--baumgarte", a->baumgarte, "alpha,beta of Baumgarte stabilization (default none)");
  cmd->add_option("--formulation", a->formulation,
                  "projected (Gauss's principle at each state with the stepper, the state projected onto the "
                  "constraints in the metric of M after every step; the default, for every mechanism but those "
                  "that pass singular configurations) | index-3 (the trapezoidal rule on the position constraints, "
                  "Gauss–Newton with Gauss's principle at each fixed step --step, second order, no error control: "
                  "for mechanisms that pass singular configurations, such as IFToMM A02, whose model files make it "
                  "their default) | index-1 (no projection: the drift grows; for comparison). Default: the model "
                  "file's \"formulation\", else projected");
  cmd->add_option("--step", a->step,
                  "index-3's fixed step (default: the model file's \"step\", else the largest h ≤ 1e-3 s that "
                  "divides dt)");
  cmd->add_option("--contact-model", a->contact_model, "qp (003's Gauss optimization model, default) | lcp");
  cmd->add_option("--contact-tol", a->contact_tol, "gap/speed below which a contact is closed (default 1e-6)");
  cmd->add_option("--method", a->method,
                  "the method of each state's solve, for systems with equality constraints (default cod; sparse "
                  "for large mechanisms: no dense matrix is formed)");
  cmd->add_option("--record-every", a->record_every,
                  "write every K-th record (t = K·dt, 2K·dt, …, and the last; default 1); the summary's maxima are "
                  "over the records written");
  cmd->add_option("-o,--output", a->output, "write the CSV here (atomically); the summary goes to stdout");
  return [a, list]() -> int {
    return with_exit_status([&]() -> int {
      if (*list) {
        for (const auto& n : dynamics::builtin_model_names())
          std::cout << n << ": " << dynamics::make_builtin_model<double>(n).description << "\n";
        return 0;
      }
      if (a->system.empty()) throw InputError("system", "missing (femc simulate --list names them)");
      if (!a->output.empty()) io::check_output_path(a->output);
      const SimulateOutput out = simulate_system(*a);
      if (a->output.empty()) {
        std::cout << out.csv << std::flush;
        std::cerr << out.summary;
      } else {
        io::write_atomically(a->output, out.csv);
        std::cout << out.summary << std::flush;
      }
      return !out.completed ? kExitMethod : out.warned ? kExitWarning : 0;
    });
  };
}

}  // namespace femc::cli
