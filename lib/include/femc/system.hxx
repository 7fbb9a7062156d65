#pragma once
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <sstream>

#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/decomposition/dense_cholesky.hpp"
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

// The largest |X_ij − X_ji|, where, and the scale max|X_ij| it is judged at.
template <class S>
struct Asymmetry {
  S size = S(0), scale = S(0);
  Index i = 0, j = 0;
};

template <class S>
Asymmetry<S> asymmetry(const Matrix<S>& X) {
  using std::abs;
  Asymmetry<S> a;
  const Index k = X.rows();
  for (Index j = 0; j < k; ++j)
    for (Index i = 0; i < k; ++i) {
      if (abs(X(i, j)) > a.scale) a.scale = abs(X(i, j));
      S d = abs(X(i, j) - X(j, i));
      if (d > a.size) a = {d, a.scale, i, j};
    }
  return a;
}

// Returns the asymmetry, within the tolerance; throws InputError beyond it.
template <class S>
Asymmetry<S> require_symmetric(const Matrix<S>& X, const char* field, const DataPrecision& data = kExactData) {
  const Asymmetry<S> a = asymmetry(X);
  if (a.size > symmetry_tolerance<S>(data) * a.scale) {
    std::ostringstream os;
    os << "not symmetric: entry [" << a.i << "][" << a.j << "] differs from [" << a.j << "][" << a.i << "] by "
       << ScalarTraits<S>::format(a.size) << ", " << format_short(S(a.size / a.scale))
       << " of the largest entry (tolerance " << format_short(symmetry_tolerance<S>(data));
    if (data.exact())
      os << "; if the data were rounded, e.g. computed in double, state their precision and femc judges symmetry "
            "at it)";
    else
      os << " at the data's precision, " << to_string(data) << ")";
    throw InputError(field, os.str());
  }
  return a;
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
    // The factorization the methods run (LAPACK's in double), so that
    // validate() and a method agree on an X at the edge of definiteness.
    DenseCholesky<S> chol;
    if (!chol.compute(X)) throw not_positive_definite<S>(field);
  }
}

}  // namespace detail

namespace detail {
// validate()'s checks of the shapes, for a dense or a sparse system (the
// limit of n and m; an empty W standing for the identity or not).
template <class Sys>
void require_shapes(const Sys& sys, Index limit, bool empty_W_is_identity) {
  const Index n = sys.M.rows(), m = sys.A.rows();
  if (n < 1) throw InputError("M", "must have at least one row (n ≥ 1)");
  if (n > limit) throw InputError("M", "n = " + std::to_string(n) + " exceeds the limit " + std::to_string(limit));
  if (m > limit) throw InputError("A", "m = " + std::to_string(m) + " exceeds the limit " + std::to_string(limit));
  if (sys.M.cols() != n) throw InputError("M", "must be square, got " + shape(n, sys.M.cols()));
  if (sys.A.cols() != n && m > 0)
    throw InputError("A", "must have n = " + std::to_string(n) + " columns, got " + shape(m, sys.A.cols()));
  if (sys.b.size() != m) throw InputError("b", "must have m = " + std::to_string(m) + " entries, got " + std::to_string(sys.b.size()));
  if (sys.Q.size() != n) throw InputError("Q", "must have n = " + std::to_string(n) + " entries, got " + std::to_string(sys.Q.size()));
  if (sys.C.size() != n) throw InputError("C", "must have n = " + std::to_string(n) + " entries, got " + std::to_string(sys.C.size()));
  const bool W_ok = (sys.W.rows() == m && sys.W.cols() == m) || (empty_W_is_identity && sys.W.size() == 0);
  if (!W_ok)
    throw InputError("W", "must be m×m = " + shape(m, m) + (empty_W_is_identity ? " or empty (identity)" : "") +
                              ", got " + shape(sys.W.rows(), sys.W.cols()));
}

// validate(), with the checks that M and a W ≠ I are positive definite left
// to check_mass() and check_weight(): a workspace factors them for the solve
// anyway (methods/cod.hpp).
template <class S, class CheckMass, class CheckWeight>
void validate_system(const System<S>& sys, CheckMass&& check_mass, CheckWeight&& check_weight) {
  require_shapes(sys, kMaxDimension, false);
  const Index m = sys.A.rows();
  detail::require_finite(sys.M, "M");
  detail::require_finite(sys.A, "A");
  detail::require_finite(sys.b, "b");
  detail::require_finite(sys.Q, "Q");
  detail::require_finite(sys.C, "C");
  detail::require_finite(sys.W, "W");
  check_mass();
  if (m > 0 && !is_identity(sys.W)) check_weight();
}
}  // namespace detail

namespace detail {
// e·‖X‖_F·‖X⁻¹‖₁ (prepare_rounded_data; its square for exact types, free
// of square roots); 0 when X is not positive definite at the working
// precision, which validate() reports.
template <class S>
S definiteness_margin(const Matrix<S>& X, const S& e) {
  if constexpr (ScalarTraits<S>::exact) {
    Eigen::FullPivLU<Matrix<S>> lu;
    lu.setThreshold(S(0));
    lu.compute(X);
    if (!lu.isInvertible()) return S(0);
    const S norm1_inv = symmetric_l1_norm(Matrix<S>(lu.inverse()));  // ‖X⁻¹‖₁
    return e * e * X.squaredNorm() * norm1_inv * norm1_inv;            // the square, compared with 1
  } else {
    Eigen::LLT<Matrix<S>> llt(X);
    if (llt.info() != Eigen::Success) return S(0);
    const S rcond = S(llt.rcond());  // 1/(‖X‖₁·‖X⁻¹‖₁)
    if (!(rcond > S(0))) return Eigen::NumTraits<S>::infinity();
    return e * scaled_frobenius_norm<S>(X) * inverse_l1_norm(kappa_from_rcond(rcond), symmetric_l1_norm(X));
  }
}

template <class S>
bool square_finite(const Matrix<S>& X, Index k) {
  if (X.rows() != k || X.cols() != k) return false;
  if constexpr (!ScalarTraits<S>::exact)
    for (Index j = 0; j < k; ++j)
      for (Index i = 0; i < k; ++i)
        if (!Eigen::numext::isfinite(X(i, j))) return false;
  return true;
}
}  // namespace detail

template <class S>
const System<S>& prepare_rounded_data(const System<S>& sys, const DataPrecision& data, System<S>& storage,
                                      std::vector<std::string>& notes) {
  if (data.exact()) return sys;
  const System<S>* out = &sys;
  auto judge = [&](const Matrix<S>& X, const char* field, Matrix<S> System<S>::*member) {
    // Malformed shapes and non-finite entries are validate()'s to report.
    if (X.rows() == 0 || X.rows() > kMaxDimension || !detail::square_finite(X, X.rows())) return;
    const detail::Asymmetry<S> a = detail::require_symmetric(X, field, data);
    if (a.size > S(0)) {
      if (out == &sys) storage = sys, out = &storage;
      Matrix<S>& Y = storage.*member;
      Y = X / S(2) + X.transpose() / S(2);  // halves first: no overflow; the sum is commutative, so exactly symmetric
      std::ostringstream os;
      os << field << " symmetrized, (" << field << " + " << field << "ᵀ)/2: its asymmetry "
         << format_short(S(a.size / a.scale)) << " of the largest entry is within the data's precision ("
         << to_string(data) << ")";
      notes.push_back(os.str());
    }
    const Matrix<S>& Y = (*out).*member;
    const S margin = detail::definiteness_margin(Y, data_entry_error<S>(data, Y.rows()));
    if (!(margin < S(1))) {
      std::ostringstream os;
      os << "not positive definite at the data's precision (" << to_string(data) << "): k·u_d·‖" << field << "‖_F·‖"
         << field << "⁻¹‖₁ (k = " << Y.rows() << ") " << (ScalarTraits<S>::exact ? "squared " : "") << "= "
         << format_short(margin) << " ≥ 1, so the data's errors could have made a singular matrix definite";
      throw InputError(field, os.str());
    }
  };
  judge(sys.M, "M", &System<S>::M);
  if (sys.m() > 0 && !is_identity(sys.W) && sys.W.rows() == sys.m()) judge(sys.W, "W", &System<S>::W);
  return *out;
}

template <class S>
void validate(const System<S>& sys) {
  detail::validate_system(sys, [&] { detail::require_spd(sys.M, "M"); }, [&] { detail::require_spd(sys.W, "W"); });
}

}  // namespace femc
