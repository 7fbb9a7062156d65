#pragma once
// The solver registry: every solver femc can run and check, by name, with
// what it declares it can do (capabilities.hpp) and a solve function per
// scalar type it runs at.
//
// femc's own methods (methods/list.hpp) are registered first, each at every
// scalar type of its arithmetic. A program (a test, a downstream project,
// `femc verify` for a process) adds its own before it runs anything:
//
//   femc::RegisteredSolver mine("mine", "my research code", caps);
//   mine.at<double>([](const femc::System<double>& sys, const femc::Options<double>&) { … });
//   femc::solvers().add(std::move(mine));
//
// The properties, the studies and the gate iterate over solvers(): a solver
// added here is checked by them without editing them. The registry is
// filled at start-up and read afterwards; it is not guarded for concurrent
// additions.
#include <any>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <typeindex>

#include "femc/errors.hpp"
#include "femc/options.hpp"
#include "femc/scalar/traits.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
using SolveFunction = std::function<Solution<S>(const System<S>&, const Options<S>&)>;

class RegisteredSolver {
 public:
  RegisteredSolver(std::string name, std::string description, Capabilities capabilities)
      : name_(std::move(name)), description_(std::move(description)), capabilities_(std::move(capabilities)) {}

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const Capabilities& capabilities() const { return capabilities_; }
  // femc's method, for femc's own solvers.
  const std::optional<Method>& method() const { return method_; }
  RegisteredSolver& as_method(Method m) {
    method_ = m;
    return *this;
  }

  // Declares the solver at scalar type S.
  template <class S>
  RegisteredSolver& at(SolveFunction<S> f) {
    functions_[std::type_index(typeid(S))] = std::move(f);
    return *this;
  }
  template <class S>
  bool runs_at() const {
    return functions_.count(std::type_index(typeid(S))) > 0;
  }
  // Solves at S; throws InputError("precision", …) if it does not run at S.
  template <class S>
  Solution<S> solve(const System<S>& sys, const Options<S>& opt = {}) const {
    const auto it = functions_.find(std::type_index(typeid(S)));
    if (it == functions_.end())
      throw InputError("precision", "solver '" + name_ + "' does not run at " + ScalarTraits<S>::name());
    return std::any_cast<const SolveFunction<S>&>(it->second)(sys, opt);
  }

 private:
  std::string name_, description_;
  Capabilities capabilities_;
  std::optional<Method> method_;
  std::map<std::type_index, std::any> functions_;
};

class SolverRegistry {
 public:
  // Adds a solver; throws InputError("solver", …) when the name is empty,
  // has characters other than [A-Za-z0-9_-], or is taken.
  RegisteredSolver& add(RegisteredSolver solver);
  // In order of registration: femc's methods first.
  const std::deque<RegisteredSolver>& all() const { return solvers_; }
  const RegisteredSolver* find(const std::string& name) const;
  RegisteredSolver* find(const std::string& name);
  // Throws InputError("solver", …) naming the registered solvers.
  const RegisteredSolver& get(const std::string& name) const;
  // The same, to change: a program that wraps a registered solver (a test
  // that makes one worse on purpose and sees the gate catch it).
  RegisteredSolver& edit(const std::string& name);
  std::string names() const;

 private:
  std::deque<RegisteredSolver> solvers_;  // a deque: add() keeps references valid
};

// Why a solver with these capabilities does not take this system ("C ≠ 0,
// which the solver does not take"); empty when it does. Rank is not judged
// here: a solver that refuses rank-deficient A is given them to refuse.
template <class S>
std::string not_accepted(const Capabilities& caps, const System<S>& sys) {
  if (!caps.working_forces && !sys.C.isZero()) return "C ≠ 0, which the solver does not take";
  if (!caps.weighted && sys.m() > 0 && !sys.W.isIdentity(S(0))) return "W ≠ I, which the solver does not take";
  return "";
}

// The program's registry, with femc's methods registered on first use.
SolverRegistry& solvers();

}  // namespace femc
