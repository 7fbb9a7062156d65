// ODE on its own mechanisms (issue "Real engines"): (i) does dWorldStep
// compute the solution of the soft problem its source describes (the
// augmented problem of engines/ode/.../ode.hpp), along its own trajectories
// of the crank-rocker, the closed chain and Bricard's mechanism, near the
// change-point four-bar's singular configuration and at it; (ii) how far is
// that from hard Gauss with the true b = −J̇u, and how much of the distance is
// the velocity-product term ODE never forms, its implicit gyroscopic torque
// and its softening (ERP, CFM), against ERP, CFM and the step; (iii)
// dWorldStep against dWorldQuickStep, at ODE's 20 iterations and converged;
// (v) the defaults that change ODE's motion, read from ODE itself.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <utility>

#include "conformance.hpp"
#include "femc/engines/ode.hpp"
#include "femc/solve.hpp"

namespace femc::engines::campaign {
namespace {

namespace loop = planar_loop;
using ode::Extracted;
using ode::Mechanism;
using ode::StepOptions;
using ode::Stepper;

using MakeMechanism = std::function<std::unique_ptr<Mechanism>()>;


// The mechanism's first joint (a hinge in every mechanism here): its angle and
// rate, read before a step.
struct Reading {
  double theta, omega, t;
};
Reading first_hinge(const Mechanism& m) {
  const dJointID j = m.joints().front().id;
  return {dJointGetHingeAngle(j), dJointGetHingeAngleRate(j), m.time()};
}

// (i) ODE's answer, a = (v⁺ − v)/h and the constraint force it applied
// (summed from dJointFeedback), against femc's solution of its soft problem,
// to step_bound. The rebuild must also reproduce ODE's own outputs (the
// body-2 feedback from the body-1 feedback, and the velocity change from the
// feedback): a row whose rebuild fails them is not a pass whatever its error.
Row evaluate(const Extracted& e, const Reading& at, const std::string& mechanism, const std::string& state_class) {
  const ode::SoftSolution x = ode::solve_soft(e);
  const ode::StepBound bound = ode::step_bound(e, x);
  const Solution<double> hard = hard_gauss(ode::hard(e));
  Row r;
  r.mechanism = mechanism;
  r.state_class = state_class;
  r.theta = at.theta;
  r.omega = at.omega;
  r.t = at.t;
  const auto& rank = hard.diagnostics.rank;
  r.rank_femc = rank.rank;  // of J at the data's precision (the hard problem's)
  if (rank.largest > 0) {
    r.sigma_ratio = rank.smallest_kept / rank.largest;
    r.sigma_next = rank.largest_dropped / rank.largest;
  }
  r.rank_engine = "soft";
  const double scale = std::max(inf_norm(x.accel), 1e-300), force_scale = std::max(inf_norm(x.force), 1e-300);
  const double err = inf_norm(x.accel - e.accel), force_err = inf_norm(x.force - e.force);
  r.error = err / scale;
  r.bound = bound.accel / scale;
  r.force_error = force_err / force_scale;
  r.force_bound = bound.force / force_scale;
  r.violation = inf_norm(e.rows.e);  // ODE's position error |e|∞ (m, rad)
  const ode::FeedbackCheck fb = ode::check_feedback(e);
  const ode::VelocityCheck vc = ode::check_velocity_change(e);
  const bool rebuilt = fb.gap <= fb.tolerance && fb.recovery_residual <= fb.recovery_tolerance && vc.gap <= vc.tolerance;
  if (!rebuilt)
    r.note = "the rebuild does not reproduce ODE's outputs (feedback " + sci(fb.gap) + " vs " + sci(fb.tolerance) +
             "; velocity change " + sci(vc.gap) + " vs " + sci(vc.tolerance) + ")";  // no comma: a CSV field
  r.pass = rebuilt && err <= bound.accel && force_err <= bound.force && r.bound < 1;
  if (r.bound >= 1) r.note += std::string(r.note.empty() ? "" : "; ") + "bound ≥ |a|∞: no check";
  return r;
}

std::string augmented_json(const Extracted& e, const std::string& name, const std::string& description) {
  return ode::to_solve_json(ode::augmented(e), "ODE augmented " + name, description);
}

// `samples` states along ODE's own dWorldStep trajectory from the
// mechanism's state over `span` seconds, each checked as (i) (the check is
// the step itself); the worst is written as systems/ode_<name>_worst_augmented.json.
void trajectory(Mechanism& m, const std::string& name, double span, bool quick, std::vector<Row>& rows, Files& files,
                std::ostream& log) {
  const int samples = quick ? 4 : 24;
  const int steps = int(std::lround(span / m.step_size()));
  double worst = -1;
  const std::string file = slug(name);
  for (int k = 0, step = 0; k < samples; ++k) {
    const int target = steps * k / (samples - 1);
    for (; step < target; ++step) m.step();
    const Reading at = first_hinge(m);
    const Extracted e = ode::extract(m);
    ++step;
    const Row row = evaluate(e, at, name, "trajectory");
    if (row.error / row.bound > worst) {
      worst = row.error / row.bound;
      files["systems/ode_" + file + "_worst_augmented.json"] = augmented_json(
          e, name,
          "ODE, " + name + " at t = " + sci(row.t) +
              " s: dWorldStep's soft problem as a hard one (unknowns a, s; mass diag(M_ode, h/cfm); force (f, "
              "(h/cfm)·a_ref); [J −I](a, s) = 0) where its largest error ÷ bound occurs");
    }
    rows.push_back(row);
  }
  log << "  " << name << " trajectory: " << samples << " states\n";
}

// (i) 2. The change-point four-bar towards, and at, its folded configuration.
void towards_folded(bool quick, std::vector<Row>& rows, Files& files, std::ostream& log) {
  const std::vector<ChangePointState> states = change_point_states(quick);
  for (const auto& [theta, folded] : states) {
    auto m = ode::four_bar(theta, 1.0, loop::kChangePoint);
    const Reading at = first_hinge(*m);
    const Extracted e = ode::extract(*m);
    rows.push_back(evaluate(e, at, "change-point", folded ? "folded (θ = 0)" : "near singular"));
    if (folded)
      files["systems/ode_change_point_folded_hard.json"] = ode::to_solve_json(
          ode::hard(e), "ODE hard four-bar",
          "ODE, change-point four-bar folded flat (θ = 0) at 1 rad/s, maximal coordinates: hard Gauss data (M, the "
          "rebuilt rows J, b = −J̇u, gravity − ω×Iω)");
  }
  log << "  change-point near singular and folded: " << states.size() << " states\n";
}

// (ii) The distance of ODE's a from hard Gauss with the true b and force,
// q̈(M, J, −J̇u, Q), split along a chain of hard problems: the target ODE's
// rows pull J a towards (b = a_ref = (ERP/h²)e − Jv/h, its stiff limit: the
// velocity-product part), ODE's force f in place of Q (its implicit
// gyroscopic torque: the force part), and ODE's a against that (the softening
// by CFM: the softening part). Each relative to |q̈|∞.
struct Distance {
  double total, velocity_product, force, softening;
};
Distance distance(const Extracted& e) {
  const System<double> truth = ode::hard(e);
  System<double> stiff = truth;
  stiff.b = ode::target(e);
  System<double> stiff_f = stiff;
  stiff_f.Q = e.f;
  const Vector<double> q_true = hard_gauss(truth).qdd, q_target = hard_gauss(stiff).qdd, q_stiff = hard_gauss(stiff_f).qdd;
  const double s = std::max(inf_norm(q_true), 1e-300);
  return {inf_norm(e.accel - q_true) / s, inf_norm(q_target - q_true) / s, inf_norm(q_stiff - q_target) / s,
          inf_norm(e.accel - q_stiff) / s};
}

struct Softness {
  struct Worst {
    double total = 0, velocity_product = 0, force = 0, softening = 0;
  };
  std::map<std::string, Worst> worst;
  std::vector<std::string> order;  // the classes, first seen first
};


Softness softness_sweep(bool quick, Files& files, std::ostream& log) {
  std::ostringstream csv_out;
  csv_out << "class,erp,cfm,h,state,t,total,velocity_product,force,softening,violation\n";
  csv_out.precision(6);
  const std::vector<double> erps = quick ? std::vector<double>{0.2} : std::vector<double>{0.2, 0.8};
  const std::vector<double> cfms{1e-10, 1e-6};
  const std::vector<double> hs = quick ? std::vector<double>{0.002} : std::vector<double>{0.0005, 0.002, 0.008};
  Softness out;
  auto note = [&](const std::string& key, const Distance& d) {
    if (!out.worst.count(key)) out.order.push_back(key);
    Softness::Worst& w = out.worst[key];
    w.total = std::max(w.total, d.total);
    w.velocity_product = std::max(w.velocity_product, d.velocity_product);
    w.force = std::max(w.force, d.force);
    w.softening = std::max(w.softening, d.softening);
  };
  for (double erp : erps)
    for (double cfm : cfms) {
      // Exact states: the adapter's assembly (e and J u at rounding), so
      // a_ref is rounding and the whole velocity-product term is missing.
      const int states = quick ? 3 : 8;
      for (int k = 0; k < states; ++k) {
        auto m = ode::four_bar(2 * M_PI * k / states, 2.0);
        m->set_softness(erp, cfm);
        const Extracted e = ode::extract(*m);
        const Distance d = distance(e);
        csv_out << "exact states," << erp << "," << cfm << "," << e.h << "," << k << ",0," << d.total << ","
                << d.velocity_product << "," << d.force << "," << d.softening << "," << inf_norm(e.rows.e) << "\n";
        note("exact states | " + num(erp) + " | " + num(cfm) + " | " + num(e.h), d);
      }
      for (double h : hs) {
        auto m = ode::four_bar(1.0, 2.0);
        m->set_softness(erp, cfm);
        m->set_step_size(h);
        const int samples = quick ? 3 : 12;
        const int steps = int(std::lround(1.0 / h));
        const std::string key = "trajectory | " + num(erp) + " | " + num(cfm) + " | " + num(h);
        for (int k = 0, step = 0; k < samples; ++k) {
          const int target = steps * (k + 1) / samples;
          for (; step + 1 < target; ++step) m->step();
          const double t = m->time();
          const Extracted e = ode::extract(*m);
          ++step;
          const Distance d = distance(e);
          csv_out << "trajectory," << erp << "," << cfm << "," << h << "," << k << "," << t << "," << d.total << ","
                  << d.velocity_product << "," << d.force << "," << d.softening << "," << inf_norm(e.rows.e) << "\n";
          note(key, d);
        }
      }
    }
  files["ode_softness.csv"] = csv_out.str();
  {
    auto m = ode::four_bar(1.0, 2.0);
    const Extracted e = ode::extract(*m);
    files["systems/ode_crank_rocker_hard.json"] = ode::to_solve_json(
        ode::hard(e), "ODE hard four-bar",
        "ODE, crank-rocker at 1 rad, 2 rad/s, ODE's defaults, maximal coordinates: hard Gauss data (M, the rebuilt "
        "rows J, b = −J̇u, gravity − ω×Iω). ODE's a is " + sci(distance(e).total) + " from its solution (relative)");
  }
  log << "  softness sweep: " << erps.size() << " ERPs × " << cfms.size() << " CFMs × " << hs.size() << " steps\n";
  return out;
}

// (iii) dWorldStep against dWorldQuickStep at the same state: two mechanisms
// built and stepped alike (the same operations give the same bits), one
// answering by dWorldStep, the other by dWorldQuickStep at 20 (ODE's
// default), 100, 1000 and 10000 iterations (w = 1.3, ODE's; seed 0); each
// against femc's solution of its own soft problem.
struct QuickRow {
  std::string mechanism;
  int iterations;  // 0: dWorldStep
  double error;
};
std::vector<QuickRow> quickstep_comparison(bool quick, Files& files, std::ostream& log) {
  const std::vector<std::pair<std::string, MakeMechanism>> mechanisms{
      {"crank-rocker", [] { return ode::four_bar(1.0, 2.0); }},
      {"closed chain", [] { return ode::planar_loop(loop::kClosedChain, loop::kClosedChainStart, {0, 0, 0, 0}); }},
      {"Bricard", [] { return ode::bricard(); }}};
  const std::vector<int> iterations = quick ? std::vector<int>{0, 20, 1000} : std::vector<int>{0, 20, 100, 1000, 10000};
  const int steps = quick ? 50 : 250;  // 0.1 s or 0.5 s of dWorldStep first
  std::vector<QuickRow> out;
  std::ostringstream csv_out;
  csv_out << "mechanism,stepper,iterations,error\n";
  for (const auto& [name, make] : mechanisms) {
    for (int its : iterations) {
      auto m = make();
      for (int k = 0; k < steps; ++k) m->step();
      StepOptions opt;
      if (its > 0) {
        opt.stepper = Stepper::quick_step;
        opt.quick_iterations = its;
      }
      const Extracted e = ode::extract(*m, opt);
      const ode::SoftSolution x = ode::solve_soft(e);
      const double err = inf_norm(x.accel - e.accel) / std::max(inf_norm(x.accel), 1e-300);
      out.push_back({name, its, err});
      csv_out << name << "," << (its == 0 ? "dWorldStep" : "dWorldQuickStep") << "," << its << "," << err << "\n";
    }
  }
  files["ode_quickstep.csv"] = csv_out.str();
  log << "  dWorldStep against dWorldQuickStep: " << mechanisms.size() << " mechanisms\n";
  return out;
}

// (v) What ODE does by default, read from ODE, and what it does to the motion.
std::string defaults_finding(const std::vector<Row>& rows, std::ostream& log) {
  std::ostringstream md;
  auto m = ode::four_bar(1.0, 2.0);
  const ode::Defaults d = ode::defaults(*m);
  md << "- **Defaults read from ODE** (a fresh four-bar): ERP " << num(d.erp) << ", CFM " << num(d.cfm)
     << " (the world's); QuickStep " << d.quick_iterations << " iterations, w = " << num(d.quick_w)
     << "; gyroscopic mode " << (d.gyroscopic ? "on" : "off") << " on every body; auto-disable "
     << (d.auto_disable ? "on" : "off") << "; damping " << num(d.linear_damping) << " / " << num(d.angular_damping)
     << "; maximal angular speed " << num(d.max_angular_speed) << "; hinge stops " << num(d.lo_stop) << " … "
     << num(d.hi_stop) << ", motor force " << num(d.fmax) << "; the library: `" << d.configuration << "`.\n";
  // A ball joint keeps the ERP and CFM the world had when it was created.
  {
    dWorldSetCFM(m->world(), 1e-6);
    dWorldSetERP(m->world(), 0.8);
    const dJointID ball = m->joints().back().id;
    md << "- **A ball joint keeps the world's ERP and CFM of its creation** (ball.cpp l.37–38): after "
          "dWorldSetERP(0.8) and dWorldSetCFM(1e-6) the four-bar's closing ball still has ERP "
       << num(dJointGetBallParam(ball, dParamERP)) << " and CFM " << num(dJointGetBallParam(ball, dParamCFM))
       << ", while its hinges' rows take the world's. `Mechanism::set_softness` sets both.\n";
  }
  // The implicit gyroscopic torque against −ω × Iω along Bricard's trajectory.
  {
    auto b = ode::bricard();
    double gap = 0, scale = 0;
    for (int k = 0; k < 50; ++k) {
      const Extracted e = ode::extract(*b);
      gap = std::max(gap, inf_norm(e.gyroscopic_gap));
      for (Index o = 3; o < e.Q.size(); o += 6) scale = std::max(scale, e.Q.segment<3>(o).lpNorm<Eigen::Infinity>());
    }
    md << "- **Gyroscopic torque.** ODE adds (I·Ĩ⁻¹ − 1)·L/h with Ĩ = I − h[L]× (step.cpp l.642–706, "
          "Lacoursière's implicit form), not −ω × Iω: on Bricard's mechanism over 0.1 s at h = 0.002 the two differ "
          "by up to "
       << sci(gap) << " N·m (largest applied torque " << sci(scale)
       << "); the force part of (ii) is its effect on the acceleration. On the planar loops the torque vanishes "
          "(ω along a principal axis).\n";
  }
  md << "- **dWorldStep never pivots here.** With only bilateral rows (hinges and balls without stops or "
        "motors) every row is unbounded, and dxSolveLCP factors A = J M⁻¹Jᵀ + CFM/h by LDLᵀ without pivoting "
        "(lcp.cpp l.814–846): Dantzig's method and its \"LCP internal error\" are not reached, and the redundant "
        "rows are held only by CFM, A's smallest eigenvalue being about CFM/h.\n"
     << "- **QuickStep reorders its rows at random** every 8 iterations from ODE's one global generator "
        "(quickstep.cpp l.69, l.2457): its answer depends on every earlier call of dRand; the campaign seeds it "
        "(dRandSetSeed(0)) before each QuickStep.\n";
  std::size_t failing = 0;
  for (const Row& r : rows) failing += !r.pass;
  log << "  defaults read\n";
  if (failing > 0) md << "- **" << failing << " of " << rows.size() << " states outside the bound** (`ode.csv`).\n";
  return md.str();
}

std::string section(const std::vector<Row>& rows, const Softness& softness, const std::vector<QuickRow>& quick_rows,
                    const std::string& findings) {
  std::ostringstream md;
  md << "## ODE " << dODE_VERSION << "\n\n"
     << "### (i) Does dWorldStep compute the solution of the soft problem in its source?\n\n"
     << "The same mechanisms in ODE, in maximal coordinates (each body's centre-of-mass velocity and angular "
        "velocity): the planar loops as rods joined by hinges and closed by a ball joint, Bricard's mechanism as "
        "five bodies and six hinges (the cut link's halves one body). ODE hides its rows; the adapter rebuilds "
        "them from each joint's stored geometry with ODE's own formulas and checks the rebuild against ODE's "
        "getters and against its outputs (each joint's body-2 feedback from its body-1 feedback through the rows, "
        "and the velocity change from the feedback). dWorldStep's answer, a = (v⁺ − v)/h, against femc's "
        "solution (256 bits, method cod) of the augmented hard problem built from the rebuilt data (mass "
        "diag(M_ode, h/cfm), force (f, (h/cfm)·a_ref), a_ref = (ERP/h²)e − Jv/h, constraint [J −I]), to the "
        "first-order error law of its LDLᵀ solve (`step_bound` in engines/ode/include/femc/engines/ode.hpp); the "
        "constraint force it applied, summed from dJointFeedback, against the exact Jᵀλ. The rank column is J's "
        "at the data's precision (the soft problem has no rank to decide). ERP, CFM at ODE's defaults, h = 0.002 "
        "s. All rows: `ode.csv` (its violation column is ODE's position error |e|∞).\n\n"
     << summary_table(rows) << "\n"
     << "### (ii) How far is ODE from hard Gauss?\n\n"
     << "Relative distance |a − q̈|∞/|q̈|∞ from hard Gauss with the true b = −J̇u and force gravity − ω × Iω, and "
        "its parts: the velocity-product part (hard Gauss with b = a_ref, the target of ODE's rows, against "
        "b = −J̇u), the force part (ODE's implicit gyroscopic torque in place of −ω × Iω) and the softening part (a "
        "against hard Gauss with b = a_ref and ODE's force: CFM). Largest over the states of the crank-rocker "
        "(exact states from the adapter's assembly, and ODE's own trajectory from 1 rad at 2 rad/s over 1 s); "
        "`ode_softness.csv`.\n\n"
     << "| class | ERP | CFM | h | total | velocity-product part | force part | softening part |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (const std::string& key : softness.order) {
    const Softness::Worst& w = softness.worst.at(key);
    md << "| " << key << " | " << sci(w.total) << " | " << sci(w.velocity_product) << " | " << sci(w.force) << " | "
       << sci(w.softening) << " |\n";
  }
  md << "\n### (iii) dWorldStep against dWorldQuickStep\n\n"
     << "At one state of each mechanism (after its own dWorldStep motion), each stepper's a against femc's "
        "solution of its soft problem (relative); QuickStep at ODE's 20 iterations and more (w = 1.3, seed 0). "
        "`ode_quickstep.csv`.\n\n"
     << "| mechanism | stepper | iterations | error |\n|---|---|---|---|\n";
  for (const QuickRow& q : quick_rows)
    md << "| " << q.mechanism << " | " << (q.iterations == 0 ? "dWorldStep" : "dWorldQuickStep") << " | "
       << (q.iterations == 0 ? std::string("—") : std::to_string(q.iterations)) << " | " << sci(q.error) << " |\n";
  md << "\n### (v) Defaults and findings\n\n" << findings << "\n";
  return md.str();
}

}  // namespace

std::string ode_campaign(bool quick, Files& files, std::ostream& log) {
  std::vector<Row> rows;
  // (i) 1. Along dWorldStep's own trajectories: the crank-rocker from 1 rad
  // at 2 rad/s, the closed chain from rest, Bricard's mechanism from the
  // example's start.
  trajectory(*ode::four_bar(1.0, 2.0), "crank-rocker", 3.0, quick, rows, files, log);
  trajectory(*ode::planar_loop(loop::kClosedChain, loop::kClosedChainStart, {0, 0, 0, 0}), "closed chain", 3.0, quick,
             rows, files, log);
  trajectory(*ode::bricard(), "Bricard", 1.0, quick, rows, files, log);
  towards_folded(quick, rows, files, log);
  const Softness softness = softness_sweep(quick, files, log);
  const std::vector<QuickRow> quick_rows = quickstep_comparison(quick, files, log);
  const std::string findings = defaults_finding(rows, log);
  files["ode.csv"] = csv(rows);
  return section(rows, softness, quick_rows, findings);
}

}  // namespace femc::engines::campaign
