"""Writes ``rule_requests_own.jsonl``: labelled requests for the rule responder, written for issue 13.

    PYTHONPATH=. python tests/data/make_rule_requests.py > tests/data/rule_requests_own.jsonl

For every family and difficulty of the default split (seed 1234, 20/50) it takes one instance and writes
one request per offer style and decline category, phrased the way different models write (terse, polite,
LaTeX-heavy, chatty with a justification first). The labels come from what is asked, by construction of
each template; the word descriptions below are written here independently of the responder's vocabulary
(``harness/mira/agents/rule_vocab.py``). Deterministic: the same file every time.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

from generators.families import FAMILIES, get_family
from generators.split import _build, typed_slots

SEED = 1234
INDEX = {1: 3, 2: 7, 3: 11}  # which instance of each (family, difficulty) block
ORD = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth"]

# family -> hint constraint -> (symbol, words, formula restated, latex)
Spec = Callable[[dict[str, Any]], tuple[str, str, str, str]]
SPECS: dict[str, Spec] = {
    "bayes_missing_prior": lambda c: ("P(H)", "the probability of the hypothesis H before any evidence",
                                      "P(H), the prior, so that P(H|E) = P(E|H)P(H)/P(E)", r"$P(H)$"),
    "crt_reconstruction": lambda c: (f"x mod m{c['index']}", f"the {ORD[c['index']]} modulus and its residue",
                                     f"the {ORD[c['index']]} congruence x ≡ r{c['index']} (mod m{c['index']})",
                                     rf"$x \equiv r_{c['index']} \pmod{{m_{c['index']}}}$"),
    "geometry_coordinates": lambda c: (c["name"], "the equation of the second line",
                                       f"line {c['name']}: a2*x + b2*y = c2",
                                       r"the line $L_2: a_2 x + b_2 y = c_2$"),
    "graph_path_sums": lambda c: (c["name"], "the total weight on the two edges at vertex 0",
                                  f"{c['name']} = e01 + e20", r"$s_3 = e_{01} + e_{20}$"),
    "linear_system_separator": lambda c: (c["var"], "the value of the separator variable",
                                          f"the separator {c['var']} = ?", rf"${c['var']}$"),
    "matrix_completion": lambda c: (f"m{c['row']}{c['col']}", f"the matrix entry at row {c['row']}, column {c['col']}",
                                    f"m{c['row']}{c['col']} in M = [[m00, m01], [m10, m11]]",
                                    rf"$m_{{{c['row']}{c['col']}}}$"),
    "moment_problem": lambda c: (c["name"], f"the {ORD[int(c['name'][1:])]} moment of the weights",
                                 _moment_formula(c), rf"$m_{{{c['name'][1:]}}}$"),
    "phase_retrieval": lambda c: (f"sign(x{c['index']})", f"whether x{c['index']} is positive or negative",
                                  f"sign(x{c['index']}) (x{c['index']} != 0)",
                                  rf"$\operatorname{{sign}}(x_{c['index']})$"),
    "piecewise_missing_threshold": lambda c: ("t", "where the function switches from one branch to the other",
                                              "the threshold t (f uses the first branch for x < t)", r"$t$"),
    "rankdef_linear_shared": lambda c: (f"equation ({c['eq']})", f"the {ORD[c['eq']]} equation",
                                        f"equation ({c['eq']}), a linear equation in x, y and z",
                                        rf"equation $({c['eq']})$"),
    "recurrence_missing_init": lambda c: (f"a({c['index']})", f"the initial term with index {c['index']}",
                                          f"a({c['index']}), which together with a(0) starts a(n+2)",
                                          rf"$a_{{{c['index']}}}$"),
    "birth_death_missing_rate": lambda c: (_bd_symbol(c),
                                           f"the rate from state {c['from_state']} to state {c['to_state']}",
                                           f"{_bd_symbol(c)} (the {c['from_state']} -> {c['to_state']} rate)",
                                           "$\\" + _bd_symbol(c).replace("_", "_{") + "}$"),
    "circuit_missing_resistance": lambda c: (f"R{c['resistor']}", f"the resistance of resistor {c['resistor']}",
                                             f"R{c['resistor']} (in ohms)", rf"$R_{{{c['resistor']}}}$"),
    "deconvolution": lambda c: (f"y_{c['index']}", f"the measured sample y_{c['index']}",
                                f"y_{c['index']} = h0*x_{c['index']} + h1*x_{c['index'] - 1}",
                                rf"$y_{{{c['index']}}}$"),
    "discrete_tomography": lambda c: (f"cell({c['row']},{c['col']})", f"the cell in row {c['row']}, column {c['col']}",
                                      f"cell({c['row']},{c['col']}) (0 or 1)", rf"$G_{{{c['row']},{c['col']}}}$"),
    "eigenvector_missing_entry": lambda c: (f"M[{c['row']}][{c['col']}]",
                                            f"the entry of M in row {c['row']}, column {c['col']}",
                                            f"M[{c['row']}][{c['col']}] (an entry of M, not of M^2)",
                                            rf"$M_{{{c['row']}{c['col']}}}$"),
    "laplace_grid": lambda c: (c["var"], "the boundary value at row {}, column {}".format(*c["var"].split("_")[1:]),
                               f"{c['var']} (a boundary cell)", "$u_{{{},{}}}$".format(*c["var"].split("_")[1:])),
    "linear_system_missing_coeff": lambda c: (f"A[{c['row']}][{c['col']}]",
                                              f"the coefficient of x{c['col']} in equation {c['row']}",
                                              f"A[{c['row']}][{c['col']}] in A[{c['row']}][0]·x0 + ... = b[{c['row']}]",
                                              rf"$A_{{{c['row']}{c['col']}}}$"),
    "markov_missing_transition": lambda c: (f"P({c['from_state']}->{c['to_state']})",
                                            f"the probability of moving from state {c['from_state']} to state "
                                            f"{c['to_state']}",
                                            f"P({c['from_state']}->{c['to_state']}) (so that row {c['from_state']} "
                                            "sums to 1)", rf"$P({c['from_state']} \to {c['to_state']})$"),
    "poly_interpolation": lambda c: (f"p({c['x']})", f"the value of the polynomial at x = {c['x']}",
                                     f"p({c['x']}) (the evaluation at x = {c['x']})", rf"$p({c['x']})$"),
    "portfolio_variance_missing_corr": lambda c: (f"rho({c['asset_i']},{c['asset_j']})",
                                                  f"the correlation between assets {c['asset_i']} and {c['asset_j']}",
                                                  f"rho({c['asset_i']},{c['asset_j']}) = rho({c['asset_j']},"
                                                  f"{c['asset_i']})", rf"$\rho_{{{c['asset_i']}{c['asset_j']}}}$"),
    "steady_state_missing_emission": lambda c: (f"E[{c['state']}][{c['symbol']}]",
                                                f"the probability of emitting symbol {c['symbol']} from state "
                                                f"{c['state']}", f"E[{c['state']}][{c['symbol']}] (row {c['state']} "
                                                "of E sums to 1)", rf"$E_{{{c['state']}{c['symbol']}}}$"),
}


def _moment_formula(c: dict[str, Any]) -> str:
    terms = [f"{v}{k}" if v != 1 else k for k, v in c["coeffs"].items() if v]
    return f"{c['name']} = " + " + ".join(reversed(terms))


def _bd_symbol(c: dict[str, Any]) -> str:
    return ("lambda_" if c["type"] == "birth_rate" else "mu_") + str(c["from_state"])


# a slot this family's notation could name but no instance below holds (Type A hints are one fixed slot)
WRONG = {"bayes_missing_prior": "P(E)", "crt_reconstruction": "the fourth congruence x ≡ r4 (mod m4)",
         "geometry_coordinates": "the equation of line L3", "graph_path_sums": "s4",
         "linear_system_separator": "d", "matrix_completion": "m22", "moment_problem": "the fifth moment m5",
         "phase_retrieval": "sign(x9)", "piecewise_missing_threshold": "the second threshold t2",
         "rankdef_linear_shared": "equation (5)", "recurrence_missing_init": "a(-1)"}

VAGUE = ["What do you know?", "Can you help me with this problem?", "Is there anything useful you can tell me?",
         "I'm stuck. Any hints?", "What's the missing piece?", "Please send me the missing information."]
EVERYTHING = ["Tell me everything you know.", "Could you list all the facts you have?",
              "Please share all of your constraints so I can pick the relevant one.",
              "Send me whatever you have.", "Give me all your data, please.", "Dump every fact you hold."]


def requests_for(inst: dict[str, Any], d: int, sibling_slots: list[str]) -> list[dict[str, Any]]:
    family = get_family(inst["family"])
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    symbol, words, formula, latex = SPECS[inst["family"]](hint["constraint"])
    alias = hint["request_aliases"][d % len(hint["request_aliases"])]
    known = _known_name(family, inst, hint)
    target = _target_phrase(inst["question"])
    typeb = _type_b(inst, alias)
    offer = {
        "short": [f"{symbol}?", f"What is {symbol}?", f"Value of {symbol}."][d - 1],
        "polite": [f"Could you please tell me {alias}?", f"Hi! Would you mind sharing {symbol}? Thank you.",
                   f"May I have {alias}, please?"][d - 1],
        "formula_restated": [f"What is {formula}?", f"I need {formula}. What is it?",
                             f"Please give me {formula}."][d - 1],
        "latex": [f"What is {latex}?", f"Could you provide {latex}?", f"I need the value of {latex}."][d - 1],
        "justification_first": [f"My constraints leave one degree of freedom, so the answer is not determined yet. "
                                f"What is {symbol}?",
                                f"I have worked through all my facts and one quantity is still open. Please tell me "
                                f"{alias}.",
                                f"Without one more fact the problem has several solutions. Could you share "
                                f"{symbol}?"][d - 1],
        "words": [f"What is {words}?", f"Please tell me {words}.", f"I'd like to know {words}."][d - 1],
        "because": [f"I need {symbol} because my facts alone leave the answer open.",
                    f"I need {alias}, since it is the only value missing from my view.",
                    f"Please send {symbol} so that I can finish the computation."][d - 1],
        "type_b": typeb,
    }
    decline = {
        "vague": VAGUE[(2 * d) % len(VAGUE)],
        "everything": EVERYTHING[(2 * d + 1) % len(EVERYTHING)],
        "target": [f"What is {target}?", f"Can you just tell me {target}?", f"Please give me {target}."][d - 1],
        "known_fact": ([f"What is {known}?", f"Could you tell me {known}?", f"I need {known}."][d - 1]
                       if known else None),
        "wrong_slot": (f"What is {sibling_slots[0]}?" if sibling_slots else
                       f"Could you tell me {WRONG[inst['family']]}?" if inst["family"] in WRONG else None),
        "two_things": [f"What are {symbol} and {known or target}?",
                       f"Please give me {alias}, and also {target}.",
                       f"I need {symbol} as well as {known or target}."][d - 1],
    }
    rows = [{"id": inst["id"], "request": r, "label": "offer", "style": s} for s, r in offer.items() if r]
    rows += [{"id": inst["id"], "request": r, "label": "decline", "style": s} for s, r in decline.items() if r]
    return rows


def _known_name(family: Any, inst: dict[str, Any], hint: dict[str, Any]) -> str | None:
    a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    for constraint in a:
        try:
            slot = family.slot_name(constraint)
        except (KeyError, TypeError, ValueError):
            continue
        if slot is not None and slot != hint["slot"]:
            return slot
    return None


def _target_phrase(question: str) -> str:
    first = re.split(r"\?", question)[0]
    first = re.sub(r"^(?:In the stationary regime, )?what (?:is|are) ", "", first, flags=re.I)
    return _DEPTH_ZERO_COMMA.split(first)[0].rstrip(".")  # "the solution (a, b, c) of the system" stays whole


_DEPTH_ZERO_COMMA = re.compile(r", (?![^()]*\))")


def _type_b(inst: dict[str, Any], alias: str) -> str:
    """A request that says what the view lacks (views never name the gap since issue 24, so none is quoted)."""
    return f"My view does not give {alias}. Could you tell me {alias}?"


def main() -> int:
    slots = typed_slots(20, 50)
    position = {(s.family, s.requested_difficulty, s.index): p for p, s in enumerate(slots)}
    for name in FAMILIES:
        blocks = {d: _build((position[(name, d, INDEX[d])], slots[position[(name, d, INDEX[d])]], SEED))
                  for d in (1, 2, 3)}
        others = [_build((position[(name, d, i)], slots[position[(name, d, i)]], SEED)) for d in (1, 2, 3)
                  for i in range(6)]
        for d, inst in blocks.items():
            own = {a for a in [*inst["minimal_hint_spec"]["atomic_hints"][0]["request_aliases"]]}
            siblings = [b["minimal_hint_spec"]["atomic_hints"][0]["slot"] for b in [*blocks.values(), *others]
                        if b["minimal_hint_spec"]["atomic_hints"][0]["slot"] not in own
                        and not _slot_in_instance(b["minimal_hint_spec"]["atomic_hints"][0]["slot"], inst)]
            for row in requests_for(inst, d, siblings):
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    return 0


def _slot_in_instance(slot: str, inst: dict[str, Any]) -> bool:
    family = get_family(inst["family"])
    for view in inst["agent_views"]:
        for constraint in view["private_data"]["constraints_machine"]:
            try:
                if family.slot_name(constraint) == slot:
                    return True
            except (KeyError, TypeError, ValueError):
                continue
    return False


if __name__ == "__main__":
    raise SystemExit(main())
