#include "numerics.hpp"

#include <Eigen/QR>
#include <cstdio>
#include <functional>
#include <limits>

namespace femc::studies {

double unit_roundoff_of(const std::string& precision) {
  double u = 0;
  with_precision(precision, [&](auto tag) {
    using S = typename decltype(tag)::type;
    u = static_cast<double>(unit_roundoff<S>());
  });
  return u;
}

Random::Random(unsigned long seed, const std::string& key) {
  // FNV-1a of the key, mixed with the seed: each cell has its own stream.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  state_ = h ^ (static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ull);
}

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Random::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
double Random::uniform(double a, double b) { return a + (b - a) * uniform(); }

double Random::normal() {
  double u1 = uniform();
  while (u1 == 0) u1 = uniform();
  const double u2 = uniform();
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * 3.14159265358979323846 * u2);
}

int Random::integer(int lo, int hi) {
  return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
}

Eigen::MatrixXd random_orthogonal(Index n, Random& rng) {
  Eigen::MatrixXd G(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i) G(i, j) = rng.normal();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(G);
  return qr.householderQ() * Eigen::MatrixXd::Identity(n, n);
}

Eigen::MatrixXd matrix_with_condition(Index m, Index n, Index r, double kappa, Random& rng) {
  const Eigen::MatrixXd U = random_orthogonal(m, rng), V = random_orthogonal(n, rng);
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(m, n);
  for (Index i = 0; i < r; ++i) S(i, i) = r > 1 ? std::pow(kappa, -static_cast<double>(i) / (r - 1)) : 1.0;
  return U * S * V.transpose();
}

Eigen::MatrixXd spd_with_condition(Index n, double kappa, Random& rng) {
  const Eigen::MatrixXd U = random_orthogonal(n, rng);
  Eigen::VectorXd d(n);
  for (Index i = 0; i < n; ++i) d(i) = n > 1 ? std::pow(kappa, -static_cast<double>(i) / (n - 1)) : 1.0;
  Eigen::MatrixXd M = U * d.asDiagonal() * U.transpose();
  const Eigen::MatrixXd lower_mirrored = M.transpose();
  M.triangularView<Eigen::StrictlyUpper>() = lower_mirrored.triangularView<Eigen::StrictlyUpper>();
  return M;
}

std::string num(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string num(long x) { return std::to_string(x); }

}  // namespace femc::studies
