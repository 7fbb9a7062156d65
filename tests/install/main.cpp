// A downstream program: a unit-mass particle on the plane x + y + z = c under
// gravity g = 9: q̈ = (3, 3, −6), printed at double.
#include <femc/scalar/builtin.hpp>
#include <femc/solve.hpp>

#include <iostream>
#include <limits>

int main() {
  femc::Matrix<double> M = femc::Matrix<double>::Identity(3, 3), A(1, 3);
  A << 1, 1, 1;
  femc::Vector<double> b(1), Q(3);
  b << 0;
  Q << 0, 0, -9;
  const auto s = femc::solve(femc::make_system<double>(M, A, b, Q));
  std::cout << s.qdd(0) << " " << s.qdd(1) << " " << s.qdd(2) << "\n";
  const femc::Vector<double> expected = (femc::Vector<double>(3) << 3, 3, -6).finished();
  // A few roundings of numbers of size 9: 16·ε·9 is ample.
  return (s.qdd - expected).lpNorm<Eigen::Infinity>() <= 16 * 9 * std::numeric_limits<double>::epsilon() ? 0 : 1;
}
