"""import femc: femc.solve against `femc solve`, exact round trips, the data-precision rule and bad input.

Run by ctest (python_module) under the interpreter the module was built for, with PYTHONPATH at the
build's python/ directory and FEMC_CLI, FEMC_EXAMPLES set (python/CMakeLists.txt).
"""
import fractions
import glob
import json
import os
import subprocess
import sys

import mpmath
import numpy as np
import pytest

import femc

CLI = os.environ.get("FEMC_CLI")
EXAMPLES = os.environ.get("FEMC_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
MODELS = os.path.join(EXAMPLES, "..", "models", "examples")


def cli_solve(*args):
    r = subprocess.run([CLI, "solve", *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def precisions():
    """Every precision femc describe lists, MPFR at 256 bits."""
    return [("256" if p["name"] == "BITS" else p["name"]) for p in femc.describe()["precisions"]]


def system_texts(path):
    """An example's document with every number kept as its text, as the command reads it."""
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=str, parse_int=str)


# --------------------------------------------------------------------------
# The same answer as the command, at every precision.

@pytest.mark.skipif(not CLI, reason="FEMC_CLI not set")
@pytest.mark.parametrize("example", sorted(glob.glob(os.path.join(EXAMPLES, "*.json"))), ids=os.path.basename)
@pytest.mark.parametrize("precision", precisions())
def test_examples_equal_the_command(example, precision):
    doc = system_texts(example)
    r = femc.solve(doc["M"], doc["A"], doc["b"], doc["Q"], doc.get("C"), doc.get("W"), precision=precision,
                   data_precision=doc.get("data_precision"))
    ours, theirs = json.loads(r.document), cli_solve(example, "--precision", precision)
    # The same solve; the data-precision rule names the caller's option (data_precision='exact', --data-precision).
    ours_rule, theirs_rule = ours["diagnostics"].pop("data_precision_rule"), theirs["diagnostics"].pop("data_precision_rule")
    assert ours == theirs
    assert ours_rule == theirs_rule.replace("--data-precision exact", "data_precision='exact'").replace(
        "--data-precision", "data_precision")


@pytest.mark.skipif(not CLI, reason="FEMC_CLI not set")
def test_a_model_file_equals_the_command():
    model = os.path.join(MODELS, "slider_crank.json")
    r = femc.solve_model(model, precision=256)
    assert json.loads(r.document) == cli_solve(model, "--precision", "256")
    assert r.precision == "mpfr-256" and r.bits == 256


def test_model_system_is_what_solve_model_solves():
    model = os.path.join(MODELS, "slider_crank.json")
    s = femc.model_system(model, precision=256)
    r = femc.solve(s["M"], s["A"], s["b"], s["Q"], s.get("C"), s.get("W"), precision=256)
    assert list(r.qdd) == list(femc.solve_model(model, precision=256).qdd)
    n = len(femc.model_system(model)["Q"])
    state = {"q": [0.1] * n, "qd": ["1/2"] * n}  # a state of ours, at double
    d = femc.model_system(model, state=state)
    assert d["M"].dtype == np.float64 and d["M"].shape == (n, n)
    at_state = femc.solve(d["M"], d["A"], d["b"], d["Q"], d.get("C"), d.get("W"), data_precision="exact")
    assert list(at_state.qdd) == list(femc.solve_model(model, state=state).qdd)
    with pytest.raises(femc.InputError) as e:
        femc.model_system(model, precision="exact")
    assert e.value.field == "precision"


# --------------------------------------------------------------------------
# Values cross the boundary exactly.

def test_mpfr_values_round_trip_exactly():
    # With M = I and no constraint, q̈ = Q: what goes in comes back, bit for bit.
    with mpmath.workprec(256):
        Q = [mpmath.mpf(1) / 3, -mpmath.sqrt(mpmath.mpf(2)), mpmath.mpf("-1e-70")]
    r = femc.solve(np.eye(3, dtype=int), np.zeros((0, 3), dtype=int), [], Q, precision=256)
    assert r.data_precision == "exact"
    for got, given in zip(r.qdd, Q):
        assert isinstance(got, mpmath.mpf) and got == given


def test_fractions_round_trip_exactly():
    Q = [fractions.Fraction(1, 3), fractions.Fraction(-22, 7)]
    r = femc.solve([[2, 0], [0, 5]], [[1, 1]], ["1/10"], Q, precision="exact", method="exact")
    # The exact solution of 2q̈₁ − Q₁ = λ, 5q̈₂ − Q₂ = λ, q̈₁ + q̈₂ = 1/10, by hand.
    lam = (fractions.Fraction(1, 10) - Q[0] / 2 - Q[1] / 5) / (fractions.Fraction(1, 2) + fractions.Fraction(1, 5))
    assert list(r.qdd) == [(Q[0] + lam) / 2, (Q[1] + lam) / 5]
    assert all(isinstance(x, fractions.Fraction) for x in r.qdd)


def test_double_results_are_numpy_arrays_of_the_commands_digits():
    r = femc.solve(np.eye(2), [[1.0, 1.0]], [0.0], [0.0, -9.81])
    assert isinstance(r.qdd, np.ndarray) and r.qdd.dtype == np.float64
    assert list(r.qdd) == [float(t) for t in json.loads(r.document)["qdd"]]
    assert r["lambda"] is r.lambda_


# --------------------------------------------------------------------------
# float64 at a higher precision: femc's rounded-data rule, said.

# cod's error law at κ = 1: c·u with c = 4·max(m, n, 4) = 16 (verify/error_law.hpp), relative to |b| = 0.1.
def law_at_256(b):
    return 16 * mpmath.mpf(2) ** -256 * abs(b)


def test_floats_at_a_higher_precision_are_data_rounded_to_double():
    r = femc.solve(np.eye(2), np.array([[1.0, 1.0]]), [0.1], [0.0, 0.0], precision=256)
    assert r.data_precision == "double"
    assert "binary floats of 53 bits" in r.data_precision_rule
    # Their exact binary values: A q̈ = b is the double 0.1, which is not the decimal tenth; the two are
    # 5.6e-18 apart, far outside the law.
    with mpmath.workprec(256):
        total, binary, decimal_tenth = r.qdd[0] + r.qdd[1], mpmath.mpf(0.1), mpmath.mpf("0.1")
        assert abs(total - binary) <= law_at_256(binary) < abs(binary - decimal_tenth)
    exact = femc.solve(np.eye(2), np.array([[1.0, 1.0]]), [0.1], [0.0, 0.0], precision=256, data_precision="exact")
    assert exact.data_precision == "exact"
    # float32 data are rounded to 24 bits: declared so at 256 bits and at double alike.
    for precision in (256, "double"):
        r32 = femc.solve(np.eye(2, dtype=np.float32), [[1, 1]], [0], [0, 0], precision=precision)
        assert r32.data_precision == "24 bits", precision
    # float64 at double: the data are the working precision's own numbers, nothing declared.
    assert femc.solve(np.eye(2), [[1.0, 1.0]], [0.1], [0.0, 0.0]).data_precision == "exact"


def test_texts_are_taken_as_exact_decimals():
    r = femc.solve([[1, 0], [0, 1]], [[1, 1]], ["0.1"], ["0", "0"], precision=256)
    assert r.data_precision == "exact"
    with mpmath.workprec(256):
        total, decimal_tenth = r.qdd[0] + r.qdd[1], mpmath.mpf("0.1")
        assert abs(total - decimal_tenth) <= law_at_256(decimal_tenth) < abs(decimal_tenth - mpmath.mpf(0.1))


# --------------------------------------------------------------------------
# Bad input: femc.InputError (a ValueError) naming the field and the value.

@pytest.mark.parametrize("kwargs, field, value", [
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1]], b=[float("nan")], Q=[0, 0]), "b[0]", "nan"),
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1]], b=["abc"], Q=[0, 0]), "b[0]", "abc"),
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1]], b=[True], Q=[0, 0]), "b[0]", "True"),
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1]], b=[0], Q=[0, 0], precision="triple"), "precision", "triple"),
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1]], b=[0], Q=[0, 0], method="magic"), "method", "magic"),
    (dict(M=[[1, 2], [2, 1]], A=[[1, 1]], b=[0], Q=[0, 0]), "M", ""),
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1, 1]], b=[0], Q=[0, 0]), "A", ""),
    (dict(M=[[1, 0], [0, 1]], A=[[1, 1]], b=[0], Q=[0, 0], rank_tol=2), "rank_tol", "2"),
    (dict(M=[[1, 0], [0]], A=[[1, 1]], b=[0], Q=[0, 0]), "M", ""),
])
def test_bad_input_names_the_field_and_the_value(kwargs, field, value):
    with pytest.raises(femc.InputError) as e:
        femc.solve(**kwargs)
    assert isinstance(e.value, ValueError)
    assert e.value.field.startswith(field), str(e.value)
    assert value in str(e.value)


def test_a_method_that_cannot_solve_raises_method_error():
    with pytest.raises(femc.MethodError):
        femc.solve(np.eye(2), [[1, 1], [1, 1]], [0, 0], [0, -1], method="kkt")


def test_describe_lists_the_methods_and_precisions():
    d = femc.describe()
    assert d["default_method"] in [m["name"] for m in d["methods"]]
    assert "double" in [p["name"] for p in d["precisions"]]


# --------------------------------------------------------------------------
# Simulation: the command's run, its records as numpy arrays.

@pytest.mark.skipif(not CLI, reason="FEMC_CLI not set")
def test_simulate_equals_the_command(tmp_path):
    model = os.path.join(MODELS, "slider_crank.json")
    s = femc.simulate(model, t_end=0.2, dt=0.05)
    out = tmp_path / "run.csv"
    r = subprocess.run([CLI, "simulate", model, "--t-end", "0.2", "--dt", "0.05", "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode in (0, 5), r.stderr
    assert out.read_text().splitlines()[1:] == [",".join(row) for row in s.records_text]
    assert s.completed and s.records["t"][-1] == pytest.approx(0.2)
    assert isinstance(s.records["t"], np.ndarray) and len(s.records["t"]) == 5
    assert json.loads(r.stdout)["steps"] == s.summary["steps"]


def test_simulate_refuses_an_unknown_option():
    with pytest.raises(femc.InputError) as e:
        femc.simulate("pendulum", t_ende=1)
    assert e.value.field == "t_ende"


@pytest.mark.parametrize("script", sorted(glob.glob(os.path.join(EXAMPLES, "python", "*.py"))), ids=os.path.basename)
def test_the_examples_run(script):
    r = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_system_is_not_a_model():
    system = os.path.join(EXAMPLES, "free_body.json")
    with pytest.raises(femc.InputError) as e:
        femc.model_system(system)
    assert e.value.field == "model"
    with pytest.raises(femc.InputError) as e:
        femc.solve_model(system, state={"q": [0], "qd": [0]})
    assert e.value.field == "state" and "not a model" in str(e.value)
    with pytest.raises(femc.InputError) as e:
        femc.model_system(os.path.join(MODELS, "slider_crank.json"), precision="dd")
    assert e.value.field == "precision" and "dd" in str(e.value)


def _openblas():
    """The OpenBLAS this interpreter loaded (numpy's and femc's), or None."""
    import ctypes
    with open("/proc/self/maps", encoding="utf-8") as f:
        paths = sorted({line.split()[-1] for line in f if "openblas" in line and line.split()[-1].startswith("/")})
    for path in paths:
        lib = ctypes.CDLL(path)
        if hasattr(lib, "openblas_get_num_threads"):
            return lib
    return None


def test_solve_leaves_numpys_blas_threads_as_they_were():
    # femc's kernels run OpenBLAS on one thread, for the whole process; the module puts the caller's count
    # back (python/src/module.cpp), or numpy here would stay on one thread after any femc call.
    np.linalg.svd(np.eye(3))  # numpy's OpenBLAS is loaded
    lib = _openblas()
    if lib is None:
        pytest.skip("no OpenBLAS in this interpreter")
    before = lib.openblas_get_num_threads()
    lib.openblas_set_num_threads(2)
    if lib.openblas_get_num_threads() != 2:
        lib.openblas_set_num_threads(before)
        pytest.skip("this OpenBLAS runs on one thread only")
    try:
        femc.solve(np.eye(2) * 2, np.array([[1.0, 1.0]]), np.array([1.0]), np.zeros(2))
        assert lib.openblas_get_num_threads() == 2
    finally:
        lib.openblas_set_num_threads(before)
