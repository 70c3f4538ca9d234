"""Importing the release's ``deconvolution`` lines into our family's constraint types."""

from __future__ import annotations

import re
from typing import Any

from generators.base import Constraint
from generators.errors import Inconsistent, NotUnique
from generators.linalg import solve_affine
from verifiers.reference.mapping import Mapped, Spec, check_unknowns, domain, int_fields, read_views, released
from verifiers.reference.release import Release


def _deconvolution_statement(n: int, m: int) -> str:
    xs = ", ".join(f"x{j}" for j in range(n))
    hs = ", ".join(f"h{i}" for i in range(m))
    terms = " + ".join(f"h{i}*x_(k-{i})" if i else "h0*x_k" for i in range(m))
    return (f"x = ({xs}) is an unknown signal of {n} integers and h = ({hs}) is a known kernel. Their linear "
            f"convolution y = x * h has samples y_k = {terms} for k = 0..{n + m - 2}, where x_j = xj for "
            f"j = 0..{n - 1} and x_j = 0 for any other j. Every sample but one is listed.")


def _deconvolution_setup(constraints: list[Constraint]) -> tuple[int, list[int], int]:
    described = [c for c in constraints if c["type"] == "domain" and "samples" in c]
    kernels = [c for c in constraints if c["type"] == "kernel"]
    if not described or not kernels:
        raise NotUnique("the signal or the kernel is not described")
    d, h = described[0], kernels[0]["values"]
    if d["statement"] != _deconvolution_statement(d["signal_length"], d["kernel_length"]) or len(h) != d[
            "kernel_length"]:
        raise Inconsistent("the signal's description does not match its fields or the kernel")
    return d["signal_length"], h, d["samples"]


def solve_full_deconvolution(constraints: list[Constraint], target: dict[str, Any]) -> tuple[int, ...]:
    """The release's construction: any measured samples of the full convolution, an integer signal."""
    n, h, total = _deconvolution_setup(constraints)
    y: dict[int, int] = {}
    for c in constraints:
        if c["type"] == "conv_eq":
            if not 0 <= c["index"] < total:
                raise Inconsistent(f"y_{c['index']} is not a sample of the convolution")
            if y.setdefault(c["index"], c["value"]) != c["value"]:
                raise Inconsistent(f"two values for y_{c['index']}")
    if not y:
        raise NotUnique("no samples")
    rows = [[h[k - j] if 0 <= k - j < len(h) else 0 for j in range(n)] for k in sorted(y)]
    point, basis = solve_affine(rows, [y[k] for k in sorted(y)])
    if basis:
        raise NotUnique(f"the samples leave {len(basis)} free direction(s) of x")
    if any(x.denominator != 1 for x in point):
        raise Inconsistent("the samples force a non-integer signal")
    return tuple(x.numerator for x in point)


def _deconvolution_alternatives(hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
    for step in range(1, 25):
        for sign in (1, -1):
            yield {**hint, "value": hint["value"] + sign * step}


def _check_convolution_texts(rec: Release, agent: str, h: list[int]) -> None:
    """The kernel is told to A only inside the equation texts: they must agree with global_metadata.kernel."""
    texts, machine = rec.texts(agent), rec.machine(agent)
    if len(texts) != len(machine):
        return
    for (path, c), text in zip(machine, texts, strict=True):
        m = re.fullmatch(r"\s*(.+?)\s*=\s*(-?\d+)\s*", text)
        if m is None:
            rec.fail(path, f"cannot read the equation text {text!r}")
        k = rec.integer(c, "index", path)
        for sign, digits, j in re.findall(r"([+-]?)(\d*)x(\d+)", m.group(1).replace(" ", "")):
            coeff = (-1 if sign == "-" else 1) * (int(digits) if digits else 1)
            if not 0 <= k - int(j) < len(h) or h[k - int(j)] != coeff:
                rec.fail(path, f"the text {text!r} does not match the kernel {h} (global_metadata.kernel)")


def map_deconvolution(rec: Release) -> Mapped:
    conv = {"conv_eq": int_fields("index", "value")}
    a, b, hint = read_views(rec, conv)
    h = rec.int_list(rec.meta, "kernel", "global_metadata")
    n = rec.meta_int("length_x")
    keys = tuple(f"x{j}" for j in range(n))
    check_unknowns(rec, list(keys))
    if not h:
        rec.fail("global_metadata.kernel", "empty kernel")
    for agent in ("A", "B"):
        _check_convolution_texts(rec, agent, h)
    described = domain(_deconvolution_statement(n, len(h)), signal_length=n, kernel_length=len(h),
                       samples=n + len(h) - 1)
    m = Mapped([described, {"type": "kernel", "values": h}, *a], b, hint, f"y_{hint['index']}", hint["value"],
               {"type": "signal", "length": n},
               f"What is the signal x = ({', '.join(keys)})? Give all {n} entries as integers.", list(keys),
               released(rec, keys), keys=keys)
    if h[0] == 0:
        m.rule_violations.append("h0 = 0")
    elif not any(h[1:]):
        m.rule_violations.append(f"the kernel {h} is a scaled delta: each sample fixes one x_k on its own, so this is "
                                 "not a deconvolution (our family rejects such kernels)")
    return m


def _deconvolution_candidates(m: Mapped) -> list[str]:
    """The samples y_0..y_{n+m-2} of the release's full convolution (A's statement lists every one but one) that A
    holds no value for; our family's own statement covers only y_0..y_{n-1}."""
    _, _, total = _deconvolution_setup(m.a)
    held = {c["index"] for c in m.a if c["type"] == "conv_eq"}
    return [f"y_{k}" for k in range(total) if k not in held]


SPEC = Spec(map_deconvolution, "dict_int", solve=solve_full_deconvolution, alternatives=_deconvolution_alternatives,
            candidates=_deconvolution_candidates)
