#pragma once
// Running the `femc` executable from a test: its exit status, stdout and
// stderr (tests/test_cli.cpp, tests/engines/test_engines_command.cpp).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace femc::test {

struct CliRun {
  int status;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `cli args`, its streams captured in a scratch directory named after `tag`
// and the process, removed after.
inline CliRun run_cli(const std::string& cli, const std::string& args, const std::string& tag) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / (tag + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cmd = cli + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int raw = std::system(cmd.c_str());
  CliRun r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err")};
  fs::remove_all(dir);
  return r;
}

}  // namespace femc::test
