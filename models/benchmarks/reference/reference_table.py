"""The one layout of the reference tables of this directory, and the reading
of femc's output CSVs that the scripts compare with them.

A table is a header "t,<names>" then one row per record: t as the caller
formats it, and every value printed by mpmath to the stated number of
significant digits (values below zero_below printed 0, for the zeros that
the working precision leaves as round-off)."""
import csv
import io
import os

from mpmath import mp, mpf


def time_text(t):
    """A record's time as the tables print it (6 significant digits)."""
    return mp.nstr(mpf(t), 6)


def write(path, names, rows, digits, zero_below=None):
    """rows: (t text, values) pairs."""
    with open(path, "w") as f:
        f.write(",".join(["t"] + list(names)) + "\n")
        for t, values in rows:
            if zero_below is not None:
                values = [mp.chop(v, tol=zero_below) for v in values]
            f.write(t + "," + ",".join(mp.nstr(v, digits) for v in values) + "\n")
    print("wrote", os.path.relpath(path))


def parse(text):
    """femc simulate's CSV table, as text: a list of dicts by column name."""
    return list(csv.DictReader(io.StringIO(text)))


def read(path):
    """femc simulate's CSV table, from a file."""
    with open(path) as f:
        return parse(f.read())
