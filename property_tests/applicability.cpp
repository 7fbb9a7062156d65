// Which claims do not run for femc's own methods, and why: the restriction by
// capabilities must not drop a claim it should run. A change to a method's
// line in methods/list.hpp or to a claim's needs shows up here.
#include <gtest/gtest.h>

#include <set>

#include "support/registration.hpp"

namespace femc::prop {
namespace {

std::set<std::string> suites(const std::vector<std::string>& with_reasons) {
  std::set<std::string> out;
  for (const std::string& s : with_reasons) out.insert(s.substr(0, s.find(' ')));
  return out;
}

TEST(ClaimApplicability, FemcsMethodsRunEveryClaimButTheDeclaredExceptions) {
  // The rule, from each method's line of methods/list.hpp: E3, G7, G8 are
  // facts of cod's decomposition; RankDeficientRefused is for solvers that
  // refuse rank-deficient A, and a solver that refuses them skips G10 (a
  // duplicated row) instead; G6's check takes square roots, which exact
  // arithmetic has not. A change to a claim's needs, or to how capabilities
  // restrict the claims, shows up here for every method, a new one included.
  const std::set<std::string> decomposition = {"E3_MoorePenroseFacts", "G7_Lemma1", "G8_Lemma2Greville"};
  for (const MethodInfo& info : methods()) {
    std::set<std::string> expected;
    if (info.method != Method::Cod) expected = decomposition;
    expected.insert(info.capabilities.rank_deficient ? "RankDeficientRefused" : "G10_DependentConstraints");
    if (info.capabilities.arithmetic == Arithmetic::Exact) expected.insert("G6_Proof2MinimumNormSolution");
    const std::vector<std::string> got = not_applicable_claims(solvers().get(info.name));
    EXPECT_EQ(suites(got), expected) << info.name;
    for (const std::string& s : got) std::cout << info.name << ": not " << s << "\n";
  }
}

}  // namespace
}  // namespace femc::prop
