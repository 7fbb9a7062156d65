// Reading systems from JSON: numbers keep their text (read at the working
// precision later), and every malformed document is an InputError naming
// the field.
#include <gtest/gtest.h>

#include "femc/io/json_system.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"

namespace femc {
namespace {

const char* kGood = R"({"M": [[2, 0.5], [0.5, 1]], "A": [[1, "1/3"]], "b": [0.1], "Q": ["1e-3", 2]})";

TEST(JsonSystem, JsonNumbersAreReadExactlyNotThroughDouble) {
  SystemText t = read_system_text(kGood);
  EXPECT_EQ(t.n, 2);
  EXPECT_EQ(t.m, 1);
  System<rational> s = to_system<rational>(t);
  EXPECT_EQ(s.b(0), rational(1) / 10);  // the JSON number 0.1, exactly
  EXPECT_EQ(s.A(0, 1), rational(1) / 3);
  EXPECT_EQ(s.Q(0), rational(1) / 1000);
  EXPECT_TRUE(s.C.isZero());
  EXPECT_TRUE(is_identity(s.W));
}

TEST(JsonSystem, NoConstraints) {
  SystemText t = read_system_text(R"({"M": [[1]], "A": [], "b": [], "Q": [1]})");
  EXPECT_EQ(t.m, 0);
  System<double> s = to_system<double>(t);
  EXPECT_EQ(s.A.rows(), 0);
  EXPECT_EQ(s.A.cols(), 1);
}

void expect_field(const std::string& doc, const std::string& field, const std::string& fragment = "") {
  try {
    to_system<double>(read_system_text(doc));
    FAIL() << "accepted: " << doc;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(JsonSystem, BadDocumentsNameTheField) {
  expect_field("{", "document", "malformed");
  expect_field("[1, 2]", "document", "object");
  expect_field(R"({"A": [], "b": [], "Q": [1]})", "M", "missing");
  expect_field(R"({"M": [[1]], "b": [], "Q": [1]})", "A", "missing");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": [1], "X": 1})", "X", "unknown key");
  expect_field(R"({"M": [[1]], "M": [[2]], "A": [], "b": [], "Q": [1]})", "M", "more than once");
  expect_field(R"({"M": [[1, 0], [0]], "A": [], "b": [], "Q": [1, 1]})", "M[1]", "expected 2 entries");
  expect_field(R"({"M": [[1]], "A": [[1, 2]], "b": [1], "Q": [1]})", "A[0]", "expected 1 entries");
  expect_field(R"({"M": [[1]], "A": [[1]], "b": [1, 2], "Q": [1]})", "b", "expected 1 entries");
  expect_field(R"({"M": [[1]], "A": [[1]], "b": [1], "Q": [1], "W": [[1, 0]]})", "W[0]");
  expect_field(R"({"M": [[1]], "A": [[1]], "b": [1], "Q": [1], "C": [1, 2]})", "C");
  expect_field(R"({"M": [["x"]], "A": [], "b": [], "Q": [1]})", "M[0][0]", "not a decimal");
  expect_field(R"({"M": [[true]], "A": [], "b": [], "Q": [1]})", "M[0][0]", "boolean");
  expect_field(R"({"M": [[null]], "A": [], "b": [], "Q": [1]})", "M[0][0]", "null");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": ["nan"]})", "Q[0]", "not a decimal");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": ["1e999"]})", "Q[0]", "overflows double");
  // A JSON number beyond double's range is valid JSON: read from its text
  // like any other, and named where it does not fit the working precision.
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": [1e999]})", "Q[0]", "overflows double");
  expect_field(R"({"M": 5, "A": [], "b": [], "Q": [1]})", "M", "array");
  expect_field(R"({"M": [], "A": [], "b": [], "Q": []})", "M", "n ≥ 1");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": [[1]]})", "Q[0]", "array");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": [1], "name": 3})", "name", "string");
  expect_field(R"({"M": [[[[[[[[[[1]]]]]]]]]], "A": [], "b": [], "Q": [1]})", "document", "nested deeper");
}

// A matrix may be given sparse: the same system as its dense form, dense
// or sparse, at any precision; bad sparse matrices name the entry.
TEST(JsonSystem, SparseMatricesAreTheDenseOnes) {
  const SystemText dense = read_system_text(
      R"({"M": [[2, 0.5], [0.5, 1]], "A": [[1, "1/3"], [0, 4]], "b": [0.1, 1], "Q": ["1e-3", 2], "W": [[3, 0], [0, 1]]})");
  const SystemText sparse = read_system_text(R"({"M": {"rows": 2, "cols": 2, "entries": [[0, 0, 2], [1, 0, 0.5], [0, 1, 0.5], [1, 1, 1]]},
      "A": {"rows": 2, "cols": 2, "entries": [[0, 0, 1], [0, 1, "1/3"], [1, 1, 4]]}, "b": [0.1, 1], "Q": ["1e-3", 2],
      "W": {"rows": 2, "cols": 2, "entries": [[0, 0, 3], [1, 1, 1]]}})");
  EXPECT_FALSE(dense.sparse());
  EXPECT_TRUE(sparse.sparse());
  const System<rational> a = to_system<rational>(dense), b = to_system<rational>(sparse);
  EXPECT_EQ(a.M, b.M);
  EXPECT_EQ(a.A, b.A);
  EXPECT_EQ(a.W, b.W);
  const SparseSystem<rational> c = to_sparse_system<rational>(sparse), d = to_sparse_system<rational>(dense);
  EXPECT_EQ(Matrix<rational>(c.A), a.A);
  EXPECT_EQ(Matrix<rational>(d.M), a.M);
  EXPECT_EQ(c.A.nonZeros(), 3);
  // A sparse system beyond a dense one's rows is read sparse only.
  std::string zeros = "0";
  for (int i = 1; i < 3000; ++i) zeros += ", 0";
  const std::string doc =
      R"({"M": {"rows": 3000, "cols": 3000, "entries": [[0, 0, 1]]}, "A": [], "b": [], "Q": [)" + zeros + "]}";
  EXPECT_EQ(read_system_text(doc).n, 3000);
  expect_field(doc, "method", "solved sparse");
}

TEST(JsonSystem, BadSparseMatricesNameTheEntry) {
  const std::string tail = R"(, "A": [], "b": [], "Q": [1, 1]})";
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[0, 0, 1], [0, 0, 2]]})" + tail, "M.entries[1]", "twice");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[2, 0, 1]]})" + tail, "M.entries[0]", "row 2 outside");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[0, 5, 1]]})" + tail, "M.entries[0]", "column 5 outside");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[0, 0]]})" + tail, "M.entries[0]", "[row, column, value]");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[-1, 0, 1]]})" + tail, "M.entries[0][0]", "non-negative");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[0.5, 0, 1]]})" + tail, "M.entries[0][0]", "non-negative");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [[0, 0, "x"]]})" + tail, "M.entries[0][2]", "not a decimal");
  expect_field(R"({"M": {"rows": 2, "cols": 3, "entries": []})" + tail, "M.cols", "square");
  expect_field(R"({"M": {"rows": 2, "entries": []})" + tail, "M.cols", "missing");
  expect_field(R"({"M": {"rows": 2, "cols": 2, "entries": [], "x": 1})" + tail, "M.x", "unknown key");
  expect_field(R"({"M": [[1]], "A": {"rows": 1, "cols": 2, "entries": []}, "b": [1], "Q": [1]})", "A.cols", "expected 1");
  expect_field(R"({"M": [[1]], "A": {"rows": 1, "cols": 1, "entries": []}, "b": [1], "Q": [1],
                  "W": {"rows": 2, "cols": 2, "entries": []}})", "W.rows", "expected 1");
}

// JSON numbers beyond double's range (nlohmann's lexer stops at them): read
// exactly from their text at MPFR and exact precisions, in their place among
// the other numbers, signs kept; strings that look like them untouched; the
// byte offsets of a later syntax error unchanged.
TEST(JsonSystem, NumbersBeyondDoubleAreReadAtHigherPrecision) {
  const SystemText t = read_system_text(
      R"({"M": [[2, -1e999], [-1e999, 3e400]], "A": [[1e-999, 2]], "b": ["1e999"], "Q": [1.5, 12e4000], "name": "1e999"})");
  EXPECT_EQ(t.M, (std::vector<std::string>{"2", "-1e999", "-1e999", "3e400"}));
  EXPECT_EQ(t.A, (std::vector<std::string>{"1e-999", "2"}));
  EXPECT_EQ(t.Q, (std::vector<std::string>{"1.5", "12e4000"}));
  MpfrPrecision bits(256);
  const System<mpfr_real> s = to_system<mpfr_real>(t);
  EXPECT_EQ(s.M(0, 1), -ScalarTraits<mpfr_real>::parse("1e999"));
  EXPECT_EQ(s.Q(1), ScalarTraits<mpfr_real>::parse("1.2e4001"));
  EXPECT_EQ(to_system<rational>(t).A(0, 0), ScalarTraits<rational>::parse("1e-999"));
  auto error_of = [](const std::string& doc) {
    try {
      read_system_text(doc);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string big = error_of(R"({"M": [[1e999]], "A": [], "b": [], "Q": [1], })");
  EXPECT_NE(big.find("malformed JSON at byte"), std::string::npos) << big;
  EXPECT_EQ(big, error_of(R"({"M": [[12345]], "A": [], "b": [], "Q": [1], })"));
}

// The data's precision (data_precision.hpp): an optional key, checked where
// it is read; and whether every number could be a double written to
// round-trip (at most 17 significant digits, double's exponent range).
TEST(JsonSystem, DataPrecisionKeyAndNumbersThatCouldBeDoubles) {
  SystemText t = read_system_text(R"({"M": [[1]], "A": [], "b": [], "Q": [1], "data_precision": "double"})");
  EXPECT_EQ(t.data_precision, "double");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": [1], "data_precision": "single"})", "data_precision",
               "unknown data precision");
  expect_field(R"({"M": [[1]], "A": [], "b": [], "Q": [1], "data_precision": 53})", "data_precision", "string");
  EXPECT_TRUE(read_system_text(R"({"M": [[2]], "A": [], "b": [], "Q": [0.1]})").every_number_could_be_double);
  EXPECT_FALSE(read_system_text(kGood).every_number_could_be_double);  // "1/3"
  for (const char* yes : {"0", "-0.0", "0.1", "1.2345678901234567", "-9.8765432109876543e-300", "1e308", "4.9e-324",
                          "123456789012345670000", ".5", "17"})
    EXPECT_TRUE(could_be_double(yes)) << yes;
  for (const char* no : {"1/3", "1.23456789012345678", "1e309", "1e-325", "0.000123456789012345678",
                         "1234567890123456789"})
    EXPECT_FALSE(could_be_double(no)) << no;
}

}  // namespace
}  // namespace femc
