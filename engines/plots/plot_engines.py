#!/usr/bin/python3
"""Plots `femc engines`' MuJoCo softness sweep: ENGINES_DIR/mujoco_softness.png.

Usage: plot_engines.py ENGINES_DIR

One panel per timestep of MuJoCo's own trajectories plus one of exact states:
the largest relative distance of MuJoCo's qacc from hard Gauss with the true
b = −J̇v over the states, against 1 − d (solimp's impedance), with its
velocity-product and softening parts (engines/campaign/src/mujoco_campaign.cpp
defines them). Does nothing when the CSV is absent (no MuJoCo adapter).
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


def main(argv):
    if len(argv) != 2:
        print(f"usage: {os.path.basename(argv[0])} ENGINES_DIR", file=sys.stderr)
        return 2
    src = os.path.join(argv[1], "mujoco_softness.csv")
    if not os.path.exists(src):
        return 0
    with open(src, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
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
    out = os.path.join(argv[1], "mujoco_softness.png")
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=argv[1])
    os.close(fd)
    fig.savefig(tmp, dpi=110)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
