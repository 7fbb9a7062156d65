#pragma once
// The precision table's types (scalar/precisions.hpp) as a GoogleTest type
// list, for the typed tests that run at every floating type: a type added
// to the table is tested without an edit here.
#include <gtest/gtest.h>

#include "femc/scalar/visit_precision.hpp"

namespace femc::test {

template <class... T>
struct TypeList {};
template <class L>
struct TailOf;
template <class First, class... Rest>
struct TailOf<TypeList<First, Rest...>> {
  using type = ::testing::Types<Rest...>;
};

// Each floating row adds ", Type"; the leading void is dropped.
#define FEMC_FLOATING_TYPE(Type, tag, header, spelling, kind, models, bits, what) FEMC_IF_FLOATING_##kind(, Type)
using FloatingTypes = typename TailOf<TypeList<void FEMC_PRECISIONS(FEMC_FLOATING_TYPE)>>::type;
#undef FEMC_FLOATING_TYPE

}  // namespace femc::test
