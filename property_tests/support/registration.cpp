#include "support/registration.hpp"

#include "femc/scalar/precisions.hpp"
#include "femc/scalar/visit_precision.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

namespace femc::prop {
namespace {

class PropertyTest : public testing::Test {
 public:
  explicit PropertyTest(std::function<void()> body) : body_(std::move(body)) {}
  void TestBody() override { body_(); }

 private:
  std::function<void()> body_;
};

void register_test(const std::string& suite, const std::string& name, std::function<void()> body) {
  testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                        [body]() -> testing::Test* { return new PropertyTest(body); });
}

// One test of claim p for solver r at S, if r runs at S and the claim
// applies (the ones that do not are listed by ClaimApplicability).
template <class S>
void register_at(const ClaimProperty& p, const RegisteredSolver& r, const std::string& precision, long mpfr_bits) {
  if (!r.runs_at<S>() || !not_applicable_at<S>(p, r.capabilities(), r.method() == Method::Cod).empty()) return;
  const ClaimProperty* claim = &p;
  const RegisteredSolver* solver = &r;
  register_test(p.suite, r.name() + "." + precision, [claim, solver, mpfr_bits] {
    std::optional<MpfrPrecision> bits;
    if (mpfr_bits) bits.emplace(mpfr_bits);
    // How close the passing cases came to the bounds (claims.hpp,
    // RatioRecord): printed, so that every run shows each check's slack.
    RatioRecord seen;
    rc::detail::checkGTest([&] {
      ratio_record().reset();
      claim->at<S>()(registered_solver<S>(*solver));
      const RatioRecord& r = ratio_record();
      seen.worst = std::max(seen.worst, r.worst);
      seen.finest_well = std::min(seen.finest_well, r.finest_well);
      if (r.ill_kappa > seen.ill_kappa) seen.ill_kappa = r.ill_kappa, seen.ill_relative = r.ill_relative;
    });
    // Its own stream: a claim may leave std::cout in fixed notation, which
    // printed a κ of 10¹²³ in 124 digits.
    std::ostringstream line;
    line.precision(3);
    auto value = [](double v) {
      std::ostringstream os;
      os.precision(3);
      if (std::isfinite(v)) os << v;
      else os << "— (no such case drawn)";
      return os.str();
    };
    line << "worst error ÷ bound " << seen.worst << " (slack " << (seen.worst > 0 ? 1 / seen.worst : 0)
         << "); detects relative errors above " << value(seen.finest_well) << " at κ ≈ 1 and "
         << value(seen.ill_relative) << " at κ(B)·κ(M) = " << value(seen.ill_kappa) << "\n";
    std::cout << line.str();
  });
}

// The claims that do not apply to r at S, as "G10_DependentConstraints (why)".
template <class S>
std::vector<std::string> not_applicable_to(const RegisteredSolver& r) {
  std::vector<std::string> out;
  if (!r.runs_at<S>()) return out;
  for (const ClaimProperty& p : claim_properties()) {
    const std::string why = not_applicable_at<S>(p, r.capabilities(), r.method() == Method::Cod);
    if (!why.empty()) out.push_back(p.suite + " (" + why + ")");
  }
  return out;
}

// Calls f(PrecisionTag<S>{}, test_name, mpfr_bits) for each type S of the
// precision table (scalar/precisions.hpp) the claims run at (kClaimsRunAt).
// A test's precision is spelled as the table spells it, but MPFR's, which
// the table names by its bits: "mpfr256", the claims' kClaimsMpfrBits (not
// "mpfr-256", since a gtest filter reads '-' as a negation).
template <class F>
void for_each_claim_precision(F&& f) {
  const auto at = [&](auto tag, const char* spelling) {
    using S = typename decltype(tag)::type;
    if constexpr (kClaimsRunAt<S>) {
      if constexpr (std::is_same_v<S, mpfr_real>)
        f(tag, "mpfr" + std::to_string(kClaimsMpfrBits), kClaimsMpfrBits);
      else
        f(tag, std::string(spelling), 0L);
    }
  };
#define FEMC_CLAIM_PRECISION(Type, tag, header, spelling, kind, models, bits, what) at(PrecisionTag<Type>{}, spelling);
  FEMC_PRECISIONS(FEMC_CLAIM_PRECISION)
#undef FEMC_CLAIM_PRECISION
}

}  // namespace

std::vector<std::string> not_applicable_claims(const RegisteredSolver& r) {
  std::vector<std::string> out;
  for_each_claim_precision([&](auto tag, const std::string&, long) {
    for (const std::string& s : not_applicable_to<typename decltype(tag)::type>(r))
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  });
  return out;
}

void register_properties(const std::vector<std::string>& only) {
  for (const RegisteredSolver& r : solvers().all()) {
    if (!only.empty() && std::find(only.begin(), only.end(), r.name()) == only.end()) continue;
    for (const ClaimProperty& p : claim_properties())
      for_each_claim_precision([&](auto tag, const std::string& name, long mpfr_bits) {
        register_at<typename decltype(tag)::type>(p, r, name, mpfr_bits);
      });
  }
}

}  // namespace femc::prop
