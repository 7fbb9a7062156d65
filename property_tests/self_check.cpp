// The suite checks itself: the double properties run against deliberately
// wrong solvers, and each must be caught by at least one of them. Two kinds,
// in test code only: the cod method (methods/cod.hxx) rewritten with one
// classic mistake, and, for every registered solver, its own result with
// one error (a 10⁻⁶ relative error in an output, W or C ignored).
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cstdlib>
#include <iostream>
#include <map>

#include "femc/verify/claim_checks.hpp"
#include "femc/verify/claim_table.hpp"

namespace femc::prop {
namespace {

enum class Bug {
  ProjectorSwapped,    // B⁺B in place of I − B⁺B in Qᵂ
  WeightIgnored,       // W treated as I
  RootInverted,        // M^{1/2} where M^{-1/2} belongs in q̈
  FactorTransposed,    // B = A L⁻¹ instead of A L⁻ᵀ
  LambdaWrongSystem,   // λ from Aᵀλ = Qᶜ instead of Qᴺ
  WorkSignFlipped,     // −Qᵂ
  NotMinimumNorm,      // a basic (not minimum-norm) least-squares solution for P⁺
  LooseRankCut,        // P⁺ keeping only σ > 10⁻⁶σ₁, undeclared (the cut femc's engine campaign found in Simbody)
  SquaredCondition,    // P⁺ as Pᵀ(PPᵀ)⁺: the range-space method, κ(P)², declared as error growth 1
};

const char* name(Bug b) {
  switch (b) {
    case Bug::ProjectorSwapped: return "B⁺B in place of I − B⁺B";
    case Bug::WeightIgnored: return "W ignored";
    case Bug::RootInverted: return "M^{1/2} where M^{-1/2} belongs";
    case Bug::FactorTransposed: return "transposed factor of M";
    case Bug::LambdaWrongSystem: return "λ from the wrong system";
    case Bug::WorkSignFlipped: return "sign of Qᵂ flipped";
    case Bug::NotMinimumNorm: return "basic instead of minimum-norm solution";
    case Bug::LooseRankCut: return "rank cut at 10⁻⁶ relative, undeclared";
    case Bug::SquaredCondition: return "range-space solve through P Pᵀ (κ squared), declared error growth 1";
  }
  return "?";
}

Solution<double> wrong_solve(const System<double>& sys, Bug bug) {
  using Mat = Matrix<double>;
  using Vec = Vector<double>;
  const Index n = sys.n(), m = sys.m();
  const bool weighted = m > 0 && !is_identity(sys.W) && bug != Bug::WeightIgnored;
  Eigen::LLT<Mat> chol(sys.M);
  const auto L = chol.matrixL();
  const Vec yQ = L.solve(sys.Q), yC = L.solve(sys.C);
  Mat P = bug == Bug::FactorTransposed ? Mat(L.transpose().solve(sys.A.transpose()).transpose())
                                       : Mat(L.solve(sys.A.transpose()).transpose());
  Vec bt = sys.b;
  Eigen::LLT<Mat> cholW;
  if (weighted) {
    cholW.compute(sys.W);
    P = cholW.matrixU() * P;
    bt = cholW.matrixU() * bt;
  }
  const double tol = default_rank_tolerance<double>(m, n);
  Mat rhs(m, 2);
  rhs.col(0) = bt - P * yQ;
  rhs.col(1) = P * yC;
  Mat x;
  if (bug == Bug::NotMinimumNorm) {
    Eigen::ColPivHouseholderQR<Mat> qr(P);
    qr.setThreshold(tol);
    x = m > 0 ? Mat(qr.solve(rhs)) : Mat(Mat::Zero(n, 2));
  } else if (bug == Bug::SquaredCondition) {
    // x = Pᵀ(PPᵀ)⁺rhs: the normal equations of the minimum-norm problem.
    const Mat G = P * P.transpose();
    x = m > 0 ? Mat(P.transpose() * CompleteOrthogonal<double>(G, default_rank_tolerance<double>(m, m)).solve(rhs))
              : Mat(Mat::Zero(n, 2));
  } else {
    x = CompleteOrthogonal<double>(P, bug == Bug::LooseRankCut ? 1e-6 : tol).solve(rhs);
  }
  const Vec xN = x.col(0);
  Vec xW = bug == Bug::ProjectorSwapped ? Vec(x.col(1)) : Vec(yC - x.col(1));
  if (bug == Bug::WorkSignFlipped) xW = -xW;
  Solution<double> s;
  s.QN = L * xN;
  s.QW = L * xW;
  s.Qc = s.QN + s.QW;
  s.qdd = bug == Bug::RootInverted ? Vec(chol.solve(sys.Q) + L * xN + L.transpose().solve(xW))
                                   : Vec(L.transpose().solve(yQ + xN + xW));
  s.Gg_min = (xN - x.col(1)).squaredNorm();
  s.delta_norm_sq = CompleteOrthogonal<double>(P, tol).residual_norm_sq(bt);
  const Vec& target = bug == Bug::LambdaWrongSystem ? s.Qc : s.QN;
  s.lambda = CompleteOrthogonal<double>(Mat(sys.A.transpose()), tol).solve(target);
  s.diagnostics.rank = CompleteOrthogonal<double>(P, tol).rank();
  return s;
}

// The double properties that apply to a solver (registration.hpp).
std::vector<const ClaimProperty*> applicable_checks(const RegisteredSolver& r) {
  std::vector<const ClaimProperty*> out;
  for (const ClaimProperty& p : claim_properties())
    if (not_applicable(p.needs, r.capabilities(), r.method() == Method::Cod).empty() && !p.needs.decomposition_fact &&
        !p.needs.refusal)
      out.push_back(&p);
  return out;
}

// Runs one property quietly; true when it passed.
bool passes(const ClaimProperty& p, const Solver<double>& solver) {
  std::ostringstream sink;
  auto* old_out = std::cout.rdbuf(sink.rdbuf());
  auto* old_err = std::cerr.rdbuf(sink.rdbuf());
  const bool ok = rc::check([&] { p.at_double(solver); });
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return ok;
}

// The claims that catch `wrong` among `checks`, as " E1_FundamentalEquation …":
// the first one only, which is all the tests assert (a claim that does not
// catch runs all its cases, and every claim in turn took the self-check's
// tests 7.3 minutes of one core); every one with FEMC_SELF_CHECK_EVERY_CLAIM
// set, to measure how many catch each wrong solver (docs/tests.md).
std::string caught_by(const std::vector<const ClaimProperty*>& checks, const Solver<double>& wrong) {
  static const bool every = std::getenv("FEMC_SELF_CHECK_EVERY_CLAIM") != nullptr;
  std::string ids;
  for (const ClaimProperty* p : checks)
    if (!passes(*p, wrong)) {
      ids += " " + p->suite;
      if (!every) break;
    }
  return ids;
}

TEST(SelfCheck, EveryWrongRewriteOfCodIsCaught) {
  const std::vector<const ClaimProperty*> checks = applicable_checks(solvers().get("cod"));
  for (Bug bug : {Bug::ProjectorSwapped, Bug::WeightIgnored, Bug::RootInverted, Bug::FactorTransposed,
                  Bug::LambdaWrongSystem, Bug::WorkSignFlipped, Bug::NotMinimumNorm, Bug::LooseRankCut,
                  Bug::SquaredCondition}) {
    const Solver<double> wrong([bug](const System<double>& sys) { return wrong_solve(sys, bug); });
    const std::string ids = caught_by(checks, wrong);
    std::cout << "wrong solver \"" << name(bug) << "\" caught by:" << (ids.empty() ? " NOTHING" : ids) << "\n";
    EXPECT_FALSE(ids.empty()) << "no property catches: " << name(bug);
  }
}

// Deliberately wrong variants of any solver: its own result with one
// classic error, small enough to pass a loose check (10⁻⁶ relative) or a
// model error (W or C ignored). Each applies where the solver declares the
// output or the system class.
struct Variant {
  const char* what;
  bool (*applies)(const Capabilities&);
  std::function<Solution<double>(const Solver<double>&, const System<double>&)> run;
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> list = {
      {"q̈ off by 10⁻⁶ relative", [](const Capabilities&) { return true; },
       [](const Solver<double>& s, const System<double>& sys) {
         Solution<double> r = s(sys);
         r.qdd *= 1 + 1e-6;
         return r;
       }},
      {"Qᴺ off by 10⁻⁶ relative", [](const Capabilities& c) { return c.returns(outputs::QN); },
       [](const Solver<double>& s, const System<double>& sys) {
         Solution<double> r = s(sys);
         r.QN *= 1 + 1e-6;
         return r;
       }},
      {"λ off by 10⁻⁶ relative", [](const Capabilities& c) { return c.returns(outputs::lambda); },
       [](const Solver<double>& s, const System<double>& sys) {
         Solution<double> r = s(sys);
         r.lambda *= 1 + 1e-6;
         return r;
       }},
      {"W ignored", [](const Capabilities& c) { return c.weighted && c.rank_deficient; },
       [](const Solver<double>& s, const System<double>& sys) {
         System<double> unweighted = sys;
         unweighted.W.setIdentity();
         return s(unweighted);
       }},
      {"C ignored (no working part)", [](const Capabilities& c) { return c.working_forces; },
       [](const Solver<double>& s, const System<double>& sys) {
         System<double> idle = sys;
         idle.C.setZero();
         return s(idle);
       }},
  };
  return list;
}

// WrongVariantsCaught.<solver>.double: every variant of every registered
// solver at double is caught by the double properties that apply to it.
void register_variant_tests() {
  for (const RegisteredSolver& r : solvers().all()) {
    if (!r.runs_at<double>()) continue;
    const RegisteredSolver* solver = &r;
    testing::RegisterTest("WrongVariantsCaught", (r.name() + ".double").c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [solver]() -> testing::Test* {
                            struct Body : testing::Test {
                              const RegisteredSolver* solver;
                              explicit Body(const RegisteredSolver* s) : solver(s) {}
                              void TestBody() override {
                                const Solver<double> right = registered_solver<double>(*solver);
                                const std::vector<const ClaimProperty*> checks = applicable_checks(*solver);
                                for (const Variant& v : variants()) {
                                  if (!v.applies(solver->capabilities())) continue;
                                  Solver<double> wrong(
                                      [&right, run = v.run](const System<double>& sys) { return run(right, sys); },
                                      right.caps, right.name);
                                  const std::string ids = caught_by(checks, wrong);
                                  std::cout << solver->name() << ", " << v.what
                                            << ": caught by" << (ids.empty() ? " NOTHING" : ids) << "\n";
                                  EXPECT_FALSE(ids.empty()) << solver->name() << ": no property catches " << v.what;
                                }
                              }
                            };
                            return new Body(solver);
                          });
  }
}

}  // namespace
}  // namespace femc::prop

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  femc::prop::register_variant_tests();
  return RUN_ALL_TESTS();
}
