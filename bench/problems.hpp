#pragma once
// The benchmark problems: one System per (shape, rank class), built in double
// from small integers so that every scalar type (and the rationals) holds the
// same data exactly, and a rank-deficient A (an integer product F·G) is
// exactly rank-deficient at every precision.
#include <string>

#include "femc/system.hpp"

namespace femc::bench {

enum class RankClass {
  Full,       // A of full row rank m (any b is consistent)
  Deficient,  // rank A = m/2 and a generic b: inconsistent least squares
};

inline const char* name(RankClass r) { return r == RankClass::Full ? "full" : "deficient"; }

struct Shape {
  Index n, m;
  std::string label() const { return std::to_string(n) + "x" + std::to_string(m); }
};

inline constexpr Shape kShapes[] = {{10, 4}, {50, 20}, {200, 80}, {1000, 400}};

// M = RᵀR + diag(1..3) (κ(M) grows like 8n), A with entries in [-3, 3] or
// F·G with entries in [-2, 2], b and Q in [-5, 5], C = 0, W = I. Fixed seeds;
// built once per (shape, class) and cached.
const System<double>& problem(Shape s, RankClass r);

// The same data in scalar type S (exact: the entries are small integers).
template <class S>
System<S> problem_as(Shape s, RankClass r) {
  const System<double>& d = problem(s, r);
  auto conv = [](double x) { return S(x); };
  return System<S>{d.M.unaryExpr(conv), d.A.unaryExpr(conv), d.b.unaryExpr(conv),
                   d.Q.unaryExpr(conv), d.C.unaryExpr(conv), d.W.unaryExpr(conv)};
}

}  // namespace femc::bench
