// MuJoCo on its own mechanisms (issue "Real engines"): (i) does MuJoCo
// compute the soft Gauss solution its documentation describes (the augmented
// problem of engines/mujoco/.../mujoco.hpp), along its own trajectories of
// the crank-rocker, the closed chain and Bricard's mechanism, near the
// change-point four-bar's singular configuration and at it; (ii) how far is that from hard Gauss with the true
// b, and how much of the distance is the velocity-product term MuJoCo never
// forms versus the softening, as a function of solimp, solref and the
// timestep.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "conformance.hpp"
#include "femc/engines/mujoco.hpp"
#include "femc/solve.hpp"
#include "femc/verify/process_solver.hpp"
#include "femc/verify/system_json.hpp"

namespace femc::engines::campaign {
namespace {

namespace loop = planar_loop;
using mujoco::Extracted;
using mujoco::Model;
using mujoco::SoftParameters;

// MuJoCo's qacc against the exact Gauss solution x of the augmented problem,
// its efc_force against the exact multipliers λ (unique: [J −I] has full
// row rank).
Row evaluate(const Model& model, const Extracted& e, const std::string& mechanism, const std::string& state_class) {
  const Reference ref = reference(mujoco::augmented(e), e.qacc.lpNorm<Eigen::Infinity>());
  const Index n = e.M.rows();
  const Vector<double> x = to_double(ref.exact.qdd).head(n);
  Row r;
  r.mechanism = mechanism;
  r.state_class = state_class;
  r.theta = model.qpos()(0);
  r.omega = model.qvel()(0);
  r.t = model.d()->time;
  r.sigma_ratio = ref.sigma_ratio;
  r.sigma_next = ref.sigma_next;
  r.delta = ref.delta;
  r.rank_femc = ref.rank;
  r.rank_engine = "soft";
  const double scale = std::max(x.lpNorm<Eigen::Infinity>(), 1e-300);
  const double err = (x - e.qacc).lpNorm<Eigen::Infinity>();
  // MuJoCo's own error law (mujoco::newton_bound), not the generic
  // rounded-data bound of the augmented problem, whose κ(diag(M, D)) counts
  // the range of D and is 10⁶ times looser here.
  const double bound = mujoco::newton_bound(e, x);
  r.error = err / scale;
  r.bound = bound / scale;
  const Index k = e.J.rows();
  const Vector<double> lambda = to_double(ref.exact.lambda).head(k);
  const double force_scale = std::max(lambda.lpNorm<Eigen::Infinity>(), 1e-300);
  const double force_err = (lambda - e.efc_force).lpNorm<Eigen::Infinity>();
  const double force_bound = mujoco::force_bound(e, bound);
  r.force_error = force_err / force_scale;
  r.force_bound = force_bound / force_scale;
  r.pass = err <= bound && force_err <= force_bound;
  r.violation = e.pos.lpNorm<Eigen::Infinity>();  // MuJoCo's position error |efc_pos|∞ (m)
  return r;
}


// The distance of MuJoCo's qacc from hard Gauss with the true b = −J̇v,
// split at hard Gauss with b = a_ref (the stiff limit of MuJoCo's target):
// velocity-product part |q̈(a_ref) − q̈(−J̇v)|, softening part |qacc − q̈(a_ref)|,
// each relative to |q̈(−J̇v)|∞.
struct Distance {
  double total, velocity_product, softening;
};
Distance distance(const Extracted& e) {
  const System<double> truth = mujoco::hard(e);
  System<double> stiff = truth;
  stiff.b = e.aref;
  const Vector<double> q_true = hard_gauss(truth).qdd, q_stiff = hard_gauss(stiff).qdd;
  const double s = q_true.lpNorm<Eigen::Infinity>();
  return {(e.qacc - q_true).lpNorm<Eigen::Infinity>() / s, (q_stiff - q_true).lpNorm<Eigen::Infinity>() / s,
          (e.qacc - q_stiff).lpNorm<Eigen::Infinity>() / s};
}

std::string augmented_json(const Extracted& e, const std::string& name, const std::string& description) {
  SystemText text = verify::to_system_text(mujoco::augmented(e));  // p/q strings, exact
  text.data_precision = "double";
  return verify::system_json(text, "MuJoCo augmented " + name, description);
}

// `samples` states along MuJoCo's own trajectory from the model's state over
// `span` seconds; the state with the largest error ÷ bound is written as
// systems/mujoco_<name>_worst_augmented.json.
void trajectory(Model& model, const std::string& name, double span, bool quick, std::vector<Row>& rows, Files& files,
                std::ostream& log) {
  const int samples = quick ? 4 : 24;
  const int steps = int(std::lround(span / model.m()->opt.timestep));
  double worst = -1;
  const std::string file = slug(name);
  for (int k = 0, step = 0; k < samples; ++k) {
    const int target = steps * k / (samples - 1);
    for (; step < target; ++step) mj_step(model.m(), model.d());
    mj_forward(model.m(), model.d());
    const Extracted e = mujoco::extract(model);
    const Row row = evaluate(model, e, name, "trajectory");
    if (row.error / row.bound > worst) {
      worst = row.error / row.bound;
      files["systems/mujoco_" + file + "_worst_augmented.json"] = augmented_json(
          e, name,
          "MuJoCo, " + name + " at t = " + sci(row.t) +
              " s: the augmented soft problem (unknowns qacc, s; mass diag(M, efc_D); force (qfrc_smooth, "
              "efc_D·efc_aref); [J −I](qacc, s) = 0) where MuJoCo's largest error ÷ bound occurs");
    }
    rows.push_back(row);
  }
  log << "  " << name << " trajectory: " << samples << " states\n";
}

// A user's models: each at its initial state and after `steps` of
// MuJoCo's steps. A file that does not load fails before any work.
void user_models(const std::vector<std::string>& paths, int steps, std::vector<Row>& rows, Files& files,
                 std::ostream& log) {
  for (const std::string& path : paths) {
    auto model = mujoco::load_file(path);
    const std::string stem = std::filesystem::path(path).stem().string();
    for (int at : {0, steps}) {
      for (int k = 0; k < at; ++k) mj_step(model->m(), model->d());
      mj_forward(model->m(), model->d());
      const Extracted e = mujoco::extract(*model);
      rows.push_back(evaluate(*model, e, stem, at == 0 ? "initial state" : "after " + std::to_string(steps) + " steps"));
      files["systems/mujoco_" + stem + "_" + std::to_string(at) + "_augmented.json"] =
          augmented_json(e, stem, "MuJoCo, " + path + " after " + std::to_string(at) + " steps: the augmented soft problem");
      if (steps == 0) break;
    }
    log << "  " << path << ": checked\n";
  }
}

// (i) 1. Along MuJoCo's own trajectories (default solimp, solref,
// timestep; its semi-implicit Euler): the crank-rocker from 1 rad at
// 2 rad/s, the closed chain from rest, Bricard's mechanism from the
// example's start.
void along_trajectories(bool quick, std::vector<Row>& rows, Files& files, std::ostream& log) {
  trajectory(*mujoco::four_bar(1.0, 2.0), "crank-rocker", 3.0, quick, rows, files, log);
  trajectory(*mujoco::planar_loop(loop::kClosedChain, loop::kClosedChainStart, {0, 0, 0, 0}), "closed chain", 3.0,
             quick, rows, files, log);
  trajectory(*mujoco::bricard(), "Bricard", 1.0, quick, rows, files, log);
}

// MuJoCo keeps a fullinertia as its eigenvalues and a rotation: how far
// that is from the matrix written (Bricard's links, the only full ones). A
// finding of the report.
std::string inertia_finding(Files& files) {
  std::ostringstream findings;
  auto model = mujoco::bricard();
  const std::vector<double> errors = mujoco::bricard_inertia_errors(*model);
  const double worst = *std::max_element(errors.begin(), errors.end());
  double largest_entry = 0;
  for (double x : bricard::kEven.inertia) largest_entry = std::max(largest_entry, std::abs(x));
  double shift = 0;  // Σ 3·max|ΔI|: its bound on the change of M's entries
  for (double e : errors) shift += 3 * e;
  const Matrix<double> M = mujoco::extract(*model).M;
  const double recursion = 16 * double(M.rows()) * 0x1p-52 * M.cwiseAbs().maxCoeff();  // M's own rounding
  files["systems/mujoco_bricard.xml"] = mujoco::bricard_mjcf();
  findings << "- **MuJoCo stores a `fullinertia` diagonalized, to " << sci(worst / largest_entry)
           << " relative.** Bricard's links are written with full inertia matrices (`systems/mujoco_bricard.xml`); "
              "the compiled model keeps their principal moments and a rotation (body_inertia, body_iquat), and "
              "R·diag·Rᵀ differs from the matrix written by up to "
           << sci(worst) << " kg m² (largest entry " << sci(largest_entry)
           << "). It may move M's entries by Σ 3·|ΔI| over the links, " << sci(shift) << ", "
           << sci(shift / recursion) << " times the rounding of M's recursion (16·n·ε·|M|∞); "
              "tests/engines/test_same_mechanisms measures MuJoCo's M against Simbody's at the same q (the "
              "planar loops, with diagonal inertias, agree to rounding). MuJoCo's answer is checked against its "
              "own M, so (i) is unaffected.\n";
  return findings.str();
}

// (i) 2. The change-point four-bar towards, and at, its folded configuration.
void towards_folded(bool quick, std::vector<Row>& rows, Files& files, std::ostream& log) {
  const std::vector<ChangePointState> states = change_point_states(quick);
  for (const auto& [theta, folded] : states) {
    auto model = mujoco::four_bar(theta, 1.0, {}, loop::kChangePoint);
    const Extracted e = mujoco::extract(*model);
    rows.push_back(evaluate(*model, e, "change-point", folded ? "folded (θ = 0)" : "near singular"));
    if (folded)
      files["systems/mujoco_change_point_folded_hard.json"] = mujoco::to_solve_json(
          mujoco::hard(e), "MuJoCo hard four-bar",
          "MuJoCo, change-point four-bar folded flat (θ = 0) at 1 rad/s: hard Gauss data (M, efc_J, b = −J̇v by "
          "differences of efc_J, qfrc_smooth)");
  }
  log << "  change-point near singular and folded: " << states.size() << " states\n";
}

// (ii) The distance from hard Gauss: on exact states of the crank-rocker
// (a_ref is rounding there: the whole velocity-product term is missing) and
// along MuJoCo's trajectory, over solimp's impedance d (dmin = dmax = d),
// solref's time constant and the timestep. Writes mujoco_softness.csv and
// the crank-rocker's hard data; returns the largest distances per class.
struct Softness {
  struct Worst {
    double total = 0, velocity_product = 0, softening = 0;
  };
  std::map<std::string, Worst> worst;
  std::vector<std::string> order;  // the classes, first seen first
};
Softness softness_sweep(bool quick, Files& files, std::ostream& log) {
  std::ostringstream softness;
  softness << "class,d,timeconst,timestep,state,t,total,velocity_product,softening,violation\n";
  softness.precision(6);
  const std::vector<double> ds = quick ? std::vector<double>{0.9, 0.9999} : std::vector<double>{0.9, 0.99, 0.999, 0.9999};
  const std::vector<double> timesteps = quick ? std::vector<double>{0.002} : std::vector<double>{0.0005, 0.002, 0.008};
  Softness out;
  auto note = [&](const std::string& key, const Distance& dist) {
    if (!out.worst.count(key)) out.order.push_back(key);
    Softness::Worst& w = out.worst[key];
    w.total = std::max(w.total, dist.total);
    w.velocity_product = std::max(w.velocity_product, dist.velocity_product);
    w.softening = std::max(w.softening, dist.softening);
  };
  auto d_text = [](double d) { return num(d); };  // 0.9999, not sci's "1"
  for (double d : ds) {
    SoftParameters soft;
    soft.solimp[0] = soft.solimp[1] = d;
    const int states = quick ? 3 : 8;
    for (int k = 0; k < states; ++k) {
      const double theta = 2 * M_PI * k / states;
      auto model = mujoco::four_bar(theta, 2.0, soft);
      const Distance dist = distance(mujoco::extract(*model));
      softness << "exact states," << d << "," << soft.solref[0] << "," << soft.timestep << "," << k << ",0,"
               << dist.total << "," << dist.velocity_product << "," << dist.softening << ","
               << model->d()->efc_pos[0] << "\n";
      note("exact states | d = " + d_text(d) + " | (any) | (any)", dist);
    }
    for (double h : timesteps) {
      for (double timeconst : {0.02, 2 * h}) {
        soft.timestep = h;
        soft.solref[0] = timeconst;
        auto model = mujoco::four_bar(1.0, 2.0, soft);
        const int samples = quick ? 3 : 12;
        const double span = 1.0;
        const int steps = int(std::lround(span / h));
        const std::string key =
            "trajectory | d = " + d_text(d) + " | " + sci(timeconst) + " | " + sci(h);
        for (int k = 0, step = 0; k < samples; ++k) {
          const int target = steps * (k + 1) / samples;
          for (; step < target; ++step) mj_step(model->m(), model->d());
          mj_forward(model->m(), model->d());
          const Extracted e = mujoco::extract(*model);
          const Distance dist = distance(e);
          softness << "trajectory," << d << "," << timeconst << "," << h << "," << k << "," << model->d()->time
                   << "," << dist.total << "," << dist.velocity_product << "," << dist.softening << ","
                   << e.pos.lpNorm<Eigen::Infinity>() << "\n";
          note(key, dist);
        }
      }
    }
  }
  files["mujoco_softness.csv"] = softness.str();
  {
    auto model = mujoco::four_bar(1.0, 2.0);
    const Extracted e = mujoco::extract(*model);
    files["systems/mujoco_crank_rocker_hard.json"] = mujoco::to_solve_json(
        mujoco::hard(e), "MuJoCo hard four-bar",
        "MuJoCo, crank-rocker at 1 rad, 2 rad/s, default solimp/solref: hard Gauss data (M, efc_J, b = −J̇v by "
        "differences of efc_J, J̇v error estimate " + sci(e.Jdot_v_error) + ", qfrc_smooth). MuJoCo's qacc is " +
        sci(distance(e).total) + " from its solution (relative)");
  }
  log << "  softness sweep: " << ds.size() << " impedances × " << timesteps.size() << " timesteps × 2 time constants\n";
  return out;
}

// The report's section: (i) the table of rows, (ii) the softness summary,
// then the findings.
std::string section(const std::vector<Row>& rows, const Softness& softness, const std::string& findings) {
  std::ostringstream md;
  md << "## MuJoCo " << mj_versionString() << "\n\n"
     << "### (i) Does MuJoCo compute the soft Gauss solution it documents?\n\n"
     << "The same mechanisms in MJCF (the planar loops: hinges, a `<connect>` closing the loop, 3 rows, one "
        "identically zero; Bricard's mechanism: hinges, a `<weld>` joining the halves of the cut link, 6 rows of "
        "rank 5). MuJoCo's `qacc` against femc's exact solution of the augmented hard problem built from its "
        "extracted doubles (mass diag(M, efc_D), force (qfrc_smooth, efc_D·efc_aref), constraint [J −I]; full row "
        "rank, so the rank column is the augmented problem's and MuJoCo makes no rank decision). The bound is "
        "MuJoCo's own error law, the first-order error of its Newton step on the soft problem (Hessian "
        "H = M + JᵀDJ, Cholesky; `newton_bound` in engines/mujoco/include/femc/engines/mujoco.hpp states it), "
        "not the rounded-data bound of the augmented problem, whose κ(diag(M, efc_D)) counts the range of efc_D. "
        "`efc_force` against the exact multipliers λ = −efc_D(J x − efc_aref) (unique: [J −I] has full row rank), "
        "to the bound that follows (`force_bound`). A row passes when both are within their bounds. "
        "All rows: `mujoco.csv` (its violation column is MuJoCo's |efc_pos|∞ in m).\n\n"
     << summary_table(rows) << "\n"
     << "### (ii) How far is MuJoCo from hard Gauss?\n\n"
     << "Relative distance |qacc − q̈|∞/|q̈|∞ from hard Gauss with the true b = −J̇v (J̇v by differences of "
        "efc_J), and its two parts: the velocity-product term (hard Gauss with b = a_ref, the stiff limit of "
        "MuJoCo's target, against b = −J̇v) and the softening (qacc against hard Gauss with b = a_ref). Largest "
        "over the states; solimp = \"d d 0.001\"; `mujoco_softness.csv`, `mujoco_softness.png`.\n\n"
        "The velocity-product part concerns MuJoCo 2.2.2, the Debian 12 package, and every release up to "
        "3.6.0: `mj_referenceConstraint` (src/engine/engine_core_constraint.c) sets "
        "efc_aref = −B·efc_vel − K·I·(efc_pos − efc_margin) and nothing else, and 2.2.2's doc/computation.rst "
        "says J̇v is not computed. `mj_jacDot` is an API since 3.2.3 (changelog item 11) that the solver did "
        "not call. From 3.7.0 (commit 412cee20, changelog item 5), `mj_referenceConstraint` subtracts J̇v "
        "(`mj_Jdotv`) from efc_aref for connect and weld rows; joint, tendon and flex equalities and contacts "
        "still go without it, as does MJX. Read in the upstream sources at those tags, not run here.\n\n"
     << "| class | impedance d | solref time constant | timestep | total | velocity-product part | softening part |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const std::string& key : softness.order) {
    const Softness::Worst& w = softness.worst.at(key);
    md << "| " << key << " | " << sci(w.total) << " | " << sci(w.velocity_product) << " | " << sci(w.softening)
       << " |\n";
  }
  md << "\n" << findings << "\n";
  return md.str();
}

}  // namespace

std::string mujoco_campaign(bool quick, const std::vector<std::string>& user_model_files, int steps, Files& files,
                            std::ostream& log) {
  std::vector<Row> rows;
  user_models(user_model_files, steps, rows, files, log);
  along_trajectories(quick, rows, files, log);
  const std::string findings = inertia_finding(files);
  towards_folded(quick, rows, files, log);
  const Softness softness = softness_sweep(quick, files, log);
  files["mujoco.csv"] = csv(rows);
  return section(rows, softness, findings);
}

}  // namespace femc::engines::campaign
