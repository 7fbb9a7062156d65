#pragma once
// Registers one claim's property at double, binary128 and 256-bit MPFR, as
// ctest tests named <ClaimID>.<precision> under the label `property`.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "support/claim_checks.hpp"

#define FEMC_CLAIM_PROPERTY(TestName, check)                                                          \
  RC_GTEST_PROP(TestName, double, ()) { check<double>(::femc::prop::femc_solver<double>()); }         \
  RC_GTEST_PROP(TestName, float128, ()) { check<::femc::float128>(::femc::prop::femc_solver<::femc::float128>()); } \
  RC_GTEST_PROP(TestName, mpfr256, ()) {                                                              \
    ::femc::MpfrPrecision bits(256);                                                                  \
    check<::femc::mpfr_real>(::femc::prop::femc_solver<::femc::mpfr_real>());                         \
  }
