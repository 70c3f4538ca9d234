"""A8 phase_retrieval: A knows the four squared DFT magnitudes of an integer signal, B holds sign(x0).

The signal is ``x = (x0, x1, x2, x3)`` with integer entries, ``|x_i| <= 2 + min(d, 2)`` and ``x0 != 0``.
A is told that box (it is what makes the problem finite and checkable); the paper's rejection rule
keeps a signal only when (i) the magnitudes alone admit several signals in the box and (ii) the
magnitudes plus ``sign(x0)`` admit exactly one. Both are decided by exhaustive enumeration.

Squared magnitudes of the length-4 DFT ``X_k = sum_n x_n (-i)^(kn)``, in the paper's closed form:
``|X0|^2 = (x0+x1+x2+x3)^2``, ``|X1|^2 = |X3|^2 = (x0-x2)^2 + (x1-x3)^2``, ``|X2|^2 = (x0-x1+x2-x3)^2``.
Writing ``u = x0+x2``, ``v = x1+x3``, ``p = x0-x2``, ``q = x1-x3`` they are ``(u+v)^2``, ``p^2+q^2``,
``(u-v)^2``: the solver enumerates ``(u, v)`` from the two square roots and ``(p, q)`` on the circle.

A's view admits exactly x and -x, so the sign of any non-zero entry would complete it (``candidate_slots``: 1, 2
or 4 signs). B's sign(x0) names them all (docs/deviations/typeB-localization.md, "several candidates"): the hint
carries ``settles`` (the other candidate signs), its text says that with the magnitudes it also settles them
(never their values), and a request for any one of them is a request for it.

Hard tier (docs/hard-tier.md): the capped bound is extended for d >= 4 only, one step per difficulty: 5 at d4
and 6 at d5 (d1-3 keep 3 / 4 / 4). At k = 2 the second withheld fact is of another kind: one squared magnitude,
|X_0|^2 = (x0+x1+x2+x3)^2 or |X_2|^2 = (x0-x1+x2-x3)^2 (|X_1|^2 = |X_3|^2 for a real signal, so neither of those
is a gap). A's magnitudes are stated one per fact (``dft_mag_sq``, at k = 1 too, each named in the convention) and
B holds the withheld one; within A's
box the missing one takes finitely many values, so ``solve`` enumerates them. The sign's "also settles" text stays
true: it speaks of the squared DFT magnitudes, all of which A holds once it has both facts.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from itertools import product
from math import isqrt
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Views,
    by_type,
    is_slot_notice,
    missing_slot_note,
    one,
    without_notices,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique

KEYS = ("x0", "x1", "x2", "x3")
Signal = tuple[int, int, int, int]


WITHHELD_MAGNITUDES = (0, 2)  # k = 2: |X_1|^2 = |X_3|^2 for a real signal, so only these can be a gap


def bound_for(difficulty: int) -> int:
    """The paper's entry bound 2 + min(d, 2): 3 / 4 / 4 (capped at d = 2); the hard tier goes on: 5 / 6 at d4 / d5."""
    return 2 + min(difficulty, 2) if difficulty <= 3 else difficulty + 1


def magnitudes(x: Signal) -> tuple[int, int, int, int]:
    x0, x1, x2, x3 = x
    return (
        (x0 + x1 + x2 + x3) ** 2,
        (x0 - x2) ** 2 + (x3 - x1) ** 2,
        (x0 - x1 + x2 - x3) ** 2,
        (x0 - x2) ** 2 + (x1 - x3) ** 2,
    )


def _plus_minus(n: int) -> tuple[int, ...]:
    return (n, -n) if n else (0,)


def _exact_sqrt(n: int) -> int | None:
    if n < 0:
        return None
    r = isqrt(n)
    return r if r * r == n else None


@lru_cache(maxsize=4096)
def integer_signals(mags: tuple[int, int, int, int]) -> tuple[Signal, ...]:
    """Every integer 4-vector (no box) with these squared DFT magnitudes, sorted.

    Finite by Parseval (``sum x_n^2 = sum |X_k|^2 / 4``).
    """
    m0, m1, m2, m3 = mags
    s, t = _exact_sqrt(m0), _exact_sqrt(m2)
    if s is None or t is None or m1 != m3 or m1 < 0:
        return ()
    found: set[Signal] = set()
    for big_s in _plus_minus(s):
        for big_t in _plus_minus(t):
            if (big_s + big_t) % 2:
                continue
            u, v = (big_s + big_t) // 2, (big_s - big_t) // 2
            r = isqrt(m1)
            for p in range(-r, r + 1):
                q_abs = _exact_sqrt(m1 - p * p)
                if q_abs is None:
                    continue
                for q in _plus_minus(q_abs):
                    if (u + p) % 2 or (v + q) % 2:
                        continue
                    found.add(((u + p) // 2, (v + q) // 2, (u - p) // 2, (v - q) // 2))
    return tuple(sorted(found))


@lru_cache(maxsize=8)
def accepted_signals(bound: int) -> tuple[Signal, ...]:
    """Signals in the box that pass the paper's rules (i) and (ii), in a fixed order.

    Drawing uniformly from this tuple is the same distribution as the paper's rejection sampling
    (uniform over the box with x0 != 0, redrawn until (i) and (ii) hold), without the ~99% rejections.
    """
    box = range(-bound, bound + 1)
    classes: dict[tuple[int, int, int, int], list[Signal]] = {}
    for x in product(box, repeat=4):
        if x[0] != 0:
            classes.setdefault(magnitudes(x), []).append(x)  # type: ignore[arg-type]
    kept = []
    for x in product(box, repeat=4):
        if x[0] == 0:
            continue
        members = classes[magnitudes(x)]  # type: ignore[arg-type]
        same_sign = [y for y in members if (y[0] > 0) == (x[0] > 0)]
        if len(members) > 1 and len(same_sign) == 1:
            kept.append(x)
    return tuple(kept)  # type: ignore[return-value]


def magnitude_slot(k: int) -> str:
    return f"|X_{k}|^2"


def possible_magnitudes(k: int, bound: int) -> list[int]:
    """Every value |X_k|^2 can take for an integer signal with entries in [-bound, bound]."""
    if k in (0, 2):
        return [s * s for s in range(4 * bound + 1)]
    return sorted({p * p + q * q for p in range(2 * bound + 1) for q in range(2 * bound + 1)})


def known_magnitudes(constraints: list[Constraint]) -> dict[int, int]:
    """|X_k|^2 by k from A's facts: the list of all four, or one fact per magnitude (k = 2 views); |X_1|^2 and
    |X_3|^2 stand for each other (a real signal's DFT is conjugate-symmetric)."""
    known: dict[int, int] = {}
    lists = by_type(constraints, "fft_mag_sq")
    if lists:
        values = one(constraints, "fft_mag_sq")["values"]
        if len(values) != 4 or any(not isinstance(v, int) for v in values):
            raise Inconsistent("fft_mag_sq needs four integers")
        known = dict(enumerate(values))
    for c in by_type(constraints, "dft_mag_sq"):
        if c["k"] not in range(4) or not isinstance(c["value"], int) or isinstance(c["value"], bool):
            raise Inconsistent(f"|X_{c['k']}|^2 = {c['value']!r} is not an integer magnitude")
        if known.setdefault(c["k"], c["value"]) != c["value"]:
            raise Inconsistent(f"two values for |X_{c['k']}|^2")
    for k, partner in ((1, 3), (3, 1)):
        if partner in known:
            known.setdefault(k, known[partner])
    return known


def sign_text(s: int) -> str:
    return "+1" if s > 0 else "-1"


def _signs_of(slots: list[str]) -> str:
    """``["sign(x2)", "sign(x3)"]`` -> "the signs of x2 and x3" (never their values)."""
    names = [slot[len("sign("):-1] for slot in slots]
    if len(names) == 1:
        return f"the sign of {names[0]}"
    return f"the signs of {', '.join(names[:-1])} and {names[-1]}"


class PhaseRetrieval(Family):
    name = "phase_retrieval"
    prefix = "pha"
    type = "A"
    answer_type = "dict_int"
    answer_keys = KEYS

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        bound = bound_for(difficulty)
        return {"bound": bound, "x": list(rng.choice(accepted_signals(bound)))}

    def views(self, z: dict[str, Any]) -> Views:
        x, bound = tuple(z["x"]), z["bound"]
        hard = bound > bound_for(3)
        convention = {
            "type": "domain",
            "statement": "X_k = x0 + x1·(-i)^k + x2·(-i)^(2k) + x3·(-i)^(3k) (k = 0, 1, 2, 3) is the length-4 "
            "discrete Fourier transform of the signal x = (x0, x1, x2, x3), and |X_k|^2 is its squared magnitude"
            + (": |X_0|^2, |X_1|^2, |X_2|^2 and |X_3|^2." if hard else "."),
        }
        # the hard tier states the magnitudes one per fact at k = 1 as at k = 2, so the view's form never tells k
        mags_facts = ([{"type": "dft_mag_sq", "k": k, "value": v} for k, v in enumerate(magnitudes(x))] if hard
                      else [{"type": "fft_mag_sq", "values": list(magnitudes(x))}])
        box = {
            "type": "domain",
            "statement": f"x0, x1, x2, x3 are integers with -{bound} <= x_i <= {bound} for every i, and x0 != 0.",
            "integer": True,
            "bound": bound,
            "nonzero": ["x0"],
        }
        settles = [slot for slot in self.candidate_slots([*mags_facts, convention, box]) if slot != "sign(x0)"]
        sign = {"type": "sign", "index": 0, "sign": 1 if x[0] > 0 else -1, "settles": settles}
        notice = missing_slot_note("sign(x0)", "The sign of x0, sign(x0) = +1 or -1, is not given to you; your partner "
                                   "knows it.")
        return Views(
            a=[*mags_facts, convention, box, notice],
            b=[sign],
            hint=sign,
            slot="sign(x0)",
            value=sign["sign"],
            target={"type": "signal", "variables": list(KEYS)},
            question="What is the signal x = (x0, x1, x2, x3)? Give all four integer entries.",
            unknowns=list(KEYS),
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> tuple[int, ...]:
        candidates = self.admissible_signals(constraints)
        for c in by_type(constraints, "sign"):
            if c["sign"] not in (1, -1) or c["index"] not in range(4):
                raise Inconsistent(f"sign(x{c['index']}) = {c['sign']} is not +1 or -1")
            candidates = [x for x in candidates if (x[c["index"]] > 0 if c["sign"] > 0 else x[c["index"]] < 0)]
        if not candidates:
            raise Inconsistent("no integer signal in the stated domain has these magnitudes")
        if len(candidates) > 1:
            raise NotUnique(f"{len(candidates)} signals fit, e.g. {candidates[0]} and {candidates[1]}")
        return candidates[0]

    @staticmethod
    def admissible_signals(constraints: list[Constraint]) -> list[Signal]:
        """The integer signals with A's magnitudes inside A's stated domain (signs not yet applied).

        A magnitude A does not hold (k = 2) ranges over every value it can take in the stated box; without a box
        there are infinitely many signals (``NotUnique``).
        """
        known = known_magnitudes(constraints)
        bounds = [dom["bound"] for dom in by_type(constraints, "domain") if "bound" in dom]
        missing = [k for k in range(4) if k not in known]
        if not known:
            raise NotUnique("no squared DFT magnitude is known")
        if missing and not bounds:
            raise NotUnique(f"|X_{missing[0]}|^2 is unknown and the entries are unbounded")
        completions: list[dict[int, int]] = [known]
        for k in missing:
            completions = [{**m, k: v} for m in completions for v in possible_magnitudes(k, min(bounds))]
        found: set[Signal] = set()
        for m in completions:
            found.update(integer_signals((m[0], m[1], m[2], m[3])))
        candidates = sorted(found)
        for dom in by_type(constraints, "domain"):
            if "bound" in dom:
                b = dom["bound"]
                candidates = [x for x in candidates if all(-b <= xi <= b for xi in x)]
            for var in dom.get("nonzero", ()):
                candidates = [x for x in candidates if x[KEYS.index(var)] != 0]
        return candidates

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """``sign(x_i)`` for every entry whose sign, whichever it is, singles out one admissible signal.

        A's facts are the magnitudes and the box; the signals they admit come in pairs x, -x (and sometimes
        more). The kind of fact that settles them is a sign: the sign of any entry that is non-zero in every
        admissible signal and takes each sign in at most one of them.
        """
        view = [c for c in view_a if not is_slot_notice(c)]
        signals = self.admissible_signals(view)
        if len(signals) < 2:
            return []
        gaps = [k for k in WITHHELD_MAGNITUDES if k not in known_magnitudes(view)]
        if gaps:  # k = 2: a magnitude and a sign; the sign of any entry that is never zero
            return [magnitude_slot(k) for k in gaps] + [
                f"sign({key})" for i, key in enumerate(KEYS) if all(x[i] != 0 for x in signals)]
        slots = []
        for i, key in enumerate(KEYS):
            signs = [x[i] > 0 for x in signals]
            if all(x[i] != 0 for x in signals) and len(set(signs)) == len(signs):
                slots.append(f"sign({key})")
        return slots

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: |X_0|^2 or |X_2|^2 as well as sign(x0) (a fact of another kind)."""
        values = known_magnitudes(views.a)
        return [HintSlot({"type": "dft_mag_sq", "k": k, "value": values[k]}, magnitude_slot(k), values[k])
                for k in WITHHELD_MAGNITUDES]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """A's magnitudes become one fact each (the hard tier's views already state them so), and B holds the
        withheld one (no slot notice)."""
        if not by_type(views.a, "fft_mag_sq"):
            return super().withhold(views, second)
        values = one(views.a, "fft_mag_sq")["values"]
        held = [{"type": "dft_mag_sq", "k": k, "value": v} for k, v in enumerate(values) if k != second.constraint["k"]]
        a = [x for c in without_notices(views.a) for x in (held if c["type"] == "fft_mag_sq" else [c])]
        return replace(views, a=a, b=[*views.b, second.constraint], more_hints=[second])

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        if hint["type"] == "dft_mag_sq":
            bounds = [dom["bound"] for dom in by_type(view_a, "domain") if "bound" in dom]
            for value in possible_magnitudes(hint["k"], min(bounds, default=2)):
                yield {**hint, "value": value}
            return
        for s in (1, -1):
            yield {**hint, "sign": s}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "fft_mag_sq":
                return "Squared DFT magnitudes of x: " + ", ".join(
                    f"|X_{k}|^2 = {v}" for k, v in enumerate(c["values"])
                )
            case "dft_mag_sq":
                return f"Squared DFT magnitude of x: |X_{c['k']}|^2 = {c['value']}"
            case "sign":
                text = f"sign(x{c['index']}) = {sign_text(c['sign'])}"
                if c.get("settles"):
                    text += f" (with the squared DFT magnitudes, this also settles {_signs_of(c['settles'])})"
                return text
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if hint.get("type") == "sign" and hint.get("settles"):  # B's sign settles every candidate sign
            return self.aliases_with_settled(slot, hint)
        if slot == "|X_k|^2":
            return [
                "the squared DFT magnitudes |X_k|^2",
                "|X_k|^2",
                "the Fourier magnitudes",
                "the magnitude spectrum",
                "the power spectrum of x",
            ]
        if slot in (magnitude_slot(0), magnitude_slot(2)):
            k = slot[3]
            extra = ["(x0 + x1 + x2 + x3)^2", "the squared sum of the signal", "the DC component",
                     "the zero-frequency magnitude"] if k == "0" else [
                     "(x0 - x1 + x2 - x3)^2", "the squared alternating sum of the signal", "the Nyquist component"]
            # never the bare X_k, |X_k| or "the magnitude of X_k": read case-blind they are x_k, the signal's entry
            return [f"the squared DFT magnitude {slot}", slot, f"|X{k}|^2", f"the squared magnitude of X_{k}",
                    f"the DFT magnitude of X_{k}", *extra]
        if slot.startswith("sign(x") and slot.endswith(")"):
            i = slot[len("sign(x") : -1]
            return [
                f"sign(x{i}), the sign of x{i}",
                slot,
                f"the sign of x{i}",
                f"sign of x_{i}",
                f"whether x{i} is positive or negative",
                f"the sign bit of x{i}",
                f"is x{i} positive",
            ]
        raise KeyError(f"unknown slot {slot!r}")

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "dft_mag_sq":
            k = c["k"]
            return SlotDescription("squared DFT magnitude", (k,), base=0, kind="magnitude",
                                   synonyms=("DFT magnitude", "Fourier magnitude", "magnitude"),
                                   meanings=(f"|X_{k}|^2", f"the squared magnitude of X_{k}", *_magnitude_meanings(k)))
        if c["type"] != "sign":
            return None
        i = c["index"]
        return SlotDescription("sample", (i,), base=0, attribute="sign", kind="sign",
                               synonyms=("entry", "component", "element", "coordinate", "signal value"),
                               meanings=(f"whether x{i} is positive or negative", f"whether x{i} is negative",
                                         f"whether x{i} is positive", f"the sign of x{i}", f"the sign of entry {i}",
                                         f"the sign of sample {i}", f"is x{i} positive or negative",
                                         f"x{i} above or below zero", f"is x{i} above or below zero",
                                         f"whether x{i} is above or below zero", f"is x{i} negative or positive",
                                         *_sign_meanings(i)))

    def slot_name(self, c: Constraint) -> str | None:
        if c["type"] == "sign":
            return f"sign(x{c['index']})"
        if c["type"] == "fft_mag_sq":
            return "|X_k|^2"
        if c["type"] == "dft_mag_sq":
            return magnitude_slot(c["k"])
        return None

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["x"])


FAMILY = PhaseRetrieval()



def _sign_meanings(i: int) -> tuple[str, ...]:
    """More ways to ask for the sign of x_i (counted from 0) in words; each says sign, positive or negative, so
    none asks for the entry's value (that is part of the answer)."""
    nth = ordinal_words(i + 1)[0]
    words = [f"the sign of the {nth} {noun}" for noun in ("sample", "entry", "component", "element",
                                                          "coordinate", "signal value", "value of x")]
    words += [f"whether the {nth} {noun} is {w}" for noun in ("sample", "entry", "value") for w in
              ("positive or negative", "positive", "negative", "above or below zero")]
    words += [f"the sign the {nth} sample carries", f"the polarity of the {nth} sample", f"the polarity of x{i}",
              f"the sign of x_{i}", f"the sign of x[{i}]", f"the sign of x({i})", f"sgn(x{i})", f"sgn x{i}",
              f"x{i}'s sign", f"the sign on x{i}", f"the sign in front of x{i}", f"the sign bit of x{i}",
              f"which sign x{i} has", f"the sign x{i} has", f"the sign x{i} takes", f"the sign carried by x{i}",
              f"the sign that x{i} carries", f"is x{i} positive", f"is x{i} negative", f"is x_{i} positive",
              f"is x_{i} negative", f"whether x{i} is greater than zero", f"whether x{i} is less than zero",
              f"whether x{i} > 0", f"whether x{i} < 0", f"is x{i} > 0", f"x{i} > 0 or x{i} < 0", f"x{i} > 0 or < 0",
              f"whether x{i} is plus or minus", f"x{i} plus or minus", f"the plus or minus on x{i}",
              f"the sign of the sample at index {i}", f"the sign of the entry at index {i}",
              f"the sign of sample number {i}"]
    if i == 0:
        words += ["the sign of the leading sample", "the sign the leading sample carries",
                  "the sign of the leading entry", "the sign of the initial sample",
                  "whether the signal starts positive", "whether the signal starts negative"]
    return tuple(dict.fromkeys(words))


def _magnitude_meanings(k: int) -> tuple[str, ...]:
    """More ways to ask for |X_k|^2 in words: the power at frequency k of the length-4 DFT (never the bare X_k,
    read case-blind as the entry x_k)."""
    words = [f"the squared modulus of X_{k}", f"the squared absolute value of X_{k}", f"|X({k})|^2", f"|X[{k}]|^2",
             f"the squared DFT magnitude at k = {k}", f"the squared magnitude of the DFT at k = {k}",
             f"the squared magnitude of the DFT at frequency {k}", f"the magnitude squared of the DFT at k = {k}",
             f"the squared Fourier magnitude at frequency {k}", f"the squared Fourier magnitude at k = {k}",
             f"the power at frequency {k}", f"the power at k = {k}", f"the power in frequency bin {k}",
             f"the power in bin {k}", f"the energy at frequency {k}", f"the energy in frequency bin {k}",
             f"the power spectrum at k = {k}", f"the power spectrum at frequency {k}",
             f"the spectral power at k = {k}", f"the squared amplitude at frequency {k}",
             f"the squared amplitude of frequency {k}", f"the periodogram at k = {k}",
             f"the squared magnitude of DFT coefficient {k}", f"the squared magnitude of Fourier coefficient {k}",
             f"the squared DFT coefficient magnitude at index {k}", f"X_{k} times its conjugate",
             f"the squared length of X_{k}", f"the magnitude squared of X_{k}"]
    if k == 0:
        words += ["the squared DC term", "the zero-frequency power", "the power at zero frequency",
                  "the square of the sum of the samples", "the squared sum of the entries", "the DC power"]
    if k == 2:
        words += ["the Nyquist power", "the power at the Nyquist frequency", "the squared Nyquist term",
                  "the square of the alternating sum", "the squared alternating sum of the entries"]
    return tuple(dict.fromkeys(words))
