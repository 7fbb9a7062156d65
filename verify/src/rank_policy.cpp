#include "femc/verify/rank_policy.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "femc/verify/exact_data.hpp"

namespace femc::verify {

namespace {
RankBand band_of(const std::vector<double>& sigma, Index rank, double tau) {
  RankBand band;
  if (rank == 0 || sigma.empty() || !(sigma[0] > 0)) return band;
  for (Index i = 0; i < rank; ++i) {
    const double rel = sigma[std::size_t(i)] / sigma[0];
    if (rel > kRankSafety * tau) band.must_keep = i + 1;
    if (rel >= tau / kRankSafety) band.may_keep = i + 1;
  }
  return band;
}
}  // namespace

RankBand rank_band(const ExactReference& ref, double tau) {
  RankBand band = band_of(ref.sigma_B, ref.rank, tau);
  for (const std::vector<double>* sigma : {&ref.sigma_A, &ref.sigma_B_unweighted}) {
    const RankBand other = band_of(*sigma, ref.rank, tau);
    band.must_keep = std::min(band.must_keep, other.must_keep);
    band.may_keep = std::max(band.may_keep, other.may_keep);
  }
  return band;
}

namespace {

std::string g2(double x) {
  std::ostringstream os;
  os.precision(2);
  os << x;
  return os.str();
}

// ‖v‖_M of a difference held at MPFR precision, through the exact value.
double m_norm(const Matrix<rational>& M, const Vector<mpfr_real>& a, const Vector<rational>& b) {
  Vector<rational> d(b.size());
  for (Index i = 0; i < b.size(); ++i) d(i) = prop::to_rational(a(i)) - b(i);
  return prop::norm_in(M, d);
}

}  // namespace

std::string explain_rank_decision(const System<rational>& sys, const ExactReference& ref,
                                  const Vector<rational>& qdd, double tau, long bits) {
  if (ref.rank == 0 || ref.sigma_B.empty()) return "";
  const double s1 = ref.sigma_B[0];
  const double off = prop::norm_in(sys.M, Vector<rational>(qdd - ref.solution.qdd));
  const double scale = prop::norm_in(sys.M, ref.solution.qdd);
  for (Index k = ref.rank - 1; k >= 0; --k) {
    const Solution<mpfr_real> t = truncated_solution(sys, k, bits);
    const double to_truncated = m_norm(sys.M, t.qdd, qdd);
    const double moved = m_norm(sys.M, t.qdd, ref.solution.qdd);
    if (!(to_truncated <= 0.1 * moved) || !(to_truncated < off)) continue;
    Vector<rational> qk(t.qdd.size());
    for (Index i = 0; i < qk.size(); ++i) qk(i) = prop::to_rational(t.qdd(i));
    const double residual = prop::norm_in(sys.W, Vector<rational>(sys.A * qk - sys.b));
    std::ostringstream os;
    os << "the answer is the Gauss solution with " << (ref.rank - k == 1 ? "the constraint direction " : "the directions ")
       << "of σ/σ₁ = ";
    for (Index i = k; i < ref.rank; ++i) os << (i > k ? ", " : "") << g2(ref.sigma_B[std::size_t(i)] / s1);
    os << " dropped (rank " << k << " of " << ref.rank << "; the solver's τ = " << g2(tau)
       << ", and a direction above " << g2(kRankSafety * tau) << " must be kept); dropping "
       << (ref.rank - k == 1 ? "it" : "them") << " moves q̈ by " << g2(moved) << " in the metric of M ("
       << g2(scale > 0 ? moved / scale : moved) << " relative) and leaves ‖W^½(A q̈ − b)‖ = " << g2(residual);
    return os.str();
  }
  return "";
}

}  // namespace femc::verify
