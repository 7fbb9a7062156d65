"""femc from Python: the fundamental equation of constrained motion, solved at
the precision you choose, by the code `femc solve` runs.

    >>> import numpy as np, femc
    >>> r = femc.solve(M=np.eye(2), A=[[1, 1], [1, 1]], b=[1, 1], Q=[0, -9.81], precision=256)
    >>> r.qdd          # mpmath.mpf values at 256 bits; numpy arrays at precision "double"

Numbers cross the boundary without being rounded again:

- in: an int, a str ("0.1" is the decimal 0.1, "1/3" a fraction), a
  fractions.Fraction, an mpmath.mpf or a decimal.Decimal is taken at its exact
  value; a binary float (Python's float, numpy's float16/32/64/longdouble) is
  taken at its exact binary value, and at a working precision finer than the
  float (float32 at "double", float64 at 256 bits) the data are then
  declared rounded to that float's precision
  (femc's rounded-data rule: rank is decided above the data's rounding level),
  unless `data_precision` says otherwise; the result's `data_precision_rule`
  says which rule applied.
- out: numpy float64 arrays at "double"; fractions.Fraction at "exact";
  mpmath.mpf at the working precision's bits otherwise (MPFR's bits; the
  others' as femc describe gives them), read from texts that femc prints to
  round-trip, so an MPFR result is exactly femc's.

Bad input raises femc.InputError (a ValueError) naming the field and the
value; a system the method cannot solve raises femc.MethodError.

femc.verify(fn, capabilities) holds a solver written in Python to femc's
claims and studies, with femc verify's verdict and report (docs/python.md).
"""
import decimal
import fractions
import json
import numbers
import os
import shutil
import tempfile

import mpmath
import numpy as np

from . import _femc
from ._errors import Error, InputError, MethodError

__all__ = ["solve", "solve_model", "model_system", "simulate", "verify", "describe", "Result", "Simulation", "Verification", "Error",
           "InputError", "MethodError"]

def describe():
    """femc's methods and precisions as data (`femc describe --json`)."""
    return json.loads(_femc.describe_document())


_BITS = {p["name"]: p["bits"] for p in describe()["precisions"] if p.get("bits")}  # a fixed precision's bits


# --------------------------------------------------------------------------
# Input: every number as its exact text.

class _Texts:
    """Turns the inputs into femc's number texts and remembers the precision of the coarsest binary float
    seen."""

    def __init__(self):
        self.float_bits = None  # the significand bits of the coarsest binary float among the inputs

    def number(self, x, field):
        if isinstance(x, (bool, np.bool_)):
            raise InputError(field, f"{x!r} is a truth value, not a number")
        if isinstance(x, str):
            return x  # femc's grammar decides (a decimal or p/q)
        if isinstance(x, (numbers.Integral, np.integer)):
            return str(int(x))
        if isinstance(x, fractions.Fraction):
            return _ratio(x.numerator, x.denominator)
        if isinstance(x, decimal.Decimal):
            if not x.is_finite():
                raise InputError(field, f"{x} is not a finite number")
            return _ratio(*x.as_integer_ratio())
        if isinstance(x, mpmath.mpf):
            if not mpmath.isfinite(x):
                raise InputError(field, f"{x} is not a finite number")
            return _ratio(*_mpf_ratio(x))
        if isinstance(x, (float, np.floating)):
            if not np.isfinite(x):
                raise InputError(field, f"{x!r} is not a finite number")
            bits = np.finfo(np.asarray(x).dtype).nmant + 1
            self.float_bits = bits if self.float_bits is None else min(self.float_bits, bits)
            return _ratio(*x.as_integer_ratio())
        raise InputError(field, f"{x!r} ({type(x).__name__}) is not a number")

    def vector(self, v, field):
        a = _array(v, field)
        if a.ndim != 1:
            raise InputError(field, f"expected a vector, got an array of shape {a.shape}")
        return [self.number(a[i], f"{field}[{i}]") for i in range(a.shape[0])]

    def matrix(self, v, field):
        a = _array(v, field)
        if a.ndim == 1 and a.shape[0] == 0:
            return []  # [] for no rows
        if a.ndim != 2:
            raise InputError(field, f"expected a matrix (rows of numbers), got an array of shape {a.shape}")
        return [[self.number(a[i, j], f"{field}[{i}][{j}]") for j in range(a.shape[1])] for i in range(a.shape[0])]


def _ratio(p, q):
    return str(p) if q == 1 else f"{p}/{q}"


def _mpf_ratio(x):
    """An mpf's exact value (−1)^sign·man·2^exp as (numerator, denominator), in lowest terms (mpf.man is
    the magnitude: the sign is apart)."""
    return mpmath.libmp.to_rational(x._mpf_)


def _array(v, field):
    """v as a numpy array of objects (the numbers as given), or InputError."""
    if isinstance(v, np.ndarray):
        return v
    try:
        a = np.empty(0, dtype=object) if isinstance(v, (list, tuple)) and len(v) == 0 else np.array(v, dtype=object)
    except ValueError as e:  # ragged rows
        raise InputError(field, f"rows of different lengths ({e})") from None
    if a.dtype == object and a.ndim >= 1 and any(isinstance(x, (list, tuple, np.ndarray)) for x in a.flat):
        raise InputError(field, "rows of different lengths")
    return a


def _precision_name(precision):
    if isinstance(precision, (numbers.Integral, np.integer)) and not isinstance(precision, bool):
        return str(int(precision))
    if isinstance(precision, str):
        return precision
    names = ", ".join(p["name"] for p in describe()["precisions"] if p["name"] != "BITS")
    raise InputError("precision", f"{precision!r}: a name ({names}) or MPFR bits")


# --------------------------------------------------------------------------
# Output: femc's texts as numpy, mpmath or Fraction values.

def _reader(precision):
    """How femc's number texts (a decimal or p/q) are read at a precision, each rounded once: (read, dtype,
    bits) with float at double, Fraction at exact, mpmath.mpf at the precision's bits otherwise (femc
    describe's for the fixed precisions, MPFR's from its name); bits None but for mpmath."""
    if precision == "double":
        return (lambda t: float(fractions.Fraction(t))), float, None
    if precision == "exact":
        return fractions.Fraction, object, None
    bits = _BITS.get(precision) or int(precision[5:] if precision.startswith("mpfr-") else precision)

    def read(text):
        f = fractions.Fraction(text)
        return mpmath.mp.make_mpf(mpmath.libmp.from_rational(f.numerator, f.denominator, bits,
                                                             mpmath.libmp.round_nearest))
    return read, object, bits


def _values(texts, precision, shape=None):
    """Nested lists of texts as a numpy array of this precision's values (float64, or objects)."""
    read, dtype, _ = _reader(precision)
    a = np.array([read(t) for t in np.array(texts, dtype=object).reshape(-1)], dtype=dtype)
    return a if shape is None else a.reshape(shape)


def _system_values(doc, precision):
    """The matrices and vectors of a system document (femc solve's input: M, A, b, Q and C, W when
    present) as arrays at this precision, shaped."""
    n, m = len(doc["Q"]), len(doc["b"])
    shapes = {"M": (n, n), "A": (m, n), "b": (m,), "Q": (n,), "C": (n,), "W": (m, m)}
    return {k: _values(doc[k], precision, shapes[k]) for k in shapes if doc.get(k) is not None}


class Result:
    """The solution of one system: q̈ (qdd), Qᴺ (QN), Qᵂ (QW), Qᶜ (Qc), λ (lambda_, or result["lambda"]),
    G_g at q̈ (Gg_min), ‖δ‖² (delta_norm_sq) and ‖δ‖ (delta_norm), the rank decided, the method and
    precisions, the diagnostics (rank decision, κ(M), κ(B), warnings, notes) and the data-precision rule
    that applied. `document` is `femc solve`'s JSON of the same solve."""

    def __init__(self, document):
        self.document = document
        d = json.loads(document)
        self.precision = d["precision"]
        self.method = d["method"]
        self.data_precision = d["data_precision"]
        read, _, self.bits = _reader(self.precision)
        self.qdd, self.QN, self.QW, self.Qc, self.lambda_ = (_values(d[k], self.precision)
                                                             for k in ("qdd", "QN", "QW", "Qc", "lambda"))
        self.rank = d["rank"]
        self.delta_norm_sq, self.delta_norm, self.Gg_min = (
            None if d.get(k) is None else read(d[k]) for k in ("delta_norm_sq", "delta_norm", "Gg_min"))
        diag = d["diagnostics"]
        self.diagnostics = {k: (read(v) if isinstance(v, str) and k.startswith(("rank_", "kappa_")) else v)
                            for k, v in diag.items()}
        self.warnings = list(diag.get("warnings", []))
        self.notes = list(diag.get("notes", []))
        self.data_precision_rule = diag.get("data_precision_rule", "")

    def __getitem__(self, key):
        return self.lambda_ if key == "lambda" else getattr(self, key)

    def __repr__(self):
        return (f"femc.Result(method={self.method!r}, precision={self.precision!r}, rank={self.rank}, "
                f"warnings={len(self.warnings)})")


# --------------------------------------------------------------------------

def solve(M, A, b, Q, C=None, W=None, precision="double", method="", data_precision=None, rank_tol=None):
    """Solves the constrained system (M, A, b, Q, C, W) at `precision` (a name of femc describe's
    precisions, e.g. "double" or "exact", or MPFR bits as an int or "mpfr-<bits>") with `method` (femc describe;
    default femc describe's default_method, an exact one at precision "exact"). `data_precision` states the precision the data were rounded to
    ("exact", "double", …; default: see the module's doc); `rank_tol` the relative rank tolerance τ (a number
    or its text). Returns a Result."""
    texts = _Texts()
    doc = {"M": texts.matrix(M, "M"), "A": texts.matrix(A, "A"), "b": texts.vector(b, "b"),
           "Q": texts.vector(Q, "Q")}
    if C is not None:
        doc["C"] = texts.vector(C, "C")
    if W is not None:
        doc["W"] = texts.matrix(W, "W")
    name = _precision_name(precision)
    origin = ""
    try:  # None at exact (every float is data there), and for a name femc will refuse below
        working_bits = 53 if name == "double" else _reader(name)[2]
    except ValueError:
        working_bits = None
    if data_precision is None and texts.float_bits is not None and working_bits is not None \
            and texts.float_bits < working_bits:
        data_precision = str(texts.float_bits)  # femc names the widths it has a name for ("double")
        origin = (f"binary floats of {texts.float_bits} bits given at precision {name}: taken at their exact values "
                  "as data rounded to them (femc's rounded-data rule); data_precision='exact' takes them as exact")
    tol = "" if rank_tol is None else texts.number(rank_tol, "rank_tol")
    return Result(_femc.solve_document(json.dumps(doc), name, method or "", tol,
                                       "" if data_precision is None else _precision_name(data_precision), None,
                                       origin))


def _model_document(model):
    """A model file given as a path, its JSON text or a dict, as its JSON text."""
    if isinstance(model, dict):
        return json.dumps(model)
    if isinstance(model, str) and model.lstrip().startswith("{"):
        return model
    with open(model, encoding="utf-8") as f:
        return f.read()


def _state_document(state):
    if state is None:
        return None
    texts = _Texts()
    return json.dumps({k: texts.vector(v, k) for k, v in state.items()})


def model_system(model, state=None, precision="double"):
    """A model file's system at its initial state or at `state` ({"q": [...], "qd": [...]}), evaluated at
    `precision` ("double", "long-double", "float128" or MPFR bits): a dict with M, A, b, Q (and C, W when the
    model has them) as numpy arrays at double, object arrays of mpmath.mpf otherwise — what femc.solve_model
    solves, to hand to femc.solve or to a solver of your own."""
    name = _precision_name(precision)
    doc = json.loads(_femc.model_system_document(_model_document(model), name, _state_document(state)))
    return _system_values(doc, name)


def solve_model(model, state=None, precision="double", method="", rank_tol=None):
    """Solves a model file (a path, or its JSON text or dict: "kind": "planar" or "spatial") at its initial
    state, or at `state` ({"q": [...], "qd": [...]}, the coordinates as numbers or texts), as `femc solve`
    does. Returns a Result."""
    tol = "" if rank_tol is None else _Texts().number(rank_tol, "rank_tol")
    return Result(_femc.solve_document(_model_document(model), _precision_name(precision), method or "", tol,
                        "", _state_document(state)))


# --------------------------------------------------------------------------
# Simulation.

def _setting(value, field):
    """A setting (a time, a step, a tolerance) as the text a user types: a float by its shortest decimal
    (dt=0.01 is the hundredth the command line's --dt 0.01 is), anything else as an input number."""
    if isinstance(value, str):
        return value
    if isinstance(value, (float, np.floating)) and not isinstance(value, np.longdouble) and np.isfinite(value):
        return repr(float(value))
    return _Texts().number(value, field)


class Simulation:
    """A run of `femc simulate`: `records` maps each CSV column (t, the coordinates, their rates, energy,
    the work terms, the balance, the violations, …) to a numpy float64 array; `records_text` keeps every
    digit of the working precision (the CSV's rows as lists of texts, `columns` their names). `summary`
    is the command's JSON summary (settings, stop reason, maxima, events, warnings); `completed` says
    whether the run reached t_end, `warnings` why femc cannot vouch for it, when it cannot."""

    def __init__(self, csv_bytes, summary, completed, warned):
        lines = csv_bytes.decode("utf-8").splitlines()
        self.columns = lines[0].split(",") if lines else []
        self.records_text = [line.split(",") for line in lines[1:]]
        self.records = {c: np.array([float(r[i]) for r in self.records_text]) for i, c in enumerate(self.columns)}
        self.summary = json.loads(summary)
        self.completed = bool(completed)
        self.warned = bool(warned)
        self.warnings = self.summary.get("warnings", [])
        self.stop_reason = self.summary.get("stop_reason", "")

    def __repr__(self):
        return (f"femc.Simulation(system={self.summary.get('system')!r}, records={len(self.records_text)}, "
                f"completed={self.completed}, warnings={len(self.warnings)})")


def simulate(system, precision="double", **options):
    """Integrates a built-in system (femc simulate --list) or a model file (a path) at `precision`
    ("double", "long-double", "float128" or MPFR bits), with `femc simulate`'s options as keyword
    arguments: t_end, dt, tol, stepper, stages, baumgarte ("alpha,beta" or a pair), formulation, step,
    contact_model, contact_tol, method, record_every. Numbers may be given as numbers or texts.
    Returns a Simulation."""
    args = {"system": str(system), "precision": _precision_name(precision)}
    for key, value in options.items():  # femc refuses a key that is not one of its options
        if key == "baumgarte" and isinstance(value, (tuple, list)):
            value = ",".join(_setting(v, "baumgarte") for v in value)
        else:
            value = _setting(value, key)
        args[key] = value
    return Simulation(*_femc.simulate(args))


# --------------------------------------------------------------------------
# Verification of a Python function: femc verify's claims and studies on it.
#
# The claims are RapidCheck properties, and Debian's librapidcheck.a cannot
# be linked into a Python extension (it is not position-independent), so
# the verdict comes from the femc command itself: `femc verify --solver`
# starts _relay.py as its process solver, which relays the protocol's lines
# (verify/PROTOCOL.md) over a Unix socket back to this process, where the
# function runs. A Python exception closes the connection: femc sees the
# solver crash, fails that case and starts the relay again.

def _cli():
    """The femc command beside this package: $FEMC_CLI, the build tree's (python/femc → cli/femc), the
    installed one (lib/pythonX.Y/dist-packages/femc → bin/femc), or the PATH's."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.environ.get("FEMC_CLI"), os.path.join(here, "..", "..", "cli", "femc"),
                 os.path.join(here, "..", "..", "..", "..", "bin", "femc"), shutil.which("femc")):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.normpath(path)
    raise Error("the femc command was not found beside the package (set FEMC_CLI)")


def _answer_texts(value, field):
    """An output of the function as the texts of its exact values (a float's binary value: read at double
    it is the float itself)."""
    texts = _Texts()
    return [texts.number(x, f"{field}[{i}]") for i, x in enumerate(np.asarray(value, dtype=object).reshape(-1))]


def _answer(fn, req):
    """The protocol's answer line of fn to one request; femc.MethodError is a refusal."""
    try:
        v = _system_values(req, req["precision"])  # a request carries C and W always
        r = fn(v["M"], v["A"], v["b"], v["Q"], v["C"], v["W"])
    except MethodError as e:
        return {"id": req["id"], "error": str(e) or "refused"}
    if not isinstance(r, dict):
        r = {"qdd": r}
    out = {"id": req["id"]}
    out.update({k: _answer_texts(r[k], k) for k in ("qdd", "QN", "QW", "lambda") if r.get(k) is not None})
    if r.get("rank") is not None:
        out["rank"] = int(r["rank"])
    if r.get("rank_tol") is not None:
        out["rank_tol"] = _Texts().number(r["rank_tol"], "rank_tol")
    return out


def _serve(server, proc, fn, handshake, errors):
    """Answers the relays femc starts until femc ends. Each connection: the handshake, then one answer per
    request; an exception of fn (kept in `errors`) closes it, which femc sees as a crash."""
    import socket
    server.settimeout(0.2)
    while proc.poll() is None:
        try:
            conn, _ = server.accept()
        except socket.timeout:
            continue
        with conn:
            conn.settimeout(None)
            try:
                conn.sendall((json.dumps(handshake) + "\n").encode())
                for line in conn.makefile("rb"):
                    try:
                        answer = _answer(fn, json.loads(line))
                    except Exception as e:  # noqa: BLE001 (any exception of the function fails its case)
                        errors.append(f"{type(e).__name__}: {e}")
                        break
                    conn.sendall((json.dumps(answer) + "\n").encode())
            except OSError:  # femc killed the relay (a timeout): it starts another
                continue


class Verification:
    """The verdict of femc verify on a Python function: `passed`, `claims` (one dict a claim: claim,
    property, verdict, cases, worst_ratio, slack, what it detects), `studies`, `summary`, `conformance`
    (the whole conformance.json), `errors` (the exceptions the function raised, each failing its case),
    `counterexamples` ({property: [system, …]}: each failing claim's minimal case, the systems as
    femc solve reads them) and `report_dir` when a report was asked for (README.md, conformance.json,
    counterexamples/)."""

    def __init__(self, conformance, status, errors, report_dir, counterexamples):
        self.conformance = conformance
        self.counterexamples = counterexamples
        self.passed = status == 0
        self.claims = conformance["claims"]
        self.studies = conformance.get("studies", [])
        self.summary = conformance["summary"]
        self.errors = errors
        self.report_dir = report_dir

    def failed(self):
        """The claims that failed (or gave up)."""
        return [c for c in self.claims if c["verdict"] not in ("pass", "not applicable")]

    def __repr__(self):
        s = self.summary
        return (f"femc.Verification(passed={self.passed}, pass={s['pass']}, fail={s['fail']}, "
                f"not_applicable={s['not_applicable']}, studies_failed={s['studies_failed']})")


def verify(fn, capabilities=None, precision="double", claims=None, cases=100, seed=20261123,
           studies=("conditioning", "rank", "perturbed-constraints"), out=None, name="python", timeout_ms=10000):
    """Runs femc verify's claims and studies on `fn`, a solver written in Python, which runs in this
    interpreter.

    fn(M, A, b, Q, C, W) gets one system at the working precision's kind (numpy float64 arrays at "double",
    object arrays of mpmath.mpf at MPFR bits, of Fraction at "exact"; C and W always) and returns q̈, or a
    dict with "qdd" and what else it declares ("QN", "QW", "lambda", "rank", "rank_tol"). `capabilities`
    is what it declares, as verify/PROTOCOL.md's handshake says it: outputs (a list of "QN", "QW",
    "lambda", "rank"), rank_deficient, weighted, working_forces, error_growth, residual_mass_power,
    rank_policy, rank_tol. Raising femc.MethodError refuses a system; any other exception fails that case,
    as a crash of a process solver does. `claims`: IDs or property names (None: all); `studies`: those
    that compare solvers (() for none). The report is written to out/<name>/ when `out` is given.
    Returns a Verification."""
    import shlex
    import socket
    import subprocess
    import sys
    pname = _precision_name(precision)
    # femc checks the capabilities as a handshake (an unknown key, a bad value: exit 2, named below).
    handshake = dict(capabilities or {}, protocol="femc-solver/1", name=name, precisions=[pname])
    claims, studies = ([x] if isinstance(x, str) else list(x or []) for x in (claims, studies))
    with tempfile.TemporaryDirectory(prefix="femc-verify-") as tmp:
        parent = out if out is not None else os.path.join(tmp, "report")
        path = os.path.join(tmp, "solver.sock")
        relay = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_relay.py")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
            server.bind(path)
            server.listen(4)
            command = [_cli(), "verify", "--solver", shlex.join([sys.executable, relay, path]), "--name", name,
                       "--precision", pname, "--cases", str(cases), "--seed", str(seed), "--studies",
                       ",".join(studies), "--timeout-ms", str(timeout_ms), "-o", str(parent)]
            if claims:
                command += ["--claims", ",".join(claims)]
            errors = []
            with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
                _serve(server, proc, fn, handshake, errors)
                stdout, stderr = proc.communicate()
        if proc.returncode == 2:  # bad input, as femc verify names it: "femc: <field>: <what>"
            line = (stderr.strip().splitlines() or ["femc: verify: exit 2 without a message"])[-1]
            field, _, what = line.removeprefix("femc: ").partition(": ")
            if field == "solver" and "handshake" in what:  # the relay started; its handshake is the capabilities
                field, what = "capabilities", what[what.index("handshake"):]
            raise InputError(field, what)
        if proc.returncode not in (0, 1):
            raise Error(f"femc verify failed (exit {proc.returncode}): {stderr.strip()}")
        report = os.path.join(parent, name)
        with open(os.path.join(report, "conformance.json"), encoding="utf-8") as f:
            conformance = json.load(f)
        counterexamples = {}
        for c in conformance["claims"]:
            for path in c.get("counterexample", []):
                with open(os.path.join(report, path), encoding="utf-8") as f:
                    counterexamples.setdefault(c["property"], []).append(json.load(f))
        return Verification(conformance, proc.returncode, errors, report if out is not None else None,
                            counterexamples)
