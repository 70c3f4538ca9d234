"""Extra vocabulary of the ``rule`` responder, per family: how a model may name or describe things.

The generators give every hint its ``request_aliases`` and every slot its ``slot_aliases``; this module
adds, in the harness (so the generated data never depend on it), the names a fair reader would also
accept:

* ``hint``:   more names and word descriptions of the hint slot ("the equation of line L2", "the 2nd moment");
* ``parts``:  names of the components that the hint fact alone fixes (crt: the third modulus m3 and residue
              r3; geometry: the coefficients a2, b2, c2 of L2). Asking for any of them, or all of them
              together, is asking for the hint fact;
* ``target``: names of what the question asks for, beyond A's listed unknowns (so that a request for the
              target is recognised as such in the decision's explanation).

Everything is derived from the hint's machine-readable constraint, never from its value. At k > 1 (the hard tier)
a family whose words name one kind of fact (bayes' prior, piecewise's threshold, geometry's line) gives them only to
a hint of that kind; the other withheld fact is named by its own aliases.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
ORDINAL_SHORT = ["0th", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"]
GENERIC_TARGET = ["the answer", "the final answer", "the solution", "the result"]

Vocabulary = dict[str, list[str]]


def _cell(r: int, c: int) -> list[str]:
    """Word cores naming a (row, column) position."""
    return [f"row {r}, column {c}", f"row {r} and column {c}", f"row {r} column {c}", f"row {r}, col {c}",
            f"position ({r}, {c})", f"position ({r},{c})"]


def _ordinal(i: int) -> list[str]:
    return [ORDINALS[i], ORDINAL_SHORT[i]] if 0 <= i < len(ORDINALS) else [f"{i}th"]


BAYES_TARGET = ["P(H|E)", "the posterior", "the posterior probability", "P(H | E)", "P(E)"]


def _bayes(c: dict[str, Any]) -> Vocabulary:
    if c.get("type") != "prior":  # the hard tier's second withheld fact (a likelihood): named by its own aliases
        return {"target": BAYES_TARGET}
    return {"hint": ["the prior probability", "the prior probability P(H)", "the probability of H",
                     "the unconditional probability of H", "P(H) itself", "the base rate", "the prior of H",
                     "\\Pr(H)", "Pr(H)", "the probability that H is true", "the prior on H",
                     "the probability of the hypothesis H", "the probability of the hypothesis",
                     "the probability of H before", "the probability of the hypothesis H before",
                     "the prior probability of the hypothesis", "the prior probability of the hypothesis H"],
            "target": BAYES_TARGET}


def _crt(c: dict[str, Any]) -> Vocabulary:
    k = c["index"]
    hint = [f"the remainder of x when divided by m{k}", f"the remainder of x divided by m{k}",
            f"the remainder of x mod m{k}", f"the remainder of x modulo m{k}", f"x's remainder mod m{k}",
            f"x's residue mod m{k}", *(f"x {v} {m} m{k}" for v in ("leaves", "leave", "has", "gives")
                                        for m in ("modulo", "mod", "when divided by", "on division by")),
            f"x ≡ r{k} (mod m{k})", f"x = r{k} mod m{k}", f"x mod m{k}", f"x modulo m{k}",
            f"x (mod m{k})",
            f"the residue of x modulo m{k}", f"the congruence for m{k}", f"the congruence with modulus m{k}"]
    for o in _ordinal(k):
        hint += [f"the {o} congruence", f"the {o} congruence relation", f"{o} congruence"]
    parts = [f"m{k}", f"r{k}", f"m_{k}", f"r_{k}", f"the modulus m{k}", f"the residue r{k}"]
    for o in _ordinal(k):
        parts += [f"the {o} modulus", f"the {o} residue", f"the {o} prime", f"the {o} remainder",
                  f"the {o} prime modulus"]
    parts += ["the missing modulus", "the missing residue", "the remaining modulus", "the remaining residue",
              "the other modulus", "the other residue", "its modulus", "its residue", "its remainder"]
    return {"hint": hint, "parts": parts, "target": ["x"], "context": ["x"]}


def _geometry(c: dict[str, Any]) -> Vocabulary:
    target = ["the distance", "the distance from P to Q", "P", "|PQ|"]
    if c.get("type") != "lin_eq":  # the hard tier's second withheld fact, the point Q: named by its own aliases
        return {"target": target, "context": ["x", "y", "p"]}
    name = c["name"]  # "L2"
    k = name[1:]
    hint = [f"the equation of line {name}", f"the equation of the line {name}", f"line {name}'s equation",
            f"{name}'s equation", f"the line equation of {name}", f"the equation for {name}",
            f"the equation for line {name}", f"the coefficients of {name}", f"the coefficients of line {name}",
            f"the second line {name}", "the second line's equation", "the equation of the second line",
            f"a{k}*x + b{k}*y = c{k}", f"a{k}x + b{k}y = c{k}"]
    parts = [f"a{k}", f"b{k}", f"c{k}", f"a_{k}", f"b_{k}", f"c_{k}"]
    return {"hint": hint, "parts": parts, "target": target, "context": ["x", "y", "p"]}


def _lin_named(c: dict[str, Any]) -> Vocabulary:
    return {"hint": [f"the equation {c['name']}", f"the value of {c['name']}"]}


def _moment(c: dict[str, Any]) -> Vocabulary:
    k = int(c["name"][1:])
    hint = [f"m_{k}", f"the moment m{k}", f"moment {k}", f"the value of the moment m{k}"]
    for o in _ordinal(k):
        hint += [f"the {o} moment", f"the {o} moment equation", f"the {o}-moment", f"the {o} moment value",
                 f"the {o} moment sum", f"{o} moment"]
    return {"hint": hint, "target": ["the weights", "the distribution"]}


def _graph(c: dict[str, Any]) -> Vocabulary:
    k = c["name"][1:]
    hint = [f"s_{k}", f"the sum s{k}", f"path sum {k}", f"the path sum {k}"]
    for o in _ordinal(int(k)):
        hint += [f"the {o} path sum", f"the {o} sum"]
    v = int(k) % 3
    hint += [f"the two edges meeting at vertex {v}", f"the edges at vertex {v}", f"through vertex {v}",
             f"at vertex {v}", f"the path through vertex {v}", f"the path sum at vertex {v}"]
    return {"hint": hint, "target": ["the edge weights", "the three edge weights"]}


def _rankdef(c: dict[str, Any]) -> Vocabulary:
    k = c["eq"]
    hint = [f"equation ({k})", f"eq. {k}", f"eq ({k})", f"equation number {k}", f"({k})", f"the equation ({k})",
            f"the equation labelled {k}", f"the equation labeled ({k})", f"the equation labeled {k}",
            f"equation #{k}", f"the {_ordinal(k)[0]} linear equation"]
    # A's default view does not say how many equations B holds (issue 24): a request for one more equation of
    # the system names the kind of fact B holds, and either of B's equations completes A's; B offers (3).
    for kind in ("equation", "linear equation", "independent equation", "independent linear equation"):
        hint += [f"another {kind}", f"one more {kind}", f"an additional {kind}", f"a further {kind}",
                 f"the next {kind}", f"a new {kind}", f"an extra {kind}", f"the remaining {kind}",
                 f"the missing {kind}", f"the other {kind}"]
    return {"hint": hint, "target": ["the solution (x, y, z)"], "context": ["x", "y", "z"]}


def _separator(c: dict[str, Any]) -> Vocabulary:
    v = c["var"]
    return {"hint": [f"{v}'s value", f"the variable {v}", f"the value of the variable {v}", f"what {v} is",
                     f"what {v} equals"]}


def _phase(c: dict[str, Any]) -> Vocabulary:
    i = c["index"]
    return {"hint": [f"x{i} > 0 or < 0", f"x{i} > 0 or x{i} < 0", f"x{i} < 0 or x{i} > 0", f"is x{i} > 0",
                     f"is x{i} < 0", f"is x{i} negative", f"x{i} positive or negative", f"x{i}'s sign",
                     f"x_{i}'s sign", f"the sign of x_{i}", f"sign(x_{i})", f"sgn(x{i})",
                     f"sgn(x_{i})", f"the sign of x[{i}]",
                     f"whether x{i} is positive", f"whether x_{i} is positive or negative",
                     *(f"the sign of the {ORDINALS[i + 1]} {w}" for w in ("entry", "component", "sample", "element",
                                                                           "value", "coordinate"))],
            "target": ["the signal", "the signal x"]}


def _piecewise(c: dict[str, Any]) -> Vocabulary:
    if c.get("type") != "threshold":  # the hard tier's second withheld fact (a branch): named by its own aliases
        return {"target": ["f(x)", "the value of f"]}
    return {"hint": ["the point where the function switches", "where the function switches", "where f switches",
                     "the point where f switches", "where the function changes", "the point where f changes",
                     "the point where the function changes", "the threshold value", "the threshold value t",
                     "the breakpoint", "the switch point",
                     "the switching point", "the cutoff", "the cutoff t", "the change point", "the threshold of f"],
            "target": ["f(x)", "the value of f"]}


def _recurrence(c: dict[str, Any]) -> Vocabulary:
    i = c["index"]
    names = [f"a_{i}", f"a({i})", f"the initial term a({i})", f"the term a({i})", "the missing initial value",
             "the initial value"]
    for o in _ordinal(i):
        names.append(f"the {o} initial value")
    return {"hint": names}


def _birth_death(c: dict[str, Any]) -> Vocabulary:
    i, j = c["from_state"], c["to_state"]
    kind = "birth" if c["type"] == "birth_rate" else "death"
    greek = "lambda" if kind == "birth" else "mu"
    return {"hint": [f"the {kind} rate of state {i}", f"the {kind} rate {greek}_{i}", f"the {kind} rate in state {i}",
                     f"the {kind} rate from state {i}", f"\\{greek}_{i}", f"\\{greek}_{{{i}}}",
                     f"the rate from state {i} to state {j}", f"the transition rate {i} -> {j}",
                     f"from state {i} to state {j}", f"from state {i} down to state {j}",
                     f"from state {i} up to state {j}", f"from state {i} into state {j}",
                     f"the rate {i}->{j}", f"the {i} -> {j} rate"]}


def _circuit(c: dict[str, Any]) -> Vocabulary:
    k = c["resistor"]
    return {"hint": [f"R_{{{k}}}", f"the resistor R{k}", f"R{k}'s resistance", f"the value of resistor R{k}",
                     f"the resistance of R_{k}", f"resistor {k}", f"resistor number {k}", f"resistor #{k}",
                     f"resistor no. {k}"],
            "target": ["R_eq", "the equivalent resistance"]}


def _deconv(c: dict[str, Any]) -> Vocabulary:
    k = c["index"]
    return {"hint": [f"y_{{{k}}}", f"the sample y_{k}", f"the output y_{k}", f"the measurement y{k}",
                     f"the value of y{k}", f"the measured value y_{k}", "the missing measurement",
                     f"sample with index {k}", f"sample at index {k}", f"output at index {k}", f"sample number {k}",
                     f"output sample {k}", f"measurement {k}"],
            "target": ["the signal", "the signal x"]}


def _tomography(c: dict[str, Any]) -> Vocabulary:
    r, k = c["row"], c["col"]
    return {"hint": [f"cell ({r}, {k})", f"the cell ({r},{k})", f"the value of cell ({r}, {k})",
                     f"the entry at row {r}, column {k}", f"the cell at row {r}, column {k}",
                     f"G[{r},{k}]", f"G({r},{k})", f"G_{{{r},{k}}}", f"G_{{{r}{k}}}", *_cell(r, k)]}


def _eigen(c: dict[str, Any]) -> Vocabulary:
    r, k = c["row"], c["col"]
    return {"hint": [f"M[{r}, {k}]", f"M_{{{r}{k}}}", f"the missing entry M[{r}][{k}]", f"the entry M_{r}{k}",
                     f"the matrix entry M[{r}][{k}]", f"the entry of M at row {r}, column {k}", *_cell(r, k)]}


def _laplace(c: dict[str, Any]) -> Vocabulary:
    v = c["var"]
    _, i, j = v.split("_")
    return {"hint": [f"u_{{{i},{j}}}", f"u_{{{i}{j}}}", f"u({i},{j})", f"the value u_{i}_{j}",
                     f"the boundary cell u_{i}_{j}", f"the cell ({i},{j})", f"cell ({i}, {j})",
                     f"the value at ({i}, {j})", f"the boundary value u({i},{j})", *_cell(i, j)]}


def _coeff(c: dict[str, Any]) -> Vocabulary:
    r, k = c["row"], c["col"]
    return {"hint": [f"A_{{{r}{k}}}", f"A_{{{r},{k}}}", f"the entry A[{r}][{k}]", f"the coefficient A_{r}{k}",
                     f"the missing coefficient A[{r}][{k}]", f"the coefficient of x{k} in equation {r}",
                     f"the coefficient of x_{k} in equation {r}", *_cell(r, k)]}


def _markov(c: dict[str, Any]) -> Vocabulary:
    i, j = c["from_state"], c["to_state"]
    return {"hint": [f"P_{{{i}{j}}}", f"P_{{{i},{j}}}", f"P({i} \\to {j})", f"P({i}\\rightarrow {j})", f"P_{i}->{j}",
                     f"the transition probability from {i} to {j}", f"p({i}->{j})", f"P[{i},{j}]",
                     f"the probability of a {i} -> {j} transition", f"the {i}->{j} transition probability",
                     f"from state {i} to state {j}", f"from state {i} into state {j}", f"from {i} to {j}",
                     *_cell(i, j)]}


def _poly(c: dict[str, Any]) -> Vocabulary:
    x = c["x"]
    return {"hint": [f"p at x = {x}", f"the value of p({x})", f"the value of p at {x}", f"p(x = {x})",
                     f"the polynomial's value at x = {x}", f"the evaluation of p at x = {x}"]}


def _portfolio(c: dict[str, Any]) -> Vocabulary:
    i, j = c["asset_i"], c["asset_j"]
    return {"hint": [f"\\rho_{{{i}{j}}}", f"\\rho_{{{i},{j}}}", f"rho_{{{i}{j}}}", f"the correlation rho({i},{j})",
                     f"corr({i}, {j})", f"the correlation of assets {i} and {j}", f"rho({i}, {j})",
                     f"the correlation coefficient rho({i},{j})", f"the correlation between assets {i} and {j}",
                     f"asset {i} and asset {j}", f"assets {i} and {j}", f"asset {j} and asset {i}",
                     f"assets {j} and {i}"],
            "target": ["the portfolio variance", "sigma_p^2"]}


def _emission(c: dict[str, Any]) -> Vocabulary:
    s, o = c["state"], c["symbol"]
    return {"hint": [f"E[{s},{o}]", f"E_{{{s}{o}}}", f"E_{{{s},{o}}}", f"e_{s}({o})", f"b_{s}({o})",
                     f"the emission probability E[{s}][{o}]",
                     f"the emission probability of symbol {o} from state {s}",
                     f"P(observe {o} | state {s})", f"P(o = {o} | s = {s})",
                     *(f"symbol {o} {w} state {s}" for w in ("when the hidden chain is in", "when the chain is in",
                                                             "in", "from", "given", "when in", "while in",
                                                             "when the hidden state is", "when the state is")),
                     f"state {s} emits symbol {o}", f"state {s} emitting symbol {o}"]}


def _matrix(c: dict[str, Any]) -> Vocabulary:
    r, k = c["row"], c["col"]
    return {"hint": [f"m_{{{r}{k}}}", f"m_{{{r},{k}}}", f"M_{{{r}{k}}}", f"the entry m{r}{k}", f"m[{r}][{k}]",
                     f"the matrix entry m{r}{k}", f"the entry of M in row {r}, column {k}", *_cell(r, k)]}


def _eigen_target(t: dict[str, Any]) -> list[str]:
    r, c = t.get("row"), t.get("col")
    return [f"{cell} of M^2" for cell in _cell(r, c)] + [f"{cell} of M²" for cell in _cell(r, c)] + ["M^2", "M²"]


def _cell_target(t: dict[str, Any]) -> list[str]:
    return [f"{cell}" for cell in _cell(t["row"], t["col"])] if "row" in t else []


TARGET_NAMES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "eigenvector_missing_entry": _eigen_target,
    "discrete_tomography": _cell_target,
    "matrix_completion": _cell_target,
}

VOCABULARY: dict[str, Callable[[dict[str, Any]], Vocabulary]] = {
    "bayes_missing_prior": _bayes,
    "crt_reconstruction": _crt,
    "geometry_coordinates": _geometry,
    "graph_path_sums": _graph,
    "linear_system_separator": _separator,
    "matrix_completion": _matrix,
    "moment_problem": _moment,
    "phase_retrieval": _phase,
    "piecewise_missing_threshold": _piecewise,
    "rankdef_linear_shared": _rankdef,
    "recurrence_missing_init": _recurrence,
    "birth_death_missing_rate": _birth_death,
    "circuit_missing_resistance": _circuit,
    "deconvolution": _deconv,
    "discrete_tomography": _tomography,
    "eigenvector_missing_entry": _eigen,
    "laplace_grid": _laplace,
    "linear_system_missing_coeff": _coeff,
    "markov_missing_transition": _markov,
    "poly_interpolation": _poly,
    "portfolio_variance_missing_corr": _portfolio,
    "steady_state_missing_emission": _emission,
}


def vocabulary(family: str, hint_constraint: dict[str, Any], target: dict[str, Any] | None = None) -> Vocabulary:
    """The extra names for one instance's hint; a family without an entry (or an odd constraint) gets none."""
    make = VOCABULARY.get(family)
    out: Vocabulary = {"hint": [], "parts": [], "target": list(GENERIC_TARGET), "context": []}
    if make is None:
        return out
    try:
        extra = make(hint_constraint)
        if family in TARGET_NAMES:
            extra = {**extra, "target": [*extra.get("target", []), *TARGET_NAMES[family](target or {})]}
    except (KeyError, TypeError, ValueError, IndexError):
        return out
    for key, names in extra.items():
        out.setdefault(key, []).extend(names)
    return out


def _pair(pattern: str, keys: tuple[str, str]) -> Callable[[str], dict[str, Any]]:
    return lambda slot: dict(zip(keys, map(int, re.fullmatch(pattern, slot).groups()), strict=True))  # type: ignore


# A candidate slot that B's hint also settles (``Family.settled_slots``), as the hint constraint its words need.
CANDIDATE_CONSTRAINT: dict[str, Callable[[str], dict[str, Any]]] = {
    "phase_retrieval": lambda slot: {"index": int(re.fullmatch(r"sign\(x(\d)\)", slot).group(1))},  # type: ignore
    "linear_system_separator": lambda slot: {"var": slot},
    "discrete_tomography": _pair(r"cell\((\d),(\d)\)", ("row", "col")),
    "markov_missing_transition": _pair(r"P\((\d+)->(\d+)\)", ("from_state", "to_state")),
    "steady_state_missing_emission": _pair(r"E\[(\d+)\]\[(\d+)\]", ("state", "symbol")),
}


def candidate_vocabulary(family: str, slot: str) -> list[str]:
    """The word names of a candidate slot B's hint also settles (its ``hint`` vocabulary); [] when unknown."""
    make, constraint = VOCABULARY.get(family), CANDIDATE_CONSTRAINT.get(family)
    if make is None or constraint is None:
        return []
    try:
        return list(make(constraint(slot)).get("hint", []))
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        return []
