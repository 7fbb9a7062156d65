// The forward law has one text (femc/verify/error_law.hpp: the reports print
// kForwardLawText); the docs that state it quote its formula verbatim, so
// that a change to the law cannot leave them stating another one.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "femc/verify/error_law.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(LawText, TheDocsQuoteTheForwardLawsFormula) {
  const std::string formula = femc::verify::kForwardLawFormula;
  EXPECT_EQ(std::string(femc::verify::kForwardLawText).rfind(formula, 0), 0u) << "the reports' text starts with it";
  for (const char* doc : {"docs/verify.md", "verify/PROTOCOL.md"})
    EXPECT_NE(read(std::string(FEMC_SOURCE_DIR) + "/" + doc).find(formula), std::string::npos)
        << doc << " does not quote the forward law's formula of error_law.hpp:\n  " << formula;
}

// The check can fail: the formula without its ω_M is not in either doc's
// text of the law.
TEST(LawText, AFormulaTheDocsDoNotStateIsNotFound) {
  std::string wrong = femc::verify::kForwardLawFormula;
  const std::string omega = "·ω_M";
  wrong.erase(wrong.find(omega), omega.size());
  for (const char* doc : {"docs/verify.md", "verify/PROTOCOL.md"})
    EXPECT_EQ(read(std::string(FEMC_SOURCE_DIR) + "/" + doc).find(wrong), std::string::npos) << doc;
}

}  // namespace
