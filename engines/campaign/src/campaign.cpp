#include "femc/engines/campaign.hpp"

#include "femc/engines/model_files.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SVD>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

#include "conformance.hpp"
#include "femc/errors.hpp"
#include "femc/io/output_file.hpp"
#include "femc/solve.hpp"
#include "femc/verify/exact_data.hpp"

namespace femc::engines {
namespace campaign {

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

double inf_norm(const Vector<double>& x) { return x.lpNorm<Eigen::Infinity>(); }

Solution<double> hard_gauss(const System<double>& sys) {
  Options<double> opt;
  opt.data_precision = kDoubleData;
  return solve(sys, opt);
}

std::vector<ChangePointState> change_point_states(bool quick) {
  const int last = quick ? 8 : 16;
  std::vector<ChangePointState> out;
  for (int k = 2; k <= last; ++k) out.push_back({std::pow(10.0, -0.5 * k), false});
  out.push_back({0.0, true});
  return out;
}

std::string slug(const std::string& name) {
  std::string out;
  for (unsigned char c : name) out += std::isalnum(c) ? char(std::tolower(c)) : '_';
  return out;
}

Vector<double> to_double(const Vector<rational>& x) {
  Vector<double> out(x.size());
  for (Index i = 0; i < x.size(); ++i) out(i) = prop::to_double(x(i));
  return out;
}

Reference reference(const System<double>& data, double engine_qdd_inf) {
  auto exact = [](double x) { return rational(x); };
  return reference(System<rational>{data.M.unaryExpr(exact), data.A.unaryExpr(exact), data.b.unaryExpr(exact),
                                    data.Q.unaryExpr(exact), data.C.unaryExpr(exact), data.W.unaryExpr(exact)},
                   engine_qdd_inf);
}

Reference reference(const System<rational>& exact_data, double engine_qdd_inf) {
  Reference r;
  r.data = exact_data;
  const auto dbl = [](const rational& x) { return prop::to_double(x); };
  const System<double> data{r.data.M.unaryExpr(dbl), r.data.A.unaryExpr(dbl), r.data.b.unaryExpr(dbl),
                            r.data.Q.unaryExpr(dbl), r.data.C.unaryExpr(dbl), r.data.W.unaryExpr(dbl)};
  Options<rational> opt{Method::Exact};
  opt.data_precision = kDoubleData;
  r.exact = solve(r.data, opt);
  r.rank = r.exact.diagnostics.rank.rank;
  r.qdd_inf = prop::inf_norm(r.exact.qdd);

  // The bound's conditioning with M symmetrized, as femc symmetrizes it.
  System<rational> sym = r.data;
  sym.M = (r.data.M + r.data.M.transpose()) / rational(2);
  r.bound = 2 * prop::rounded_data_bound_per_u(sym, r.rank, std::max(engine_qdd_inf, r.qdd_inf)) * 0x1p-53;

  const Matrix<double> Ms = (data.M + data.M.transpose()) / 2;
  const Eigen::LLT<Matrix<double>> llt(Ms);
  const Matrix<double> P = llt.matrixL().solve(data.A.transpose()).transpose();  // A L⁻ᵀ
  const Vector<double> s = Eigen::JacobiSVD<Matrix<double>>(P).singularValues();
  if (s.size() > 0 && s(0) > 0) {
    if (r.rank > 0) r.sigma_ratio = s(r.rank - 1) / s(0);
    if (r.rank < s.size()) r.sigma_next = s(r.rank) / s(0);
  }
  const Vector<double> residual = to_double(Vector<rational>(r.data.A * r.exact.qdd - r.data.b));
  const double scale = data.A.cwiseAbs().rowwise().sum().maxCoeff() * r.qdd_inf + data.b.lpNorm<Eigen::Infinity>();
  r.delta = scale > 0 ? residual.lpNorm<Eigen::Infinity>() / scale : 0;
  // Inconsistent b (the residual above the bound's level): the least-squares
  // solution's sensitivity has κ(P)² where the consistent one has κ(P)
  // (Wedin), so the bound takes one more factor κ(P).
  if (r.qdd_inf > 0 && r.delta > r.bound / r.qdd_inf) r.bound *= prop::conditioning(sym, r.rank).kappa_P;
  return r;
}

std::optional<Vector<double>> reference_with_one_direction_dropped(const Reference& ref) {
  const auto& d = ref.exact.diagnostics.rank;
  if (ref.rank == 0 || prop::to_double(d.largest) == 0) return std::nullopt;
  Options<rational> opt{Method::Exact};
  opt.data_precision = kDoubleData;
  opt.rank_tol = rational(2) * d.smallest_kept / d.largest;  // drops d_r, keeps d_{r−1} > 2 d_r
  const Solution<rational> fewer = solve(ref.data, opt);
  if (fewer.diagnostics.rank.rank >= ref.rank) return std::nullopt;
  return to_double(fewer.qdd);
}

std::string csv(const std::vector<Row>& rows) {
  std::ostringstream out;
  out << "mechanism,state_class,theta,omega,t,sigma_ratio,sigma_next,delta,rank_femc,rank_engine,error,bound,"
         "violation,force_error,force_bound,pass,note\n";
  out.precision(6);
  for (const Row& r : rows)
    out << r.mechanism << "," << r.state_class << "," << r.theta << "," << r.omega << "," << r.t << ","
        << r.sigma_ratio << "," << r.sigma_next << "," << r.delta << "," << r.rank_femc << "," << r.rank_engine
        << "," << r.error << "," << r.bound << "," << r.violation << "," << r.force_error << "," << r.force_bound
        << "," << (r.pass ? "pass" : "FAIL") << ","
        << r.note << "\n";
  return out.str();
}

std::string summary_table(const std::vector<Row>& rows) {
  struct Group {
    int states = 0, passes = 0, rank_agrees = 0;
    double error = 0, bound = 0, ratio = 0, force_ratio = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (const Row& r : rows) {
    const std::string key = r.mechanism + " | " + r.state_class;
    if (!groups.count(key)) order.push_back(key);
    Group& g = groups[key];
    ++g.states;
    g.passes += r.pass;
    g.rank_agrees += r.rank_engine == "soft" || r.rank_engine == std::to_string(r.rank_femc);
    if (r.error >= g.error) {
      g.error = r.error;
      g.bound = r.bound;
    }
    if (r.bound > 0) g.ratio = std::max(g.ratio, r.error / r.bound);
    if (r.force_bound > 0) g.force_ratio = std::max(g.force_ratio, r.force_error / r.force_bound);
  }
  std::ostringstream out;
  out << "| mechanism | state class | states | largest error | its bound | largest error ÷ bound | "
         "constraint force: largest error ÷ bound | pass | rank agrees |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
  for (const std::string& key : order) {
    const Group& g = groups[key];
    out << "| " << key << " | " << g.states << " | " << sci(g.error) << " | " << sci(g.bound) << " | "
        << sci(g.ratio) << " | " << sci(g.force_ratio) << " | " << g.passes << "/" << g.states << " | " << g.rank_agrees << "/" << g.states
        << " |\n";
  }
  return out.str();
}

}  // namespace campaign

namespace {

// The engines femc knows, in the report's order: each one's name, its Debian
// package, and its campaign where this build has its adapter (else null).
// Everything that lists engines (--list, the errors, the report) reads this.
struct Engine {
  const char* name;
  const char* package;
  std::string (*run)(const CampaignOptions&, campaign::Files&, std::ostream&);
};

const std::vector<Engine>& engine_table() {
  static const std::vector<Engine> table{
      {"simbody", "libsimbody-dev",
#ifdef FEMC_HAVE_SIMBODY
       [](const CampaignOptions& o, campaign::Files& f, std::ostream& log) {
         return campaign::simbody_campaign(o.quick, f, log);
       }
#else
       nullptr
#endif
      },
      {"mujoco", "libmujoco-dev",
#ifdef FEMC_HAVE_MUJOCO
       [](const CampaignOptions& o, campaign::Files& f, std::ostream& log) {
         return campaign::mujoco_campaign(o.quick, o.mujoco_models, o.steps, f, log);
       }
#else
       nullptr
#endif
      },
      {"ode", "libode-dev",
#ifdef FEMC_HAVE_ODE
       [](const CampaignOptions& o, campaign::Files& f, std::ostream& log) {
         return campaign::ode_campaign(o.quick, f, log);
       }
#else
       nullptr
#endif
      },
      {"bullet", "libbullet-dev",
#ifdef FEMC_HAVE_BULLET
       [](const CampaignOptions& o, campaign::Files& f, std::ostream& log) {
         return campaign::bullet_campaign(o.quick, f, log);
       }
#else
       nullptr
#endif
      },
  };
  return table;
}

const Engine* find_engine(const std::string& name) {
  for (const Engine& e : engine_table())
    if (name == e.name) return &e;
  return nullptr;
}

std::string joined(bool packages) {
  std::string out;
  for (const Engine& e : engine_table()) out += (out.empty() ? "" : ", ") + std::string(packages ? e.package : e.name);
  return out;
}

}  // namespace

std::vector<std::string> available_engines() {
  std::vector<std::string> out;
  for (const Engine& e : engine_table())
    if (e.run) out.push_back(e.name);
  return out;
}

void run_engine_campaign(const CampaignOptions& options, std::ostream& log) {
  const std::vector<std::string> engines = options.engines.empty() ? available_engines() : options.engines;
  for (const std::string& name : engines) {
    const Engine* e = find_engine(name);
    if (!e) throw InputError("engine", "'" + name + "' is not an engine (" + joined(false) + ")");
    if (!e->run)
      throw InputError("engine", "'" + name + "': this build has no " + name + " adapter (install " + e->package +
                                     " and reconfigure)");
  }
  if (engines.empty()) throw InputError("engine", "this build has no engine adapter (" + joined(true) + ")");
  if (!options.mujoco_models.empty() && std::find(engines.begin(), engines.end(), "mujoco") == engines.end())
    throw InputError("mujoco-model", "needs the mujoco engine (--engine mujoco)");
  if (options.steps < 0) throw InputError("steps", std::to_string(options.steps) + " is negative");
  std::filesystem::create_directories(options.out);
  io::check_output_path(options.out + "/README.md");

  campaign::Files files;
  std::string sections;
  std::vector<ModelFileCheck> model_checks;
  for (const std::string& name : engines) {
    sections += find_engine(name)->run(options, files, log);
    const std::vector<ModelFileCheck> checks = model_file_checks(name);
    model_checks.insert(model_checks.end(), checks.begin(), checks.end());
    log << "femc engines: " << name << " done (" << checks.size() << " checks against femc's model files)\n";
  }
  if (std::any_of(model_checks.begin(), model_checks.end(), [](const ModelFileCheck& c) { return c.mechanism == "Bricard"; })) {
    const std::vector<ModelFileCheck> own = femc_model_file_checks();
    model_checks.insert(model_checks.end(), own.begin(), own.end());
  }
  files["model_files.csv"] = model_files_csv(model_checks);
  sections += model_files_section(model_checks);
  files["README.md"] =
      "# Engines under test\n\n"
      "Written by `femc engines` (engines/campaign). Each engine's accelerations at its own mechanisms' states "
      "against the exact Gauss solution of the very doubles it computed them from (rank decided at the data's "
      "precision, double), and the first-order bound its solve must meet: for Simbody, twice the rounded-data "
      "bound of a backward-stable solve, 16(n+m)²·u·κ(M)·κ_r(P)·(data + |q̈|∞) (verify/exact_data.hpp), with one "
      "more κ(P) where b is inconsistent; for MuJoCo, the error of its Newton step on its soft problem (its "
      "section); for ODE, the error of dWorldStep's LDLᵀ solve of its soft problem (its section); for Bullet, the rounding of its "
      "solver's products and sums on the problem its rows define (its section). Errors and bounds are relative to |q̈|∞. `systems/` holds the extracted systems that show "
      "each finding as `femc solve` inputs (`femc solve FILE --method exact` reproduces the reference without "
      "the engine).\n\n" +
      sections;
  for (const auto& [path, text] : files) {
    const std::string full = options.out + "/" + path;
    std::filesystem::create_directories(std::filesystem::path(full).parent_path());
    io::write_atomically(full, text);
  }
  log << "femc engines: wrote " << files.size() << " files under " << options.out << "\n";
}

}  // namespace femc::engines
