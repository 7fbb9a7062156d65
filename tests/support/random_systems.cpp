#include "support/random_systems.hpp"

#include <Eigen/LU>

namespace femc::test {

Matrix<rational> SystemGenerator::rank_r(Index m, Index n, Index r) {
  for (;;) {
    Matrix<rational> X = r == 0 ? Matrix<rational>(Matrix<rational>::Zero(m, n))
                                : Matrix<rational>(integer_matrix(m, r, -2, 2) * integer_matrix(r, n, -2, 2));
    if (exact_rank(X) == r) return X;
  }
}

ExactCase SystemGenerator::make(SystemClass c, bool with_C, bool weighted) {
  ExactCase out;
  const Index n = integer(3, 7);
  Index m = 0, r = 0;
  switch (c) {
    case SystemClass::FullRowRank: m = integer(1, int(n) - 1); r = m; break;
    case SystemClass::RankDeficientConsistent:
    case SystemClass::RankDeficientInconsistent: m = integer(2, int(n) + 1); r = integer(1, int(std::min(m, n)) - 1); break;
    case SystemClass::Overdetermined: m = n + integer(1, 3); r = n; break;
    case SystemClass::NoConstraints: m = 0; r = 0; break;
    case SystemClass::ZeroA: m = integer(1, 4); r = 0; break;
  }
  System<rational> s;
  s.M = spd(n);
  s.A = rank_r(m, n, r);
  if (c == SystemClass::RankDeficientConsistent || c == SystemClass::FullRowRank)
    s.b = s.A * integer_matrix(n, 1).col(0);
  else
    s.b = integer_matrix(m, 1, -5, 5).col(0);
  if (c == SystemClass::ZeroA && s.b.isZero()) s.b(0) = 1;
  s.Q = integer_matrix(n, 1, -5, 5).col(0);
  s.C = with_C ? Vector<rational>(integer_matrix(n, 1, -3, 3).col(0)) : Vector<rational>(Vector<rational>::Zero(n));
  s.W = weighted && m > 0 ? spd(m) : Matrix<rational>(Matrix<rational>::Identity(m, m));
  out.sys = s;
  out.rank = r;
  out.label = std::string(name(c)) + " n=" + std::to_string(n) + " m=" + std::to_string(m) +
              " r=" + std::to_string(r) + (with_C ? " C≠0" : "") + (weighted ? " W≠I" : "");
  return out;
}

}  // namespace femc::test
