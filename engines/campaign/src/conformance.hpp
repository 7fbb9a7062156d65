#pragma once
// What the engine campaigns share: the exact Gauss reference of an engine's
// extracted doubles, the rows of the conformance tables, and the files of
// the report (written together at the end by campaign.cpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "femc/scalar/rational.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc::engines::campaign {

// The Gauss solution of an engine's data, exact in the extracted doubles with
// the rank decided at their precision (double), and the first-order bound
// within which a backward-stable engine's answer must lie: twice the
// rounded-data bound (verify/exact_data.hpp), M symmetrized.
struct Reference {
  System<rational> data;
  Solution<rational> exact;
  Index rank = 0;               // decided at the data's precision
  double qdd_inf = 0;           // |q̈|∞
  double bound = 0;             // absolute, on |q̈ − engine|∞
  double sigma_ratio = 0;       // σ_r/σ₁ of A M^{-1/2} (double), r the rank
  double sigma_next = 0;        // σ_{r+1}/σ₁ (0 when r = m)
  double delta = 0;             // ‖A q̈ − b‖ / (‖A‖‖q̈‖ + ‖b‖): 0 when b is consistent
};
Reference reference(const System<rational>& data, double engine_qdd_inf);
Reference reference(const System<double>& data, double engine_qdd_inf);  // each double exactly

// The exact Gauss solution of the same data with one more direction dropped
// (rank tolerance just above the smallest kept magnitude); nullopt at rank 0.
std::optional<Vector<double>> reference_with_one_direction_dropped(const Reference& ref);

Vector<double> to_double(const Vector<rational>& x);

// One row of an engine's conformance table.
struct Row {
  std::string mechanism, state_class;
  double theta = 0, omega = 0, t = 0;
  double sigma_ratio = 0, sigma_next = 0, delta = 0;
  Index rank_femc = 0;
  std::string rank_engine;      // the rank the engine's answer is nearest to, or "soft"
  double error = 0, bound = 0;  // relative to |q̈|∞
  double violation = 0;         // |A u̇ − b|∞ / (|A|∞|u̇|∞ + |b|∞) of the engine's answer
  // The constraint force the engine applies against the exact one, relative
  // to the exact one's |·|∞ (Aᵀλ: unique where λ is not, redundant rows).
  double force_error = 0, force_bound = 0;
  bool pass = false;
  std::string note;
};
std::string csv(const std::vector<Row>& rows);
// The README's table: one line per (mechanism, state class), in first-seen
// order: states, largest error, its bound, largest error ÷ bound, passes, rank
// agreement.
std::string summary_table(const std::vector<Row>& rows);

// The report's files, path (relative to OUT) → text.
using Files = std::map<std::string, std::string>;

// The campaigns. Each appends its rows and files, and returns its section of
// OUT/README.md.
std::string simbody_campaign(bool quick, Files& files, std::ostream& log);
std::string mujoco_campaign(bool quick, const std::vector<std::string>& user_models, int steps, Files& files,
                            std::ostream& log);
std::string ode_campaign(bool quick, Files& files, std::ostream& log);
std::string bullet_campaign(bool quick, Files& files, std::ostream& log);

// The change-point four-bar's crank angles towards its folded configuration,
// θ = 10^(−k/2) for k = 2 … 8 (quick) or 16, the loop's second singular
// value falling like θ, then θ = 0 itself (folded): every engine's campaign
// walks the same states.
struct ChangePointState {
  double theta;
  bool folded;
};
std::vector<ChangePointState> change_point_states(bool quick);

// A mechanism's name as part of a file name: "closed chain" → "closed_chain".
std::string slug(const std::string& name);

// "1.2e-15" (3 significant digits).
std::string sci(double x);
// A parameter as written: 0.2, 1e-10, 0.9999 (up to 6 digits, not sci's 3).
std::string num(double x);

double inf_norm(const Vector<double>& x);

// Hard Gauss at the data's precision (femc's default method, double): the
// reference the campaigns' (ii) split their distances along.
Solution<double> hard_gauss(const System<double>& sys);

}  // namespace femc::engines::campaign
