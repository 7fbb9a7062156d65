#!/usr/bin/env python3
"""`femc verify` on the two example solvers of examples/solvers/:

- numpy_pinv.py (the papers' literal formula in numpy) passes every claim
  that applies to it in double, within the claims' error-analysis bounds;
- wrong_solver.py (W ignored, the working part dropped) fails, with the
  violated claims named, and each counterexample file is a `femc solve`
  input on which the wrong answer differs from femc's exact one;
- bad input (a solver that does not exist, an unknown claim) exits 2 and
  writes no report;
- the regression gate works for a solver outside femc against its own
  baseline: numpy-pinv passes its own, and the wrong solver, under the same
  name, is worse.

    check_examples.py FEMC SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

femc, src, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
solvers = os.path.join(src, "examples", "solvers")
python = "/usr/bin/python3"


def verify(script, *extra):
    cmd = [femc, "verify", "--solver", f"{python} {os.path.join(solvers, script)}", "-o", work, *extra]
    return subprocess.run(cmd, capture_output=True, text=True)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


# 1. The literal formula passes.
r = verify("numpy_pinv.py")
if r.returncode != 0:
    fail(f"numpy-pinv: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
report = json.load(open(os.path.join(work, "numpy-pinv", "conformance.json")))
s = report["summary"]
print(f"numpy-pinv: {s['pass']} pass, {s['fail']} fail, {s['not_applicable']} not applicable")
if s["fail"] != 0 or s["pass"] < 20:
    fail(f"numpy-pinv should pass every applicable claim: {s}")
for c in report["claims"]:
    if c["verdict"] == "pass":
        print(f"  {c['property']}: worst error/bound {c['worst_ratio']:.2g}")

# 2. The wrong solver fails, with the violated claims named.
r = verify("wrong_solver.py")
if r.returncode != 1:
    fail(f"wrong-solver: exit {r.returncode}, expected 1\n{r.stdout}\n{r.stderr}")
report = json.load(open(os.path.join(work, "wrong-solver", "conformance.json")))
failed = {c["claim"] for c in report["claims"] if c["verdict"] == "fail"}
print("wrong-solver fails:", " ".join(sorted(failed)))
for expected in ("U1", "G9"):  # the working part (002 (33)), W for inconsistent constraints
    if expected not in failed:
        fail(f"wrong-solver should fail {expected}; failed {sorted(failed)}")
reproduced = 0
for c in report["claims"]:
    if c["verdict"] != "fail":
        continue
    if not c["counterexample"]:
        fail(f"{c['property']}: no counterexample file")
    for f in c["counterexample"]:
        path = os.path.join(work, "wrong-solver", f)
        exact = subprocess.run([femc, "solve", path, "--precision", "exact"], capture_output=True, text=True)
        if exact.returncode != 0:
            fail(f"{f} does not reproduce with femc solve: {exact.stderr}")
        reproduced += 1
print(f"{reproduced} counterexample files read back by femc solve --precision exact")

# 3. Bad input: exit 2, one line, no report.
for args, name in ((["--solver", "/nonexistent/solver"], "solver"),
                   (["--solver", f"{python} {os.path.join(solvers, 'numpy_pinv.py')}", "--claims", "X99"], "claims")):
    out = os.path.join(work, "bad-" + name)
    r = subprocess.run([femc, "verify", *args, "-o", out], capture_output=True, text=True)
    if r.returncode != 2 or name not in r.stderr or len(r.stderr.strip().splitlines()) != 1:
        fail(f"bad {name}: exit {r.returncode}, stderr {r.stderr!r}")
    if os.path.isdir(out) and any(not e.startswith(".") for e in os.listdir(out)):
        fail(f"bad {name}: a report was written: {os.listdir(out)}")
    print(f"bad {name}: exit 2: {r.stderr.strip()}")
# 4. The gate for a solver outside femc, against that solver's own baseline.
gate = os.path.join(work, "gate")
pinv = f"{python} {os.path.join(solvers, 'numpy_pinv.py')}"
wrong = f"{python} {os.path.join(solvers, 'wrong_solver.py')}"
for args, expected in ((["--update-baseline", gate, "--solver", pinv], 0), (["--check", gate, "--solver", pinv], 0),
                       (["--check", gate, "--solver", wrong, "--name", "numpy-pinv"], 1)):
    r = subprocess.run([femc, "report", *args], capture_output=True, text=True)
    print(f"femc report {args[0]} ({os.path.basename(args[3].split()[-1])}): exit {r.returncode}")
    if r.returncode != expected:
        fail(f"expected exit {expected}\n{r.stdout}\n{r.stderr}")
    if expected == 1 and "numpy-pinv" not in r.stdout:
        fail(f"the gate does not name the solver:\n{r.stdout}")
print("OK")
