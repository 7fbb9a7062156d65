"""femc.verify on Python functions: the same verdicts as femc verify on the process versions of the example
solvers (examples/solvers/), a raising function fails its cases without taking the interpreter down, the
report as the command writes it, a solver at 256 bits, bad capabilities."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import femc

CLI = os.environ.get("FEMC_CLI")
EXAMPLES = os.environ.get("FEMC_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
SOLVERS = os.path.join(EXAMPLES, "solvers")
sys.path.insert(0, SOLVERS)
import numpy_pinv  # noqa: E402
import wrong_solver  # noqa: E402

# What the process versions declare in their handshake, as capabilities.
CAPS = {k: v for k, v in numpy_pinv.HANDSHAKE.items() if k not in ("protocol", "name", "precisions")}
CLAIMS = ["E1", "E4", "U1", "U5", "G2", "G9", "G10", "Rank"]
CASES = 20


def as_function(solve):
    """An example's solve as a femc.verify function: its refusal (numpy's LinAlgError) is femc.MethodError,
    as the process version answers {"error": …}."""
    def fn(M, A, b, Q, C, W):
        try:
            qdd, QN, QW, lam, (rank, rcond) = solve(M, A, b, Q, C, W)
        except np.linalg.LinAlgError as e:
            raise femc.MethodError(str(e))
        return {"qdd": qdd, "QN": QN, "QW": QW, "lambda": lam, "rank": rank, "rank_tol": rcond}
    return fn


@pytest.mark.skipif(not CLI, reason="FEMC_CLI not set")
@pytest.mark.parametrize("script, solve", [("numpy_pinv.py", numpy_pinv.literal), ("wrong_solver.py", wrong_solver.wrong)],
                         ids=["numpy-pinv", "wrong-solver"])
def test_the_same_verdicts_as_the_process_version(tmp_path, script, solve):
    v = femc.verify(as_function(solve), CAPS, claims=CLAIMS, cases=CASES, studies=(), name="in-process")
    r = subprocess.run([CLI, "verify", "--solver", f"{sys.executable} {os.path.join(SOLVERS, script)}", "--claims",
                        ",".join(CLAIMS), "--cases", str(CASES), "--studies", "", "--name", "process", "-o",
                        str(tmp_path)], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    with open(tmp_path / "process" / "conformance.json", encoding="utf-8") as f:
        process = json.load(f)
    # The same numbers reach the same checks: the same verdicts, and the same worst error ÷ bound.
    ours = [(c["property"], c["verdict"], c["cases"], c.get("worst_ratio")) for c in v.claims]
    theirs = [(c["property"], c["verdict"], c["cases"], c.get("worst_ratio")) for c in process["claims"]]
    assert ours == theirs
    assert v.passed == (r.returncode == 0)
    assert v.passed == (script == "numpy_pinv.py")  # the wrong solver is caught
    # The failing claims' minimal cases, as femc solve reads them.
    assert set(v.counterexamples) <= {c["property"] for c in v.failed()}
    assert bool(v.counterexamples) == (not v.passed)
    for systems in v.counterexamples.values():
        for doc in systems:
            femc.solve(doc["M"], doc["A"], doc["b"], doc["Q"], doc.get("C"), doc.get("W"), precision="exact",
                       method="exact")


def test_an_exception_fails_the_case_and_the_interpreter_goes_on():
    def broken(M, A, b, Q, C, W):
        raise ZeroDivisionError("on purpose")
    v = femc.verify(broken, claims=["E1"], cases=5, studies=())
    assert not v.passed
    [e1] = [c for c in v.claims if c["claim"] == "E1"]
    assert e1["verdict"] == "fail"
    assert v.errors and v.errors[0] == "ZeroDivisionError: on purpose"
    assert v.conformance["process"]["crashes"] >= 1
    assert femc.solve([[1]], [], [], [2]).qdd[0] == 2.0  # still here


def test_the_report_is_the_commands(tmp_path):
    v = femc.verify(as_function(numpy_pinv.literal), CAPS, claims=["E1"], cases=5, studies=("conditioning",),
                    out=str(tmp_path), name="numpy-pinv")
    assert v.passed and v.report_dir == str(tmp_path / "numpy-pinv")
    for name in ("README.md", "conformance.json"):
        assert (tmp_path / "numpy-pinv" / name).exists()
    assert v.studies and all(s["verdict"] == "pass" for s in v.studies)


def test_a_solver_at_256_bits_built_on_femc_solve_passes():
    def at256(M, A, b, Q, C, W):
        r = femc.solve(M, A, b, Q, C, W, precision=256, data_precision="exact")
        return {"qdd": r.qdd, "QN": r.QN, "QW": r.QW, "lambda": r.lambda_}
    caps = {"outputs": ["QN", "QW", "lambda"]}
    v = femc.verify(at256, caps, precision=256, claims=["E1", "U1", "G2"], cases=10, studies=())
    assert v.passed, v.failed()


@pytest.mark.parametrize("capabilities, field, what", [({"outputz": []}, "capabilities", "outputz"),
                                                        ({"error_growth": 3}, "capabilities", "error_growth")])
def test_bad_capabilities_name_the_field(capabilities, field, what):
    with pytest.raises(femc.InputError) as e:
        femc.verify(lambda *a: a[3], capabilities, studies=())
    assert e.value.field == field and what in str(e.value)


def test_bad_options_are_femc_verifys_errors():
    with pytest.raises(femc.InputError) as e:
        femc.verify(lambda *a: a[3], claims=["X99"], studies=())
    assert e.value.field == "claims"
