// Study `trajectories`: long runs of the seed systems (femc simulate's
// built-in models), double against MPFR, with and without Baumgarte
// stabilization: how the position-level constraint drift and the
// energy/work balance E(t) − E(0) − W(t) grow with time.
//
// Without stabilization the drift is the integrator's truncation error
// accumulating in φ (only φ̈ = 0 is imposed): it grows with t. Baumgarte's
// b − 2αφ̇ − β²φ (α = β = 5 s⁻¹, critically damped at 5 rad/s) turns φ into
// a damped oscillator and bounds it. MPFR at a tighter tolerance shows the
// same laws one level lower: the tolerance, not the precision, sets them,
// until the tolerance approaches the unit roundoff.
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "femc/dynamics/builtin_models.hpp"
#include "framework/numerics.hpp"
#include "framework/metric_table.hpp"
#include "framework/registry.hpp"
#include "framework/runner.hpp"

namespace femc::studies {
namespace {

// One run of a built-in model through the library (dynamics/simulate.hpp):
// t_end and tol as decimal text, read once at S; records every t_end/200,
// Baumgarte α = β = 5 s⁻¹ when stabilized.
template <class S>
dynamics::Trajectory<S> run_builtin(const std::string& system, const std::string& t_end, const std::string& tol,
                                    bool baumgarte) {
  dynamics::BuiltinModel<S> b = dynamics::make_builtin_model<S>(system);
  dynamics::SimulationOptions<S> opt = b.defaults;
  opt.t_end = ScalarTraits<S>::parse(t_end);
  opt.dt = opt.t_end / S(200);
  opt.abs_tol = opt.rel_tol = ScalarTraits<S>::parse(tol);
  if (baumgarte) opt.baumgarte.alpha = opt.baumgarte.beta = S(5);
  return dynamics::simulate(*b.model, b.q0, b.qd0, opt);
}

template <class S>
std::vector<Row> rows_of(const dynamics::Trajectory<S>& traj, const Cell& cell) {
  const auto& p = cell.params;
  std::vector<Row> rows;
  for (const dynamics::Record<S>& r : traj.records)
    rows.push_back({p.at("system"), p.at("precision"), p.at("stabilization"), p.at("tol"), p.at("t_end"),
                    traj.completed ? "true" : "false", traj.stop_reason, num(traj.steps), num(prop::as_double(r.t)),
                    num(prop::as_double(r.energy)), num(prop::as_double(r.balance)), num(prop::as_double(r.position_violation)),
                    num(prop::as_double(r.velocity_violation))});
  return rows;
}

struct RunSpec {
  std::string system, precision, stabilization;
  std::string t_end, tol;
};

std::vector<RunSpec> specs(Size size) {
  const bool quick = size == Size::Quick;
  std::vector<RunSpec> v;
  for (const char* sys : {"spherical-pendulum", "double-parallelogram", "bead-with-friction"})
    for (const char* stab : {"none", "baumgarte"}) {
      v.push_back({sys, "double", stab, quick ? "20" : "200", "1e-10"});
      // MPFR is ~1000× slower per step: a shorter run, and the parallelogram
      // (the slowest model) only in the full size.
      if (!quick || std::string(sys) != "double-parallelogram")
        v.push_back({sys, "mpfr-128", stab, quick ? "2" : "20", "1e-14"});
    }
  return v;
}

class Trajectories : public Study {
 public:
  std::string name() const override { return "trajectories"; }
  std::string summary() const override {
    return "Constraint drift and energy/work balance of the seed systems over long runs, double against "
           "128-bit MPFR, with and without Baumgarte stabilization.";
  }
  std::vector<std::string> columns() const override {
    return {"system", "precision", "stabilization", "tol", "t_end", "completed", "stop_reason", "steps", "t", "energy", "balance",
            "position_violation", "velocity_violation"};
  }
  std::vector<std::string> precisions(const StudyConfig&) const override { return {"double", "mpfr-128"}; }
  // Steps grow with the span; an MPFR step costs ~1000 double ones (above).
  double cost(const Cell& cell, const StudyConfig&) const override {
    return std::stod(cell.params.at("t_end")) * (cell.params.at("precision") == "double" ? 1 : 1000);
  }

  std::vector<Cell> cells(const StudyConfig& config) const override {
    std::vector<Cell> out;
    for (const RunSpec& s : specs(config.size))
      out.push_back(Cell{s.system + "_" + s.precision + "_" + s.stabilization,
                         {{"system", s.system}, {"precision", s.precision}, {"stabilization", s.stabilization},
                          {"t_end", s.t_end}, {"tol", s.tol}}});
    return out;
  }

  std::vector<Row> run(const Cell& cell, const StudyConfig&) const override {
    const auto& p = cell.params;
    const bool baumgarte = p.at("stabilization") == "baumgarte";
    const std::string& precision = p.at("precision");
    if (precision == "double")
      return rows_of(run_builtin<double>(p.at("system"), p.at("t_end"), p.at("tol"), baumgarte), cell);
    const std::optional<long> bits = mpfr_bits_of(precision);  // "mpfr-<bits>"
    if (!bits) throw std::logic_error("trajectories: a run at " + precision + ", neither double nor MPFR");
    MpfrPrecision guard(*bits);
    return rows_of(run_builtin<mpfr_real>(p.at("system"), p.at("t_end"), p.at("tol"), baumgarte), cell);
  }

  // Per run: the largest |balance| and position drift in units of tol·steps
  // (a one-step method with local error control keeps its global error
  // within about tol per step), floor 1; and whether the run completed
  // (floor 0: a run that stops early where it completed before is worse).
  // The double parallelogram without stabilization is the fragile row: its
  // drift grows e-fold about every 0.55 s from t ≈ 8 s (a mode of the
  // redundant loop), so its values at t = 20 amplify a rounding seed about
  // e²². A change of roundings alone moves them: LAPACK's kernels in double
  // moved its drift 4× and its balance 18× (the baseline was remade then).
  std::vector<Metric> metrics(const Table& t) const override {
    MetricTable m;
    for (const Row& row : t.rows) {
      const std::string key = t.text(row, "system") + "/" + t.text(row, "precision") + "/" + t.text(row, "stabilization");
      const double scale = t.number(row, "tol") * std::max(1.0, t.number(row, "steps"));
      const double energy_scale = std::max(1.0, std::fabs(t.number(row, "energy")));
      m.raise(key + "/balance", std::fabs(t.number(row, "balance")) / (scale * energy_scale), 1);
      m.raise(key + "/drift", t.number(row, "position_violation") / scale, 1);
      m(key + "/incomplete", 0).value = t.text(row, "completed") == "true" ? 0 : 1;
    }
    return m.list();
  }
};

}  // namespace

std::unique_ptr<Study> make_trajectories_study() { return std::make_unique<Trajectories>(); }

}  // namespace femc::studies
