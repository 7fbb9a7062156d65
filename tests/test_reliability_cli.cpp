// The bad-input catalogue of `femc solve` (label `reliability`). For every
// case: exit status 2, exactly one line on stderr that names the field,
// nothing on stdout, no output file created, and an existing output file
// left untouched (neither truncated nor replaced).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class BadInput : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() / ("femc_reliability_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string file(const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }

  Outcome run(const std::string& args) {
    const std::string cmd = std::string(FEMC_CLI) + " solve " + args + " >" + (dir / "stdout").string() + " 2>" +
                            (dir / "stderr").string() + " </dev/null";
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
  }

  // Runs `args` twice: with -o naming a new file, then an existing one.
  void expect_rejected(const std::string& args, const std::string& field, bool own_output = false) {
    SCOPED_TRACE(args);
    const fs::path fresh = dir / "fresh.json", existing = dir / "existing.json";
    for (int pass = 0; pass < (own_output ? 1 : 2); ++pass) {
      std::ofstream(existing) << "sentinel";
      const std::string out = own_output ? "" : (pass == 0 ? " -o " + fresh.string() : " -o " + existing.string());
      const Outcome o = run(args + out);
      EXPECT_EQ(o.status, 2) << o.err;
      EXPECT_TRUE(o.out.empty()) << o.out;
      EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
      EXPECT_EQ(o.err.rfind("femc: ", 0), 0u) << o.err;
      EXPECT_NE(o.err.find(field), std::string::npos) << "field '" << field << "' not named in: " << o.err;
      EXPECT_FALSE(fs::exists(fresh));
      EXPECT_EQ(slurp(existing), "sentinel");
      for (const auto& entry : fs::directory_iterator(dir))  // no temporary left behind
        EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
    }
  }

  // A valid base document with one key replaced (or removed when value is empty).
  std::string doc_with(const std::string& key, const std::string& value) {
    std::vector<std::pair<std::string, std::string>> kv = {
        {"M", "[[2, 1], [1, 2]]"}, {"A", "[[1, 1]]"}, {"b", "[1]"}, {"Q", "[0, -1]"}, {"C", "[0, 0]"}, {"W", "[[1]]"}};
    std::string s = "{";
    bool first = true;
    for (auto& [k, v] : kv) {
      std::string val = k == key ? value : v;
      if (val.empty()) continue;
      s += (first ? "" : ", ") + ("\"" + k + "\": ") + val;
      first = false;
    }
    return s + "}";
  }
  std::string with(const std::string& key, const std::string& value) {
    return file("case.json", doc_with(key, value));
  }
};

TEST_F(BadInput, MalformedDocuments) {
  expect_rejected(file("a.json", ""), "document");
  expect_rejected(file("b.json", "{\"M\": [[1, 2], [3"), "document");
  expect_rejected(file("c.json", "{} trailing"), "document");
  expect_rejected(file("d.json", "[1, 2, 3]"), "document");
  expect_rejected(file("e.json", "\"just a string\""), "document");
  expect_rejected(file("f.json", "{\"M\": [[\"\xff\xfe\"]]}"), "document");  // invalid UTF-8
  expect_rejected(file("g.json", "{\"M\": [[1]],}"), "document");
  expect_rejected(file("h.json", "{\"M\": [[NaN]], \"A\": [], \"b\": [], \"Q\": [1]}"), "document");
}

TEST_F(BadInput, MissingAndUnknownKeys) {
  for (const char* k : {"M", "A", "b", "Q"}) expect_rejected(with(k, ""), k);
  expect_rejected(file("u.json", doc_with("", "") .substr(0, doc_with("", "").size() - 1) + ", \"w\": [[1]]}"), "w");
  expect_rejected(file("v.json", "{\"M\": [[1]], \"M\": [[1]], \"A\": [], \"b\": [], \"Q\": [1]}"), "M");
}

TEST_F(BadInput, WrongTypes) {
  expect_rejected(with("M", "5"), "M");
  expect_rejected(with("M", "\"[[2, 1], [1, 2]]\""), "M");
  expect_rejected(with("M", "{\"a\": 1}"), "M");
  expect_rejected(with("A", "[{\"x\": 1}]"), "A[0]");
  expect_rejected(with("b", "\"1\""), "b");
  expect_rejected(with("Q", "[true, 1]"), "Q[0]");
  expect_rejected(with("Q", "[null, 1]"), "Q[0]");
  expect_rejected(with("Q", "[[0], 1]"), "Q[0]");
  expect_rejected(with("C", "{\"0\": 1}"), "C");
  expect_rejected(with("W", "7"), "W");
  expect_rejected(file("n.json", doc_with("", "").substr(0, doc_with("", "").size() - 1) + ", \"name\": 5}"), "name");
}

TEST_F(BadInput, NonNumericStrings) {
  for (const char* s : {"\"abc\"", "\"1,5\"", "\"0x10\"", "\"NaN\"", "\"Infinity\"", "\"\"", "\" 1\"", "\"1/0\"", "\"--1\""})
    expect_rejected(with("Q", std::string("[") + s + ", 0]"), "Q[0]");
}

TEST_F(BadInput, RowsOfUnequalLength) {
  expect_rejected(with("M", "[[2, 1], [1]]"), "M[1]");
  expect_rejected(with("A", "[[1, 1], [1]]"), "A[1]");
  expect_rejected(with("W", "[[1, 0], [0]]"), "W");
}

TEST_F(BadInput, ShapeMismatchesBetweenEveryPair) {
  expect_rejected(with("M", "[[2, 1, 0], [1, 2, 0]]"), "M");        // M not square
  expect_rejected(with("A", "[[1, 1, 1]]"), "A[0]");                // A vs M: columns ≠ n
  expect_rejected(with("b", "[1, 2]"), "b");                        // b vs A: ≠ m
  expect_rejected(with("Q", "[0, -1, 3]"), "Q");                    // Q vs M
  expect_rejected(with("C", "[0]"), "C");                           // C vs M
  expect_rejected(with("W", "[[1, 0], [0, 1]]"), "W");              // W vs A: ≠ m×m
  expect_rejected(with("W", "[[1, 0]]"), "W[0]");                   // W not square
  expect_rejected(with("A", "[]"), "b");                            // m = 0 but b has an entry
}

TEST_F(BadInput, NonFiniteAndOverflowingNumbers) {
  expect_rejected(with("Q", "[\"1e999\", 0]"), "Q[0]");
  expect_rejected(with("Q", "[1e999, 0]"), "Q[0]");  // valid JSON beyond double: named where it does not fit
  expect_rejected(with("M", "[[\"-1e400\", 1], [1, 2]]"), "M[0][0]");
  expect_rejected(with("b", "[\"1e999999999\"]"), "b[0]");  // exponent beyond the reader's range
  expect_rejected(with("Q", "[\"1e5000\", 0]") + " --precision float128", "Q[0]");  // beyond binary128 (≈1.2e4932)
}

TEST_F(BadInput, NotSymmetricNotPositiveDefiniteSingular) {
  expect_rejected(with("M", "[[2, 1], [0.5, 2]]"), "M");
  expect_rejected(with("M", "[[1, 2], [2, 1]]"), "M");        // indefinite
  expect_rejected(with("M", "[[1, 1], [1, 1]]"), "M");        // singular
  expect_rejected(with("M", "[[0, 0], [0, 0]]"), "M");
  expect_rejected(with("M", "[[-2, 0], [0, -2]]"), "M");
  const std::string two_rows = "[[1, 1], [1, -1]]";
  auto doc = [&](const std::string& W) {
    return file("w.json", "{\"M\": [[2, 1], [1, 2]], \"A\": " + two_rows + ", \"b\": [1, 0], \"Q\": [0, 0], \"W\": " + W + "}");
  };
  expect_rejected(doc("[[1, 2], [0, 1]]"), "W");   // not symmetric
  expect_rejected(doc("[[1, 2], [2, 1]]"), "W");   // indefinite
  expect_rejected(doc("[[1, 1], [1, 1]]"), "W");   // singular
  expect_rejected(with("M", "[[1, \"1/3\"], [\"0.3333333333333333\", 1]]") + " --precision exact", "M");
}

TEST_F(BadInput, SizesBeyondTheLimitAreRejectedBeforeAllocating) {
  std::string rows = "[";
  for (int i = 0; i < 20001; ++i) rows += (i ? ",[]" : "[]");
  rows += "]";
  expect_rejected(file("big_m.json", "{\"M\": " + rows + ", \"A\": [], \"b\": [], \"Q\": []}"), "M");
  expect_rejected(file("big_a.json", "{\"M\": [[1]], \"A\": " + rows + ", \"b\": [], \"Q\": [1]}"), "A");
  // A document beyond the size limit is refused before it is read: a sparse file.
  const fs::path huge = dir / "huge.json";
  std::ofstream(huge) << "{";
  fs::resize_file(huge, (std::uintmax_t(256) << 20) + 1);
  expect_rejected(huge.string(), "input");
  std::string deep = "{\"M\": ";
  for (int i = 0; i < 64; ++i) deep += "[";
  expect_rejected(file("deep.json", deep), "document");
}

TEST_F(BadInput, OptionsAndPaths) {
  const std::string good = file("good.json", doc_with("", ""));
  expect_rejected(good + " --method magic", "method");
  expect_rejected(good + " --precision quad", "precision");
  expect_rejected(good + " --precision 16", "precision");
  expect_rejected(good + " --precision 70000", "precision");
  expect_rejected(good + " --precision 1e3", "precision");
  expect_rejected(good + " --precision exact --method cod", "method");
  expect_rejected(good + " --precision 256 --method exact", "precision");
  expect_rejected(good + " --rank-tol -1", "rank-tol");
  expect_rejected(good + " --rank-tol 2", "rank-tol");
  expect_rejected(good + " --rank-tol abc", "rank-tol");
  expect_rejected((dir / "missing.json").string(), "input");
  expect_rejected(dir.string(), "input");  // a directory as input
  expect_rejected(good + " -o /nonexistent-dir/out.json", "output", true);
  expect_rejected(good + " -o " + dir.string(), "output", true);  // a directory as output
  expect_rejected(good + " --no-such-flag", "no-such-flag");
}

}  // namespace
