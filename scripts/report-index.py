#!/usr/bin/python3
"""Writes REPORTS_DIR/README.md: the generated index of femc's reports.

Usage: report-index.py REPORTS_DIR

For every study directory with a <study>.json record: its summary, the run's
settings, links to the CSV and JSON, the PNGs of studies/plots/plot_studies.py
and, per plot, how to read it. The statements about the data are computed
from the CSV here (fitted slopes, counts, thresholds), so that the text
cannot drift from the numbers. Also: the regression baseline, how to
reproduce, the bundled examples, the per-system trajectories and the
performance report. Methods are picked by the capabilities that
`femc describe --json` declares ($FEMC, else build/release/cli/femc), never by
name. Exits 1 with a one-line message on a malformed CSV or JSON record, or
when femc describe cannot be read.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "studies", "plots"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import plot_studies as ps  # noqa: E402  (CSV readers and analyses shared with the plots)

STUDY_ORDER = ps.STUDIES


class BadRecord(Exception):
    pass


# --------------------------------------------------------------------------
# Formatting helpers

def g(x, digits=2):
    """A number for prose: 3.4e-05 → '3.4e-5', 0.98 → '0.98'."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    if x == 0:
        return "0"
    r = float(f"{x:.{digits}g}")  # rounded to `digits` significant digits
    if not 1e-3 <= abs(r) < 1e4:
        return ps.sci(x, digits - 1)
    return str(int(r)) if r == int(r) else f"{r:g}"


def span(values, digits=2):
    """'a–b' of the values, or '≈ a' when they agree to the shown digits."""
    lo, hi = g(min(values), digits), g(max(values), digits)
    return f"≈ {lo}" if lo == hi else f"{lo}–{hi}"


def ten(log10_value):
    """10⁸ for 8, 1 for 0."""
    n = round(log10_value)
    return "1" if n == 0 else "10" + superscript(n)


def pow2(k):
    return f"2⁻{superscript(int(k))}"


def superscript(n):
    return str(n).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))


def fit_slope(x, y):
    """Least-squares slope of y on x (None below 3 points or no spread)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or np.ptp(x) == 0:
        return None
    return float(np.polyfit(x, y, 1)[0])


def median(v):
    v = [x for x in v if x is not None and math.isfinite(x)]
    return float(np.median(v)) if v else math.nan


def joined(parts):
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# --------------------------------------------------------------------------
# The methods as femc declares them (capabilities.hpp). The text picks a
# method by what it declares, never by its name, so that a method added to
# femc's list, or another default, is described without editing this script.

# What capabilities.hpp assumes of a method that declares nothing; also what a
# method of an older table that femc no longer lists is read as.
UNDECLARED = {"error_growth": 1, "rank_deficient": True, "residual_mass_power": 0, "arithmetic": "floating",
              "rank_policy": ""}
_described = None


def described():
    """{'default': name, 'methods': {name: entry}} of `femc describe --json` (the femc of $FEMC, else
    build/release/cli/femc), read once; BadRecord when it cannot be read."""
    global _described
    if _described is None:
        femc = os.environ.get("FEMC") or os.path.join(REPO, "build", "release", "cli", "femc")
        try:
            d = json.loads(subprocess.run([femc, "describe", "--json"], capture_output=True, encoding="utf-8",
                                          check=True).stdout)
            _described = {"default": d["default_method"], "methods": {m["name"]: m for m in d["methods"]}}
        except (OSError, subprocess.CalledProcessError, ValueError, KeyError, TypeError) as e:
            raise BadRecord(f"cannot read femc describe --json from {femc}: {e}")
    return _described


def default_method():
    """The method femc solves with unless told otherwise: the anchor the others are compared with."""
    return described()["default"]


def declared(method, key):
    return described()["methods"].get(method, {}).get(key, UNDECLARED[key])


def growth(method):
    """p of its error law u·κ(B)^p: 2 for a method that forms A M⁻¹Aᵀ = BBᵀ, whose condition number is κ(B)²."""
    return int(declared(method, "error_growth"))


def refuses_deficient(method):
    """True for a method that refuses rank-deficient A (needs full row rank) rather than deciding a rank."""
    return not declared(method, "rank_deficient")


def rank_matrix(method):
    """The matrix whose rank the method decides, as its rank_policy names it ('pivoted QR of P = …' → 'P')."""
    m = re.search(r"\bof (\w+)", declared(method, "rank_policy"))
    return m.group(1) if m else None


def exact_arithmetic(method):
    return declared(method, "arithmetic") == "exact"


def error_law(p):
    """'u·κ(B)' for p = 1, 'u·κ(B)²' for p = 2."""
    return "u·κ(B)" + (superscript(p) if p != 1 else "")


# --------------------------------------------------------------------------
# Per-study text. Each returns {png name: (how to read it, what the data show)}.

def residual_laws(methods):
    """'κ(B) for …, κ(M) for …'s explicit M^{±½}, else 1': the residual law g each method declares. A method
    that forms BBᵀ (error growth 2) leaves a residual κ(B) larger; one with residual_mass_power 1 forms
    M^{±½} explicitly and pays κ(M) (capabilities.hpp)."""
    squared = [m for m in methods if growth(m) == 2]
    mass = [m for m in methods if int(declared(m, "residual_mass_power")) == 1]
    owners = joined(f"{m}'s" for m in mass)
    parts = [f"κ(B) for {joined(squared)}" if squared else "", f"κ(M) for {owners} explicit M^{{±½}}" if mass else "",
             "else 1"]
    return ", ".join(p for p in parts if p)


def squared_slope_line(m, s):
    """The verdict on the fitted slope s of a method that declares error growth 2."""
    verdict = (f"≈ 2: {m} follows u·κ(B)², because it solves with A M⁻¹Aᵀ = BBᵀ (the Schur complement of its "
               "KKT system), whose condition number is κ(B)²" if abs(s - 2) < 0.3 else
               "— neither the κ(B) nor the κ(B)² law")
    return f"{m}'s slope is {s:.2f} {verdict}."


def refusals_line(m, ok, refused, total):
    """The refusals of a method that declares it refuses rank-deficient A (None without any): every
    inconsistent cell, and the consistent ones where its u·κ(B)^p reaches the rounding level."""
    bits = [f"{len(refused[(m, case)])} of {total[(m, case)]} {case} solves"
            for case in ("consistent", "inconsistent") if refused.get((m, case))]
    if not bits:
        return None
    p, cons = growth(m), refused.get((m, "consistent"), [])
    extra = ""
    if cons:
        solved = [r["u"] * r["kappa_B"] ** p for r in ok if r["method"] == m and r["case"] == "consistent"]
        start = min(r["u"] * r["kappa_B"] ** p for r in cons)
        extra = (f" (the consistent refusals start at {error_law(p)} = {g(start)};"
                 f" the largest {error_law(p)} it solved was {g(max(solved)) if solved else 'n/a'})")
    return (f"{m} refused {joined(bits)}{extra}: it needs A of full row rank, so every inconsistent "
            "(rank-deficient) cell is out of its reach by design.")


def conditioning_text(rows):
    ok = [r for r in rows if r["status"] == "ok"]
    methods = ps.solvers_of(rows)
    kms = sorted(set(r["log10_kappa_M_target"] for r in rows))
    km0, km1 = kms[0], kms[-1]

    def kept(r):
        return r["rank_decided"] == r["rank"]

    # Slope of log(err/u) against log κ(B) at κ(M) ≈ 1 over solves that kept
    # the rank and still carry digits (err < 1e-3), pooled over precisions
    # (err/u puts them on one scale), and the range of per-precision slopes.
    slopes = {}
    for case in ("consistent", "inconsistent"):
        for m in methods:
            sel = [r for r in ok if r["case"] == case and r["method"] == m and r["log10_kappa_M_target"] == km0
                   and kept(r) and ps.positive(r["err_qdd"]) and r["err_qdd"] < 1e-3 and ps.positive(r["kappa_B"])]
            s = fit_slope([math.log10(r["kappa_B"]) for r in sel], [math.log10(r["err_qdd"] / r["u"]) for r in sel])
            if s is None:
                continue
            per = [fit_slope([math.log10(r["kappa_B"]) for r in sel if r["precision"] == p],
                             [math.log10(r["err_qdd"] / r["u"]) for r in sel if r["precision"] == p])
                   for p in ps.precision_order()]
            per = [x for x in per if x is not None]
            c = median(r["err_qdd"] / (r["u"] * r["kappa_B"] ** round(s)) for r in sel)
            slopes[(case, m)] = (s, min(per) if per else s, max(per) if per else s, c, len(sel), round(s))

    def slope_phrase(case, m):
        if (case, m) not in slopes:
            return None
        s, lo, hi, c, n, p = slopes[(case, m)]
        return f"{m} {s:.2f} ({lo:.2f}–{hi:.2f} per precision, {n} solves)"

    # Which law to hold each method to is what it declares: u·κ(B), or u·κ(B)² for one that forms BBᵀ.
    linear = [m for m in methods if growth(m) == 1]
    squared = [m for m in methods if growth(m) == 2]
    lin_ok = [m for m in linear if all(abs(slopes[(c, m)][0] - 1) < 0.15 for c in ("consistent", "inconsistent")
                                       if (c, m) in slopes)]
    refused = {}
    for r in rows:
        if r["status"] != "ok":
            refused.setdefault((r["method"], r["case"]), []).append(r)
    total = {}
    for r in rows:
        total[(r["method"], r["case"])] = total.get((r["method"], r["case"]), 0) + 1

    read_qdd = (
        "Each panel is one working precision at one κ(M); x is κ(B) of B = A L⁻ᵀ (M = LLᵀ), y the relative error "
        "of q̈ against the exact rational solution, for the solves that returned. First-order theory "
        "(conditioning.cpp) bounds a backward-stable solve by c·u·(κ(B) + κ(M) + κ(B)²η) with a modest c "
        f"(κ(B)² in place of κ(B) for a solver that declares error_growth 2{''.join(', ' + m for m in squared)}): at "
        "κ(M) ≈ 1 the points should follow the dashed line u·κ(B); the dash-dot line adds the κ(M) term; the "
        "dotted line u·κ(B)² is what a method that squares the condition number gives. Filled markers: A of full "
        "row rank (consistent); hollow: rank 2 of 4 with inconsistent b (η > 0); red ×: the method decided a rank "
        "other than the exact one, i.e. dropped a constraint.")
    shown = [slope_phrase(c, m) for c in ("consistent",) for m in methods]
    data = [f"Fitted slope of log(err/u) against log κ(B) at κ(M) ≈ {ten(km0)}, over solves that kept the rank "
            f"and still carry digits (err < 1e-3), consistent case: {joined(shown)}."]
    inc = [slope_phrase("inconsistent", m) for m in methods]
    if any(inc):
        data[-1] += f" Inconsistent case: {joined(inc)}."
    if lin_ok:
        cs = joined(f"{m} {g(slopes[('consistent', m)][3])}" for m in lin_ok if ("consistent", m) in slopes)
        data[-1] += (f" So {joined(lin_ok)} track u·κ(B) (median err/(u·κ(B)), consistent: {cs}); the κ(B)²η term "
                     f"of the inconsistent case does not show at these η (≤ {g(max(r['eta'] for r in rows))}).")
    other = [m for m in linear if m not in lin_ok]
    if other:
        data.append(f"Not ≈ 1: {joined(slope_phrase('consistent', m) for m in other)}.")
    line_of = {}  # method → its line in data, which its refusals extend
    for m in squared:
        if ("consistent", m) in slopes:
            data.append(squared_slope_line(m, slopes[("consistent", m)][0]))
            line_of[m] = len(data) - 1
    for m in [m for m in methods if refuses_deficient(m)]:
        line = refusals_line(m, ok, refused, total)
        if line and m in line_of:
            data[line_of[m]] += " " + line
        elif line:
            data.append(line)
    # κ(M): only where κ(B) < κ(M), where the κ(M) term dominates the bound.
    if km1 != km0:
        per_b, per_m, free, paying = [], [], [], []
        # Methods whose error law is u·κ(B)² (error growth 2) would blur this comparison.
        for m in [m for m in methods if slopes.get(("consistent", m), (0,) * 6)[5] != 2]:
            sel = [r for r in ok if r["method"] == m and r["log10_kappa_M_target"] == km1 and kept(r)
                   and r["kappa_B"] < r["kappa_M"] and ps.positive(r["err_qdd"])]
            if sel:
                cb = median(r["err_qdd"] / (r["u"] * r["kappa_B"]) for r in sel)
                per_b.append(f"{m} {g(cb)}")
                per_m.append(f"{m} {g(median(r['err_qdd'] / (r['u'] * r['kappa_M']) for r in sel))}")
                (free if cb < 3 else paying).append(m)
        if per_b:
            data.append(f"At κ(M) ≈ {ten(km1)}, where κ(B) < κ(M), the median err/(u·κ(B)) is {joined(per_b)}, "
                        f"and err/(u·κ(M)) {joined(per_m)}: "
                        + (f"{joined(paying)} lose accuracy to κ(M)" if paying else "no method loses accuracy to κ(M)")
                        + (f", {joined(free)} {'does' if len(free) == 1 else 'do'} not." if free and paying else "."))
    # The dropped constraints.
    dropped = [r for r in ok if not kept(r)]
    if dropped:
        def twin(r, method):
            for q in ok:
                if q["method"] == method and all(q[k] == r[k] for k in ("case", "log10_kappa_A_target",
                                                                        "log10_kappa_M_target", "seed", "precision")):
                    return q
            return None
        hopeless = [r for r in dropped if r["u"] * r["kappa_B"] >= 0.1]
        costly = [r for r in dropped if r["u"] * r["kappa_B"] < 0.1]
        text = f"Red ×: {len(dropped)} solves dropped a constraint."
        if hopeless:
            text += (f" {len(hopeless)} of them at u·κ(B) ≥ 0.1, where no digit is left anyway "
                     f"({joined(sorted(set(r['method'] for r in hopeless)))}).")
        if costly:
            who = sorted(set(r["method"] for r in costly))
            where = sorted(set((r["precision"], r["log10_kappa_M_target"]) for r in costly))
            ratios = [(1 / r["kappa_B"]) / (max(r["n"], r["m"]) * 2 * r["u"] * math.sqrt(r["kappa_M"])) for r in costly]
            plain = [(1 / r["kappa_B"]) / (max(r["n"], r["m"]) * 2 * r["u"]) for r in costly]
            # Those that decide the rank of the formed P carry the √κ(M) factor (rank.hpp,
            # formed_rank_tolerance); those that decide it on A itself do not.
            on_p = [m for m in methods if rank_matrix(m) == "P"]
            text += (f" The other {len(costly)} ({joined(who)}; {joined(f'{p} at κ(M) ≈ {ten(km)}' for p, km in where)})"
                     f" happened where u·κ(B) was only {span([r['u'] * r['kappa_B'] for r in costly])}, yet their "
                     f"error is {span([r['err_qdd'] for r in costly])}. There 1/κ(B) was {span(ratios)} times the "
                     f"threshold max(m,n)·ε·√κ(M) with which {joined(on_p)} judge the rank of the formed P "
                     "(lib/include/femc/rank.hpp, ε = 2u), so the drops follow that policy; but it was "
                     f"{span(plain)} times the plain threshold max(m,n)·ε: the √κ(M) factor discards directions "
                     "that the data determine")
            for m in [m for m in methods if rank_matrix(m) == "A"]:
                twins = [twin(r, m) for r in costly]
                errs = [q["err_qdd"] for q in twins if q is not None and kept(q)]
                if errs:
                    text += (f"; {m}, which decides the rank of A itself, kept them with errors "
                             f"{g(min(errs))}–{g(max(errs))}")
            text += "."
        data.append(text)

    # Constants.
    const = []
    for m in methods:
        cs = [r["c_qdd"] for r in ok if r["method"] == m and kept(r) and math.isfinite(r["c_qdd"])]
        if cs:
            const.append(f"{m} {g(max(cs))}")
    drop_c = [r["c_qdd"] for r in dropped if math.isfinite(r["c_qdd"])]
    forms = f"; 2 for {joined(squared)}, which solve{'s' if len(squared) == 1 else ''} with A M⁻¹Aᵀ" if squared else ""
    read_c = ("The constant c = error / (u·(κ(B)^p + κ(M) + κ(B)²η)) per method, p its declared error growth "
              f"(1{forms}), every precision overlaid (colour), κ(M) by marker, consistency by fill. A method that "
              "keeps its declared law keeps c at or below a modest constant (the dashed line is c = 1) over the "
              "whole κ range; a c growing with κ(B) means an error law worse than the one "
              "declared. The regression gate watches the maximum of c per case, method and precision.")
    data_c = [f"Largest c over solves that kept the rank: {joined(const)}."]
    if drop_c:
        data_c.append(f"Solves that dropped a constraint (red ×) reach c = {g(max(drop_c))}.")

    # Residuals.
    read_r = ("LAPACK's scaled residuals for the problem Gauss's principle solves, B x = d in the metric of M "
              "(x = Lᵀ(q̈ − a), a = M⁻¹(Q + C), d = W^½(b − A a), measure.hpp): ‖W^½(Aq̈ − b)‖ / "
              "(max(m,n)(‖B‖‖x‖ + ‖d‖)u·g) in the consistent case (xQRT16), the normal-equations residual "
              "‖BᵀW^½(Aq̈ − b)‖ / (max(m,n)‖B‖(‖B‖‖x‖ + ‖d‖)u·g) in the inconsistent one (xQRT17), g the "
              "solver's declared residual law (" + residual_laws(methods) + "); only "
              "where B is of full rank at the working precision. LAPACK's test programs flag a ratio ≥ 30 "
              "(dashed): below it, q̈ satisfies the constraints as well as the solver's law allows.")
    parts = []
    for m in methods:
        for km in kms:
            sel = [r for r in ok if r["method"] == m and r["log10_kappa_M_target"] == km
                   and math.isfinite(r["ratio_constraint"])]
            if not sel:
                continue
            over = [r for r in sel if r["ratio_constraint"] >= 30]
            over_kept = [r for r in over if kept(r)]
            parts.append(f"{m} at κ(M) ≈ {ten(km)}: {len(over)}/{len(sel)} ≥ 30"
                         + (f" ({len(over) - len(over_kept)} of them dropped a constraint)" if len(over) != len(over_kept)
                            else "")
                         + f", max {g(max(r['ratio_constraint'] for r in sel))}")
    data_r = ["Solves with ratio ≥ 30 — " + "; ".join(parts) + "."]
    for m in methods:
        bad = [r for r in ok if r["method"] == m and kept(r) and r["ratio_constraint"] >= 30]
        # The κ(M)-constant reading below is for a backward-stable solve; one that forms BBᵀ (error growth
        # 2) leaves its residual κ(B) larger by its law alone, and is not read that way.
        if bad and growth(m) != 2:
            precs = ps.ordered((r["precision"] for r in bad), ps.precision_order())
            kmb = sorted(set(r["log10_kappa_M_target"] for r in bad))
            data_r.append(f"{m} fails the test with the rank kept in {len(bad)} solves, at κ(M) ≈ "
                          f"{joined(ten(k) for k in kmb)}, κ(B) from {g(min(r['kappa_B'] for r in bad))} to "
                          f"{g(max(r['kappa_B'] for r in bad))}, and in {len(precs)} of "
                          f"{len(set(r['precision'] for r in rows))} precisions ({joined(precs)})"
                          + (": since the ratio is already scaled by u, that is a κ(M)-dependent constant, not an "
                             "accident of one arithmetic." if len(precs) > 2 else "."))
        elif not bad:
            data_r.append(f"{m} passes wherever it kept the rank.")
    return {
        "conditioning_qdd.png": (read_qdd, data),
        "conditioning_constants.png": (read_c, " ".join(data_c)),
        "conditioning_residuals.png": (read_r, data_r),
    }


def rank_rounded_text(rows):
    read = ("The rounded linkage: the double parallelogram in mixed coordinates, 6 constraint rows of rank 5 "
            "exactly, its data rounded to double (rank 6, the sixth σ at the rounding level). Left: the relative "
            "error of q̈ against the mechanism's motion (the exact solution of the unrounded data); right: the rank "
            "decided. Hollow: the data at face value; filled: given their precision (data_precision double), "
            "when no magnitude the rounding could have created counts in the rank (lib/include/femc/rank.hpp).")
    data = []
    for data_p, what in (("double", "given the data's precision"), ("exact", "at face value")):
        sel = [r for r in rows if r["data_precision"] == data_p and r["status"] == "ok"]
        if not sel:
            continue
        ranks = sorted(set(int(r["rank_decided"]) for r in sel))
        errs = [r["err_vs_limit"] for r in sel if math.isfinite(r["err_vs_limit"])]
        by_p = {}
        for r in sel:
            by_p.setdefault(r["precision"], []).append(r["err_vs_limit"])
        data.append(f"{what.capitalize()}: rank {', '.join(map(str, ranks))}; error against the motion "
                    f"{g(min(errs))} to {g(max(errs))} (" + ", ".join(f"{p} up to {g(max(v))}" for p, v in by_p.items())
                    + ").")
    refused = sorted(set(r["method"] for r in rows if r["status"] != "ok" and r["data_precision"] == "double"))
    if refused:
        data.append(f"Refused given the data's precision: {joined(refused)} (full row rank needed; the data have rank "
                    "5 of 6 rows at their precision).")
    return read, data


def rank_refusals_line(rows, m, anchor, drops):
    """Where a method that refuses rank-deficient A gives up, against the anchor's rank step (None if it never
    does). One that forms A M⁻¹Aᵀ (error growth 2) squares the condition number, so it gives up near √σ."""
    first = {}
    for r in rows:
        if r["method"] == m and r["status"] != "ok":
            first[r["precision"]] = min(first.get(r["precision"], math.inf), r["k"])
    if not first:
        return None
    ratios = [k / drops[p][1]["k"] for p, k in first.items() if p in drops and drops[p][1] is not None]
    squares = growth(m) == 2
    tail = "."
    if ratios:
        tail = (f": the exponent is {span(ratios)} of {anchor}'s"
                + (f", i.e. {m} gives up near √ of {anchor}'s σ, as a method that squares the condition number must."
                   if squares else "."))
    return (f"{m} refuses" + (" (A M⁻¹Aᵀ numerically singular)" if squares else "") + " from "
            + ", ".join(f"{p} {pow2(k)}" for p, k in first.items()) + " on" + tail)


def rank_text(rows):
    rows, rounded = ps.rank_cases(rows)
    methods = ps.solvers_of(rows)
    # The default method is the reference: its ‖q̈‖ is the one drawn, and the others' steps are compared with its.
    anchor = default_method()
    # A method that refuses rank-deficient A never decides a smaller rank: it stops instead.
    deciders = [m for m in methods if not refuses_deficient(m)]
    drops = ps.rank_drops(rows, anchor)
    sel = [r for r in rows if r["method"] == anchor and r["status"] == "ok" and r["rank_decided"] == r["exact_rank"]
           and r["exact_rank"] == max(x["exact_rank"] for x in rows) and r["sigma"] <= 2 ** -8
           and ps.positive(r["qdd_norm"])]
    slope = fit_slope([math.log10(r["sigma"]) for r in sel], [math.log10(r["qdd_norm"]) for r in sel])
    c = median(r["qdd_norm"] * r["sigma"] for r in sel)
    limit = median(r["limit_qdd_norm"] for r in rows)
    after = [r for r in rows if r["status"] == "ok" and r["rank_decided"] < r["exact_rank"] or
             (r["status"] == "ok" and r["rank_decided"] < max(x["rank_decided"] for x in rows))]
    dev = max((abs(r["qdd_norm"] - r["limit_qdd_norm"]) / r["limit_qdd_norm"] for r in after
               if ps.positive(r["limit_qdd_norm"]) and math.isfinite(r["qdd_norm"])), default=math.nan)
    per = []
    never = []
    for p, (last, first) in drops.items():
        exact_drop = [r["k"] for r in rows if r["precision"] == p and r["method"] == anchor
                      and r["exact_rank"] < max(x["exact_rank"] for x in rows)]
        if first is None:
            never.append(p)
            continue
        s = (f"{p} between σ = {pow2(last['k'])} and {pow2(first['k'])} ({g(last['sigma'] / last['u'], 4)}u and "
             f"{g(first['sigma'] / first['u'], 4)}u; relative tolerance τ = {g(first['rank_tol'])})")
        s += (f", the data themselves lose the rank at {pow2(min(exact_drop))}" if exact_drop
              else ", its data keep rank 3 throughout")
        per.append(s)
    same = all(ps.rank_drops(rows, m).get(p, (None, None))[1] is not None and
               ps.rank_drops(rows, m)[p][1]["k"] == drops[p][1]["k"]
               for m in deciders for p in drops if drops[p][1] is not None)
    read_q = ("x is σ, the distance of the third constraint row from the first (σ = 2⁻ᵏ, decreasing to the right); "
              f"y is ‖q̈‖ from {anchor}, one colour per precision. For σ > 0 the exact q̈ must satisfy a₁·q̈ = b₁ and "
              "a₁·q̈ + σq̈₁ = b₁ + 1, so ‖q̈‖ grows like 1/σ (thin grey: the exact ‖q̈‖ of each precision's rounded "
              "data); once σ falls below a precision's rank threshold the method drops the row and returns the "
              "least-squares answer of the limit σ = 0 (dashed): the pseudoinverse is discontinuous there, and no "
              "precision removes the jump, it only moves it.")
    data_q = []
    if slope is not None:
        data_q.append(f"While the rank is kept, the fitted slope of log‖q̈‖ against log σ is {slope:.3f} "
                      f"(‖q̈‖·σ ≈ {g(c, 3)}).")
    data_q += [f"{anchor} decides rank 2 for {p}." for p in per]
    if never:
        data_q.append(f"{joined(never)} kept rank 3 down to the smallest σ of the sweep, {pow2(max(r['k'] for r in rows))}.")
    if after:
        data_q.append(f"After the jump ‖q̈‖ equals the limit {g(limit, 5)} to a relative {g(dev)} "
                      f"({len(after)} solves).")
    read_d = ("The rank each method decides as σ decreases (solid), against the exact rank of that precision's data "
              "(dotted); curves are offset vertically by a few hundredths so that coinciding steps stay visible. "
              "× at 'refused' marks solves that stopped with a method error. A decision earlier than the dotted "
              "step is the rank threshold at work (σ is representable but below τ·d₁); the data's own step is "
              "where σ rounds away.")
    data_d = []
    data_d.append(f"{joined(deciders)} switch at the same σ in every precision." if same else
                  "The methods switch at different σ: " + "; ".join(
                      f"{m}: " + ", ".join(f"{p} {pow2(v[1]['k'])}" for p, v in ps.rank_drops(rows, m).items() if v[1])
                      for m in deciders) + ".")
    for m in [m for m in methods if refuses_deficient(m)]:
        line = rank_refusals_line(rows, m, anchor, drops)
        if line:
            data_d.append(line)
    return {"rank_qdd.png": (read_q, data_q), "rank_decided.png": (read_d, " ".join(data_d)),
            "rank_rounded.png": rank_rounded_text(rounded)}


def perturbed_text(table):
    # The mathematics: the rows of the method in exact (rational) arithmetic; the solvers' rows below.
    rows = [r for r in table if exact_arithmetic(r["method"])]
    exps = list(dict.fromkeys(r["experiment"] for r in rows))
    facts = {}
    for e in exps:
        sel = [r for r in rows if r["experiment"] == e and ps.positive(r["eps"])]
        pos = [r for r in sel if ps.positive(r["rel_change_qdd"])]
        zeros = sum(1 for r in sel if r["rel_change_qdd"] == 0)
        slope = fit_slope([math.log10(r["eps"]) for r in pos if r["eps"] >= 1e-15],
                          [math.log10(r["rel_change_qdd"]) for r in pos if r["eps"] >= 1e-15])
        ratio = [r["ratio_to_bound"] for r in sel if math.isfinite(r["ratio_to_bound"])]
        facts[e] = dict(n=len(sel), zeros=zeros, slope=slope, ratio=max(ratio) if ratio else None,
                        rel_med=median(r["rel_change_qdd"] for r in pos),
                        scaled=median(r["rel_change_qdd"] * r["eps"] for r in pos),
                        ranks=sorted(set((int(r["rank_before"]), int(r["rank_after"])) for r in sel)))

    def describe(e):
        f = facts[e]
        if f["zeros"] == f["n"]:
            return f"{e}: Δq̈ exactly 0 at all {f['n']} ε"
        s = f"{e}: slope {g(f['slope'], 3)}"
        if f["slope"] is not None and abs(f["slope"]) < 0.2:
            s += f", ‖Δq̈‖/‖q̈‖ ≈ {g(f['rel_med'])} independent of ε"
        elif f["slope"] is not None and abs(f["slope"] + 1) < 0.2:
            s += f", ‖Δq̈‖/‖q̈‖ ≈ {g(f['scaled'])}/ε"
        if f["ratio"] is not None:
            s += f", at most {g(f['ratio'])} of the bound"
        if f["zeros"]:
            s += f", {f['zeros']} exact zeros"
        return s

    read_p = ("x is ε, the relative size of the perturbation of b, A or W; y the relative change of q̈, solved "
              "exactly (rationals), so this is the sensitivity of the mathematics, not rounding. A slope of 1 means "
              "q̈ changes in proportion to ε (robust), slope 0 an O(1) change however small ε is, slope −1 a change "
              "that grows as ε shrinks. Exact zeros cannot sit on a log axis: they are drawn at 1e-20 (grey band). "
              "The ε = 1e-16 points are perturbations of data held in double, partly rounded away.")
    data_p = ["Fitted slopes (ε ≥ 1e-15): " + "; ".join(describe(e) for e in exps) + "."]
    robust = [e for e in exps if (facts[e]["zeros"] == facts[e]["n"]) or
              (facts[e]["slope"] is not None and abs(facts[e]["slope"] - 1) < 0.1)]
    fragile = [e for e in exps if e not in robust]
    if fragile:
        data_p.append(f"The robustness claim of paper 001 (q̈ moves by O(ε) when the constraints are wrong by ε) "
                      f"holds for {joined(robust)}; it fails for {joined(fragile)}, where the perturbation changes "
                      "the rank of A (" + ", ".join(f"{e} {a}→{b}" for e in fragile for a, b in facts[e]["ranks"])
                      + "): a new constraint direction appears however small ε is.")
    read_r = ("The change of q̈ divided by its first-order bound (perturbed_constraints.cpp: ‖L⁻¹‖‖B⁺‖‖Δb‖ for b, "
              "‖L⁻¹‖‖B⁺‖‖ΔB‖(‖a‖ + 2‖x‖ + 2‖c‖) for A with its rank kept), for the experiments that have one. "
              "Below the dashed line 1 the bound holds; a flat curve means the change is linear in ε.")
    data_r = ["Largest ratio: " + "; ".join(f"{e} {g(facts[e]['ratio'])}" for e in exps if facts[e]["ratio"] is not None)
              + "."] if any(facts[e]["ratio"] is not None for e in exps) else ["No experiment has a finite bound."]
    solver_rows = [r for r in table if not exact_arithmetic(r["method"])]
    read_s = ("Every solver of the registry at every working precision, on the same two systems: the distance of "
              "its change of q̈ from the exact change, in units of the first-order error bounds of its two solves, "
              "c_change = ‖Δq̈_solver − Δq̈_exact‖ / (β₀‖q̈₀‖ + β₁‖q̈₁‖) (perturbed_constraints.cpp). Here W ≠ I "
              "and rank-deficient, inconsistent constraints meet every solver; a solver that follows the "
              "mathematics stays near or below the dashed line 1. Exact zeros are drawn at the bottom.")
    data_s = []
    for m in ps.solvers_of(solver_rows):
        sel = [r for r in solver_rows if r["method"] == m and r["status"] == "ok" and math.isfinite(r["c_change"])]
        skipped = sum(1 for r in solver_rows if r["method"] == m and r["status"] != "ok")
        if sel:
            worst = max(sel, key=lambda r: r["c_change"])
            data_s.append(f"{m}: largest c_change {g(worst['c_change'])} ({worst['experiment']}, {worst['precision']}) "
                          f"over {len(sel)} pairs of solves" + (f"; {skipped} not run (systems it declares it "
                                                                  "refuses)" if skipped else ""))
    return {"perturbed.png": (read_p, " ".join(data_p)), "perturbed_ratio.png": (read_r, " ".join(data_r)),
            "perturbed_solvers.png": (read_s, "; ".join(data_s) + "." if data_s else "No solver rows.")}


def error_panels(methods):
    """One method per declared error growth, in the order the growths first appear: the default method for
    its own growth, the study's first method of each other growth."""
    anchor, panels = default_method(), {}
    for m in methods:
        p = growth(m)
        if p not in panels or m == anchor:
            panels[p] = m
    return list(panels.values())


def precision_text(rows):
    methods = ps.solvers_of(rows)
    table, kappa = ps.precision_bits_table(rows)
    max_bits = max(r["bits"] for r in rows)
    step = min(np.diff(sorted(set(r["bits"] for r in rows))), default=0)
    parts, slopes = [], {}
    for m in methods:
        pts_all, per_target = [], []
        for t in ps.PRECISION_TARGETS:
            pts = [(math.log2(kappa[k]), b, t) for (mm, k, s, tt), b in table.items()
                   if mm == m and tt == t and b is not None and ps.positive(kappa.get(k, math.nan))]
            pts_all += pts
            s = fit_slope([x for x, _, _ in pts], [b for _, b, _ in pts])
            if s is not None:
                per_target.append(s)
        missing = sum(1 for (mm, k, s, t), b in table.items() if mm == m and b is None)
        slopes[m] = float(np.mean(per_target)) if per_target else None
        if pts_all and slopes[m] is not None:
            # Excess over the law the slope points to: log₂(κ^p/target), p = 1 or 2.
            p = 2 if slopes[m] > 1.5 else 1
            excess = [b - (p * x - math.log2(t)) for x, b, t in pts_all]
            law = "log₂(κ(B)²/target)" if p == 2 else "log₂(κ(B)/target)"
            parts.append(f"{m}: slope {g(slopes[m], 3)} bits per bit of κ(B); bits − {law} median "
                         f"{g(median(excess))}, range {g(min(excess))} to {g(max(excess))}"
                         + (f"; {missing} target(s) not reached by {int(max_bits)} bits" if missing else ""))
    read_b = ("For each target accuracy (panel) and κ(A) of the exact data (x), the smallest MPFR precision such "
              "that the error of q̈ meets the target there and at every larger precision of the sweep "
              f"(step {g(step)} bits), the largest over seeds. Theory: error ≈ c·κ(B)·2⁻ᵖ, so p ≈ log₂(κ(B)/target) "
              "+ log₂ c (dashed); a method that squares the condition number needs log₂(κ(B)²/target) (dotted). "
              "Methods are offset horizontally by a fraction of a unit so that coinciding points stay visible. The slopes "
              "below are fits of the bits needed against log₂ κ(B), per target, averaged over the targets.")
    data_b = [f"{part}." for part in parts]
    lin = [m for m in methods if slopes.get(m) is not None and abs(slopes[m] - 1) < 0.15]
    sq = [m for m in methods if slopes.get(m) is not None and abs(slopes[m] - 2) < 0.3]
    if lin:
        data_b.append(f"{joined(lin)} need log₂(κ(B)/target) bits to within the {g(step)}-bit grid: the excess is "
                      "log₂ c plus the rounding up to the grid, and c is often below 1.")
    if sq:
        data_b.append(f"{joined(sq)} need{'s' if len(sq) == 1 else ''} about twice as many bits per decade of κ: "
                      "its error law is u·κ(B)².")
    panels = error_panels(methods)
    place = {1: [""], 2: [" on the left", " on the right"]}.get(len(panels), [""] * len(panels))
    where = joined(f"{m}{at}" for m, at in zip(panels, place)) + ("" if len(panels) <= 2 else " from left to right")
    refusing = [m for m in panels if refuses_deficient(m)]
    read_e = (f"The error of q̈ against the working precision for a few κ (colour), {where}, one seed; dashed lines "
              f"are {joined(f'{error_law(growth(m))} ({m})' for m in panels)} in the same colour. Errors saturate at 1 "
              "where the precision carries no digit of the answer"
              + (f"; refused {joined(refusing)} solves are left out." if refusing else "."))
    data_e = []
    for m in panels:
        sel = [r for r in rows if r["method"] == m and r["status"] == "ok" and ps.positive(r["err_qdd"])
               and r["err_qdd"] < 1e-3]
        if sel:
            c = [r["err_qdd"] / (r["u"] * r["kappa_B"] ** growth(m)) for r in sel]
            ratio = f"err/({error_law(growth(m))})"
            # The first sentence says which solves count; the others follow it.
            data_e.append(f"{m}: {ratio} has median {g(median(c))} and maximum {g(max(c))} over {len(c)} solves "
                          "with digits (err < 1e-3)." if not data_e else
                          f"{m}: {ratio} median {g(median(c))}, maximum {g(max(c))}.")
    return {"precision_bits.png": (read_b, data_b), "precision_error.png": (read_e, " ".join(data_e))}


def trajectories_text(rows):
    systems = ps.ordered((r["system"] for r in rows), ps.TRAJ_SYSTEMS)
    stabs = ps.ordered((r["stabilization"] for r in rows), ["none", "baumgarte"])

    def run(system, prec, stab):
        return sorted((r for r in rows if r["system"] == system and r["precision"] == prec
                       and r["stabilization"] == stab), key=lambda r: r["t"])

    def peak(sel, column, t_max=math.inf):
        v = [abs(r[column]) for r in sel if r["t"] <= t_max and math.isfinite(r[column])]
        return max(v) if v else math.nan

    def growth(sel, column):
        # Median of the last tenth of the run over that of the first tenth (after t = 0).
        if len(sel) < 20:
            return math.nan
        n = len(sel) // 10
        a = median(abs(r[column]) for r in sel[1:n + 1])
        b = median(abs(r[column]) for r in sel[-n:])
        return b / a if a > 0 else math.nan

    def texts(column, what):
        lines, grow, lower = [], {s: [] for s in stabs}, []
        for system in systems:
            parts = []
            for stab in stabs:
                dbl = run(system, "double", stab)
                if dbl:
                    gr = growth(dbl, column)
                    grow[stab].append((gr, system))
                    stop = "" if all(r["completed"] == "true" for r in dbl) else ", stopped early"
                    parts.append(f"{stab}: {g(peak(dbl, column))} in double over {g(dbl[-1]['t'])} s "
                                 f"(×{g(gr)} from the first to the last tenth{stop})")
            for stab in stabs:
                dbl = run(system, "double", stab)
                for prec in sorted(set(r["precision"] for r in rows if r["system"] == system) - {"double"}):
                    hi = run(system, prec, stab)
                    if not hi:
                        continue
                    t = hi[-1]["t"]
                    if dbl:
                        a, b = peak(dbl, column, t), peak(hi, column)
                        if ps.positive(a) and ps.positive(b):
                            lower.append(a / b)
                        parts.append(f"{stab}, first {g(t)} s: {prec} {g(b)} against double {g(a)}")
                    else:
                        parts.append(f"{stab}: {prec} {g(peak(hi, column))} over {g(t)} s (no double run)")
            if parts:
                lines.append(f"{system} — " + "; ".join(parts) + ".")
        summary = []
        for stab in stabs:
            v = [(x, sy) for x, sy in grow[stab] if math.isfinite(x)]
            if v:
                big = [f"{sy} (×{g(x)})" for x, sy in v if x > 10]
                summary.append(f"{stab} ×{span([x for x, _ in v])}"
                               + (f", more than ×10 only in {joined(big)}" if big and len(big) < len(v) else
                                  ", more than ×10 in every system" if big else ", nowhere more than ×10"))
        out = [f"Max {what}, " + line for line in lines]
        if summary:
            out.append(f"Growth from the first to the last tenth of the double runs: {'; '.join(summary)}.")
        if lower:
            others = joined(f"{p} (tol {g(tol[p], 1)})" for p in tol if p != "double")
            out.append(f"Over the interval both ran, {others} sit{'s' if len(tol) == 2 else ''} {span(lower)} "
                       f"times lower than double (tol {g(tol.get('double'), 1)}).")
        return out

    tol = {p: median(r["tol"] for r in rows if r["precision"] == p)
           for p in ps.ordered((r["precision"] for r in rows), ["double"])}
    t_end = {p: max(r["t"] for r in rows if r["precision"] == p) for p in tol}
    other = [p for p in tol if p != "double"]
    shorter = (f", and run to t = {joined(g(t_end[p]) for p in other)} s against {g(t_end['double'])} s"
               if "double" in t_end and other else "")

    read_d = ("‖φ(q)‖, the position-level constraint violation, against time (log–log; zeros leave gaps), one "
              "panel per system. Only φ̈ = 0 is imposed, so without stabilization (red) the integrator's local "
              "errors accumulate in φ and the drift grows; Baumgarte's b − 2αφ̇ − β²φ (blue, α = β = 5 s⁻¹) makes φ "
              "a damped oscillator and should keep it bounded. The MPFR runs (dashed) use a tighter tolerance "
              f"({joined(f'{p} {g(tol[p], 1)}' for p in tol)}){shorter}; they should sit lower over the same "
              "interval.")
    read_b = ("|E(t) − E(0) − W(t)|, the energy balance with the work W of the non-conservative forces, which the "
              "exact motion keeps at 0; its size measures the integration error. Same layout as the drift plot.")
    return {"trajectories_drift.png": (read_d, texts("position_violation", "drift")),
            "trajectories_balance.png": (read_b, texts("balance", "|balance|"))}


def painleve_text(rows):
    dbl = [r for r in rows if r["precision"] == "double"]
    mus = sorted(set(r["mu"] for r in dbl))
    step = min(np.diff(mus)) if len(mus) > 1 else math.nan
    neg = [r for r in dbl if r["A"] < 0]
    min_mu = min((r["mu"] for r in neg), default=math.nan)
    below = max((m for m in mus if m < min_mu), default=math.nan)
    counts = {}
    for r in neg:
        counts.setdefault(r["case"], {}).setdefault(int(r["lcp_solutions"]), 0)
        counts[r["case"]][int(r["lcp_solutions"])] += 1
    pos_counts = {}
    for r in dbl:
        if r["A"] > 0:
            pos_counts[int(r["lcp_solutions"])] = pos_counts.get(int(r["lcp_solutions"]), 0) + 1
    mismatch = sum(1 for r in rows if r["expected_solutions"] != "either" and not (
        math.isfinite(r["lcp_solutions"]) and r["expected_solutions"] == "%d" % r["lcp_solutions"]))
    dev = max((abs(r["A"] - r["A_closed_form"]) for r in rows if math.isfinite(r["A"])), default=math.nan)
    # double against 128 bits, point by point.
    key = lambda r: (r["case"], r["theta_deg"], r["mu"])
    hi = {key(r): r for r in rows if r["precision"] != "double"}
    differ = sum(1 for r in dbl if key(r) in hi and any(r[c] != hi[key(r)][c] for c in
                                                         ("lcp_solutions", "qp_status", "lemke_status")))
    compared = sum(1 for r in dbl if key(r) in hi)
    qp, lemke = {}, {}
    for r in dbl:
        qp.setdefault((r["case"], r["A"] < 0), {}).setdefault(r["qp_status"], 0)
        qp[(r["case"], r["A"] < 0)][r["qp_status"]] += 1
        if r["lemke_status"] != "solved":
            lemke.setdefault((r["case"], r["lemke_status"]), 0)
            lemke[(r["case"], r["lemke_status"])] += 1
    read_m = ("The sliding bar of 003 Example 4.1 over friction coefficient μ (x) and angle θ (y): the normal "
              "contact problem is ÿ_A = A F_n + B with A = 1 + 3cosθ(cosθ − μ sinθ) (m = 1). Colour is the number "
              "of solutions of the LCP F_n ≥ 0, AF_n + B ≥ 0, F_n(AF_n + B) = 0, counted by enumeration. Theory: "
              "one solution where A > 0; where A < 0 (right of the black curve A = 0, which exists only for "
              "μ > 4/3) none when the bar presses down (B < 0, Painlevé's inconsistency) and two when it spins fast "
              "(B > 0, indeterminacy).")
    data_m = [f"A < 0 at {len(neg)} of {len(dbl)} double points, the smallest μ among them {g(min_mu, 4)} on a grid "
              f"of step {g(step, 3)}" + (f" (the grid value below it, {g(below, 4)}, has none; 4/3 = 1.3333)."
                                         if math.isfinite(below) else ".")]
    for case, c in sorted(counts.items()):
        data_m.append(f"{case}, A < 0: " + ", ".join(f"{n} solutions at {k} points" for n, k in sorted(c.items())) + ".")
    data_m.append("A > 0: " + ", ".join(f"{n} solution(s) at {k} points" for n, k in sorted(pos_counts.items())) +
                  f". Count mismatches against the closed form: {mismatch}; |A − closed form| ≤ {g(dev)}; double and "
                  f"128 bits differ in count, QP or Lemke status at {differ} of {compared} points.")
    read_s = ("The same map coloured by the status of the Gauss QP min ½F_nᵀAF_n + BᵀF_n, F_n ≥ 0 (Y2), with × "
              "where Lemke's method did not return a solution. Where A < 0 the QP is non-convex and unbounded "
              "below in both cases; Lemke should end on a secondary ray exactly where the LCP has no solution.")
    data_s = []
    for (case, negA), c in sorted(qp.items()):
        data_s.append(f"{case}, A {'<' if negA else '>'} 0: QP " + ", ".join(f"{s} {n}" for s, n in sorted(c.items())))
    data_s = ["; ".join(data_s) + "."]
    if lemke:
        data_s.append("Lemke: " + ", ".join(f"{s} at {n} {case} points" for (case, s), n in sorted(lemke.items())) + ".")
        failed = {key(r) for r in dbl if r["lemke_status"] != "solved"}
        none = {key(r) for r in dbl if r["lcp_solutions"] == 0}
        data_s.append("These are exactly the points where the LCP has no solution." if failed == none else
                      f"Of them, {len(failed & none)} are points without an LCP solution; {len(failed - none)} "
                      f"have one, and Lemke solved {len(none - failed)} points that have none.")
    else:
        data_s.append("Lemke solved every point.")
    return {"painleve_map.png": (read_m, " ".join(data_m)), "painleve_status.png": (read_s, " ".join(data_s))}


def two_bars_text(rows):
    hi = [r for r in rows if r["precision"] == "mpfr-128"]
    key = lambda r: (r["motion"], r["theta1_deg"], r["mu"])
    dbl = {key(r): r["outcome"] for r in rows if r["precision"] == "double"}
    motions = ps.ordered((r["motion"] for r in hi), ps.TWO_MOTIONS)
    per = []
    for m in motions:
        sel = [r for r in hi if r["motion"] == m]
        counts = {}
        for r in sel:
            counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
        off = [r for r in sel if r["outcome"] != "agree"]
        first = min((r["mu"] for r in off), default=math.nan)
        per.append(f"{m}: " + ", ".join(f"{c} {n}" for c, n in sorted(counts.items(), key=lambda kv: -kv[1])) +
                   f" of {len(sel)} points" + (f", the smallest μ with a disagreement {g(first, 3)}" if off else "") + ".")
    frictionless = sum(1 for r in rows if r["mu"] == 0 and r["outcome"] != "agree")
    zero = sum(1 for r in rows if r["mu"] == 0)
    mismatch = sum(1 for r in hi if key(r) in dbl and dbl[key(r)] != r["outcome"])
    pulls = [r for r in hi if r["outcome"] == "qp-pulls"]
    worst_pull = min((min(r["qp_lambda_A"], r["qp_lambda_C"]) for r in pulls), default=math.nan)
    read_m = ("The two bars of 003 Example 4.2 standing as an A-frame with both feet on the floor (θ₂ = 90° − θ₁), "
              "over the friction coefficient μ (x) and the angle θ₁ of AB from the floor (y), the feet sliding "
              "together to the right, apart, or towards each other (one panel each). At each point the normal "
              "forces of the feet solve either the Gauss QP min ½λᵀAλ, Aλ + B ≥ 0 (003 (36)) or the LCP (003 (33)); "
              "colour says whether the two give the same forces (to the rounding bound c·u·κ(A)). Y2 claims they "
              "do, which holds when A is symmetric (μ = 0); with friction A is not symmetric, and where the map is "
              "red the QP holds a foot down with a pulling force that the LCP lets lift. × marks points where "
              "double's outcome differs from 128 bits'.")
    data_m = per + [f"At μ = 0: {frictionless} disagreements of {zero} points (Y2 requires none).",
                    f"Largest pulling force of the QP: {g(worst_pull, 3)} N (weight of the frame 39.2 N)."
                    if pulls else "The QP never pulls.",
                    f"Double and 128 bits differ in outcome at {mismatch} of {len(hi)} points."]
    read_d = ("How far apart the two models' forces are: ‖λ_QP − λ_LCP‖∞ relative to ‖λ_LCP‖∞, where both "
              "are unique, on a log scale with a floor at 10⁻⁴⁰ (128-bit agreement is near 10⁻³⁸). The "
              "disagreement is not a rounding effect: it jumps to order 1 at the region's edge.")
    return {"two_bars_map.png": (read_m, " ".join(data_m)), "two_bars_difference.png": (read_d, "")}


# Columns each analysis needs (beyond the plot's), and the analysis.
ANALYSES = {
    "conditioning": (ps.COND_NUM + ["n", "m", "eta"], ps.COND_TEXT + ["seed"], conditioning_text),
    "rank": (ps.RANK_NUM, ps.RANK_TEXT, rank_text),
    "perturbed-constraints": (ps.PERT_NUM, ps.PERT_TEXT, perturbed_text),
    "precision": (ps.PREC_NUM, ps.PREC_TEXT, precision_text),
    "trajectories": (ps.TRAJ_NUM, ps.TRAJ_TEXT, trajectories_text),
    "painleve": (ps.PAIN_NUM, ps.PAIN_TEXT + ["expected_solutions"], painleve_text),
    "two-bars": (ps.TWO_NUM, ps.TWO_TEXT, two_bars_text),
}
PLOTS = {
    "conditioning": ["conditioning_qdd.png", "conditioning_constants.png", "conditioning_residuals.png"],
    "rank": ["rank_qdd.png", "rank_decided.png", "rank_rounded.png"],
    "perturbed-constraints": ["perturbed.png", "perturbed_ratio.png", "perturbed_solvers.png"],
    "precision": ["precision_bits.png", "precision_error.png"],
    "trajectories": ["trajectories_drift.png", "trajectories_balance.png"],
    "painleve": ["painleve_map.png", "painleve_status.png"],
    "two-bars": ["two_bars_map.png", "two_bars_difference.png"],
}


# --------------------------------------------------------------------------
# Sections

def load_record(path):
    try:
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
    except (OSError, ValueError) as e:
        raise BadRecord(f"{os.path.basename(path)}: {e}")
    if not isinstance(rec, dict):
        raise BadRecord(f"{os.path.basename(path)}: not a JSON object")
    return rec


def short_commit(c):
    c = str(c or "?")
    dirty = c.endswith("+dirty")
    return c[:7] + (" (work tree modified)" if dirty else "")


def seconds(x):
    return f"{x:.3g} s" if isinstance(x, (int, float)) and math.isfinite(x) else "?"


def study_section(reports, study):
    ps.use_precisions(reports, study)  # the study's precision order, from its JSON
    d = os.path.join(reports, study)
    rec = load_record(os.path.join(d, study + ".json"))
    out = [f"## {study}", ""]
    if rec.get("summary"):
        out += [f"> {rec['summary']}", ""]
    precisions = rec.get("precisions") or []
    prec_text = ", ".join(precisions) if len(precisions) <= 8 else \
        f"{precisions[0]} … {precisions[-1]} ({len(precisions)} precisions)"
    out += ["| size | seed | commit | compiler, build | cells | rows | cell time (sum) | wall time, last run | jobs |",
            "|---|---|---|---|---|---|---|---|---|",
            f"| {rec.get('size', '?')} | {rec.get('seed', '?')} | {short_commit(rec.get('commit'))} | "
            f"{rec.get('compiler', '?')}, {rec.get('build', '?')} | {rec.get('cells', '?')} | {rec.get('rows', '?')} | "
            f"{seconds(rec.get('cell_seconds_total'))} | {seconds(rec.get('wall_seconds_last_invocation'))} | "
            f"{rec.get('jobs', '?')} |", ""]
    deg = rec.get("degradation")
    files = [f"[{study}.csv]({study}/{study}.csv)", f"[{study}.json]({study}/{study}.json)"]
    out += [f"Precisions: {prec_text}. Files: {', '.join(files)}; the record holds {len(rec.get('metrics') or [])} "
            "metrics for the regression gate" + (f" (degradation: {deg})" if deg and deg != "none" else "") + ".", ""]

    texts = {}
    csv_path = ps.study_csv(reports, study)
    if study in ANALYSES and os.path.exists(csv_path):
        num, txt, fn = ANALYSES[study]
        rows = ps.read_table(csv_path, num, txt)
        if rows:
            texts = fn(rows)
    elif study in ANALYSES:
        out += [f"*{study}.csv is missing: no measured numbers.*", ""]
    pngs = list(PLOTS.get(study, []))
    pngs += sorted(f for f in os.listdir(d) if f.endswith(".png") and f not in pngs and not f.startswith("."))
    for png in pngs:
        out.append(f"### {png}")
        out.append("")
        if os.path.exists(os.path.join(d, png)):
            out.append(f"![{study}: {png[:-4]}]({study}/{png})")
        else:
            out.append(f"*Not plotted yet: run `studies/plots/plot_studies.py {os.path.basename(reports.rstrip('/')) or '.'} "
                       f"{study}`.*")
        out.append("")
        if png in texts:
            read, data = texts[png]
            out += [f"**How to read it.** {read}", ""]
            if isinstance(data, list) and len(data) > 1:
                out += ["**Measured.**", ""] + [f"- {d}" for d in data] + [""]
            elif data:
                out += [f"**Measured.** {data if isinstance(data, str) else data[0]}", ""]
    return out


def baseline_section(reports):
    path = os.path.join(reports, "baseline", "metrics.json")
    out = ["## Regression baseline", ""]
    if os.path.exists(path):
        rec = load_record(path)
        studies = rec.get("studies") or {}
        n = sum(len(v) for v in studies.values() if isinstance(v, dict))
        out += [f"[baseline/metrics.json](baseline/metrics.json): {n} metrics of {len(studies)} quick studies, "
                f"commit {short_commit(rec.get('commit'))}, {rec.get('compiler', '?')} {rec.get('build', '')}, "
                f"seed {rec.get('seed', '?')}.", ""]
    else:
        out += ["No baseline in this directory (baseline/metrics.json).", ""]
    out += ["`femc report --check reports/baseline` reruns the quick studies and fails (exit 1, with a table) when "
            "a metric is worse than factor × baseline (default 10) and above its floor; "
            "`femc report --update-baseline reports/baseline` rewrites it.", ""]
    return out


def reproduce_section():
    return ["## Reproduce", "",
            "`femc` is `build/release/cli/femc` after a build.", "",
            "```sh",
            "make report                                  # build, then regenerate everything here (Makefile: report)",
            "femc study --list                            # the studies",
            "femc study NAME --size full --jobs N         # one study, full size, into reports/NAME/",
            "femc study NAME --size full --shard K/N      # on N machines: cells i with i mod N = K-1",
            "femc study NAME --size full --merge          # then assemble reports/NAME/ from all shards' cells",
            "studies/plots/plot_studies.py reports [NAME ...]   # the PNGs",
            "scripts/report-index.py reports              # this page",
            "femc report --check reports/baseline         # the regression gate",
            "```", "",
            "A study resumes from the finished cells under `reports/NAME/cells/` (`--fresh` discards them); "
            "shards must share `reports/NAME/cells/` (or have them copied together) before `--merge`.", ""]


def examples_section(reports):
    d = os.path.join(reports, "examples")
    out = ["## Example systems (reports/examples/)", ""]
    if not os.path.isdir(d):
        return out + ["Not generated here (`make report` writes it).", ""]
    out += ["`scripts/solve-examples.sh` solves every bundled system of `examples/` with every method at every "
            "precision: one JSON per system, precision and method (`femc solve` output).", ""]
    table, other = {}, []
    # The precisions in the order solve-examples.sh ran them (femc describe's).
    prec_order = []
    for f in sorted(os.listdir(d)):
        parts = f[:-5].split(".") if f.endswith(".json") else []
        if len(parts) == 3:
            table.setdefault(parts[0], {}).setdefault(parts[1], {})[parts[2]] = f
        elif f == "precisions.txt":
            with open(os.path.join(d, f)) as fh:
                prec_order = fh.read().split()
        elif not f.startswith("."):
            other.append(f)
    # The exact-arithmetic methods first, as solve-examples.sh runs them.
    methods = ps.ordered(dict.fromkeys(m for s in table.values() for p in s.values() for m in p),
                         [m for m in described()["methods"] if exact_arithmetic(m)])
    if table:
        out += ["| system | precision | " + " | ".join(methods) + " |", "|---|---|" + "---|" * len(methods)]
        for system, precs in table.items():
            for p in ps.ordered(precs, prec_order):
                cells = [f"[json](examples/{precs[p][m]})" if m in precs[p] else "" for m in methods]
                out.append(f"| {system} | {p} | " + " | ".join(cells) + " |")
        refusing = [m for m in methods if refuses_deficient(m)]
        example = f" (e.g. {joined(refusing)} on rank-deficient constraints)" if refusing else ""
        out += ["", f"An empty cell: the method refused that system{example}.", ""]
    if other:
        out += ["Other files: " + ", ".join(f"[{f}](examples/{f})" for f in other), ""]
    return out


def seed_system_runs(d):
    """{'<system>.<precision>': {'.csv': name, '.json': name}} of simulate-seed-systems.sh in d."""
    runs = {}
    if os.path.isdir(d):
        for f in sorted(os.listdir(d)):
            base, ext = os.path.splitext(f)
            if ext in (".csv", ".json") and "." in base:
                runs.setdefault(base, {})[ext] = f
    return runs


def seed_systems_section(reports):
    found = [(sub, seed_system_runs(os.path.join(reports, sub))) for sub in ("seed-systems",)]
    found = [(sub, runs) for sub, runs in found if runs]
    out = ["## Per-system trajectories", ""]
    if not found:
        return out + ["No per-system runs here (`make report` integrates every built-in system at double and at "
                      "128 bits with `scripts/simulate-seed-systems.sh`).", ""]
    out += ["`scripts/simulate-seed-systems.sh` integrates every built-in system of `femc simulate` with its paper's "
            "data, at double (tol 1e-10) and at 128 bits (tol 1e-16): one CSV of the records and one JSON summary "
            "per system and precision.", ""]
    for sub, runs in found:
        out += [f"In {sub}/:", "",
                "| system | precision | completed | steps | max abs balance | max drift | files |",
                "|---|---|---|---|---|---|---|"]
        for base, files in runs.items():
            system, _, prec = base.rpartition(".")
            info = {}
            if ".json" in files:
                try:
                    with open(os.path.join(reports, sub, files[".json"]), encoding="utf-8") as f:
                        info = json.load(f)
                except (OSError, ValueError):
                    info = {}
            if not isinstance(info, dict):
                info = {}
            links = ", ".join(f"[{e[1:]}]({sub}/{files[e]})" for e in (".csv", ".json") if e in files)
            completed = {True: "yes", False: "no"}.get(info.get("completed"), "?")
            out.append(f"| {system} | {prec} | {completed} | {info.get('steps', '?')} | "
                       f"{info.get('max_abs_balance', '?')} | {info.get('max_position_violation', '?')} | {links} |")
        out.append("")
    return out


def performance_section(reports):
    out = ["## Performance", ""]
    if os.path.exists(os.path.join(reports, "performance.md")):
        out.append("[performance.md](performance.md): timings of every method and precision against LAPACKE "
                   "anchors (`make bench`).")
    else:
        out.append("Not generated here (`make bench` writes performance.md).")
    return out + [""]


def mechanisms_section(reports):
    out = ["## Benchmark mechanisms", ""]
    if not os.path.exists(os.path.join(reports, "mechanisms", "README.md")):
        return out + ["Not generated here (`scripts/simulate-mechanisms.sh` writes mechanisms/).", ""]
    runs = [f[:-5] for f in os.listdir(os.path.join(reports, "mechanisms")) if f.endswith(".json")]
    return out + [f"[mechanisms/README.md](mechanisms/README.md): the IFToMM benchmark problems from their model "
                  f"files (models/benchmarks/), {len(runs)} runs at double and 128 bits: reference point, "
                  "energy balance, rank of A and constraint violation over time.", ""]


def engines_section(reports):
    out = ["## Engines under test", ""]
    d = os.path.join(reports, "engines")
    if not os.path.exists(os.path.join(d, "README.md")):
        return out + ["Not generated here (`femc engines` writes engines/; it needs an engine's package at build "
                      "time: `femc engines --list` names those built).", ""]
    # The conformance tables, one per engine: the CSVs with the campaign's row header.
    found = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".csv"):
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                if fh.readline().startswith("mechanism,state_class,theta,"):
                    found.append(f)
    rows = fails = 0
    for f in found:
        with open(os.path.join(d, f), encoding="utf-8") as fh:
            lines = fh.read().splitlines()[1:]
        rows += len(lines)
        fails += sum(1 for line in lines if ",FAIL," in line)
    out.append(f"[engines/README.md](engines/README.md): {', '.join(f.split('.')[0] for f in found) or 'no engine'} "
               f"against exact Gauss on their own mechanisms, {rows} states, {fails} outside the first-order bound "
               "(tables, findings, the extracted systems as `femc solve` inputs; `femc engines`).")
    for png in sorted(f for f in os.listdir(d) if f.endswith(".png")):  # engines/plots/plot_engines.py's
        engine = png.split("_")[0]
        out += ["", f"![{engine}: distance from hard Gauss](engines/{png})"]
    return out + [""]


def build_index(reports):
    studies = [s for s in STUDY_ORDER if os.path.exists(os.path.join(reports, s, s + ".json"))]
    studies += sorted(s for s in os.listdir(reports) if s not in studies
                      and os.path.exists(os.path.join(reports, s, s + ".json")))
    out = ["<!-- Generated by scripts/report-index.py from the study records; do not edit. -->",
           "# femc reports", "",
           "Generated by `scripts/report-index.py` from the study records (`<study>/<study>.json`) and tables "
           "(`<study>/<study>.csv`) in this directory — do not edit; rerun `scripts/report-index.py reports` after "
           "`studies/plots/plot_studies.py reports`. Every number in the text below is computed from the tables.", ""]
    if studies:
        out += ["Studies: " + " · ".join(f"[{s}](#{s})" for s in studies) + ". Also: [regression baseline]"
                "(#regression-baseline) · [reproduce](#reproduce) · [example systems](#example-systems-reportsexamples)"
                " · [per-system trajectories](#per-system-trajectories) · [benchmark mechanisms](#benchmark-mechanisms) · "
                "[engines under test](#engines-under-test) · [performance](#performance)", ""]
    else:
        out += ["No study records here yet (`femc study all`).", ""]
    for s in studies:
        out += study_section(reports, s)
    out += baseline_section(reports)
    out += reproduce_section()
    out += examples_section(reports)
    out += seed_systems_section(reports)
    out += mechanisms_section(reports)
    out += engines_section(reports)
    out += performance_section(reports)
    return "\n".join(out).rstrip() + "\n"


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(prefix=".README.", suffix=".tmp", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def main(argv):
    prog = os.path.basename(argv[0])
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(f"usage: {prog} REPORTS_DIR", file=sys.stderr)
        return 2
    reports = argv[1]
    if not os.path.isdir(reports):
        print(f"{prog}: {reports} is not a directory", file=sys.stderr)
        return 2
    try:
        text = build_index(reports)
    except (ps.MalformedCsv, BadRecord) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    path = os.path.join(reports, "README.md")
    write_atomically(path, text)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
