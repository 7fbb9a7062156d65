// Builds and caches the benchmark problems (problems.hpp).
#include "problems.hpp"

#include <map>
#include <random>
#include <utility>

namespace femc::bench {
namespace {

Eigen::MatrixXd integers(std::mt19937& rng, Index rows, Index cols, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  Eigen::MatrixXd X(rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) X(i, j) = d(rng);
  return X;
}

System<double> build(Shape s, RankClass r) {
  std::mt19937 rng(unsigned(1000 * s.n + s.m + (r == RankClass::Deficient ? 7 : 0)));
  const Eigen::MatrixXd R = integers(rng, s.n, s.n, -2, 2);
  Eigen::MatrixXd M = R.transpose() * R;  // integers below 2^53: exact
  for (Index i = 0; i < s.n; ++i) M(i, i) += 1 + i % 3;
  Eigen::MatrixXd A = r == RankClass::Full
                          ? integers(rng, s.m, s.n, -3, 3)
                          : Eigen::MatrixXd(integers(rng, s.m, s.m / 2, -2, 2) * integers(rng, s.m / 2, s.n, -2, 2));
  Eigen::VectorXd b = integers(rng, s.m, 1, -5, 5).col(0);
  Eigen::VectorXd Q = integers(rng, s.n, 1, -5, 5).col(0);
  return make_system<double>(std::move(M), std::move(A), std::move(b), std::move(Q));
}

}  // namespace

const System<double>& problem(Shape s, RankClass r) {
  static std::map<std::pair<Index, int>, System<double>> cache;
  const auto key = std::make_pair(s.n * 100000 + s.m, int(r));
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, build(s, r)).first;
  return it->second;
}

}  // namespace femc::bench
