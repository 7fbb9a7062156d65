#pragma once
// The bodies of contact_modes.hpp's function templates. The library instantiates
// them for the model scalars (double, long double, float128, MPFR:
// lib/src/instantiate/contact.cpp.in); include this file to use them at
// another scalar type.
#include "femc/contact/contact_modes.hpp"
#include "femc/contact/lcp.hxx"
#include "femc/contact/unilateral_problem.hxx"

namespace femc::contact {

template <class S>
ModeResolution<S> resolve_contact_modes(const Matrix<S>& M, const Vector<S>& Q, const ContactData<S>& d,
                                        const Vector<S>& slip_velocity, const S& stick_speed) {
  const Index k = d.WN.rows(), n = M.rows();
  if (k > 8) throw InputError("contacts", std::to_string(k) + " exceeds the mode-enumeration limit 8");
  const Eigen::LLT<Matrix<S>> llt(M);
  if (llt.info() != Eigen::Success) throw InputError("M", "not positive definite");
  const S u = unit_roundoff<S>();
  const S c = S(4 * (k + 1));
  std::vector<bool> candidate(k);
  std::vector<int> radix(k);
  for (Index i = 0; i < k; ++i) {
    const S v = slip_velocity(i) < S(0) ? S(-slip_velocity(i)) : slip_velocity(i);
    candidate[i] = d.mu(i) > S(0) && v <= stick_speed;
    radix[i] = candidate[i] ? 4 : 2;  // open/stick/slip+/slip−  or  open/slide
  }
  ModeResolution<S> out;
  std::vector<int> digit(k, 0);
  const Vector<S> MinvQ = llt.solve(Q);
  bool degenerate = false;
  for (;;) {
    // Build this combination.
    std::vector<ContactMode> modes(k);
    for (Index i = 0; i < k; ++i) {
      if (digit[i] == 0) modes[i] = ContactMode::Open;
      else if (!candidate[i]) modes[i] = ContactMode::Slide;
      else modes[i] = digit[i] == 1 ? ContactMode::Stick
                      : digit[i] == 2 ? ContactMode::SlipPositive : ContactMode::SlipNegative;
    }
    // Unknowns: λ_N of each closed contact, then F_t of each sticking one.
    std::vector<Index> closed, stick;
    for (Index i = 0; i < k; ++i) {
      if (modes[i] != ContactMode::Open) closed.push_back(i);
      if (modes[i] == ContactMode::Stick) stick.push_back(i);
    }
    const Index nz = Index(closed.size() + stick.size());
    Matrix<S> G(n, nz), E(nz, n);
    Vector<S> Ebar(nz);
    for (Index a = 0; a < Index(closed.size()); ++a) {
      const Index i = closed[a];
      S sigma(0);
      if (modes[i] == ContactMode::Slide) sigma = d.s(i);
      if (modes[i] == ContactMode::SlipPositive) sigma = S(1);
      if (modes[i] == ContactMode::SlipNegative) sigma = S(-1);
      G.col(a) = d.WN.row(i).transpose() + (sigma * d.mu(i)) * d.Wt.row(i).transpose();
      E.row(a) = d.WN.row(i);
      Ebar(a) = d.WbarN(i);
    }
    for (Index b = 0; b < Index(stick.size()); ++b) {
      const Index i = stick[b], a = Index(closed.size()) + b;
      G.col(a) = d.Wt.row(i).transpose();
      E.row(a) = d.Wt.row(i);
      Ebar(a) = d.WbarT(i);
    }
    Vector<S> z = Vector<S>::Zero(nz);
    bool ok = true;
    if (nz > 0) {
      const Matrix<S> K = E * llt.solve(G);
      const Vector<S> r = -(E * MinvQ + Ebar);
      Eigen::FullPivLU<Matrix<S>> lu(K);
      lu.setThreshold(c * u);
      if (!lu.isInvertible()) {
        degenerate = true;
        ok = false;
      } else {
        z = lu.solve(r);
      }
    }
    if (ok) {
      const Vector<S> qdd = MinvQ + (nz > 0 ? Vector<S>(llt.solve(Vector<S>(G * z))) : Vector<S>::Zero(n));
      const S ztol = c * u * (nz > 0 ? detail::max_abs(z) : S(0)) * S(k + 1);
      const Vector<S> gdd = d.WN * qdd + d.WbarN, tdd = d.Wt * qdd + d.WbarT;
      const S gscale = c * u * (d.WN.cwiseAbs() * qdd.cwiseAbs() + d.WbarN.cwiseAbs()).maxCoeff();
      const S tscale = c * u * (d.Wt.cwiseAbs() * qdd.cwiseAbs() + d.WbarT.cwiseAbs()).maxCoeff();
      Vector<S> lamN = Vector<S>::Zero(k), Ft = Vector<S>::Zero(k);
      for (Index a = 0; a < Index(closed.size()); ++a) lamN(closed[a]) = z(a);
      for (Index b = 0; b < Index(stick.size()); ++b) Ft(stick[b]) = z(Index(closed.size()) + b);
      for (Index i = 0; i < k && ok; ++i) {
        switch (modes[i]) {
          case ContactMode::Open: ok = gdd(i) >= -gscale; break;
          case ContactMode::Slide: ok = lamN(i) >= -ztol; Ft(i) = d.s(i) * d.mu(i) * lamN(i); break;
          case ContactMode::Stick:
            ok = lamN(i) >= -ztol && detail::abs_of(Ft(i)) <= d.mu(i) * lamN(i) + ztol;
            break;
          case ContactMode::SlipPositive:
            ok = lamN(i) >= -ztol && tdd(i) <= tscale;
            Ft(i) = d.mu(i) * lamN(i);
            break;
          case ContactMode::SlipNegative:
            ok = lamN(i) >= -ztol && tdd(i) >= -tscale;
            Ft(i) = -d.mu(i) * lamN(i);
            break;
        }
      }
      if (ok) {
        ++out.admissible;
        const S qtol = c * u * S(n) * std::max<S>(detail::max_abs(qdd), detail::max_abs(MinvQ)) +
                       S(2) * ztol;
        if (out.qdd.size() == 0) {
          out.modes = modes;
          out.normal = lamN;
          out.friction = Ft;
          out.qdd = qdd;
        } else if (detail::max_abs(Vector<S>(qdd - out.qdd)) > qtol) {
          out.status = LcpStatus::Multiple;
        }
      }
    }
    Index i = 0;
    while (i < k && ++digit[i] == radix[i]) digit[i++] = 0;
    if (i == k) break;
  }
  if (out.status != LcpStatus::Multiple) {
    if (out.qdd.size() != 0) out.status = LcpStatus::Unique;
    else out.status = degenerate ? LcpStatus::Degenerate : LcpStatus::None;
  }
  return out;
}

}  // namespace femc::contact
