// The draws of the claims (femc/verify/generators.hpp) cover the range they
// promise, exactly: at each working precision every number is exact there,
// an exactly rank-deficient A is rank-deficient in the data themselves, and
// the condition numbers reach the precision's limit (κ(B) up to
// 1/(100·u·c) for error growth 1) while staying below it. The distribution
// of each draw's log10 κ(B), κ(M) and σ_min/σ₁ is printed, per kind.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cmath>
#include <map>

#include "femc/scalar/float128.hpp"
#include "femc/verify/claims.hpp"

namespace femc::prop {
namespace {

template <class S>
void draws_cover_the_range(const char* precision, double min_reach) {
  const Solver<S> cod = femc_solver<S>(Method::Cod);
  const Spec spec = with_precision_range<S>(Spec{}, cod.caps);
  std::map<std::string, std::vector<double>> kappa_B;  // by kind
  double largest_B = 0, largest_M = 0, smallest_sigma = 1;
  int deficient = 0;
  const bool ok = rc::check([&] {
    const Case c = draw_case(spec);
    // Every number exact at the working precision.
    auto exact = [&](const Matrix<rational>& X) {
      for (Index i = 0; i < X.rows(); ++i)
        for (Index j = 0; j < X.cols(); ++j) RC_ASSERT(round_dyadic(X(i, j), spec.bits) == X(i, j));
    };
    exact(c.sys.M), exact(c.sys.A), exact(c.sys.b), exact(c.sys.Q), exact(c.sys.C), exact(c.sys.W);
    const verify::ExactReference ref = verify::exact_reference(c.sys, verify::reference_bits(spec.bits));
    RC_ASSERT(ref.rank == c.rank);
    if (c.kind.rfind("rank-deficient", 0) == 0) {
      RC_ASSERT(c.rank < c.sys.m());
      ++deficient;
    }
    // Within the budget (κ(B) may exceed 10^max by the geometric spectra's
    // rounding and the mechanisms' own constants, not by orders).
    RC_ASSERT(std::log10(ref.kappa_M) <= spec.max_log10_kappa + 1);
    RC_ASSERT(std::log10(verify::solve_kappa(ref)) <= spec.max_log10_kappa + 2);
    kappa_B[c.kind.substr(0, c.kind.find(','))].push_back(std::log10(ref.kappa_B));
    largest_B = std::max(largest_B, ref.kappa_B);
    largest_M = std::max(largest_M, ref.kappa_M);
    if (ref.rank > 0) smallest_sigma = std::min(smallest_sigma, ref.sigma_B[std::size_t(ref.rank - 1)] / ref.sigma_B[0]);
  });
  EXPECT_TRUE(ok);
  std::cout << precision << ": the draws reach κ(B) = " << largest_B << ", κ(M) = " << largest_M
            << ", σ_min/σ₁ of B = " << smallest_sigma << " (the limit 10^" << spec.max_log10_kappa << "); "
            << deficient << " exactly rank-deficient\n";
  for (const auto& [kind, v] : kappa_B) {
    int hist[5] = {0, 0, 0, 0, 0};  // log10 κ(B) in fifths of the budget
    for (double k : v) ++hist[std::min(4, std::max(0, int(5 * k / std::max(spec.max_log10_kappa, 1e-9))))];
    std::cout << "  " << kind << ": " << v.size() << " draws; log10 κ(B) by fifths of the budget: " << hist[0] << " "
              << hist[1] << " " << hist[2] << " " << hist[3] << " " << hist[4] << "\n";
  }
  EXPECT_GE(largest_B, min_reach) << "the draws do not reach the ill-conditioned range";
}

TEST(Generators, DrawTheWholeRangeExactlyAtDouble) { draws_cover_the_range<double>("double", 1e10); }
TEST(Generators, DrawTheWholeRangeExactlyAtFloat128) { draws_cover_the_range<float128>("float128", 1e25); }
TEST(Generators, DrawTheWholeRangeExactlyAtMpfr256) {
  MpfrPrecision bits(256);
  draws_cover_the_range<mpfr_real>("mpfr-256", 1e60);
}

}  // namespace
}  // namespace femc::prop
