// `femc engines` end to end (label engines): a quick campaign writes the
// report, the tables and the extracted systems, and every state of the
// crank-rocker, the closed chain and Bricard's mechanism passes in every engine
// built; an unknown engine, or a MuJoCo model that does
// not load, exits 2 with one stderr line naming it and writes nothing.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/cli_run.hpp"

namespace {

namespace fs = std::filesystem;

using femc::test::CliRun;
using femc::test::slurp;

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("femc_engines_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  return dir;
}

CliRun femc(const std::string& args) { return femc::test::run_cli(FEMC_CLI, args, "femc_engines_cli"); }

bool built(const std::string& engine) { return femc("engines --list").out.find(engine) != std::string::npos; }

TEST(EnginesCommand, QuickCampaignWritesTheReportAndItsTrajectoriesPass) {
  if (femc("engines --list").out.empty()) GTEST_SKIP() << "no engine adapter in this build";
  const fs::path out = scratch("report");
  const CliRun run = femc("engines --quick --out " + out.string());
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string readme = slurp(out / "README.md");
  // Every engine this build has (campaign.cpp's table, through --list): a
  // new adapter is checked here without an edit.
  std::istringstream listed(femc("engines --list").out);
  for (std::string engine; std::getline(listed, engine);) {
    const std::string table = slurp(out / (engine + ".csv"));
    ASSERT_FALSE(table.empty()) << engine;
    std::vector<std::string> mechanisms{"crank-rocker", "closed chain"};
    // Bullet's Bricard rows do not pass, and must not: its impulse cap binds
    // on the weld (the finding, below).
    if (engine != "bullet") mechanisms.push_back("Bricard");
    for (const std::string& mechanism : mechanisms) {
      std::istringstream lines(table);
      std::string line;
      int states = 0;
      while (std::getline(lines, line))
        if (line.rfind(mechanism + ",", 0) == 0) {
          ++states;
          EXPECT_NE(line.find(",pass,"), std::string::npos) << engine << ": " << line;
        }
      EXPECT_GT(states, 0) << engine << ": " << mechanism;
    }
  }
  if (built("simbody")) {
    EXPECT_NE(readme.find("## Simbody"), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "systems/simbody_change_point_folded.json"));
    EXPECT_TRUE(fs::exists(out / "systems/simbody_bricard_worst.json"));
  }
  if (built("mujoco")) {
    EXPECT_NE(readme.find("## MuJoCo"), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "mujoco_softness.csv"));
    EXPECT_TRUE(fs::exists(out / "systems/mujoco_crank_rocker_hard.json"));
    EXPECT_TRUE(fs::exists(out / "systems/mujoco_bricard_worst_augmented.json"));
  }
  if (built("bullet")) {
    EXPECT_NE(readme.find("## Bullet"), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "bullet_solvers.csv"));
    bool dantzig = false;  // the worst Dantzig state within one multibody, whichever it is
    for (const auto& f : fs::directory_iterator(out / "systems"))
      dantzig |= f.path().filename().string().rfind("bullet_", 0) == 0 &&
                 f.path().filename().string().find("_dantzig.json") != std::string::npos;
    EXPECT_TRUE(dantzig);
    EXPECT_TRUE(fs::exists(out / "systems/bullet_crank_rocker_hard.json"));
    // Bricard along Bullet's trajectories, and the impulse cap's finding.
    EXPECT_NE(slurp(out / "bullet.csv").find("\nBricard,"), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "systems/bullet_bricard_impulse_cap.json"));
  }
  if (built("ode")) {
    EXPECT_NE(readme.find("## ODE"), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "ode_softness.csv"));
    EXPECT_TRUE(fs::exists(out / "ode_quickstep.csv"));
    EXPECT_TRUE(fs::exists(out / "systems/ode_crank_rocker_hard.json"));
    EXPECT_TRUE(fs::exists(out / "systems/ode_bricard_worst_augmented.json"));
  }
}

TEST(EnginesCommand, AnUnknownEngineExits2NamingIt) {
  const fs::path out = scratch("unknown");
  const CliRun run = femc("engines --engine nosuch --out " + out.string());
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("engine: 'nosuch'"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_FALSE(fs::exists(out / "README.md"));
}

TEST(EnginesCommand, AMujocoModelThatDoesNotLoadExits2NamingTheFile) {
  if (!built("mujoco")) GTEST_SKIP() << "no MuJoCo adapter in this build";
  const fs::path dir = scratch("bad_model");
  fs::create_directories(dir);
  const fs::path model = dir / "broken.xml";
  std::ofstream(model) << "<mujoco><worldbody><body><joint type=\"hinge\"/></body></worldbody>"
                          "<equality><connect body1=\"nobody\" body2=\"world\" anchor=\"0 0 0\"/></equality></mujoco>";
  for (const fs::path& file : {model, dir / "missing.xml"}) {
    const CliRun run = femc("engines --engine mujoco --mujoco-model " + file.string() + " --out " + (dir / "out").string());
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find(file.string()), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_FALSE(fs::exists(dir / "out" / "README.md"));
  }
}

TEST(EnginesCommand, AUsersMujocoModelIsChecked) {
  if (!built("mujoco")) GTEST_SKIP() << "no MuJoCo adapter in this build";
  const fs::path dir = scratch("user_model");
  fs::create_directories(dir);
  // A double pendulum whose tip is held on a vertical line through the pivot
  // by a <connect> to a massless slider body: 3 equality rows.
  std::ofstream(dir / "pendulum.xml")
      << "<mujoco><option jacobian=\"dense\"><flag contact=\"disable\"/></option><worldbody>"
         "<body name=\"a\" pos=\"0 0 0\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
         "<inertial pos=\"0 0 -0.5\" mass=\"1\" diaginertia=\"0.1 0.1 0.01\"/>"
         "<body name=\"b\" pos=\"0 0 -1\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
         "<inertial pos=\"0 0 -0.5\" mass=\"1\" diaginertia=\"0.1 0.1 0.01\"/></body></body>"
         "<body name=\"s\" pos=\"0 0 -2\"><joint type=\"slide\" axis=\"0 0 1\"/>"
         "<inertial pos=\"0 0 0\" mass=\"0.5\" diaginertia=\"0.01 0.01 0.01\"/></body>"
         "</worldbody><equality><connect body1=\"b\" body2=\"s\" anchor=\"0 0 -1\"/></equality></mujoco>";
  const CliRun run = femc("engines --engine mujoco --quick --steps 50 --mujoco-model " + (dir / "pendulum.xml").string() +
                       " --out " + (dir / "out").string());
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string table = slurp(dir / "out" / "mujoco.csv");
  EXPECT_NE(table.find("pendulum,initial state,"), std::string::npos) << table;
  EXPECT_NE(table.find("pendulum,after 50 steps,"), std::string::npos) << table;
  EXPECT_TRUE(fs::exists(dir / "out" / "systems" / "mujoco_pendulum_50_augmented.json"));
}

}  // namespace
