// The femc solver protocol (verify/PROTOCOL.md) against processes that
// misbehave in every way it names: each is a SolverFault of the call (or a
// MethodError for a refusal), counted, and the next call starts the process
// again; femc never stops or hangs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/verify/process_solver.hpp"

namespace femc::verify {
namespace {

using namespace std::chrono_literals;

const std::string kHandshake = R"(echo '{"protocol":"femc-solver/1","name":"t"}'; )";

// A particle on the plane x + y = 1, n = 2, m = 1.
SystemText two_by_one() {
  return to_system_text(make_system<double>(Matrix<double>::Identity(2, 2), Matrix<double>::Ones(1, 2),
                                            Vector<double>::Ones(1), Vector<double>::Zero(2)));
}

// Answers every request with `reply` (after reading it).
std::string answering(const std::string& reply) {
  return kHandshake + "while read l; do echo '" + reply + "'; done";
}

TEST(ProcessSolver, AnAnswerIsReadAsItsTextAtTheWorkingPrecision) {
  SolverProcess p(answering(R"({"id": 1, "qdd": [0.5, "0.5"]})"), 5000ms);
  const Answer a = p.solve(two_by_one(), "double");
  EXPECT_EQ(a.qdd, (std::vector<std::string>{"0.5", "0.5"}));
  EXPECT_EQ(p.counts().calls, 1);
}

// The handshake parser alone (no process): what a line declares, and each
// field's error naming it.
TEST(Handshake, UnsetFieldsTakeTheProtocolsDefaults) {
  const Handshake h = parse_handshake(R"({"protocol": "femc-solver/1"})");
  EXPECT_EQ(h.capabilities.outputs, outputs::qdd);
  EXPECT_EQ(h.precisions, std::vector<std::string>{"double"});
  const Capabilities defaults;
  EXPECT_EQ(h.capabilities.rank_deficient, defaults.rank_deficient);
  EXPECT_EQ(h.capabilities.error_growth, defaults.error_growth);
  EXPECT_EQ(h.capabilities.rank_tol, 0.0);  // not declared
}

TEST(Handshake, EveryFieldIsRead) {
  const Handshake h = parse_handshake(
      R"({"protocol": "femc-solver/1", "name": "mine", "outputs": ["qdd", "QN", "QW", "lambda", "rank"],)"
      R"( "rank_deficient": false, "weighted": false, "working_forces": false, "error_growth": "2",)"
      R"( "residual_mass_power": "1", "rank_policy": "pivoted QR of A", "rank_tol": "1e-6",)"
      R"( "precisions": ["double", "256", "exact"]})");
  EXPECT_EQ(h.name, "mine");
  // Qᶜ comes with Qᴺ and Qᵂ.
  EXPECT_EQ(h.capabilities.outputs, outputs::qdd | outputs::QN | outputs::QW | outputs::lambda | outputs::rank |
                                        outputs::constraint_force);
  EXPECT_FALSE(h.capabilities.rank_deficient);
  EXPECT_FALSE(h.capabilities.weighted);
  EXPECT_FALSE(h.capabilities.working_forces);
  EXPECT_EQ(h.capabilities.error_growth, 2);
  EXPECT_EQ(h.capabilities.residual_mass_power, 1);
  EXPECT_EQ(h.capabilities.rank_policy, "pivoted QR of A");
  EXPECT_EQ(h.capabilities.rank_tol, 1e-6);
  EXPECT_EQ(h.precisions, (std::vector<std::string>{"double", "256", "exact"}));
  // Qᴺ alone is not Qᶜ.
  EXPECT_FALSE(parse_handshake(R"({"protocol": "femc-solver/1", "outputs": ["QN"]})")
                   .capabilities.returns(outputs::constraint_force));
}

TEST(Handshake, ABadFieldIsNamedWithWhatItGot) {
  const std::pair<const char*, const char*> cases[] = {
      {"hello", "not a JSON object: 'hello'"},
      {R"({"protocol": "other/2"})", "\"protocol\""},
      {R"({"protocol": "femc-solver/1", "outputs": "qdd"})", "\"outputs\" must be an array"},
      {R"({"protocol": "femc-solver/1", "outputs": ["Qx"]})", "unknown output 'Qx'"},
      {R"({"protocol": "femc-solver/1", "weighted": "yes"})", "\"weighted\" must be true or false"},
      {R"({"protocol": "femc-solver/1", "error_growth": "3"})", "\"error_growth\" must be 1 or 2, got \"3\""},
      {R"({"protocol": "femc-solver/1", "residual_mass_power": "2"})", "\"residual_mass_power\" must be 0 or 1"},
      {R"({"protocol": "femc-solver/1", "rank_tol": "2"})", "\"rank_tol\" must be a number in (0, 1), got \"2\""},
      {R"({"protocol": "femc-solver/1", "precisions": []})", "\"precisions\" must be a non-empty array"},
      {R"({"protocol": "femc-solver/1", "rank_deficent": false})", "unknown key \"rank_deficent\""},
  };
  for (const auto& [line, message] : cases) {
    try {
      parse_handshake(line);
      ADD_FAILURE() << "accepted: " << line;
    } catch (const HandshakeError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what() << " lacks " << message;
    }
  }
}

TEST(ProcessSolver, ABadHandshakeOrCommandIsBadInput) {
  EXPECT_THROW(SolverProcess("echo hello", 5000ms), InputError);
  EXPECT_THROW(SolverProcess(R"(echo '{"protocol":"other/2"}')", 5000ms), InputError);
  EXPECT_THROW(SolverProcess("/nonexistent/solver", 5000ms), InputError);
  EXPECT_NO_THROW(SolverProcess(kHandshake + "cat >/dev/null", 5000ms));
}

// A solver reads end-of-file on stdin as soon as femc's end is closed, even
// when femc dies without stopping it (killed, for one), and so ends
// with it. A forked child starts a solver and exits without destructors; the
// solver, once its `cat` sees end-of-file, leaves a marker file. Before the
// pipes were made close-on-exec the solver held the write end of its own
// stdin, never saw end-of-file, and outlived femc: this test then waits its
// 10 s and fails, and a full ctest run left 14 such solvers behind.
TEST(ProcessSolver, ASolverEndsWhenFemcDiesWithoutStoppingIt) {
  const std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("femc_solver_eof_" + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    new SolverProcess(kHandshake + "cat >/dev/null; touch '" + marker.string() + "'", 5000ms);  // never stopped
    ::_exit(0);
  }
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  for (int i = 0; i < 1000 && !std::filesystem::exists(marker); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(std::filesystem::exists(marker)) << "the solver did not see end-of-file within 10 s";
  std::filesystem::remove(marker);
}

TEST(ProcessSolver, ACrashIsAFaultOfTheCallAndTheNextCallRestarts) {
  SolverProcess p(kHandshake + "read l; exit 3", 5000ms);
  EXPECT_THROW(p.solve(two_by_one(), "double"), SolverFault);
  EXPECT_THROW(p.solve(two_by_one(), "double"), SolverFault);
  EXPECT_EQ(p.counts().crashes, 2);
  EXPECT_EQ(p.counts().starts, 2);
}

TEST(ProcessSolver, AHangIsKilledAtTheTimeoutAndNotWaitedForAgainUntilForgiven) {
  SolverProcess p(kHandshake + "read l; sleep 30", 200ms);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(p.solve(two_by_one(), "double"), SolverFault);
  EXPECT_THROW(p.solve(two_by_one(), "double"), SolverFault);  // at once
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(p.counts().timeouts, 1);
  p.forgive_hang();
  EXPECT_THROW(p.solve(two_by_one(), "double"), SolverFault);
  EXPECT_EQ(p.counts().timeouts, 2);
  EXPECT_EQ(p.counts().starts, 2);
}

TEST(ProcessSolver, GarbageWrongIdsAndWrongSizesAreProtocolErrors) {
  for (const char* reply : {"not json", R"({"id": 99, "qdd": ["0", "0"]})", R"({"id": 1, "qdd": ["0"]})",
                            R"({"id": 1, "qdd": [["0"], "0"]})", R"({"id": 1})"}) {
    SolverProcess p(answering(reply), 5000ms);
    EXPECT_THROW(p.solve(two_by_one(), "double"), SolverFault) << reply;
    EXPECT_EQ(p.counts().protocol_errors, 1) << reply;
  }
}

TEST(ProcessSolver, ARefusalIsAMethodErrorNotAFault) {
  SolverProcess p(answering(R"({"id": 1, "error": "rank-deficient"})"), 5000ms);
  EXPECT_THROW(p.solve(two_by_one(), "double"), MethodError);
  EXPECT_EQ(p.counts().refusals, 1);
}

TEST(ProcessSolver, ANumberThatIsNotFiniteIsAFaultNamingTheEntry) {
  for (const char* reply : {R"({"id": 1, "qdd": ["nan", "0"]})", R"({"id": 1, "qdd": ["0", "1e999"]})",
                            R"({"id": 1, "qdd": ["0", "x"]})"}) {
    auto p = std::make_shared<SolverProcess>(answering(reply), 5000ms);
    const RegisteredSolver r = process_solver<double>(p, "t", "double");
    const System<double> sys = to_system<double>(two_by_one());
    try {
      (void)r.solve(sys);
      ADD_FAILURE() << reply << " was accepted";
    } catch (const SolverFault& e) {
      EXPECT_NE(std::string(e.what()).find("answer qdd["), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace femc::verify
