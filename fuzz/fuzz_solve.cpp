// libFuzzer target: the JSON loader and the solve behind it, in double, by
// every method. Any input may be rejected (InputError) or refused by a
// method (MethodError); nothing may crash, hang, read out of bounds, or
// return a non-finite number without an error.
//
// Build and run: see fuzz/README.md (clang, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "femc/errors.hpp"
#include "femc/io/json_system.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/number_text.hpp"
#include "femc/solve.hpp"

namespace {

bool finite(const femc::Vector<double>& v) { return v.allFinite(); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  femc::SystemText st;
  try {
    st = femc::read_system_text(text);
  } catch (const femc::InputError&) {
    return 0;
  }
  // Keep each run fast: the fuzzer explores the reader and small systems.
  if (st.n > 12 || st.m > 12) return 0;
  femc::System<double> sys;
  try {
    sys = femc::to_system<double>(st);
  } catch (const femc::InputError&) {
    return 0;
  }
  // Each method at face value (data that could be doubles only warn) and
  // given the data's precision (the input's, else double): M, W judged and
  // perhaps symmetrized, rank decided above the data's rounding level.
  const femc::DataPrecision stated =
      st.data_precision.empty() ? femc::kDoubleData : femc::parse_data_precision(st.data_precision);
  for (int rounded = 0; rounded < 2; ++rounded) {
    for (const femc::MethodInfo& info : femc::methods()) {
      if (info.capabilities.arithmetic != femc::Arithmetic::Floating) continue;
      femc::Options<double> opt;
      opt.method = info.method;
      if (rounded) opt.data_precision = stated;
      else if (st.every_number_could_be_double) opt.suspected_data_precision = femc::kDoubleData;
      try {
        const femc::Solution<double> s = femc::solve(sys, opt);
        if (!finite(s.qdd) || !finite(s.QN) || !finite(s.QW) || !finite(s.Qc) || !finite(s.lambda)) std::abort();
      } catch (const femc::InputError&) {
      } catch (const femc::MethodError&) {
      }
    }
  }
  return 0;
}
