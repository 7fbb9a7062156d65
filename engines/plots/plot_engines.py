#!/usr/bin/python3
"""Plots `femc engines`' sweeps of each engine's distance from hard Gauss.

Usage: plot_engines.py ENGINES_DIR

- mujoco_softness.png: one panel per timestep of MuJoCo's own trajectories
  plus one of exact states: the largest relative distance of MuJoCo's qacc
  from hard Gauss with the true b = −J̇v over the states, against 1 − d
  (solimp's impedance), with its velocity-product and softening parts
  (engines/campaign/src/mujoco_campaign.cpp defines them).
- ode_softness.png: ODE's, against the step h, one line per part and
  (ERP, CFM) (ode_campaign.cpp).
- bullet_hard_gauss.png: Bullet's, against the step h, one line per part,
  at its 10 PGS iterations and converged (bullet_campaign.cpp).

Each plot is skipped when its CSV is absent (no adapter for that engine).
"""
import csv
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PARTS = [("total", "total", "-", "o"), ("velocity_product", "velocity-product term", "--", "s"),
         ("softening", "softening", ":", "^")]


def read(directory, name):
    src = os.path.join(directory, name)
    if not os.path.exists(src):
        return None
    with open(src, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def save(fig, directory, name):
    out = os.path.join(directory, name)
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=directory)
    os.close(fd)
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    print(f"wrote {out}")


def worst_by(rows, key, parts):
    """The largest value of each part over the rows of each key."""
    worst = {}
    for r in rows:
        w = worst.setdefault(key(r), {p: 0.0 for p in parts})
        for p in parts:
            w[p] = max(w[p], float(r[p]))
    return worst


def plot_against_h(directory, rows, series, parts, title, name, shared=()):
    """Trajectory rows only: one line per (series, part) against h; a part in
    `shared` does not depend on the series and is drawn once."""
    rows = [r for r in rows if r["class"] == "trajectory"]
    if not rows:
        return
    worst = worst_by(rows, lambda r: (series(r), float(r["h"])), [p for p, *_ in parts])
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, s in enumerate(sorted({k[0] for k in worst})):
        hs = sorted(k[1] for k in worst if k[0] == s)
        for p, label, style, marker in parts:
            if p in shared and i > 0:
                continue
            ax.loglog(hs, [max(worst[(s, h)][p], 1e-17) for h in hs], linestyle=style, marker=marker,
                      label=label if p in shared else f"{label}, {s}")
    ax.set_xlabel("step h (s)")
    ax.set_ylabel("max |a − q̈_Gauss|∞ / |q̈_Gauss|∞")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    save(fig, directory, name)


def plot_ode(directory):
    rows = read(directory, "ode_softness.csv")
    if rows is None:
        return
    parts = [("total", "total", "-", "o"), ("velocity_product", "velocity-product term", "--", "s"),
             ("force", "gyroscopic force", "-.", "d"), ("softening", "softening", ":", "^")]
    plot_against_h(directory, rows, lambda r: f"ERP {float(r['erp']):g}, CFM {float(r['cfm']):g}", parts,
                   "ODE's distance from hard Gauss along its trajectories (crank-rocker)", "ode_softness.png")


def plot_bullet(directory):
    rows = read(directory, "bullet_hard_gauss.csv")
    if rows is None:
        return
    parts = [("total", "total", "-", "o"), ("velocity_product", "velocity-product term", "--", "s"),
             ("damping", "damping", "-.", "d"), ("solver", "solver", ":", "^")]
    plot_against_h(directory, rows, lambda r: f"{r['iterations']} PGS iterations", parts,
                   "Bullet's distance from hard Gauss along its trajectories (crank-rocker)",
                   "bullet_hard_gauss.png", shared=("velocity_product", "damping"))


def plot_mujoco(directory):
    rows = read(directory, "mujoco_softness.csv")
    if rows is None:
        return
    worst = {}  # (panel, timeconst label, d) → part → max
    for r in rows:
        panel = "exact states" if r["class"] == "exact states" else f"trajectory, timestep {float(r['timestep']):g} s"
        tc = "" if r["class"] == "exact states" else f"time constant {float(r['timeconst']):g} s"
        key = (panel, tc, float(r["d"]))
        w = worst.setdefault(key, {p: 0.0 for p, *_ in PARTS})
        for p, *_ in PARTS:
            w[p] = max(w[p], float(r[p]))
    panels = sorted({k[0] for k in worst}, key=lambda p: (p != "exact states", p))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), sharey=True, squeeze=False)
    for ax, panel in zip(axes[0], panels):
        for tc in sorted({k[1] for k in worst if k[0] == panel}):
            ds = sorted(k[2] for k in worst if k[0] == panel and k[1] == tc)
            x = [1 - d for d in ds]
            for p, label, style, marker in PARTS:
                y = [worst[(panel, tc, d)][p] for d in ds]
                ax.loglog(x, y, linestyle=style, marker=marker, label=f"{label} {tc}".strip())
        ax.set_title(panel, fontsize=9)
        ax.set_xlabel("1 − d (solimp impedance)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("max |qacc − q̈_Gauss|∞ / |q̈_Gauss|∞")
    axes[0][-1].legend(fontsize=6)
    fig.suptitle("MuJoCo's distance from hard Gauss with the true b (crank-rocker four-bar)", fontsize=10)
    fig.tight_layout()
    save(fig, directory, "mujoco_softness.png")


def main(argv):
    if len(argv) != 2:
        print(f"usage: {os.path.basename(argv[0])} ENGINES_DIR", file=sys.stderr)
        return 2
    for plot in (plot_mujoco, plot_ode, plot_bullet):
        plot(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
