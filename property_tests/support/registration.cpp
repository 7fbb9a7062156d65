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

// A solver that declares it refuses rank-deficient A must throw MethodError
// on every such draw (built exactly, then rounded to S): never a result.
template <class S>
void refuses_rank_deficient(const Solver<S>& solver) {
  Spec spec;
  spec.rank_deficient_only = true;
  const Case c = draw_case(spec);
  RC_LOG() << c.describe() << "\n";
  const System<S> sys = convert<S>(c.sys);
  try {
    (void)solver(sys);
  } catch (const MethodError&) {
    return;
  }
  RC_FAIL("rank-deficient A (rank " + std::to_string(c.rank) + " < m = " + std::to_string(c.sys.m()) +
          ") was not refused with MethodError");
}

// Registers one test per precision the solver runs at and `run` is given for.
template <class S>
void register_at(const std::string& suite, const RegisteredSolver& r, const char* precision,
                 const std::function<void(const Solver<S>&)>& run, const std::string& skip_reason, int mpfr_bits = 0) {
  if (!r.runs_at<S>()) return;
  const std::string name = r.name() + "." + precision;
  std::string reason = skip_reason;
  if (reason.empty() && !run) reason = "the check takes square roots, which exact arithmetic has not";
  if (!reason.empty()) {
    register_test(suite, name, [reason] { GTEST_SKIP() << "not applicable: " << reason; });
    return;
  }
  const RegisteredSolver* solver = &r;
  register_test(suite, name, [solver, run, mpfr_bits] {
    std::optional<MpfrPrecision> bits;
    if (mpfr_bits) bits.emplace(mpfr_bits);
    rc::detail::checkGTest([&] { run(registered_solver<S>(*solver)); });
  });
}

template <class Fn>
void register_all_precisions(const std::string& suite, const RegisteredSolver& r, const std::string& reason,
                             const Fn& at) {
  register_at<double>(suite, r, "double", at(double{}), reason);
  register_at<float128>(suite, r, "float128", at(float128{}), reason);
  register_at<mpfr_real>(suite, r, "mpfr256", at(mpfr_real{}), reason, 256);
  register_at<rational>(suite, r, "exact", at(rational{}), reason);
}

}  // namespace

std::string not_applicable(const ClaimNeeds& needs, const RegisteredSolver& solver) {
  const Capabilities& c = solver.capabilities();
  if (!c.returns(needs.outputs))
    return "the claim reads " + describe_outputs(needs.outputs) + "; the solver returns " + describe_outputs(c.outputs);
  if (needs.rank_deficient && !c.rank_deficient) return "the claim is about rank-deficient A, which the solver refuses";
  if (needs.weighted && !c.weighted) return "the claim is about W, which the solver does not take";
  if (needs.working_forces && !c.working_forces) return "the claim is about C, which the solver does not take";
  return "";
}

std::vector<ClaimProperty>& claim_properties() {
  static std::vector<ClaimProperty> list;
  return list;
}

bool add_claim_property(ClaimProperty p) {
  claim_properties().push_back(std::move(p));
  return true;
}

void register_properties(const std::vector<std::string>& only) {
  for (const RegisteredSolver& r : solvers().all()) {
    if (!only.empty() && std::find(only.begin(), only.end(), r.name()) == only.end()) continue;
    for (const ClaimProperty& p : claim_properties()) {
      if (p.needs.decomposition_fact && r.method() != Method::Cod) continue;
      register_all_precisions(p.suite, r, not_applicable(p.needs, r), [&p](auto tag) {
        using S = decltype(tag);
        if constexpr (std::is_same_v<S, double>) return p.at_double;
        else if constexpr (std::is_same_v<S, float128>) return p.at_float128;
        else if constexpr (std::is_same_v<S, mpfr_real>) return p.at_mpfr;
        else return p.at_exact;
      });
    }
    if (!r.capabilities().rank_deficient) {
      register_all_precisions("RankDeficientRefused", r, "", [](auto tag) {
        using S = decltype(tag);
        return std::function<void(const Solver<S>&)>(refuses_rank_deficient<S>);
      });
    }
  }
}

}  // namespace femc::prop
