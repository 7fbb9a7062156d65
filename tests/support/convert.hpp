#pragma once
// The tests read exact data as the claims do (femc/verify/exact_data.hpp).
#include "femc/verify/exact_data.hpp"

namespace femc::test {
using prop::as_double;
using prop::Conditioning;
using prop::conditioning;
using prop::convert;
using prop::exact_rank;
using prop::kappa_of_rank;
using prop::to_double;
}  // namespace femc::test
