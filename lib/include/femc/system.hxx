#pragma once
#include <Eigen/Cholesky>
#include <sstream>

#include "femc/errors.hpp"
#include "femc/scalar/traits.hpp"
#include "femc/system.hpp"

namespace femc {
namespace detail {

inline std::string shape(Index r, Index c) { return std::to_string(r) + "x" + std::to_string(c); }

template <class S>
void require_finite(const Matrix<S>& X, const char* field) {
  if constexpr (!ScalarTraits<S>::exact) {
    for (Index j = 0; j < X.cols(); ++j)
      for (Index i = 0; i < X.rows(); ++i)
        if (!Eigen::numext::isfinite(X(i, j)))
          throw InputError(std::string(field) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]",
                           "entry is not finite");
  }
}

template <class S>
void require_finite(const Vector<S>& v, const char* field) {
  if constexpr (!ScalarTraits<S>::exact) {
    for (Index i = 0; i < v.size(); ++i)
      if (!Eigen::numext::isfinite(v(i)))
        throw InputError(std::string(field) + "[" + std::to_string(i) + "]", "entry is not finite");
  }
}

template <class S>
void require_symmetric(const Matrix<S>& X, const char* field) {
  using std::abs;
  const Index k = X.rows();
  S scale(0), asym(0);
  Index ai = 0, aj = 0;
  for (Index j = 0; j < k; ++j)
    for (Index i = 0; i < k; ++i) {
      if (abs(X(i, j)) > scale) scale = abs(X(i, j));
      S d = abs(X(i, j) - X(j, i));
      if (d > asym) { asym = d; ai = i; aj = j; }
    }
  if (asym > symmetry_tolerance<S>() * scale) {
    std::ostringstream os;
    os << "not symmetric: entry [" << ai << "][" << aj << "] differs from [" << aj << "][" << ai
       << "] by " << ScalarTraits<S>::format(asym) << " (relative tolerance "
       << ScalarTraits<S>::format(symmetry_tolerance<S>()) << ")";
    throw InputError(field, os.str());
  }
}

template <class S>
InputError not_positive_definite(const char* field) {
  return InputError(field, "not positive definite at " + ScalarTraits<S>::name() + " (Cholesky failed)");
}

template <class S>
void require_spd(const Matrix<S>& X, const char* field) {
  require_symmetric(X, field);
  if constexpr (ScalarTraits<S>::exact) {
    // Exact LDLᵀ: X is positive definite iff every pivot is > 0.
    Eigen::LDLT<Matrix<S>> ldlt(X);
    if (ldlt.info() != Eigen::Success) throw InputError(field, "not positive definite");
    auto D = ldlt.vectorD();
    for (Index i = 0; i < D.size(); ++i)
      if (!(D(i) > S(0))) throw InputError(field, "not positive definite (an LDLᵀ pivot is ≤ 0)");
  } else {
    Eigen::LLT<Matrix<S>> llt(X);
    if (llt.info() != Eigen::Success) throw not_positive_definite<S>(field);
  }
}

}  // namespace detail

namespace detail {
// validate(), with the check that M is positive definite left to
// check_mass(): a workspace factors M for the solve anyway (methods/cod.hpp).
template <class S, class CheckMass>
void validate_system(const System<S>& sys, CheckMass&& check_mass) {
  using detail::shape;
  const Index n = sys.M.rows(), m = sys.A.rows();
  if (n < 1) throw InputError("M", "must have at least one row (n ≥ 1)");
  if (n > kMaxDimension) throw InputError("M", "n = " + std::to_string(n) + " exceeds the limit " + std::to_string(kMaxDimension));
  if (m > kMaxDimension) throw InputError("A", "m = " + std::to_string(m) + " exceeds the limit " + std::to_string(kMaxDimension));
  if (sys.M.cols() != n) throw InputError("M", "must be square, got " + shape(n, sys.M.cols()));
  if (sys.A.cols() != n && m > 0)
    throw InputError("A", "must have n = " + std::to_string(n) + " columns, got " + shape(m, sys.A.cols()));
  if (sys.b.size() != m) throw InputError("b", "must have m = " + std::to_string(m) + " entries, got " + std::to_string(sys.b.size()));
  if (sys.Q.size() != n) throw InputError("Q", "must have n = " + std::to_string(n) + " entries, got " + std::to_string(sys.Q.size()));
  if (sys.C.size() != n) throw InputError("C", "must have n = " + std::to_string(n) + " entries, got " + std::to_string(sys.C.size()));
  if (sys.W.rows() != m || sys.W.cols() != m)
    throw InputError("W", "must be m×m = " + shape(m, m) + ", got " + shape(sys.W.rows(), sys.W.cols()));
  detail::require_finite(sys.M, "M");
  detail::require_finite(sys.A, "A");
  detail::require_finite(sys.b, "b");
  detail::require_finite(sys.Q, "Q");
  detail::require_finite(sys.C, "C");
  detail::require_finite(sys.W, "W");
  check_mass();
  if (m > 0 && !is_identity(sys.W)) detail::require_spd(sys.W, "W");
}
}  // namespace detail

template <class S>
void validate(const System<S>& sys) {
  detail::validate_system(sys, [&] { detail::require_spd(sys.M, "M"); });
}

}  // namespace femc
