// Which claims do not run for femc's own methods, and why: the restriction by
// capabilities must not drop a claim it should run. A change to a method's
// line in methods/list.hpp or to a claim's needs shows up here.
#include <gtest/gtest.h>

#include <map>
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
  // E3, G7, G8 are facts of cod's decomposition; RankDeficientRefused is for
  // solvers that refuse rank-deficient A; kkt refuses them, so G10 (a
  // duplicated row) does not apply; G6's check takes square roots.
  const std::set<std::string> decomposition = {"E3_MoorePenroseFacts", "G7_Lemma1", "G8_Lemma2Greville"};
  auto with = [](std::set<std::string> s, std::initializer_list<const char*> more) {
    s.insert(more.begin(), more.end());
    return s;
  };
  const std::map<std::string, std::set<std::string>> expected = {
      {"cod", {"RankDeficientRefused"}},
      {"literal", with(decomposition, {"RankDeficientRefused"})},
      {"nullspace", with(decomposition, {"RankDeficientRefused"})},
      {"sparse", with(decomposition, {"RankDeficientRefused"})},
      {"kkt", with(decomposition, {"G10_DependentConstraints"})},
      {"exact", with(decomposition, {"RankDeficientRefused", "G6_Proof2MinimumNormSolution"})}};
  for (const auto& [name, skipped] : expected) {
    const std::vector<std::string> got = not_applicable_claims(solvers().get(name));
    EXPECT_EQ(suites(got), skipped) << name;
    for (const std::string& s : got) std::cout << name << ": not " << s << "\n";
  }
  EXPECT_EQ(expected.size(), methods().size()) << "a method without its expected exceptions";
}

}  // namespace
}  // namespace femc::prop
