#include "reference.hpp"

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "femc/solve.hpp"

namespace femc::studies {

double frobenius(const Matrix<rational>& X) {
  rational s(0);
  for (Index j = 0; j < X.cols(); ++j)
    for (Index i = 0; i < X.rows(); ++i) s += X(i, j) * X(i, j);
  return std::sqrt(to_double(s));
}

}  // namespace femc::studies
