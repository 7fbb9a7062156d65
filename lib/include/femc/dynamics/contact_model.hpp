#pragma once
// A Model (model.hpp) for systems with unilateral contacts and Coulomb
// friction (003 Section 3), in the paper's formulation: at each state the
// normal forces of the closed contacts solve either
//   the Gauss optimization model (QP, 003 (23)/(39))  — ContactFormulation::GaussQp
//   or the LCP (003 (33))                              — ContactFormulation::Lcp,
// both on g̈_N = A λ + B (contact/unilateral_problem.hpp), and the other one
// is solved too, for the record (extra column `qp_minus_lcp`).
//
// A contact is closed when g_N ≤ gap_tolerance and |ġ_N| ≤ speed_tolerance;
// one that approaches faster is about to impact (simulate.hpp locates the
// crossing) and exerts no force before it.
// Where a closed contact has a slip speed ≤ speed_tolerance, 003's sliding
// model does not apply and contact/contact_modes.hpp resolves stick/slip.
// Any status other than a unique solution (the Painlevé region of Y3, a
// singular A) stops the simulation with ModelStop; nothing is picked.
// Impacts (a gap closing with ġ_N < 0) are perfectly plastic and
// frictionless: the impulse Λ solves the LCP ġ⁺ = W_N M⁻¹ W_Nᵀ Λ + ġ⁻
// (Moreau's velocity-level impact law; not in 003, which has no impacts).
//
// The system type Sys provides mass(q), applied(q, q̇), potential(q),
// gaps(q), contact_data(q, q̇) (contact/unilateral_problem.hpp) and
// check_state(q), which throws ModelStop when a point the model has no
// contact for reaches the ground.
#include <Eigen/Cholesky>
#include <sstream>

#include "femc/contact/contact_modes.hpp"
#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hpp"
#include "femc/dynamics/model.hpp"
#include "femc/scalar/traits.hpp"

namespace femc::dynamics {

enum class ContactFormulation { GaussQp, Lcp };

template <class S, class Sys>
class ContactModel : public Model<S> {
 public:
  ContactModel(std::string name, Sys sys, std::vector<std::string> coordinates,
               std::vector<std::string> contacts, ContactFormulation formulation = ContactFormulation::GaussQp)
      : name_(std::move(name)), sys_(std::move(sys)), coordinates_(std::move(coordinates)),
        contacts_(std::move(contacts)), formulation_(formulation) {}

  // Closed-contact tolerances (lengths and speeds in the system's units).
  S gap_tolerance = S(0);
  S speed_tolerance = S(0);

  std::string name() const override { return name_; }
  std::vector<std::string> coordinate_names() const override { return coordinates_; }
  std::vector<std::string> extra_names() const override {
    std::vector<std::string> names;
    for (const auto& c : contacts_) names.push_back("normal_force_" + c);
    for (const auto& c : contacts_) names.push_back("friction_force_" + c);
    for (const auto& c : contacts_) names.push_back("mode_" + c);  // 0 open 1 slide 2 stick 3 slip+ 4 slip−
    names.push_back("qp_minus_lcp");  // max |λ_QP − λ_LCP|, −1 when not both unique
    return names;
  }
  const Sys& system() const { return sys_; }

  Matrix<S> mass(const Vector<S>& q) const override { return sys_.mass(q); }
  S potential(const Vector<S>& q) const override { return sys_.potential(q); }

  std::vector<Index> closed_contacts(const Vector<S>& q, const Vector<S>& qd) const {
    const Vector<S> g = sys_.gaps(q);
    const Vector<S> gd = sys_.contact_data(q, qd).WN * qd;
    std::vector<Index> closed;
    for (Index i = 0; i < g.size(); ++i)
      if (g(i) <= gap_tolerance && gd(i) <= speed_tolerance && gd(i) >= -speed_tolerance) closed.push_back(i);
    return closed;
  }

  // Modes kept over a step (model.hpp): the closed contacts, and for each
  // its slip speed at the step's start, which fixes the friction direction
  // of a sliding contact and makes a resting one a stick/slip candidate.
  bool begin_step(const Vector<S>& q, const Vector<S>& qd) const override {
    const std::vector<Index> closed = closed_contacts(q, qd);
    const Vector<S> slip = select(sys_.contact_data(q, qd), closed).Wt * qd;
    std::vector<int> modes(contacts_.size(), 0);  // 0 open, 1 stick candidate, 2/3 sliding −/+
    for (Index a = 0; a < Index(closed.size()); ++a)
      modes[std::size_t(closed[a])] = resting(slip(a)) ? 1 : slip(a) < S(0) ? 2 : 3;
    const bool changed = !frozen_ || modes != frozen_modes_;
    frozen_ = true;
    frozen_closed_ = closed;
    frozen_slip_ = slip;
    frozen_modes_ = modes;
    return changed;
  }
  // For each contact sliding at the step's start: its slip speed, signed to
  // be positive then (its zero is where it comes to rest); 1 for the others.
  Vector<S> switching(const Vector<S>& q, const Vector<S>& qd) const override {
    Vector<S> f = Vector<S>::Ones(Index(contacts_.size()));
    if (!frozen_) return f;
    const Vector<S> slip = select(sys_.contact_data(q, qd), frozen_closed_).Wt * qd;
    for (Index a = 0; a < Index(frozen_closed_.size()); ++a)
      if (!resting(frozen_slip_(a))) f(frozen_closed_[a]) = frozen_slip_(a) > S(0) ? slip(a) : S(-slip(a));
    return f;
  }

  Forces<S> forces(const Vector<S>& q, const Vector<S>& qd, const S& t, const Baumgarte<S>& stab) const override {
    const Index k = Index(contacts_.size()), n = q.size();
    const Matrix<S> M = sys_.mass(q);
    const Vector<S> Q = sys_.applied(q, qd);
    const contact::ContactData<S> all = sys_.contact_data(q, qd);
    const std::vector<Index> closed = frozen_ ? frozen_closed_ : closed_contacts(q, qd);
    contact::ContactData<S> d = select(all, closed);
    const Vector<S> g = sys_.gaps(q);
    // The slip that decides the modes: the step's start when frozen.
    const Vector<S> slip = frozen_ ? frozen_slip_ : Vector<S>(d.Wt * qd);
    for (Index a = 0; a < slip.size(); ++a) d.s(a) = contact::friction_sign<S>(slip(a));

    Vector<S> lambda = Vector<S>::Zero(Index(closed.size())), friction;
    Vector<S> mode_code = Vector<S>::Zero(k);
    S qp_minus_lcp(-1);
    Forces<S> f;
    bool sticking = false;
    for (Index a = 0; a < slip.size(); ++a)
      if (d.mu(a) > S(0) && resting(slip(a))) sticking = true;
    if (sticking) {
      const auto r = contact::resolve_contact_modes(M, Q, d, slip, speed_tolerance);
      if (r.status != contact::LcpStatus::Unique)
        stop(t, std::string("stick/slip resolution: ") + contact::to_string(r.status) + state_text(closed, g, slip));
      lambda = r.normal;
      friction = r.friction;
      f.qdd = r.qdd;
      for (Index a = 0; a < Index(closed.size()); ++a) mode_code(closed[a]) = S(int(r.modes[a]));
    } else {
      contact::UnilateralProblem<S> p = contact::make_unilateral_problem(M, Q, d);
      if (stab.active())
        for (Index a = 0; a < Index(closed.size()); ++a) {
          const Index i = closed[a];
          p.B(a) += S(2) * stab.alpha * all.WN.row(i).dot(qd) + stab.beta * stab.beta * g(i);
        }
      const auto qp = contact::solve_gauss_qp(p.A, p.B);
      const auto lcp = contact::enumerate_lcp(p.A, p.B);
      if (formulation_ == ContactFormulation::GaussQp) {
        if (qp.status != contact::QpStatus::Unique)
          stop(t, std::string("Gauss QP of 003 (39): ") + contact::to_string(qp.status) + state_text(closed, g, slip));
        lambda = qp.lambda;
      } else {
        if (lcp.status != contact::LcpStatus::Unique)
          stop(t, std::string("LCP of 003 (33): ") + contact::to_string(lcp.status) + state_text(closed, g, slip));
        lambda = lcp.solutions.front();
      }
      if (qp.status == contact::QpStatus::Unique && lcp.status == contact::LcpStatus::Unique)
        qp_minus_lcp = contact::detail::max_abs(Vector<S>(qp.lambda - lcp.solutions.front()));
      friction = d.s.cwiseProduct(d.mu).cwiseProduct(lambda);
      f.qdd = contact::contact_acceleration(M, Q, d, lambda);
      for (Index a = 0; a < Index(closed.size()); ++a)
        mode_code(closed[a]) = S(int(lambda(a) > S(0) ? contact::ContactMode::Slide : contact::ContactMode::Open));
    }
    f.ideal = d.WN.transpose() * lambda;
    f.nonideal = d.Wt.transpose() * friction;
    Vector<S> normal_all = Vector<S>::Zero(k), friction_all = Vector<S>::Zero(k);
    for (Index a = 0; a < Index(closed.size()); ++a) {
      normal_all(closed[a]) = lambda(a);
      friction_all(closed[a]) = friction(a);
    }
    for (Index i = 0; i < k; ++i) f.extras.push_back(normal_all(i));
    for (Index i = 0; i < k; ++i) f.extras.push_back(friction_all(i));
    for (Index i = 0; i < k; ++i) f.extras.push_back(mode_code(i));
    f.extras.push_back(qp_minus_lcp);
    (void)n;
    return f;
  }

  // Penetration of every contact (min(g_N, 0)).
  Vector<S> position_violation(const Vector<S>& q, const S&) const override {
    Vector<S> g = sys_.gaps(q);
    for (Index i = 0; i < g.size(); ++i)
      if (g(i) > S(0)) g(i) = S(0);
    return g;
  }
  // ġ_N of the closed contacts (0 elsewhere).
  Vector<S> velocity_violation(const Vector<S>& q, const Vector<S>& qd, const S&) const override {
    const Vector<S> gd = sys_.contact_data(q, qd).WN * qd;
    Vector<S> v = Vector<S>::Zero(gd.size());
    for (Index i : closed_contacts(q, qd)) v(i) = gd(i);
    return v;
  }
  Vector<S> gaps(const Vector<S>& q) const override { return sys_.gaps(q); }
  Vector<S> gap_rates(const Vector<S>& q, const Vector<S>& qd) const override {
    return sys_.contact_data(q, qd).WN * qd;
  }
  void check_state(const Vector<S>& q) const override { sys_.check_state(q); }

  Vector<S> impact(const Vector<S>& q, const Vector<S>& qd) const override {
    const Vector<S> g = sys_.gaps(q);
    const contact::ContactData<S> all = sys_.contact_data(q, qd);
    std::vector<Index> touching;
    for (Index i = 0; i < g.size(); ++i)
      if (g(i) <= gap_tolerance) touching.push_back(i);
    if (touching.empty()) return qd;
    const contact::ContactData<S> d = select(all, touching);
    const Eigen::LLT<Matrix<S>> llt(sys_.mass(q));
    const Matrix<S> A0 = d.WN * llt.solve(Matrix<S>(d.WN.transpose()));
    const Vector<S> gd = d.WN * qd;
    const auto lcp = contact::enumerate_lcp(A0, gd);
    if (lcp.status != contact::LcpStatus::Unique)
      throw ModelStop(std::string("impact LCP: ") + contact::to_string(lcp.status));
    return qd + llt.solve(Vector<S>(d.WN.transpose() * lcp.solutions.front()));
  }

 private:
  bool resting(const S& slip) const { return (slip < S(0) ? S(-slip) : slip) <= speed_tolerance; }

  static contact::ContactData<S> select(const contact::ContactData<S>& all, const std::vector<Index>& rows) {
    contact::ContactData<S> d;
    const Index r = Index(rows.size()), n = all.WN.cols();
    d.WN.resize(r, n);
    d.Wt.resize(r, n);
    d.WbarN.resize(r);
    d.WbarT.resize(r);
    d.s.resize(r);
    d.mu.resize(r);
    for (Index a = 0; a < r; ++a) {
      d.WN.row(a) = all.WN.row(rows[a]);
      d.Wt.row(a) = all.Wt.row(rows[a]);
      d.WbarN(a) = all.WbarN(rows[a]);
      d.WbarT(a) = all.WbarT(rows[a]);
      d.s(a) = all.s(rows[a]);
      d.mu(a) = all.mu(rows[a]);
    }
    return d;
  }
  // " (contact A: gap …, slip speed …; …)" for the closed contacts.
  std::string state_text(const std::vector<Index>& closed, const Vector<S>& g, const Vector<S>& slip) const {
    std::string text = " (";
    for (Index a = 0; a < Index(closed.size()); ++a)
      text += (a ? "; contact " : "contact ") + contacts_[std::size_t(closed[a])] + ": gap " +
              format_scalar(g(closed[a])) + ", slip speed " + format_scalar(slip(a));
    return text + ")";
  }
  [[noreturn]] void stop(const S& t, const std::string& what) const {
    throw ModelStop(name_ + " at t = " + format_scalar(t) + ": " + what);
  }

  std::string name_;
  Sys sys_;
  std::vector<std::string> coordinates_, contacts_;
  ContactFormulation formulation_;
  // Step-frozen modes (begin_step); a model instance serves one simulation
  // at a time.
  mutable bool frozen_ = false;
  mutable std::vector<Index> frozen_closed_;
  mutable Vector<S> frozen_slip_;
  mutable std::vector<int> frozen_modes_;
};

}  // namespace femc::dynamics
