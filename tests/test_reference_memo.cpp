// verify::memoized_exact_reference (reference.hpp): the claims' tests share
// the exact reference of a drawn system between the solvers of one process.
// A key that missed a field would hand a system the reference of another,
// and every claim would then judge against the wrong exact answer: each
// field of the system is changed in turn, and the memoized reference must be
// the changed system's own, which differs from the first one's.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "femc/scalar/rational.hpp"
#include "femc/verify/reference.hpp"

namespace femc {
namespace {

System<rational> base_system() {
  Matrix<rational> M(2, 2), A(2, 2), W(2, 2);
  Vector<rational> b(2), Q(2), C(2);
  M << 3, 1, 1, 2;
  A << 1, 2, 2, 4;  // rank 1, and b inconsistent: W matters (G9)
  W << 2, 1, 1, 3;
  b << 1, 3;
  Q << 1, -1;
  C << rational(1, 2), 0;
  System<rational> sys = make_system<rational>(M, A, b, Q);
  sys.C = C;
  sys.W = W;
  return sys;
}

// The quantities of a reference any field of the system can move.
std::vector<std::string> fingerprint(const verify::ExactReference& r) {
  std::vector<std::string> out;
  for (Index i = 0; i < r.solution.qdd.size(); ++i) out.push_back(r.solution.qdd(i).str());
  for (Index i = 0; i < r.solution.QW.size(); ++i) out.push_back(r.solution.QW(i).str());
  out.push_back(r.solution.delta_norm_sq.str());
  for (const double x : {r.kappa_M, r.kappa_W, r.kappa_A, r.norm_y}) out.push_back(std::to_string(x));
  return out;
}

TEST(ReferenceMemo, EachFieldOfTheSystemIsInTheKey) {
  const System<rational> base = base_system();
  const auto first = fingerprint(verify::memoized_exact_reference(base, 256));
  EXPECT_EQ(first, fingerprint(verify::exact_reference(base, 256)));
  const std::vector<std::pair<const char*, std::function<void(System<rational>&)>>> changes = {
      {"M", [](System<rational>& s) { s.M(0, 0) += 1; }},
      {"A", [](System<rational>& s) { s.A(0, 1) += 1; }},
      {"b", [](System<rational>& s) { s.b(1) += 1; }},
      {"Q", [](System<rational>& s) { s.Q(0) += 1; }},
      {"C", [](System<rational>& s) { s.C(1) += 1; }},
      {"W", [](System<rational>& s) { s.W(1, 1) += 1; }},
  };
  for (const auto& [field, change] : changes) {
    System<rational> changed = base;
    change(changed);
    const auto own = fingerprint(verify::exact_reference(changed, 256));
    ASSERT_NE(own, first) << field << ": the change does not move the reference (the check could not fail)";
    EXPECT_EQ(fingerprint(verify::memoized_exact_reference(changed, 256)), own)
        << field << " is not in the memo's key: the changed system got another system's reference";
  }
  EXPECT_EQ(fingerprint(verify::memoized_exact_reference(base, 256)), first);  // and the first is still there
}

}  // namespace
}  // namespace femc
