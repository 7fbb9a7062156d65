// `femc describe [--json]`: femc's methods and precisions as data, from the
// two lists (methods/list.hpp, scalar/precisions.hpp) through the solver
// registry: what each method accepts, the error law it declares and the
// precisions it runs at. Scripts read the JSON instead of parsing C++ or
// naming methods.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "femc/options.hpp"
#include "femc/scalar/visit_precision.hpp"
#include "femc/solvers/registry.hpp"

namespace femc::cli {

nlohmann::ordered_json describe_json() {
  using json = nlohmann::ordered_json;
  struct Precision {
    const char* name;
    Arithmetic arithmetic;
    int bits;  // of the significand; 0 for MPFR (its name's) and exact
    bool models;  // a model is evaluated and simulated at it
    const char* description;
  };
  static const Precision precisions[] = {
#define FEMC_PRECISION_ROW(Type, tag, header, spelling, kind, models, bits, what) {spelling, Arithmetic::kind, bits, kEvaluatesModels<Type>, what},
      FEMC_PRECISIONS(FEMC_PRECISION_ROW)
#undef FEMC_PRECISION_ROW
  };
  auto arithmetic_name = [](Arithmetic a) { return a == Arithmetic::Exact ? "exact" : "floating"; };
  json out;
  out["default_method"] = to_string(Options<double>{}.method);
  json ps = json::array();
  for (const Precision& p : precisions)
    ps.push_back({{"name", p.name},
                  {"arithmetic", arithmetic_name(p.arithmetic)},
                  {"bits", p.bits > 0 ? json(p.bits) : json()},
                  {"models", p.models},
                  {"description", p.description}});
  out["precisions"] = ps;
  json ms = json::array();
  for (const MethodInfo& info : methods()) {
    const Capabilities& c = solvers().get(info.name).capabilities();
    json runs_at = json::array();
    for (const Precision& p : precisions)
      if (p.arithmetic == c.arithmetic) runs_at.push_back(p.name);
    ms.push_back({{"name", info.name},
                  {"description", info.description},
                  {"arithmetic", arithmetic_name(c.arithmetic)},
                  {"precisions", runs_at},
                  {"rank_deficient", c.rank_deficient},
                  {"weighted", c.weighted},
                  {"working_forces", c.working_forces},
                  {"outputs", describe_outputs(c.outputs)},
                  {"error_growth", c.error_growth},
                  {"residual_mass_power", c.residual_mass_power},
                  {"rank_policy", c.rank_policy},
                  {"workspace", info.has_workspace},
                  {"error_law", describe_error_model(c)}});
  }
  out["methods"] = ms;
  return out;
}

std::string describe_document() { return describe_json().dump(2) + "\n"; }

std::function<int()> add_describe_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("describe", "femc's methods and precisions: what each accepts, its error law, "
                                             "the precisions it runs at");
  auto json_flag = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_flag, "as JSON (the scripts' source for the methods and precisions)");
  return [json_flag] {
    return with_exit_status([&] {
      if (*json_flag) {
        std::cout << describe_document();
        return 0;
      }
      const auto d = describe_json();
      std::cout << "methods (default " << d["default_method"].get<std::string>() << "):\n";
      for (const auto& m : d["methods"])
        std::cout << "  " << m["name"].get<std::string>() << ": " << m["description"].get<std::string>() << "\n"
                  << "      " << m["error_law"].get<std::string>() << "; rank decided on "
                  << m["rank_policy"].get<std::string>() << "\n";
      std::cout << "precisions (--precision):\n";
      for (const auto& p : d["precisions"])
        std::cout << "  " << p["name"].get<std::string>() << ": " << p["description"].get<std::string>() << "\n";
      return 0;
    });
  };
}

}  // namespace femc::cli
