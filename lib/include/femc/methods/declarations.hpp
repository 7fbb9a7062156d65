#pragma once
// solve_<name>() of every method of methods/list.hpp, declared from the list
// (each method's own header states its problem and algorithm; its .hxx holds
// the body, instantiated in src/ for the scalar types of its arithmetic).
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

#define FEMC_DECLARE_METHOD(name, ...) \
  template <class S>                   \
  Solution<S> solve_##name(const System<S>& sys, const Options<S>& opt);
FEMC_METHODS(FEMC_DECLARE_METHOD)
#undef FEMC_DECLARE_METHOD

}  // namespace femc
