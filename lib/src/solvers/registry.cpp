#include "femc/solvers/registry.hpp"

#include <cctype>
#include <cstdio>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/precisions.hpp"
#include "femc/scalar/qd.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solve.hpp"

namespace femc {
namespace {

template <class S>
void add_method_at(RegisteredSolver& r, Method m) {
  r.at<S>([m](const System<S>& sys, const Options<S>& opt) {
    Options<S> o = opt;
    o.method = m;
    return solve(sys, o);
  });
}

RegisteredSolver method_solver(const MethodInfo& info) {
  RegisteredSolver r(info.name, info.description, info.capabilities);
  r.as_method(info.method);
#define FEMC_ADD_METHOD_AT(Type, tag, header, spelling, kind, models, bits, what) \
  if (info.capabilities.arithmetic == Arithmetic::kind) add_method_at<Type>(r, info.method);
  FEMC_PRECISIONS(FEMC_ADD_METHOD_AT)
#undef FEMC_ADD_METHOD_AT
  return r;
}

bool valid_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

}  // namespace

RegisteredSolver& SolverRegistry::add(RegisteredSolver solver) {
  if (!valid_name(solver.name()))
    throw InputError("solver", "name '" + solver.name().substr(0, 64) + "' is not 1 to 64 of [A-Za-z0-9_-]");
  if (find(solver.name())) throw InputError("solver", "name '" + solver.name() + "' is registered already");
  solvers_.push_back(std::move(solver));
  return solvers_.back();
}

const RegisteredSolver* SolverRegistry::find(const std::string& name) const {
  for (const RegisteredSolver& s : solvers_)
    if (s.name() == name) return &s;
  return nullptr;
}

RegisteredSolver* SolverRegistry::find(const std::string& name) {
  for (RegisteredSolver& s : solvers_)
    if (s.name() == name) return &s;
  return nullptr;
}

RegisteredSolver& SolverRegistry::edit(const std::string& name) {
  if (RegisteredSolver* s = find(name)) return *s;
  throw InputError("solver", "unknown solver '" + name.substr(0, 64) + "' (" + names() + ")");
}

const RegisteredSolver& SolverRegistry::get(const std::string& name) const {
  if (const RegisteredSolver* s = find(name)) return *s;
  throw InputError("solver", "unknown solver '" + name.substr(0, 64) + "' (" + names() + ")");
}

std::string SolverRegistry::names() const {
  std::string s;
  for (const RegisteredSolver& r : solvers_) s += (s.empty() ? "" : ", ") + r.name();
  return s;
}

std::string describe_outputs(unsigned bits) {
  static const std::pair<unsigned, const char*> names[] = {
      {outputs::qdd, "q̈"},      {outputs::constraint_force, "Qᶜ"}, {outputs::QN, "Qᴺ"},   {outputs::QW, "Qᵂ"},
      {outputs::lambda, "λ"}, {outputs::Gg_min, "G_g"},             {outputs::delta, "‖δ‖²"},
      {outputs::rank, "rank"}};
  std::string s;
  for (const auto& [bit, name] : names)
    if (bits & bit) s += (s.empty() ? "" : ", ") + std::string(name);
  return s.empty() ? "nothing" : s;
}

std::string describe_systems(const Capabilities& c) {
  return std::string(c.rank_deficient ? "any rank" : "full row rank") + (c.weighted ? ", W" : ", W = I") +
         (c.working_forces ? ", C" : ", C = 0");
}

std::string describe_error_model(const Capabilities& c) {
  std::string s = std::string("forward error u·(κ(B)") + (c.error_growth == 2 ? "²" : "") + " + κ(M))";
  if (c.error_growth == 2 || c.residual_mass_power == 1)
    s += std::string(", residual ×") + (c.error_growth == 2 ? "κ(B)" : "") +
         (c.error_growth == 2 && c.residual_mass_power == 1 ? "·" : "") + (c.residual_mass_power == 1 ? "κ(M)" : "");
  if (c.rank_tol > 0) {
    char tol[32];
    std::snprintf(tol, sizeof tol, "%.3g", c.rank_tol);
    s += std::string(", rank tolerance τ = ") + tol + " declared";
  }
  return s;
}

SolverRegistry& solvers() {
  static SolverRegistry registry = [] {
    SolverRegistry r;
    for (const MethodInfo& info : methods()) r.add(method_solver(info));
    return r;
  }();
  return registry;
}

}  // namespace femc
