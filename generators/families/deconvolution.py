"""B3 deconvolution: recover an integer signal x from a known kernel h and the measured samples of y = x * h.

Paper: x in Z^n, h in Z^m, entries in [-(2+d), 2+d], h0 != 0, n = 3 + min(d, 2), m = 2 (d <= 1) or 3; A knows h
and every y_k but y_{k*}, B holds y_{k*}, where removing y_{k*} must make the system rank-deficient.

Change (smallest sound one, see docs/deviations): with the full output y_0..y_{n+m-2} no single sample can be
necessary unless the kernel is a scaled delta h = (h0, 0, ..., 0). Dropping y_k leaves x determined iff no
non-zero x' of length n has x' * h = c * z^k, i.e. iff h is not a monomial; with h0 != 0 that means h != (h0, 0..0).
For such a kernel every equation fixes one x_k on its own, which is the degenerate "deconvolution" of the
authors' release. So here only the first n samples y_0..y_{n-1} are measured: a lower-triangular system with h0 on
its diagonal, invertible exactly because h0 != 0, in which every sample is necessary. k* ~ Unif[0, n-1], and the
kernel must not be a scaled delta (otherwise the equations decouple).

A is told that x is an integer vector (and nothing about its range), so the witness moves y_{k*} by the smallest
step that keeps x integral.

Hard tier (docs/hard-tier.md): the paper caps n at 5 and m at 3 from d2 on; d4 / d5 take the rule on, n = 6 / 7
samples, kernels of m = 4 / 5 taps, entries in [-6, 6] / [-7, 7] (``dimensions``). k = 2 withholds a second
measured sample, any other y_j (``second_hints``); A's statement lists every measured sample, none as missing.
"""

from __future__ import annotations

import functools
import math
import random
import re
from fractions import Fraction
from typing import Any

from generators.base import Constraint, Family, HintSlot, Reject, Views, absent_slots, missing_slot_note, one
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique

_SLOT = re.compile(r"^y_(\d+)$")


def dimensions(difficulty: int) -> tuple[int, int, int]:
    """(n, m, bound): signal length, kernel length, entry bound. d1-3 are the paper's; d4-5 the hard tier's."""
    if difficulty >= 4:
        return difficulty + 2, difficulty, 2 + difficulty
    return 3 + min(difficulty, 2), 2 if difficulty <= 1 else 3, 2 + difficulty


def convolve(x: list[int], h: list[int]) -> list[int]:
    """The full linear convolution, length len(x) + len(h) - 1 (direct sum)."""
    y = [0] * (len(x) + len(h) - 1)
    for j, xj in enumerate(x):
        for i, hi in enumerate(h):
            y[i + j] += hi * xj
    return y


def impulse_response(h: list[int], n: int, k: int) -> list[Fraction]:
    """e with (e * h)_j = [j == k] for j < n: how x moves when y_k alone moves by 1."""
    e = [Fraction(0)] * n
    for j in range(k, n):
        acc = Fraction(1 if j == k else 0)
        for i in range(1, min(len(h), j - k + 1)):
            acc -= h[i] * e[j - i]
        e[j] = acc / h[0]
    return e


@functools.cache
def signal_statement(n: int, m: int) -> str:
    xs = ", ".join(f"x{j}" for j in range(n))
    hs = ", ".join(f"h{i}" for i in range(m))
    terms = " + ".join(f"h{i}*x_(k-{i})" if i else "h0*x_k" for i in range(m))
    return (
        f"x = ({xs}) is an unknown signal of {n} integers and h = ({hs}) is a known kernel. Their linear "
        f"convolution y = x * h has samples y_k = {terms}, where x_j = xj for j = 0..{n - 1} and x_j = 0 for "
        f"any other j. Only the first {n} samples were measured: {', '.join(f'y_{k}' for k in range(n))}."
    )


def signal_domain(n: int, m: int) -> Constraint:
    return {"type": "domain", "statement": signal_statement(n, m), "signal_length": n, "kernel_length": m}


def missing_domain(slot: str) -> Constraint:
    return missing_slot_note(slot, f"The measurement {slot} is not given here; your partner knows it.")


class Deconvolution(Family):
    name = "deconvolution"
    prefix = "dec"
    type = "B"
    answer_type = "dict_int"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, m, bound = dimensions(difficulty)
        x = [rng.randint(-bound, bound) for _ in range(n)]
        h = [rng.choice([v for v in range(-bound, bound + 1) if v != 0])]
        h += [rng.randint(-bound, bound) for _ in range(m - 1)]
        if not any(h[1:]):
            raise Reject("kernel is a scaled delta: every equation would fix one x_k on its own")
        return {"x": x, "h": h, "missing": rng.randrange(n)}

    def keys_for(self, z: dict[str, Any]) -> tuple[str, ...]:
        return tuple(f"x{j}" for j in range(len(z["x"])))

    def views(self, z: dict[str, Any]) -> Views:
        x, h, k = z["x"], z["h"], z["missing"]
        n = len(x)
        y = convolve(x, h)[:n]
        samples = [{"type": "conv_eq", "index": j, "value": v} for j, v in enumerate(y)]
        hint = samples[k]
        slot = f"y_{k}"
        a = [signal_domain(n, len(h)), {"type": "kernel", "values": list(h)}]
        a += [missing_domain(slot) if c is hint else c for c in samples]
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=hint["value"],
            target={"type": "signal", "length": n},
            question=f"What is the signal x = ({', '.join(f'x{j}' for j in range(n))})? Give all {n} entries "
            "as integers.",
            unknowns=[f"x{j}" for j in range(n)],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _setup(constraints: list[Constraint]) -> tuple[int, list[int]]:
        found = [c for c in constraints if c["type"] == "domain" and "signal_length" in c]
        if not found:
            raise NotUnique("the signal length is not given")
        c = found[0]
        if any(f != c for f in found[1:]):
            raise Inconsistent("conflicting descriptions of the signal")
        n, m = c["signal_length"], c["kernel_length"]
        h = one(constraints, "kernel")["values"]
        if c["statement"] != signal_statement(n, m) or len(h) != m or n < 1:
            raise Inconsistent("the signal's domain statement does not match its fields or the kernel")
        if any(isinstance(v, bool) or not isinstance(v, int) for v in h):
            raise Inconsistent("the kernel is not integral")
        # the family's non-degeneracy rules, checked on every instance (not only when generating)
        if h[0] == 0:
            raise Inconsistent("h0 = 0: the measured samples do not form an invertible triangular system")
        if not any(h[1:]):
            raise Inconsistent("the kernel is a scaled delta: every sample fixes one x_k on its own")
        return n, h

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> tuple[int, ...]:
        n, h = self._setup(constraints)
        if target["length"] != n:
            raise Inconsistent(f"the target has length {target['length']}, the signal {n}")
        y: dict[int, int] = {}
        for c in constraints:
            if c["type"] != "conv_eq":
                continue
            k, v = c["index"], c["value"]
            if not 0 <= k < n:
                raise Inconsistent(f"y_{k} was not measured (only y_0..y_{n - 1})")
            if isinstance(v, bool) or not isinstance(v, int):
                raise Inconsistent(f"y_{k} = {v!r} is not an integer")
            if y.setdefault(k, v) != v:
                raise Inconsistent(f"two values for y_{k}")
        # lower-triangular with h0 != 0 on the diagonal: each missing sample leaves one free direction of x
        missing = [f"y_{k}" for k in range(n) if k not in y]
        if missing:
            raise NotUnique(f"samples not given: {', '.join(missing)}")
        x: list[int] = []
        for k in range(n):
            acc = y[k] - sum(h[i] * x[k - i] for i in range(1, min(len(h), k + 1)))
            if acc % h[0]:
                raise Inconsistent(f"the samples force a non-integer x{k}")
            x.append(acc // h[0])
        return tuple(x)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: any other measured sample (each one is a pivot of the triangular system)."""
        return [HintSlot(c, f"y_{c['index']}", c["value"]) for c in views.a if c["type"] == "conv_eq"]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        try:
            n, h = self._setup(view_a)
        except (NotUnique, Inconsistent):
            return  # no stated domain: no admissible completion to offer
        k = hint["index"]
        if not 0 <= k < n:
            return
        step = math.lcm(*(e.denominator for e in impulse_response(h, n, k)))
        for delta in (step, -step):
            yield {**hint, "value": hint["value"] + delta}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The measured samples y_0..y_{n-1} that A's statement declares and A is given no value for."""
        n, _ = self._setup(view_a)
        return absent_slots(self, [f"y_{k}" for k in range(n)], view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["x"])

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "conv_eq":
                return f"y_{c['index']} = {c['value']}"
            case "kernel":
                values = c["values"]
                listed = ", ".join(f"h{i} = {v}" for i, v in enumerate(values))
                return f"The kernel is h = ({', '.join(map(str, values))}), i.e. {listed}."
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        if c["type"] == "conv_eq":
            return f"y_{c['index']}"
        return "h" if c["type"] == "kernel" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if slot == "h":
            return ["the kernel h", "h", "the kernel", "the filter h", "the impulse response h"]
        m = _SLOT.match(slot)
        if not m:
            raise ValueError(f"not a deconvolution slot: {slot!r}")
        k = m.group(1)
        return [
            f"the measurement y_{k}",
            f"y_{k}",
            f"y{k}",
            f"y[{k}]",
            f"y({k})",
            f"the output sample y_{k}",
            f"the measured sample y_{k}",
            f"the value of y_{k}",
            f"the convolution output at index {k}",
            f"(x * h)_{k}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "conv_eq":
            return None
        return SlotDescription("output sample", (c["index"],), base=0, kind="measurement",
                               synonyms=("measured output sample", "output", "sample", "measurement", "observation",
                                         "output value", "measured value", "measured sample", "observed sample"),
                               meanings=_sample_meanings(c["index"]))


def _sample_meanings(k: int) -> tuple[str, ...]:
    """Ways to ask for the measured sample y_k alone, by its index ``k`` (from 0) or its place (from one)."""
    nth = ordinal_words(k + 1)[0]
    lead = ("the leading sample", "the leading output sample", "the leading measurement", "the initial sample",
            "the initial output value", "the starting sample of y", "the sample at time zero") if k == 0 else ()
    return (
        *(f"the output at {w} {k}" for w in ("time", "position", "step", "lag", "sample")),
        *(f"y at {w} {k}" for w in ("index", "time", "position", "step")),
        *(f"{w} {k} of y" for w in ("entry", "component", "element", "term", "sample")),
        f"the measured output at time {k}", f"the measurement at time step {k}", f"the convolved value at index {k}",
        f"the convolution of x and h at index {k}", f"the convolution of x with h at position {k}",
        f"the filter output at time {k}", f"the filtered signal at index {k}", f"the system response at time {k}",
        f"the coefficient of z^{k} in y", f"the z^{k} coefficient of the output",
        f"the coefficient of t^{k} in the product", f"the right-hand side of equation {k}",
        f"the right-hand side of the {nth} equation",
        f"the {nth} entry of y", f"the {nth} component of y", f"the {nth} value of y", f"the {nth} term of y",
        f"the {nth} number in y", f"the {nth} element of the output sequence", f"the {nth} sample of the output",
        f"the {nth} sample of the convolution", f"the {nth} observed output", f"the {nth} recorded output",
        f"the {nth} reading", f"the {nth} data point", f"the {nth} measured value of y", f"the {nth} output value",
        f"the {nth} coefficient of the convolution", f"the {nth} convolution sample", f"the {nth} y value",
        *lead,
    )


FAMILY = Deconvolution()
