#!/usr/bin/env python3
"""Projects the speed-up of `mpirun -n K femc study ...` from a run's cell costs.

    mpi-speedup.py CELLS_DIR [--overhead SECONDS] [--serial SECONDS] [K ...]

CELLS_DIR is a study's cells/ folder kept with --keep-cells: each cell file
starts with "# seconds S", its compute time. The runner hands cells out on
demand, longest first (studies/framework/distribute.hpp), so K ranks finish
at the makespan of greedy list scheduling in that order: each cell goes to
the rank that frees first, and costs S + overhead (the coordinator's per-cell
round trip and the write, measured from a 1- against a 2-rank run). serial
is the part no rank shares (reading the options, assembling the report).
One process takes serial + sum(S). Prints K, the makespan, the speed-up and
the longest cell, which bounds every makespan from below.
"""
import heapq
import os
import sys


def cell_costs(folder):
    costs = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".csv"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            first = f.readline()
        if not first.startswith("# seconds "):
            raise SystemExit(f"{name}: no '# seconds' line")
        costs.append(float(first.split()[2]))
    if not costs:
        raise SystemExit(f"{folder}: no cell files (run the study with --keep-cells)")
    return costs


def makespan(costs, ranks, overhead):
    free = [0.0] * ranks
    heapq.heapify(free)
    for c in sorted(costs, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + c + overhead)
    return max(free)


def main(argv):
    args, overhead, serial, ranks = argv[1:], 0.0, 0.0, []
    if not args or args[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    folder, i = args[0], 1
    while i < len(args):
        if args[i] == "--overhead":
            overhead, i = float(args[i + 1]), i + 2
        elif args[i] == "--serial":
            serial, i = float(args[i + 1]), i + 2
        else:
            ranks.append(int(args[i]))
            i += 1
    costs = cell_costs(folder)
    one = serial + sum(costs)
    print(f"{len(costs)} cells, {sum(costs):.3g} s in all, the longest {max(costs):.3g} s, "
          f"overhead {overhead:.3g} s per cell, serial {serial:.3g} s")
    print(f"{'ranks':>6} {'time (s)':>10} {'speed-up':>9}")
    for k in ranks or [1, 2, 16, 64, 256]:
        t = serial + makespan(costs, k, overhead)
        print(f"{k:>6} {t:>10.3g} {one / t:>9.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
