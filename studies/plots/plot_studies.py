#!/usr/bin/python3
"""Plots of the femc numerical studies.

Usage: plot_studies.py REPORTS_DIR [STUDY ...]

For every study whose REPORTS_DIR/<study>/<study>.csv exists (all known
studies unless some are named), writes PNGs next to the CSV. Needs only the
standard library, numpy and matplotlib (Agg). Exits 1 with a one-line message
when a CSV is malformed, 2 on a usage error.

The CSV readers and the small analyses (bits needed, rank drops) are also
imported by scripts/report-index.py, so that the report's numbers and the
plots come from the same code; matplotlib is therefore imported only when
plotting.
"""
import csv
import json
import math
import os
import sys

import numpy as np

STUDIES = ["conditioning", "rank", "perturbed-constraints", "precision", "trajectories", "painleve", "two-bars"]
# The precisions of the study being drawn, in the order the study ran them
# (its JSON's "precisions", from femc's precision table): set by
# use_precisions() before each study's plots; no precision is named here.
_precisions = []
# A colour and a marker per solver, given in the order the solvers first
# appear (the studies list them in the solver registry's order), so that a
# registered solver is drawn without editing this script. Red is kept for
# "something went wrong" (rank dropped, no solution).
SOLVER_PALETTE = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]
SOLVER_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">"]
_solver_styles = {}


def solver_style(name):
    if name not in _solver_styles:
        i = len(_solver_styles)
        _solver_styles[name] = dict(color=SOLVER_PALETTE[i % len(SOLVER_PALETTE)],
                                    marker=SOLVER_MARKERS[i % len(SOLVER_MARKERS)])
    return _solver_styles[name]


def solvers_of(rows):
    """The solvers of a study's rows, in the order they first appear."""
    names = list(dict.fromkeys(r["method"] for r in rows))
    for n in names:
        solver_style(n)
    return names
# A colour per precision, by its place in the study's precision order.
PRECISION_PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#e377c2", "#bcbd22", "#7f7f7f"]


def use_precisions(reports, study):
    """Reads the precision order of `study` from its JSON (empty when absent:
    the precisions are then drawn in sorted order)."""
    global _precisions
    try:
        with open(os.path.join(reports, study, f"{study}.json")) as f:
            _precisions = list(json.load(f).get("precisions", []))
    except (OSError, ValueError):
        _precisions = []
    return _precisions


def default_method(reports, study):
    """femc's default method, which the rank plot and the error panels anchor on: the study's JSON
    (default_method); a record older than that field was written when the default was cod."""
    try:
        with open(os.path.join(reports, study, f"{study}.json")) as f:
            return json.load(f).get("default_method", "cod")
    except (OSError, ValueError):
        return "cod"


def precision_order():
    return _precisions


def precision_color(p):
    return PRECISION_PALETTE[_precisions.index(p) % len(PRECISION_PALETTE)] if p in _precisions else "0.3"
KAPPA_M_MARKERS = ["o", "^", "s", "D", "v", "P"]
DPI = 110

plt = None  # matplotlib.pyplot, imported by _init_matplotlib()


class MalformedCsv(Exception):
    pass


# --------------------------------------------------------------------------
# Reading

def read_table(path, numeric=(), text=()):
    """Rows of a study CSV as dicts; `numeric` columns become floats.

    'nan', 'inf' and empty fields become NaN/inf floats (callers keep only
    finite values); anything else unparsable, a missing column or a row
    with the wrong number of fields raises MalformedCsv.
    """
    name = os.path.basename(path)
    try:
        with open(path, newline="", encoding="utf-8") as f:
            # '#' lines are comments in femc's CSV (cells carry '# seconds').
            records = list(csv.reader(line for line in f if not line.startswith("#")))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise MalformedCsv(f"{name}: {e}")
    if not records:
        raise MalformedCsv(f"{name}: no header")
    header = records[0]
    missing = [c for c in list(numeric) + list(text) if c not in header]
    if missing:
        raise MalformedCsv(f"{name}: missing column(s) {', '.join(missing)}")
    rows = []
    for i, rec in enumerate(records[1:], start=1):
        if not rec:
            continue
        if len(rec) != len(header):
            raise MalformedCsv(f"{name}: row {i} has {len(rec)} fields, the header {len(header)}")
        row = dict(zip(header, rec))
        for c in numeric:
            v = row[c].strip()
            try:
                row[c] = float(v) if v else math.nan
            except ValueError:
                raise MalformedCsv(f"{name}: row {i}, column {c}: '{v[:30]}' is not a number")
        rows.append(row)
    return rows


def study_csv(reports, study):
    return os.path.join(reports, study, study + ".csv")


def ordered(values, preferred):
    """The distinct values, in the preferred order first, then sorted."""
    seen = list(dict.fromkeys(values))
    return [v for v in preferred if v in seen] + sorted(v for v in seen if v not in preferred)


def positive(x):
    return math.isfinite(x) and x > 0


# --------------------------------------------------------------------------
# Analyses shared with scripts/report-index.py

PRECISION_TARGETS = [1e-8, 1e-16, 1e-32]


def bits_needed(rows, target):
    """Smallest bits such that err_qdd <= target there and at every larger
    bits in `rows` (one method, one data set); None if the largest fails."""
    best = None
    for r in sorted(rows, key=lambda r: -r["bits"]):
        if r["status"] == "ok" and math.isfinite(r["err_qdd"]) and r["err_qdd"] <= target:
            best = r["bits"]
        else:
            break
    return best


def precision_bits_table(rows):
    """{(method, k, seed, target): bits or None} and {k: median kappa_B}."""
    groups = {}
    kappa = {}
    for r in rows:
        groups.setdefault((r["method"], r["log10_kappa_target"], r["seed"]), []).append(r)
        kappa.setdefault(r["log10_kappa_target"], []).append(r["kappa_B"])
    table = {}
    for (m, k, s), g in groups.items():
        for t in PRECISION_TARGETS:
            table[(m, k, s, t)] = bits_needed(g, t)
    return table, {k: float(np.median([x for x in v if positive(x)] or [math.nan])) for k, v in kappa.items()}


def rank_drops(rows, method):
    """Per precision: (sigma of the last row with the full decided rank,
    sigma of the first row with a smaller one), scanning sigma downwards."""
    out = {}
    for p in ordered((r["precision"] for r in rows), precision_order()):
        sel = sorted((r for r in rows if r["precision"] == p and r["method"] == method and r["status"] == "ok"),
                     key=lambda r: -r["sigma"])
        if not sel:
            continue
        full = max(r["rank_decided"] for r in sel)
        last_full, first_drop = None, None
        for r in sel:
            if r["rank_decided"] >= full:
                last_full = r
            else:
                first_drop = r
                break
        out[p] = (last_full, first_drop)
    return out


# --------------------------------------------------------------------------
# Plot helpers

def _init_matplotlib():
    global plt
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    plt = pyplot
    plt.rcParams.update({
        "font.size": 10,
        "axes.titlesize": 10.5,
        "axes.labelsize": 10,
        "legend.fontsize": 9,
        "xtick.labelsize": 9,
        "ytick.labelsize": 9,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "grid.linewidth": 0.6,
    })


def save(fig, path):
    """Writes the figure atomically: a reader never sees half a PNG."""
    directory, base = os.path.split(path)
    tmp = os.path.join(directory, f".{base}.{os.getpid()}.tmp.png")
    try:
        fig.savefig(tmp, dpi=DPI)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)
    print(f"  wrote {path}")


def no_data(ax, what="no data"):
    ax.text(0.5, 0.5, what, transform=ax.transAxes, ha="center", va="center", color="0.4")


def hollow(style, filled):
    """Marker kwargs: filled or hollow in the style's colour."""
    c = style["color"]
    return dict(marker=style["marker"], edgecolors=c, facecolors=c if filled else "none", linewidths=1.0)


def proxy(**kw):
    """An empty artist for a legend entry."""
    kw.setdefault("linestyle", "none")
    return plt.Line2D([], [], **kw)


def solver_handles(names):
    """A legend entry per solver, in its colour and marker."""
    return [proxy(label=m, markerfacecolor=solver_style(m)["color"], markeredgecolor=solver_style(m)["color"],
                  marker=solver_style(m)["marker"]) for m in names]


def label_grid(axes, used, xlabel, ylabel):
    """Hides the unused panels of a grid of axes and labels its outer ones."""
    for ax in axes.flat[used:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)


def sci(x, digits=1):
    """1.5e+08 → '1.5e8' (for titles and labels)."""
    if not math.isfinite(x):
        return str(x)
    m, e = f"{x:.{digits}e}".split("e")
    return f"{m}e{int(e)}"


def kappa_m_label(log10_km):
    return r"$\kappa(M)\approx 10^{%d}$" % round(log10_km)


# --------------------------------------------------------------------------
# conditioning

COND_NUM = ["log10_kappa_A_target", "log10_kappa_M_target", "rank", "kappa_B", "kappa_M", "u", "rank_decided",
            "err_qdd", "c_qdd", "ratio_constraint"]
COND_TEXT = ["case", "precision", "method", "status"]


def plot_conditioning(reports):
    rows = read_table(study_csv(reports, "conditioning"), COND_NUM, COND_TEXT)
    out = os.path.join(reports, "conditioning")
    ok = [r for r in rows if r["status"] == "ok"]
    precisions = ordered((r["precision"] for r in rows), precision_order())
    methods = solvers_of(rows)
    kms = sorted(set(r["log10_kappa_M_target"] for r in rows))
    kbs = [r["kappa_B"] for r in rows if positive(r["kappa_B"])]
    if not rows or not kbs:
        print("  conditioning: no rows, nothing plotted")
        return
    xlim = (min(kbs) / 3, max(kbs) * 3)

    # (a) err vs κ(B): one panel per precision × κ(M) (κ(M) adds u·κ(M) to
    # the error of literal/cod/kkt, so mixing the two would blur the slope).
    ncols = len(kms) * (2 if len(kms) <= 2 else 1)
    panels = [(p, km) for p in precisions for km in kms]
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.1 * ncols, 3.3 * nrows + 1.0), squeeze=False,
                             sharex=True)
    kx = np.logspace(math.log10(xlim[0]), math.log10(xlim[1]), 100)
    for ax, (p, km) in zip(axes.flat, panels):
        us = [r["u"] for r in rows if r["precision"] == p and positive(r["u"])]
        if not us:
            no_data(ax)
            continue
        u = us[0]
        lo, hi = u / 10, 10.0
        clipped = 0
        for m in methods:
            for case, filled in (("consistent", True), ("inconsistent", False)):
                sel = [r for r in ok if r["precision"] == p and r["log10_kappa_M_target"] == km
                       and r["method"] == m and r["case"] == case and positive(r["kappa_B"])
                       and math.isfinite(r["err_qdd"])]
                if not sel:
                    continue
                y = np.array([r["err_qdd"] for r in sel])
                clipped += int(np.sum((y < lo) | (y > hi)))
                ax.scatter([r["kappa_B"] for r in sel], np.clip(y, lo, hi), s=26, alpha=0.85, zorder=3,
                           **hollow(solver_style(m), filled))
        dropped = [r for r in ok if r["precision"] == p and r["log10_kappa_M_target"] == km
                   and r["rank_decided"] >= 0 and r["rank_decided"] != r["rank"] and positive(r["kappa_B"]) and math.isfinite(r["err_qdd"])]
        if dropped:
            ax.scatter([r["kappa_B"] for r in dropped], np.clip([r["err_qdd"] for r in dropped], lo, hi),
                       marker="x", s=70, color="red", linewidths=1.6, zorder=4)
        ax.plot(kx, u * kx, "k--", lw=1, zorder=2)
        ax.plot(kx, u * kx ** 2, "k:", lw=1.2, zorder=2)
        kms_here = [r["kappa_M"] for r in rows if r["log10_kappa_M_target"] == km and positive(r["kappa_M"])]
        if kms_here and np.median(kms_here) > 10:
            # The Cholesky factor of M adds u·κ(M) to the bound.
            ax.plot(kx, u * (kx + np.median(kms_here)), color="0.45", ls="-.", lw=1, zorder=2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(lo, hi)
        ax.set_xlim(*xlim)
        ax.set_title(f"{p} (u = {sci(u)}), " + kappa_m_label(km))
        refused = {}
        for r in rows:
            if r["precision"] == p and r["log10_kappa_M_target"] == km and r["status"] != "ok":
                refused[r["method"]] = refused.get(r["method"], 0) + 1
        notes = []
        if refused:
            notes.append("refused: " + ", ".join(f"{m} {n}" for m, n in sorted(refused.items())))
        if clipped:
            notes.append(f"{clipped} point(s) clipped to the axis")
        if notes:
            ax.text(0.98, 0.03, "\n".join(notes), transform=ax.transAxes, ha="right", va="bottom", fontsize=8,
                    color="0.25", bbox=dict(fc="white", ec="0.8", alpha=0.9))
    label_grid(axes, len(panels), r"$\kappa(B)$, $B = A\,L^{-T}$", r"relative error of $\ddot q$")
    handles = solver_handles(methods)
    handles += [proxy(marker="o", color="0.3", label="consistent (filled)"),
                proxy(marker="o", markerfacecolor="none", markeredgecolor="0.3", label="inconsistent (hollow)"),
                proxy(marker="x", color="red", markersize=8, markeredgewidth=1.6,
                      label="decided rank ≠ exact rank (constraint dropped)"),
                proxy(linestyle="--", color="k", label=r"u·κ(B)"),
                proxy(linestyle=":", color="k", label=r"u·κ(B)²"),
                proxy(linestyle="-.", color="0.45", label=r"u·(κ(B) + κ(M)), κ(M) > 10")]
    fig.suptitle("conditioning: forward error of q̈ against the exact solution vs κ(B), per precision and κ(M) "
                 "(status ok only; y clipped to [u/10, 10])", fontsize=12)
    fig.legend(handles=handles, loc="lower center", ncol=6, frameon=False, fontsize=9.5)
    fig.tight_layout(rect=(0, 0.055, 1, 0.97))
    save(fig, os.path.join(out, "conditioning_qdd.png"))

    # (b) the constant c = err/bound, one panel per method, all precisions.
    _conditioning_by_method(
        ok, methods, precisions, kms, xlim, "c_qdd", os.path.join(out, "conditioning_constants.png"),
        ylabel="c = error / (u·(κ(B)^p + κ(M) + κ(B)²η)), p the solver's", hline=(1.0, "c = 1 (the first-order bound)"),
        title="conditioning: constant of the first-order bound for q̈ vs κ(B) (status ok only)", mark_drops=True)
    # (c) LAPACK-style scaled residual of the constraints.
    _conditioning_by_method(
        ok, methods, precisions, kms, xlim, "ratio_constraint", os.path.join(out, "conditioning_residuals.png"),
        ylabel="scaled residual ratio (LAPACK xQRT16 / xQRT17)", hline=(30.0, "30: LAPACK's test threshold"),
        title="conditioning: scaled constraint residual of the transformed problem B x = d vs κ(B)\n"
              "(consistent: ‖W½(Aq̈−b)‖; inconsistent: ‖BᵀW½(Aq̈−b)‖; only where B is of full rank at u)",
        mark_drops=True)


def _conditioning_by_method(ok, methods, precisions, kms, xlim, column, path, ylabel, hline, title, mark_drops):
    ncols = 2
    nrows = math.ceil(len(methods) / ncols) or 1
    fig, axes = plt.subplots(nrows, ncols, figsize=(12, 4.2 * nrows + 1.1), squeeze=False, sharex=True,
                             sharey=True)
    km_marker = {km: KAPPA_M_MARKERS[i % len(KAPPA_M_MARKERS)] for i, km in enumerate(kms)}
    floor_note = False
    vals = [r[column] for r in ok if positive(r[column])]
    floor = min(vals) / 3 if vals else 1e-3
    for ax, m in zip(axes.flat, methods):
        any_point = False
        for p in precisions:
            for km in kms:
                for case, filled in (("consistent", True), ("inconsistent", False)):
                    sel = [r for r in ok if r["method"] == m and r["precision"] == p and r["case"] == case
                           and r["log10_kappa_M_target"] == km and positive(r["kappa_B"])
                           and math.isfinite(r[column])]
                    if not sel:
                        continue
                    any_point = True
                    y = np.array([r[column] for r in sel])
                    floor_note |= bool(np.any(y <= 0))
                    ax.scatter([r["kappa_B"] for r in sel], np.where(y > 0, y, floor), s=22, alpha=0.8, zorder=3,
                               **hollow(dict(color=precision_color(p), marker=km_marker[km]), filled))
        if mark_drops:
            dropped = [r for r in ok if r["method"] == m and r["rank_decided"] >= 0 and r["rank_decided"] != r["rank"]
                       and positive(r["kappa_B"]) and positive(r[column])]
            if dropped:
                ax.scatter([r["kappa_B"] for r in dropped], [r[column] for r in dropped], marker="x", s=70,
                           color="red", linewidths=1.6, zorder=4)
        ax.axhline(hline[0], color="k", lw=1.1, ls="--", zorder=2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(*xlim)
        ax.set_title(m)
        if not any_point:
            no_data(ax, f"{m}: no solved rows")
    label_grid(axes, len(methods), r"$\kappa(B)$", ylabel)
    handles = [proxy(marker="o", color=precision_color(p), label=p) for p in precisions]
    handles += [proxy(marker=km_marker[km], color="0.3", label=kappa_m_label(km)) for km in kms]
    handles += [proxy(marker="o", color="0.3", label="consistent (filled)"),
                proxy(marker="o", markerfacecolor="none", markeredgecolor="0.3", label="inconsistent (hollow)"),
                proxy(linestyle="--", color="k", label=hline[1])]
    if mark_drops:
        handles.append(proxy(marker="x", color="red", markersize=8, markeredgewidth=1.6, label="constraint dropped"))
    if floor_note:
        handles.append(proxy(marker="", label=f"exact 0 drawn at {sci(floor)}"))
    fig.suptitle(title, fontsize=12)
    fig.legend(handles=handles, loc="lower center", ncol=6, frameon=False)
    fig.tight_layout(rect=(0, 0.09 if len(handles) > 6 else 0.05, 1, 0.96))
    save(fig, path)


# --------------------------------------------------------------------------
# rank

RANK_NUM = ["k", "sigma", "u", "exact_rank", "rank_decided", "rank_tol", "rank_tol_data", "qdd_norm",
            "exact_qdd_norm", "limit_qdd_norm", "err_vs_exact", "err_vs_limit"]
RANK_TEXT = ["case", "precision", "data_precision", "method", "status", "expected_rank", "warnings"]


def rank_cases(rows):
    """The rank study's two cases: the σ sweep, and the rounded linkage."""
    return ([r for r in rows if r["case"] == "sigma-sweep"], [r for r in rows if r["case"] == "rounded-linkage"])


def plot_rank_rounded(rows, out):
    """The rounded linkage: q̈'s error against the mechanism's motion and the
    rank decided, per precision and method, at face value and given the
    data's precision (double)."""
    if not rows:
        return
    precisions = ordered((r["precision"] for r in rows), precision_order())
    methods = solvers_of(rows)
    fig, (ax_e, ax_r) = plt.subplots(1, 2, figsize=(13, 5.2))
    width = 0.8 / max(len(methods), 1)
    for j, m in enumerate(methods):
        for data, filled in (("exact", False), ("double", True)):
            style = solver_style(m)
            xs, es, rs = [], [], []
            for i, p in enumerate(precisions):
                for r in rows:
                    if r["precision"] == p and r["method"] == m and r["data_precision"] == data:
                        x = i - 0.4 + width * (j + 0.5) + (0.08 if filled else -0.08)
                        xs.append(x)
                        es.append(r["err_vs_limit"] if r["status"] == "ok" and positive(r["err_vs_limit"]) else math.nan)
                        rs.append(r["rank_decided"] if r["status"] == "ok" else 0)
            kw = dict(marker=style.get("marker", "o"), s=26, linewidths=1.0)
            face = style.get("color", "0.3") if filled else "none"
            ax_e.scatter(xs, es, facecolors=face, edgecolors=style.get("color", "0.3"), **kw)
            ax_r.scatter(xs, rs, facecolors=face, edgecolors=style.get("color", "0.3"), **kw)
    for ax in (ax_e, ax_r):
        ax.set_xticks(range(len(precisions)))
        ax.set_xticklabels(precisions)
    ax_e.set_yscale("log")
    ax_e.set_ylabel("‖q̈ − q̈ of the motion‖ / ‖q̈ of the motion‖")
    ax_e.set_title("error against the mechanism's motion")
    ax_r.set_yticks([0, 5, 6])
    ax_r.set_yticklabels(["refused", "5", "6"])
    ax_r.set_ylim(-0.5, 6.6)
    ax_r.set_ylabel("rank decided (true rank 5; the rounded data have rank 6)")
    ax_r.set_title("rank decided")
    handles = [proxy(linestyle="", markerfacecolor=solver_style(m)["color"], markeredgecolor=solver_style(m)["color"],
                     marker=solver_style(m)["marker"], label=m) for m in methods]
    handles += [proxy(linestyle="", marker="o", markerfacecolor="none", markeredgecolor="0.3",
                      label="data at face value (data_precision exact)"),
                proxy(linestyle="", marker="o", markerfacecolor="0.3", markeredgecolor="0.3",
                      label="data_precision double")]
    fig.suptitle("rank, rounded linkage: a redundant mechanism rounded to double, solved at every precision", fontsize=12)
    fig.legend(handles=handles, loc="lower center", ncol=6, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    save(fig, os.path.join(out, "rank_rounded.png"))


def plot_rank(reports):
    rows, rounded = rank_cases(read_table(study_csv(reports, "rank"), RANK_NUM, RANK_TEXT))
    out = os.path.join(reports, "rank")
    plot_rank_rounded(rounded, out)
    if not rows:
        print("  rank: no rows, nothing plotted")
        return
    precisions = ordered((r["precision"] for r in rows), precision_order())
    anchor = default_method(reports, "rank")
    drops = rank_drops(rows, anchor)

    fig, ax = plt.subplots(figsize=(11, 7))
    # Lower precisions first and wider, so the later, thinner lines show
    # where they coincide.
    n = len(precisions)
    for i, p in enumerate(precisions):
        sel = sorted((r for r in rows if r["precision"] == p and r["method"] == anchor), key=lambda r: r["sigma"])
        ex = [(r["sigma"], r["exact_qdd_norm"]) for r in sel if positive(r["sigma"]) and positive(r["exact_qdd_norm"])]
        if ex:
            ax.plot(*zip(*ex), color="0.55", lw=0.8, zorder=1, label="exact ‖q̈‖ of each precision's data"
                    if i == 0 else None)
        pts = [(r["sigma"], r["qdd_norm"] if r["status"] == "ok" else math.nan) for r in sel if positive(r["sigma"])]
        if pts:
            x, y = zip(*pts)
            y = [v if positive(v) else math.nan for v in y]
            ax.plot(x, y, color=precision_color(p), lw=1.2 + 2.2 * (n - 1 - i) / max(n - 1, 1),
                    zorder=2 + i, label=f"{p} (u = {sci(sel[0]['u'])})")
        last_full, first_drop = drops.get(p, (None, None))
        if first_drop is not None and positive(first_drop["qdd_norm"]):
            ax.plot(first_drop["sigma"], first_drop["qdd_norm"], marker="v", ms=9, color=precision_color(p),
                    markeredgecolor="k", zorder=20)
            ax.axvline(math.sqrt(first_drop["sigma"] * last_full["sigma"]) if last_full else first_drop["sigma"],
                       color=precision_color(p), ls=":", lw=1.0, zorder=1)
    limits = [r["limit_qdd_norm"] for r in rows if positive(r["limit_qdd_norm"])]
    if limits:
        ax.axhline(limits[0], color="k", ls="--", lw=1.1, label=f"limit σ = 0 (least squares): {limits[0]:.4g}")
    ax.plot([], [], "v", color="0.5", markeredgecolor="k", ms=8,
            label="first σ decided as rank 2 (dotted: the switch)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set_xlabel("σ = 2⁻ᵏ (the third row is a₁ + σe₁), decreasing to the right →")
    ax.set_ylabel("‖q̈‖ (method cod)")
    ax.set_title("rank: ‖q̈‖ as one constraint row approaches another; the jump is where each precision decides rank 2")
    # Below the axes: the upper left holds the dotted threshold lines.
    fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.13, 1, 1))
    save(fig, os.path.join(out, "rank_qdd.png"))

    # Decided rank, one panel per method; small vertical offsets keep the
    # coinciding steps of the precisions apart.
    methods = solvers_of(rows)
    ncols = 2
    nrows = math.ceil(len(methods) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(12, 3.6 * nrows + 0.9), squeeze=False, sharex=True, sharey=True)
    for ax, m in zip(axes.flat, methods):
        for i, p in enumerate(precisions):
            off = (i - (n - 1) / 2) * 0.06
            sel = sorted((r for r in rows if r["precision"] == p and r["method"] == m and positive(r["sigma"])),
                         key=lambda r: -r["sigma"])
            ok = [(r["sigma"], r["rank_decided"] + off) for r in sel if r["status"] == "ok"]
            if ok:
                ax.step(*zip(*ok), where="post", color=precision_color(p), lw=1.6)
            ex = [(r["sigma"], r["exact_rank"] + off) for r in sel]
            if ex:
                ax.step(*zip(*ex), where="post", color=precision_color(p), lw=0.8, ls=":")
            bad = [r["sigma"] for r in sel if r["status"] != "ok"]
            if bad:
                ax.scatter(bad, [0.5 + off] * len(bad), marker="x", s=14, color=precision_color(p),
                           linewidths=0.9)
        ax.set_xscale("log")
        ax.set_title(m)
        ax.set_yticks([0.5, 1, 2, 3])
        ax.set_yticklabels(["refused", "1", "2", "3"])
        ax.set_ylim(0.2, 3.4)
    axes[0][0].invert_xaxis()  # once: the x axis is shared, a second call would undo it
    label_grid(axes, len(methods), "σ, decreasing to the right →", "rank decided")
    handles = [proxy(color=precision_color(p), linestyle="-", lw=1.6, label=p) for p in precisions]
    handles += [proxy(color="0.3", linestyle=":", label="exact rank of that precision's data"),
                proxy(color="0.3", marker="x", label="method refused (method-error)")]
    fig.suptitle("rank: the rank each method decides as σ → 0 (curves offset by ±0.15 to separate precisions)",
                 fontsize=12)
    fig.legend(handles=handles, loc="lower center", ncol=8, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 0.96))
    save(fig, os.path.join(out, "rank_decided.png"))


# --------------------------------------------------------------------------
# perturbed-constraints

PERT_NUM = ["eps", "seed", "rank_before", "rank_after", "rel_change_qdd", "bound", "ratio_to_bound", "c_change"]
PERT_TEXT = ["experiment", "method", "precision", "status"]
PERT_FLOOR = 1e-20  # where exact zeros are drawn on the log axis


def plot_perturbed(reports):
    table = read_table(study_csv(reports, "perturbed-constraints"), PERT_NUM, PERT_TEXT)
    out = os.path.join(reports, "perturbed-constraints")
    rows = [r for r in table if r["method"] == "exact"]  # the mathematics
    if not rows:
        print("  perturbed-constraints: no rows, nothing plotted")
        return
    plot_perturbed_solvers([r for r in table if r["method"] != "exact"], out)
    experiments = list(dict.fromkeys(r["experiment"] for r in rows))
    cmap = plt.get_cmap("tab10")
    colors = {e: cmap(i % 10) for i, e in enumerate(experiments)}
    markers = ["o", "s", "^", "v", "D", "P", "X", "<", ">", "h"]

    fig, ax = plt.subplots(figsize=(11, 6.2))
    zeros = False
    for i, e in enumerate(experiments):
        for j, s in enumerate(sorted(set(r["seed"] for r in rows if r["experiment"] == e))):
            sel = sorted((r for r in rows if r["experiment"] == e and r["seed"] == s and positive(r["eps"])),
                         key=lambda r: r["eps"])
            x = np.array([r["eps"] for r in sel])
            y = np.array([r["rel_change_qdd"] for r in sel])
            if not sel:
                continue
            ranks = (sel[0]["rank_before"], sel[0]["rank_after"])
            label = (f"{e} (rank {ranks[0]:g}→{ranks[1]:g})" if all(map(math.isfinite, ranks)) else e) if j == 0 else None
            pos = np.array([positive(v) for v in y], dtype=bool)
            zero = np.array([v == 0 for v in y], dtype=bool)
            style = dict(color=colors[e], marker=markers[i % len(markers)])
            if pos.any():
                ax.plot(x, np.where(pos, y, np.nan), ms=4.5, lw=1.3, label=label, **style)
            if zero.any():
                zeros = True
                # Hollow markers on the floor; experiments offset a little so that all stay visible.
                ax.plot(x[zero], np.full(zero.sum(), PERT_FLOOR * (1.6 ** (i % 4))), ms=6, lw=0.8, ls="--",
                        markerfacecolor="none", label=(label + ": exactly 0") if label else None, **style)
    eps = np.array(sorted(set(r["eps"] for r in rows if positive(r["eps"]))))
    if len(eps):
        ax.plot(eps, eps, color="0.5", lw=0.8, ls=(0, (1, 3)), label="guides: ∝ ε and ∝ 1/ε")
        ax.plot(eps, 1e-2 / eps, color="0.5", lw=0.8, ls=(0, (1, 3)))
    if zeros:
        ax.axhspan(PERT_FLOOR / 3, PERT_FLOOR * 8, color="0.93", zorder=0)
        ax.text(eps[0] if len(eps) else 1e-16, PERT_FLOOR * 10, "exactly 0 (drawn at 1e-20)", fontsize=9,
                color="0.3", va="bottom")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(PERT_FLOOR / 3, None)
    ax.set_xlabel("ε (relative size of the perturbation of b, A or W)")
    ax.set_ylabel("‖Δq̈‖ / ‖q̈‖ (exact arithmetic)")
    ax.set_title("perturbed-constraints: relative change of q̈ when b, A or W is perturbed by ε (exact solves)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    save(fig, os.path.join(out, "perturbed.png"))

    fig, ax = plt.subplots(figsize=(9, 5))
    bounded = [e for e in experiments if any(positive(r["ratio_to_bound"]) for r in rows if r["experiment"] == e)]
    for i, e in enumerate(bounded):
        for j, s in enumerate(sorted(set(r["seed"] for r in rows if r["experiment"] == e))):
            sel = sorted((r for r in rows if r["experiment"] == e and r["seed"] == s and positive(r["eps"])
                          and positive(r["ratio_to_bound"])), key=lambda r: r["eps"])
            ax.plot([r["eps"] for r in sel], [r["ratio_to_bound"] for r in sel], color=colors[e],
                    marker=markers[experiments.index(e) % len(markers)], ms=4.5, lw=1.3, label=e if j == 0 else None)
    ax.axhline(1.0, color="k", ls="--", lw=1.1, label="1: the first-order bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("‖Δq̈‖ / first-order bound")
    ax.set_title("perturbed-constraints: change of q̈ relative to its first-order bound\n"
                 "(only experiments with a bound: no bound exists when the rank changes)")
    if not bounded:
        no_data(ax, "no experiment has a finite bound")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    save(fig, os.path.join(out, "perturbed_ratio.png"))


def plot_perturbed_solvers(rows, out):
    """Each solver's change of q̈ against the exact change, in units of its two forward-error bounds."""
    ok = [r for r in rows if r["status"] == "ok" and positive(r["eps"]) and math.isfinite(r["c_change"])]
    if not ok:
        return
    experiments = list(dict.fromkeys(r["experiment"] for r in ok))
    solvers = list(dict.fromkeys(r["method"] for r in ok))
    cols = 4
    nrows = (len(experiments) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False, sharey=True)
    lo = 1e-6
    for ax, e in zip(axes.flat, experiments):
        for m in solvers:
            sel = [r for r in ok if r["experiment"] == e and r["method"] == m]
            st = solver_style(m)
            ax.scatter([r["eps"] for r in sel], [max(r["c_change"], lo) for r in sel], s=14, alpha=0.6,
                       color=st["color"], marker=st["marker"])
        refused = sorted(set(r["method"] for r in rows if r["experiment"] == e and r["status"] != "ok"))
        if refused:
            ax.text(0.02, 0.97, "not run or refused: " + ", ".join(refused), transform=ax.transAxes, va="top",
                    fontsize=7.5, color="0.3")
        ax.axhline(1.0, color="k", ls="--", lw=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(lo / 2, None)
        ax.set_title(e, fontsize=10)
    label_grid(axes, len(experiments), "ε", "c_change")
    handles = solver_handles(solvers)
    handles.append(proxy(linestyle="--", color="k", label="1: the two solves' first-order bounds"))
    fig.suptitle("perturbed-constraints: every solver's Δq̈ against the exact Δq̈, "
                 "c_change = ‖Δq̈_solver − Δq̈_exact‖ / (β₀‖q̈₀‖ + β₁‖q̈₁‖), all working precisions "
                 f"(clipped at {lo:g})", fontsize=11)
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=9)
    fig.tight_layout(rect=(0, 0.06, 1, 0.95))
    save(fig, os.path.join(out, "perturbed_solvers.png"))


# --------------------------------------------------------------------------
# precision

PREC_NUM = ["log10_kappa_target", "seed", "kappa_B", "bits", "u", "err_qdd"]
PREC_TEXT = ["method", "status"]


def error_growths(reports, study):
    """{solver: p}, the power of κ(B) each solver declares (the study's JSON, error_laws); {} for a JSON
    written before femc recorded them (every solver then drawn with p = 1)."""
    try:
        with open(os.path.join(reports, study, study + ".json"), encoding="utf-8") as f:
            laws = json.load(f).get("error_laws", {})
    except (OSError, ValueError):
        return {}
    return {name: int(law.get("error_growth", 1)) for name, law in laws.items()}


def plot_precision(reports):
    rows = read_table(study_csv(reports, "precision"), PREC_NUM, PREC_TEXT)
    out = os.path.join(reports, "precision")
    if not rows:
        print("  precision: no rows, nothing plotted")
        return
    methods = solvers_of(rows)
    table, kappa = precision_bits_table(rows)
    ks = sorted(kappa)
    seeds = sorted(set(r["seed"] for r in rows))
    max_bits = max(r["bits"] for r in rows)
    dx = {m: (i - (len(methods) - 1) / 2) * 0.35 for i, m in enumerate(methods)}

    fig, axes = plt.subplots(1, len(PRECISION_TARGETS), figsize=(15, 5.6), sharey=True, squeeze=False)
    xs = np.array(ks, dtype=float)
    kb = np.array([kappa[k] for k in ks])
    for ax, t in zip(axes[0], PRECISION_TARGETS):
        ax.plot(xs, np.log2(kb / t), "k--", lw=1.1, zorder=1)
        ax.plot(xs, np.log2(kb ** 2 / t), "k:", lw=1.3, zorder=1)
        for m in methods:
            st = solver_style(m)
            # The largest over seeds: enough bits for every data set.
            need = []
            for k in ks:
                vals = [table.get((m, k, s, t)) for s in seeds]
                need.append(math.nan if any(v is None for v in vals) else max(vals))
            ax.plot(xs + dx[m], need, color=st["color"], marker=st["marker"], ms=5.5, lw=1.3, zorder=3)
            short = [k for k, v in zip(ks, need) if not math.isfinite(v)]
            if short:
                ax.scatter(np.array(short, dtype=float) + dx[m], [max_bits + 12] * len(short), marker="^",
                           facecolors="none", edgecolors=st["color"], s=30, zorder=3)
            if len(seeds) > 1:
                for s in seeds:
                    v = [table.get((m, k, s, t)) for k in ks]
                    ax.scatter([k + dx[m] for k, b in zip(ks, v) if b is not None], [b for b in v if b is not None],
                               s=8, color=st["color"], alpha=0.4, zorder=2)
        ax.axhline(max_bits, color="0.6", lw=0.8)
        ax.set_title(f"target ‖Δq̈‖/‖q̈‖ ≤ {sci(t, 0)}")
        ax.set_xlabel("log₁₀ κ(A) (target of the data; methods offset ±0.5 for legibility)")
        ax.set_ylim(0, max_bits + 24)
    axes[0][0].set_ylabel("bits of MPFR precision needed")
    handles = [proxy(label=m, linestyle="-", **{k: v for k, v in solver_style(m).items()}) for m in methods]
    handles += [proxy(linestyle="--", color="k", label="log₂(κ(B)/target)"),
                proxy(linestyle=":", color="k", label="log₂(κ(B)²/target)"),
                proxy(marker="^", markerfacecolor="none", markeredgecolor="0.3",
                      label=f"not reached by {int(max_bits)} bits")]
    fig.suptitle("precision: bits needed so that the error of q̈ stays ≤ target at that and every larger precision "
                 "(max over seeds)", fontsize=12)
    fig.legend(handles=handles, loc="lower center", ncol=7, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    save(fig, os.path.join(out, "precision_bits.png"))

    # err vs bits for a few κ: one method of each declared error growth p (κ(B)^p·u), from the study's
    # JSON (error_laws: each solver's capabilities), the default method first, side by side.
    shown = ks if len(ks) <= 6 else [ks[round(i * (len(ks) - 1) / 5)] for i in range(6)]
    cmap = plt.get_cmap("viridis")
    growth = error_growths(reports, "precision")
    anchor = default_method(reports, "precision")
    panel_methods = []
    for m in sorted(methods, key=lambda m: m != anchor):
        if growth.get(m, 1) not in [growth.get(p, 1) for p in panel_methods]:
            panel_methods.append(m)
    fig, axes = plt.subplots(1, len(panel_methods), figsize=(6.5 * len(panel_methods), 5.4), sharey=True,
                             squeeze=False)
    bits = np.array(sorted(set(r["bits"] for r in rows)))
    for ax, m in zip(axes[0], panel_methods):
        power = growth.get(m, 1)
        for i, k in enumerate(shown):
            c = cmap(i / max(len(shown) - 1, 1) * 0.85)
            sel = sorted((r for r in rows if r["method"] == m and r["log10_kappa_target"] == k and r["seed"] == seeds[0]),
                         key=lambda r: r["bits"])
            y = [r["err_qdd"] if r["status"] == "ok" and positive(r["err_qdd"]) else math.nan for r in sel]
            ax.plot([r["bits"] for r in sel], np.clip(y, 1e-100, 10), color=c, marker="o", ms=3.5, lw=1.3,
                    label=f"κ(B) = {sci(kappa[k])}")
            ax.plot(bits, np.clip(2.0 ** -bits * kappa[k] ** power, 1e-100, 10), color=c, ls="--", lw=0.9)
        ax.set_yscale("log")
        ax.set_ylim(1e-100, 10)
        ax.set_xlabel("bits of MPFR precision p (u = 2⁻ᵖ)")
        ax.set_title(f"{m}: dashed = u·κ(B){'²' if power == 2 else ''}")
        ax.legend(loc="lower left", fontsize=8.5, framealpha=0.95)
    axes[0][0].set_ylabel("relative error of q̈ (saturates at 1; refused solves omitted)")
    fig.suptitle(f"precision: error of q̈ vs working precision for a few κ (seed {int(seeds[0])})", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    save(fig, os.path.join(out, "precision_error.png"))


# --------------------------------------------------------------------------
# trajectories

TRAJ_NUM = ["tol", "t_end", "steps", "t", "energy", "balance", "position_violation"]
TRAJ_TEXT = ["system", "precision", "stabilization", "completed"]
TRAJ_SYSTEMS = ["spherical-pendulum", "double-parallelogram", "bead-with-friction"]
STAB_COLOR = {"none": "#d62728", "baumgarte": "#1f77b4"}
PREC_LINE = {"double": dict(ls="-", lw=1.3), "mpfr-128": dict(ls="--", lw=2.0)}


def plot_trajectories(reports):
    rows = read_table(study_csv(reports, "trajectories"), TRAJ_NUM, TRAJ_TEXT)
    out = os.path.join(reports, "trajectories")
    if not rows:
        print("  trajectories: no rows, nothing plotted")
        return
    systems = ordered((r["system"] for r in rows), TRAJ_SYSTEMS)
    combos = list(dict.fromkeys((r["precision"], r["stabilization"]) for r in rows))
    combos.sort(key=lambda c: (c[0] != "double", c[0], c[1] != "none", c[1]))
    for column, fname, ylabel, title in (
            ("position_violation", "trajectories_drift.png", "‖φ(q)‖ (position-level constraint violation)",
             "trajectories: constraint drift vs time"),
            ("balance", "trajectories_balance.png", "|E(t) − E(0) − W(t)| (energy/work balance)",
             "trajectories: energy/work balance vs time")):
        fig, axes = plt.subplots(1, len(systems), figsize=(5.3 * len(systems), 5.0), squeeze=False)
        labels = {}
        for ax, system in zip(axes[0], systems):
            drawn = False
            for prec, stab in combos:
                sel = sorted((r for r in rows if r["system"] == system and r["precision"] == prec
                              and r["stabilization"] == stab), key=lambda r: r["t"])
                if not sel:
                    continue
                # Log time: the MPFR runs are 10× shorter, and this compares
                # them with double over the same interval. Zeros (t = 0, or
                # values rounded to 0) cannot be drawn and leave gaps.
                t = np.array([r["t"] for r in sel])
                y = np.abs([r[column] for r in sel])
                y = np.where((y > 0) & np.isfinite(y) & (t > 0), y, np.nan)
                if np.all(np.isnan(y)):
                    continue
                drawn = True
                label = f"{prec} (tol {sci(sel[0]['tol'], 0)}), {'Baumgarte' if stab == 'baumgarte' else stab}"
                stopped = [r["t"] for r in sel if r["completed"] != "true"]
                ax.plot(t, y, color=STAB_COLOR.get(stab, "0.3"), **PREC_LINE.get(prec, dict(ls="-.", lw=1.2)))
                labels[label] = (STAB_COLOR.get(stab, "0.3"), PREC_LINE.get(prec, dict(ls="-.", lw=1.2)))
                if stopped:
                    ax.plot(t[-1], y[-1] if np.isfinite(y[-1]) else np.nanmax(y), marker="o", color="k", ms=5)
                    labels["run stopped before t_end (dot: last record)"] = None
            if not drawn:
                no_data(ax, "no nonzero values")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("t [s] (log scale)")
            ax.set_title(system)
        axes[0][0].set_ylabel(ylabel)
        handles = [proxy(color=v[0], **v[1], label=k) if v else proxy(marker="o", color="k", label=k)
                   for k, v in labels.items()]
        fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 5), frameon=False)
        t_end = {p: max(r["t"] for r in rows if r["precision"] == p) for p in set(r["precision"] for r in rows)}
        short = [f"{p} to t = {t_end[p]:g} s" for p in sorted(t_end) if p != "double"]
        fig.suptitle(title + " (red: no stabilization, blue: Baumgarte α = β = 5 s⁻¹"
                     + (f"; dashed: {', '.join(short)}" if short else "") + ")", fontsize=11.5)
        fig.tight_layout(rect=(0, 0.07, 1, 0.94))
        save(fig, os.path.join(out, fname))


# --------------------------------------------------------------------------
# painleve

PAIN_NUM = ["theta_deg", "mu", "A", "A_closed_form", "B", "lcp_solutions"]
PAIN_TEXT = ["case", "precision", "lcp_status", "lemke_status", "qp_status"]
LCP_COLORS = {"0": ("#d62728", "0 solutions (inconsistent)"), "1": ("#c6dbef", "1 solution"),
              "2": ("#ff7f0e", "2 solutions (indeterminate)")}
QP_COLORS = {"unique": "#c6dbef", "non-unique": "#2ca02c", "unbounded": "#ff7f0e", "singular": "#9467bd"}


def _a_zero_curve():
    """θ ↦ μ on A = 0: 1 + 3cosθ(cosθ − μ sinθ) = 0."""
    th = np.linspace(0.5, 89.5, 600)
    r = np.radians(th)
    mu = (1 + 3 * np.cos(r) ** 2) / (3 * np.cos(r) * np.sin(r))
    return mu, th


def _category_map(ax, sel, key, palette):
    """Draws a categorical (μ, θ) map (palette: category → colour; others
    grey); returns the categories drawn."""
    mus = sorted(set(r["mu"] for r in sel))
    ths = sorted(set(r["theta_deg"] for r in sel))
    cats = ordered((key(r) for r in sel), list(palette))
    index = {c: i for i, c in enumerate(cats)}
    grid = np.full((len(ths), len(mus)), np.nan)
    mi = {m: i for i, m in enumerate(mus)}
    ti = {t: i for i, t in enumerate(ths)}
    for r in sel:
        grid[ti[r["theta_deg"]], mi[r["mu"]]] = index[key(r)]

    def edges(v):
        v = np.array(v, dtype=float)
        if len(v) == 1:
            return np.array([v[0] - 0.5, v[0] + 0.5])
        mid = (v[1:] + v[:-1]) / 2
        return np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])

    from matplotlib.colors import BoundaryNorm, ListedColormap
    ax.grid(False)
    cmap = ListedColormap([palette.get(c, "0.6") for c in cats])
    ax.pcolormesh(edges(mus), edges(ths), np.ma.masked_invalid(grid), cmap=cmap,
                  norm=BoundaryNorm(np.arange(len(cats) + 1) - 0.5, len(cats)), shading="flat", antialiased=False)
    ax.set_xlim(edges(mus)[0], edges(mus)[-1])
    ax.set_ylim(edges(ths)[0], edges(ths)[-1])
    return cats


def plot_painleve(reports):
    rows = read_table(study_csv(reports, "painleve"), PAIN_NUM, PAIN_TEXT)
    out = os.path.join(reports, "painleve")
    sel_all = [r for r in rows if r["precision"] == "double" and math.isfinite(r["mu"])
               and math.isfinite(r["theta_deg"])]
    if not sel_all:
        print("  painleve: no double rows, nothing plotted")
        return
    cases = ordered((r["case"] for r in sel_all), ["pressing", "spinning"])
    mu_c, th_c = _a_zero_curve()
    from matplotlib.patches import Patch

    def overlay(ax):
        keep = mu_c <= ax.get_xlim()[1]
        ax.plot(mu_c[keep], th_c[keep], color="k", lw=1.6)
        ax.axvline(4 / 3, color="k", ls="--", lw=1.1)
        ax.plot(4 / 3, math.degrees(math.atan(2)), "k*", ms=9)
        ax.set_xlabel("μ (friction coefficient)")

    curve_handles = [proxy(color="k", linestyle="-", lw=1.6, label="A = 0: μ = (1+3cos²θ)/(3 cosθ sinθ)"),
                     proxy(color="k", linestyle="--", label="μ = 4/3 (min of that curve, at tan θ = 2)")]

    # Map of the number of LCP solutions.
    fig, axes = plt.subplots(1, len(cases), figsize=(6.2 * len(cases), 5.6), squeeze=False, sharey=True)
    used = set()
    for ax, case in zip(axes[0], cases):
        sel = [r for r in sel_all if r["case"] == case]
        key = lambda r: ("%d" % r["lcp_solutions"]) if math.isfinite(r["lcp_solutions"]) else "?"
        used |= set(_category_map(ax, sel, key, {c: v[0] for c, v in LCP_COLORS.items()}))
        overlay(ax)
        sign = "B < 0: the bar presses down" if case == "pressing" else "B > 0: the bar spins fast"
        ax.set_title(f"{case} ({sign})")
    axes[0][0].set_ylabel("θ [degrees]")
    handles = [Patch(facecolor=LCP_COLORS[c][0], edgecolor="0.5", label=LCP_COLORS[c][1]) for c in LCP_COLORS
               if c in used]
    handles += [Patch(facecolor="0.6", label=f"other: {c}") for c in sorted(used) if c not in LCP_COLORS]
    fig.legend(handles=handles + curve_handles, loc="lower center", ncol=3, frameon=False)
    fig.suptitle("painlevé: number of solutions of the contact LCP (F ≥ 0, AF + B ≥ 0, F(AF + B) = 0) "
                 "over (μ, θ), double", fontsize=12)
    fig.tight_layout(rect=(0, 0.1, 1, 0.95))
    save(fig, os.path.join(out, "painleve_map.png"))

    # Map of the Gauss QP's status, with Lemke's failures marked.
    fig, axes = plt.subplots(1, len(cases), figsize=(6.2 * len(cases), 5.6), squeeze=False, sharey=True)
    used, lemke = set(), {}
    for ax, case in zip(axes[0], cases):
        sel = [r for r in sel_all if r["case"] == case]
        used |= set(_category_map(ax, sel, lambda r: r["qp_status"], QP_COLORS))
        bad = [r for r in sel if r["lemke_status"] != "solved"]
        for r in bad:
            lemke[r["lemke_status"]] = lemke.get(r["lemke_status"], 0) + 1
        if bad:
            ax.scatter([r["mu"] for r in bad], [r["theta_deg"] for r in bad], marker="x", s=9, color="k",
                       linewidths=0.6, zorder=3)
        overlay(ax)
        ax.set_title(case)
    axes[0][0].set_ylabel("θ [degrees]")
    handles = [Patch(facecolor=QP_COLORS.get(c, "0.6"), edgecolor="0.5", label=f"QP {c}") for c in
               ordered(used, list(QP_COLORS))]
    if lemke:
        handles.append(proxy(marker="x", color="k", label="Lemke: " + ", ".join(f"{s} ({n})" for s, n in
                                                                               sorted(lemke.items()))))
    else:
        handles.append(proxy(marker="", label="Lemke solved every point"))
    fig.legend(handles=handles + curve_handles, loc="lower center", ncol=3, frameon=False)
    fig.suptitle("painlevé: status of the Gauss QP (min ½FᵀAF + BᵀF, F ≥ 0) and Lemke's outcome over (μ, θ), double",
                 fontsize=12)
    fig.tight_layout(rect=(0, 0.1, 1, 0.95))
    save(fig, os.path.join(out, "painleve_status.png"))


# --------------------------------------------------------------------------
# two-bars

TWO_NUM = ["theta1_deg", "mu", "lcp_lambda_A", "lcp_lambda_C", "qp_lambda_A", "qp_lambda_C", "difference",
           "tolerance"]
TWO_TEXT = ["motion", "precision", "outcome", "lcp_status", "qp_status"]
TWO_MOTIONS = ["translating", "spreading", "closing"]
TWO_COLORS = {"agree": ("#c6dbef", "QP = LCP"),
              "qp-pulls": ("#d62728", "QP pulls a foot down that the LCP lifts"),
              "differ": ("#ff7f0e", "both push, with different forces"),
              "lcp-none": ("#7f7f7f", "LCP: no solution"),
              "lcp-multiple": ("#9467bd", "LCP: several solutions"),
              "qp-unbounded": ("#2ca02c", "QP unbounded below"),
              "qp-non-unique": ("#8c564b", "QP: several minimizers")}
TWO_TITLES = {"translating": "translating: both feet slide right",
              "spreading": "spreading: feet slide apart",
              "closing": "closing: feet slide together"}


def two_bars_rows(reports, precision):
    rows = read_table(study_csv(reports, "two-bars"), TWO_NUM, TWO_TEXT)
    for r in rows:
        r["theta_deg"] = r["theta1_deg"]  # _category_map's y
    return rows, [r for r in rows if r["precision"] == precision]


def plot_two_bars(reports):
    rows, sel_all = two_bars_rows(reports, "mpfr-128")
    out = os.path.join(reports, "two-bars")
    if not sel_all:
        print("  two-bars: no 128-bit rows, nothing plotted")
        return
    from matplotlib.patches import Patch
    motions = ordered((r["motion"] for r in sel_all), TWO_MOTIONS)
    key = lambda r: (r["motion"], r["theta1_deg"], r["mu"])
    dbl = {key(r): r["outcome"] for r in rows if r["precision"] == "double"}

    # The outcome at 128 bits, × where double's differs.
    fig, axes = plt.subplots(1, len(motions), figsize=(5.6 * len(motions), 5.4), squeeze=False, sharey=True)
    used, crossed = set(), 0
    for ax, motion in zip(axes[0], motions):
        sel = [r for r in sel_all if r["motion"] == motion]
        used |= set(_category_map(ax, sel, lambda r: r["outcome"], {c: v[0] for c, v in TWO_COLORS.items()}))
        bad = [r for r in sel if key(r) in dbl and dbl[key(r)] != r["outcome"]]
        crossed += len(bad)
        if bad:
            ax.scatter([r["mu"] for r in bad], [r["theta1_deg"] for r in bad], marker="x", s=10, color="k",
                       linewidths=0.7, zorder=3)
        ax.set_title(TWO_TITLES.get(motion, motion))
        ax.set_xlabel("μ (friction coefficient, both feet)")
    axes[0][0].set_ylabel("θ₁ [degrees] (θ₂ = 90° − θ₁: both feet on the floor)")
    handles = [Patch(facecolor=TWO_COLORS[c][0], edgecolor="0.5", label=TWO_COLORS[c][1]) for c in TWO_COLORS
               if c in used]
    handles += [Patch(facecolor="0.6", label=f"other: {c}") for c in sorted(used) if c not in TWO_COLORS]
    handles.append(proxy(marker="x", color="k", label=f"double's outcome differs ({crossed} points)") if crossed
                   else proxy(marker="", label="double's outcome is the same at every point"))
    fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False)
    fig.suptitle("two-bars (Y4): the Gauss QP (003 (36)) against the LCP (003 (33)) for the two feet's normal "
                 "forces over (μ, θ₁), 128 bits", fontsize=12)
    fig.tight_layout(rect=(0, 0.1, 1, 0.95))
    save(fig, os.path.join(out, "two_bars_map.png"))

    # How far apart: ‖λ_QP − λ_LCP‖∞ / ‖λ_LCP‖∞ where both are unique.
    fig, axes = plt.subplots(1, len(motions), figsize=(5.6 * len(motions), 5.4), squeeze=False, sharey=True)
    mesh = None
    for ax, motion in zip(axes[0], motions):
        sel = [r for r in sel_all if r["motion"] == motion]
        mus = sorted(set(r["mu"] for r in sel))
        ths = sorted(set(r["theta1_deg"] for r in sel))
        grid = np.full((len(ths), len(mus)), np.nan)
        mi = {m: i for i, m in enumerate(mus)}
        ti = {t: i for i, t in enumerate(ths)}
        for r in sel:
            scale = max(abs(r["lcp_lambda_A"]), abs(r["lcp_lambda_C"]))
            if math.isfinite(r["difference"]) and scale > 0:
                grid[ti[r["theta1_deg"]], mi[r["mu"]]] = math.log10(max(r["difference"] / scale, 1e-40))
        ax.grid(False)
        mesh = ax.pcolormesh(mus, ths, np.ma.masked_invalid(grid), cmap="viridis", vmin=-40, vmax=1, shading="nearest")
        ax.set_title(TWO_TITLES.get(motion, motion))
        ax.set_xlabel("μ (friction coefficient, both feet)")
    axes[0][0].set_ylabel("θ₁ [degrees]")
    if mesh is not None:
        fig.colorbar(mesh, ax=axes[0].tolist(), label="log₁₀ ‖λ_QP − λ_LCP‖∞ / ‖λ_LCP‖∞ (floor −40)")
    fig.suptitle("two-bars (Y4): how far the QP's contact forces are from the LCP's, 128 bits "
                 "(blank: one of them is not unique, or both feet lift: λ = 0)", fontsize=12)
    save(fig, os.path.join(out, "two_bars_difference.png"))


PLOTTERS = {
    "conditioning": plot_conditioning,
    "rank": plot_rank,
    "perturbed-constraints": plot_perturbed,
    "precision": plot_precision,
    "trajectories": plot_trajectories,
    "painleve": plot_painleve,
    "two-bars": plot_two_bars,
}


def main(argv):
    prog = os.path.basename(argv[0])
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(f"usage: {prog} REPORTS_DIR [STUDY ...]  (studies: {' '.join(STUDIES)})", file=sys.stderr)
        return 2
    reports, wanted = argv[1], argv[2:] or STUDIES
    unknown = [s for s in wanted if s not in PLOTTERS]
    if unknown:
        print(f"{prog}: unknown study {unknown[0]} (known: {' '.join(STUDIES)})", file=sys.stderr)
        return 2
    if not os.path.isdir(reports):
        print(f"{prog}: {reports} is not a directory", file=sys.stderr)
        return 2
    _init_matplotlib()
    for study in wanted:
        if not os.path.exists(study_csv(reports, study)):
            continue
        print(f"{study}:")
        use_precisions(reports, study)
        try:
            PLOTTERS[study](reports)
        except MalformedCsv as e:
            print(f"{prog}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
