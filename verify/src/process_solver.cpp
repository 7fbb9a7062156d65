#include "femc/verify/process_solver.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "femc/errors.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/float128.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/verify/claim_types.hpp"
#include "femc/verify/system_json.hpp"

namespace femc::verify {
namespace {

using json = nlohmann::json;

// A longer answer is a fault (a dense answer for n = 2048 is far below).
constexpr std::size_t kMaxLine = std::size_t(64) << 20;

// Builds a DOM in which every number is the string of its text, so that an
// answer's numbers are read at the working precision, never through double.
class TextNumbers : public nlohmann::json_sax<json> {
 public:
  json root;
  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return put(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& text) override { return put(text); }
  bool string(string_t& v) override { return put(v); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& k) override { return key_ = k, true; }
  bool end_object() override { return stack_.pop_back(), true; }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return stack_.pop_back(), true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool put(json v) {
    if (stack_.empty()) root = std::move(v);
    else if (stack_.back()->is_array()) stack_.back()->push_back(std::move(v));
    else (*stack_.back())[key_] = std::move(v);
    return true;
  }
  bool open(json v) {
    json* where;
    if (stack_.empty()) where = &(root = std::move(v));
    else if (stack_.back()->is_array()) where = &(stack_.back()->emplace_back(std::move(v)));
    else where = &((*stack_.back())[key_] = std::move(v));
    stack_.push_back(where);
    return stack_.size() <= 8;
  }
  std::vector<json*> stack_;
  std::string key_;
};

// A small integer of the protocol (numbers arrive as their text): digits
// only, at most 9 of them; nullopt for anything else.
std::optional<long> integer_of(const json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string t = v.get<std::string>();
  if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stol(t);
}

std::optional<json> parse_line(const std::string& line) {
  TextNumbers sax;
  if (!json::sax_parse(line, &sax) || !sax.root.is_object()) return std::nullopt;
  return sax.root;
}

std::vector<std::string> texts(const json& v, const std::string& field) {
  if (!v.is_array()) throw SolverFault("answer " + field + ": not an array");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) throw SolverFault("answer " + field + "[" + std::to_string(i) + "]: not a number");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

}  // namespace

namespace {
[[noreturn]] void bad(const std::string& what) { throw HandshakeError(what); }
}  // namespace

Handshake parse_handshake(const std::string& line) {
  const auto h = parse_line(line);
  if (!h) bad("handshake is not a JSON object: '" + line.substr(0, 80) + "'");
  const json& j = *h;
  if (!j.contains("protocol") || j["protocol"] != "femc-solver/1")
    bad("handshake: \"protocol\" must be \"femc-solver/1\"");
  // The keys of PROTOCOL.md's table; another is a misspelling, which would
  // otherwise leave its capability at the default unnoticed.
  static const char* const kKeys[] = {"protocol",       "name",           "outputs",    "rank_deficient",
                                      "weighted",       "working_forces", "precisions", "error_growth",
                                      "residual_mass_power", "rank_policy", "rank_tol"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(std::begin(kKeys), std::end(kKeys), it.key()) == std::end(kKeys))
      bad("handshake: unknown key \"" + it.key().substr(0, 40) + "\" (PROTOCOL.md lists the keys)");
  Handshake hs;
  hs.name = j.value("name", std::string());
  Capabilities& c = hs.capabilities;
  c.outputs = outputs::qdd;
  if (j.contains("outputs")) {
    if (!j["outputs"].is_array()) bad("handshake: \"outputs\" must be an array");
    for (const json& o : j["outputs"]) {
      const std::string s = o.is_string() ? o.get<std::string>() : "";
      if (s == "qdd") continue;
      else if (s == "QN") c.outputs |= outputs::QN;
      else if (s == "QW") c.outputs |= outputs::QW;
      else if (s == "lambda") c.outputs |= outputs::lambda;
      else if (s == "rank") c.outputs |= outputs::rank;
      else bad("handshake: unknown output '" + s.substr(0, 20) + "' (qdd, QN, QW, lambda, rank)");
    }
  }
  auto flag = [&](const char* key, bool& into) {
    if (!j.contains(key)) return;
    if (!j[key].is_boolean()) bad(std::string("handshake: \"") + key + "\" must be true or false");
    into = j[key].get<bool>();
  };
  // Qᶜ is an output of its own only when it comes from the answer's Qᴺ and
  // Qᵂ: derived from q̈ (M q̈ − Q) it would let E4's M Δq̈ = Qᶜ pass for any q̈.
  if (c.returns(outputs::QN | outputs::QW)) c.outputs |= outputs::constraint_force;
  flag("rank_deficient", c.rank_deficient);
  flag("weighted", c.weighted);
  flag("working_forces", c.working_forces);
  auto power = [&](const char* key, long lo, long hi, int& into) {
    if (!j.contains(key)) return;
    const std::optional<long> p = integer_of(j[key]);
    if (!p || *p < lo || *p > hi)
      bad(std::string("handshake: \"") + key + "\" must be " + std::to_string(lo) + " or " + std::to_string(hi) +
                ", got " + j[key].dump().substr(0, 20));
    into = static_cast<int>(*p);
  };
  power("error_growth", 1, 2, c.error_growth);
  power("residual_mass_power", 0, 1, c.residual_mass_power);
  if (j.contains("rank_policy") && j["rank_policy"].is_string()) c.rank_policy = j["rank_policy"].get<std::string>();
  if (j.contains("rank_tol")) {
    // The relative rank tolerance it keeps σ_i > τσ₁ of P by: a number in
    // (0, 1), as a JSON number or a decimal string.
    const json& t = j["rank_tol"];
    double tol = -1;
    if (t.is_number()) tol = t.get<double>();
    else if (t.is_string()) tol = std::strtod(t.get<std::string>().c_str(), nullptr);
    if (!(tol > 0 && tol < 1))
      bad("handshake: \"rank_tol\" must be a number in (0, 1), got " + t.dump().substr(0, 20));
    c.rank_tol = tol;
  }
  hs.precisions = {"double"};
  if (j.contains("precisions")) {
    if (!j["precisions"].is_array() || j["precisions"].empty())
      bad("handshake: \"precisions\" must be a non-empty array");
    hs.precisions.clear();
    for (const json& p : j["precisions"]) hs.precisions.push_back(p.is_string() ? p.get<std::string>() : "?");
  }
  return hs;
}

SolverProcess::SolverProcess(std::string command, std::chrono::milliseconds timeout, std::string stderr_path)
    : command_(std::move(command)), stderr_path_(std::move(stderr_path)), timeout_(timeout) {
  ::signal(SIGPIPE, SIG_IGN);  // a dead solver is a fault of the call, not the end of femc
  if (command_.empty()) throw InputError("solver", "the command is empty");
  try {
    start();
  } catch (const SolverFault& e) {
    throw InputError("solver", "'" + command_.substr(0, 80) + "' did not start as a femc solver: " + e.what());
  }
}

SolverProcess::~SolverProcess() { stop(); }

void SolverProcess::start() {
  // Close-on-exec from their creation: the solver must hold only its own
  // ends, as fds 0 and 1 (dup2 clears the flag there). Holding the write end
  // of its own stdin, it would never read end-of-file, and would outlive a
  // femc that ended without stop() (killed, for one). Nor may a solver
  // started at the same time by another thread inherit these.
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw SolverFault(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]), ::close(in[1]);
    throw SolverFault(std::string("pipe: ") + std::strerror(error));
  }
  const int pid = ::fork();
  if (pid < 0) throw SolverFault(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    const int err = stderr_path_.empty() ? ::open("/dev/null", O_WRONLY | O_CLOEXEC)
                                         : ::open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (err >= 0) ::dup2(err, 2);
    ::execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  pid_ = pid, to_child_ = in[1], from_child_ = out[0];
  buffer_.clear();
  ++counts_.starts;
  Handshake hs;
  try {
    hs = parse_handshake(read_line());
  } catch (const HandshakeError& e) {
    fault(e.what(), &Counts::protocol_errors);
  }
  if (counts_.starts > 1 && (hs.precisions != handshake_.precisions || hs.capabilities.outputs != handshake_.capabilities.outputs))
    fault("handshake changed on restart", &Counts::protocol_errors);
  handshake_ = hs;
}

void SolverProcess::stop() {
  if (pid_ > 0) {
    ::close(to_child_);
    ::close(from_child_);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = to_child_ = from_child_ = -1;
}

void SolverProcess::fault(const std::string& what, long Counts::*counter) {
  ++(counts_.*counter);
  stop();
  throw SolverFault(what);
}

std::string SolverProcess::read_line() {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (;;) {
    const std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    if (buffer_.size() > kMaxLine) fault("answer longer than 64 MiB", &Counts::protocol_errors);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      hung_ = true;
      fault("no answer within " + std::to_string(timeout_.count()) + " ms (killed)", &Counts::timeouts);
    }
    pollfd p{from_child_, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // the deadline check above reports it
    char chunk[65536];
    const ssize_t got = ::read(from_child_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      // End of its output: name how it ended if it has already (stop() reaps it either way).
      int status = 0;
      std::string how = "closed its output";
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        how = WIFSIGNALED(status) ? "crashed (signal " + std::to_string(WTERMSIG(status)) + ")"
                                  : "exited with status " + std::to_string(WEXITSTATUS(status));
        ::close(to_child_);
        ::close(from_child_);
        pid_ = to_child_ = from_child_ = -1;
      }
      fault("the solver " + how, &Counts::crashes);
    }
    buffer_.append(chunk, static_cast<std::size_t>(got));
  }
}

Answer SolverProcess::solve(const SystemText& system, const std::string& precision) {
  if (hung_) throw SolverFault("the solver hung earlier in this claim; not asked again");
  if (pid_ < 0) {
    try {
      start();
    } catch (const InputError& e) {
      throw SolverFault(std::string("restart: ") + e.what());
    }
  }
  ++counts_.calls;
  const long id = next_id_++;
  json msg = json::parse(system_json(system));
  json line = {{"id", id}, {"precision", precision}, {"n", system.n}, {"m", system.m}};
  for (auto& [k, v] : msg.items()) line[k] = v;
  if (!line.contains("C")) line["C"] = std::vector<std::string>(system.n, "0");  // every key, always
  if (!line.contains("W")) line["W"] = json::array();
  const std::string text = line.dump() + "\n";
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t w = ::write(to_child_, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fault("the solver closed its input", &Counts::crashes);
    done += static_cast<std::size_t>(w);
  }
  const std::string reply = read_line();
  const auto j = parse_line(reply);
  if (!j) fault("answer is not a JSON object: '" + reply.substr(0, 80) + "'", &Counts::protocol_errors);
  if (!j->contains("id") || (*j)["id"] != std::to_string(id))
    fault("answer has id " + (j->contains("id") ? (*j)["id"].dump() : std::string("(none)")) + ", expected " +
              std::to_string(id),
          &Counts::protocol_errors);
  if (j->contains("error")) {
    ++counts_.refusals;
    throw MethodError("the solver refused: " + (*j)["error"].dump().substr(0, 200));
  }
  Answer a;
  const Capabilities& c = handshake_.capabilities;
  auto get = [&](const char* key, std::vector<std::string>& into, std::size_t size) {
    if (!j->contains(key)) fault(std::string("answer lacks \"") + key + "\"", &Counts::protocol_errors);
    try {
      into = texts((*j)[key], key);
    } catch (const SolverFault& e) {
      fault(e.what(), &Counts::protocol_errors);
    }
    if (into.size() != size)
      fault(std::string("answer ") + key + " has " + std::to_string(into.size()) + " entries, expected " +
                std::to_string(size),
            &Counts::protocol_errors);
  };
  const auto n = static_cast<std::size_t>(system.n), m = static_cast<std::size_t>(system.m);
  get("qdd", a.qdd, n);
  if (c.returns(outputs::QN)) get("QN", a.QN, n);
  if (c.returns(outputs::QW)) get("QW", a.QW, n);
  if (c.returns(outputs::lambda)) get("lambda", a.lambda, m);
  if (c.returns(outputs::rank)) {
    const long most = static_cast<long>(std::min(n, m));
    const std::optional<long> r = j->contains("rank") ? integer_of((*j)["rank"]) : std::nullopt;
    if (!r || *r > most)
      fault("answer \"rank\" must be an integer in [0, " + std::to_string(most) + "], got " +
                (j->contains("rank") ? (*j)["rank"].dump().substr(0, 20) : std::string("(none)")),
            &Counts::protocol_errors);
    a.rank = *r;
    if (j->contains("rank_tol")) {
      std::vector<std::string> tol;
      try {
        tol = texts(json::array({(*j)["rank_tol"]}), "rank_tol");
      } catch (const SolverFault& e) {
        fault(e.what(), &Counts::protocol_errors);
      }
      a.rank_tol = tol.at(0);
    }
  }
  return a;
}

namespace {

template <class S>
Vector<S> read_vector(const std::vector<std::string>& t, const char* field) {
  Vector<S> v(static_cast<Index>(t.size()));
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string where = std::string("answer ") + field + "[" + std::to_string(i) + "]";
    try {
      v(Index(i)) = ScalarTraits<S>::parse(t[i]);
    } catch (const std::exception&) {
      throw SolverFault(where + ": '" + t[i].substr(0, 40) + "' is not a finite number");
    }
    if constexpr (!ScalarTraits<S>::exact) {
      if (!Eigen::numext::isfinite(v(Index(i)))) throw SolverFault(where + ": not finite");
    }
  }
  return v;
}

}  // namespace

template <class S>
RegisteredSolver process_solver(const std::shared_ptr<SolverProcess>& process, const std::string& name,
                                const std::string& precision) {
  const Handshake& h = process->handshake();
  RegisteredSolver r(name, "external process solver '" + h.name + "'", h.capabilities);
  r.at<S>([process, precision](const System<S>& sys, const Options<S>&) {
    const Answer a = process->solve(to_system_text(sys), precision);
    const Capabilities& c = process->handshake().capabilities;
    Solution<S> s;
    s.qdd = read_vector<S>(a.qdd, "qdd");
    if (c.returns(outputs::QN)) s.QN = read_vector<S>(a.QN, "QN");
    if (c.returns(outputs::QW)) s.QW = read_vector<S>(a.QW, "QW");
    if (c.returns(outputs::lambda)) s.lambda = read_vector<S>(a.lambda, "lambda");
    if (c.returns(outputs::rank)) {
      // The rank and its tolerance only: the magnitudes the solver saw are
      // not part of the protocol (NaN where a floating type can say so).
      RankDecision<S>& rd = s.diagnostics.rank;
      rd.rank = static_cast<Index>(a.rank);
      if constexpr (!ScalarTraits<S>::exact) {
        const S unknown = S(std::numeric_limits<double>::quiet_NaN());
        rd.largest = rd.smallest_kept = rd.largest_dropped = rd.tol = unknown;
      }
      if (!a.rank_tol.empty()) rd.tol = read_vector<S>({a.rank_tol}, "rank_tol")(0);
    }
    // Qᶜ = Qᴺ + Qᵂ when given; else M q̈ − Q, filled in but not declared (see the handshake).
    s.Qc = c.returns(outputs::QN | outputs::QW) ? Vector<S>(s.QN + s.QW) : Vector<S>(sys.M * s.qdd - sys.Q);
    return s;
  });
  return r;
}

// At the claims' types (claim_types.hpp).
#define FEMC_INSTANTIATE_PROCESS_SOLVER(Type)                                                              \
  template RegisteredSolver process_solver<Type>(const std::shared_ptr<SolverProcess>&, const std::string&, \
                                                 const std::string&);
FEMC_CLAIM_TYPES(FEMC_INSTANTIATE_PROCESS_SOLVER)
#undef FEMC_INSTANTIATE_PROCESS_SOLVER

}  // namespace femc::verify
