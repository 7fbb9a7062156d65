// The suite checks itself: every property runs against deliberately wrong
// solvers, and each wrong solver must be caught by at least one property.
// The wrong solvers live here, in test code only. Each is the cod method
// (methods/cod.hxx) rewritten with one classic mistake.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "support/claim_checks.hpp"

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
  } else {
    x = CompleteOrthogonal<double>(P, tol).solve(rhs);
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

using Check = void (*)(const Solver<double>&);

const std::map<std::string, Check>& all_checks() {
  using namespace claims;
  static const std::map<std::string, Check> checks = {
      {"E1", E1<double>},   {"E2", E2<double>},   {"E3", E3<double>},   {"E4", E4<double>},
      {"E5", E5<double>},   {"U1", U1<double>},   {"U2", U2<double>},   {"U3", U3<double>},
      {"U4", U4<double>},   {"U5", U5<double>},   {"G1", G1<double>},   {"G2", G2<double>},
      {"G3", G3<double>},   {"G4", G4<double>},   {"G5", G5<double>},   {"G6", G6<double>},
      {"G7", G7<double>},   {"G8", G8<double>},   {"G9", G9<double>},   {"G9-W", G9_WMatters<double>},
      {"G10", G10<double>}, {"G11", G11<double>}, {"G12", G12<double>}, {"Meta-cov", Meta_Covariance<double>},
      {"Meta-perm", Meta_RowPermutation<double>}, {"Meta-units", Meta_UnitScaling<double>}};
  return checks;
}

// Runs one property quietly; true when it passed.
bool passes(Check check, const Solver<double>& solver) {
  std::ostringstream sink;
  auto* old_out = std::cout.rdbuf(sink.rdbuf());
  auto* old_err = std::cerr.rdbuf(sink.rdbuf());
  const bool ok = rc::check([&] { check(solver); });
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return ok;
}

TEST(SelfCheck, TheRealSolverPassesEveryProperty) {
  for (const auto& [id, check] : all_checks()) EXPECT_TRUE(passes(check, femc_solver<double>())) << id;
}

TEST(SelfCheck, EveryWrongSolverIsCaught) {
  for (Bug bug : {Bug::ProjectorSwapped, Bug::WeightIgnored, Bug::RootInverted, Bug::FactorTransposed,
                  Bug::LambdaWrongSystem, Bug::WorkSignFlipped, Bug::NotMinimumNorm}) {
    const Solver<double> wrong = [bug](const System<double>& sys) { return wrong_solve(sys, bug); };
    std::string caught_by;
    for (const auto& [id, check] : all_checks())
      if (!passes(check, wrong)) caught_by += " " + id;
    std::cout << "wrong solver \"" << name(bug) << "\" caught by:" << (caught_by.empty() ? " NOTHING" : caught_by)
              << "\n";
    EXPECT_FALSE(caught_by.empty()) << "no property catches: " << name(bug);
  }
}

}  // namespace
}  // namespace femc::prop
