#include "support/registration.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <optional>

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

// One test of claim p for solver r at S, if r runs at S.
template <class S>
void register_at(const ClaimProperty& p, const RegisteredSolver& r, const char* precision, const std::string& skip,
                 long mpfr_bits = 0) {
  if (!r.runs_at<S>()) return;
  const std::string name = r.name() + "." + precision;
  std::string reason = skip;
  if (reason.empty() && !p.at<S>()) reason = "the check takes square roots, which exact arithmetic has not";
  if (!reason.empty()) {
    register_test(p.suite, name, [reason] { GTEST_SKIP() << "not applicable: " << reason; });
    return;
  }
  const ClaimProperty* claim = &p;
  const RegisteredSolver* solver = &r;
  register_test(p.suite, name, [claim, solver, mpfr_bits] {
    std::optional<MpfrPrecision> bits;
    if (mpfr_bits) bits.emplace(mpfr_bits);
    rc::detail::checkGTest([&] { claim->at<S>()(registered_solver<S>(*solver)); });
  });
}

}  // namespace

void register_properties(const std::vector<std::string>& only) {
  for (const RegisteredSolver& r : solvers().all()) {
    if (!only.empty() && std::find(only.begin(), only.end(), r.name()) == only.end()) continue;
    const bool is_cod = r.method() == Method::Cod;
    for (const ClaimProperty& p : claim_properties()) {
      // Not a claim about this solver at all: not listed.
      if ((p.needs.decomposition_fact && !is_cod) || (p.needs.refusal && r.capabilities().rank_deficient)) continue;
      const std::string skip = not_applicable(p.needs, r.capabilities(), is_cod);
      register_at<double>(p, r, "double", skip);
      register_at<float128>(p, r, "float128", skip);
      register_at<mpfr_real>(p, r, "mpfr256", skip, 256);
      register_at<rational>(p, r, "exact", skip);
    }
  }
}

}  // namespace femc::prop
