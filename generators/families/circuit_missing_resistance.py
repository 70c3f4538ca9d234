"""B2 circuit_missing_resistance: a series-parallel resistor network with one resistance withheld; target R_eq.

A random binary tree with n = 2d + 1 leaves (recursive splitting: a node with k leaves puts Unif[1, k-1] of them
on its left), each internal node series or parallel with probability 1/2, leaves named R1..Rn in random order,
resistances Unif[1, 5 + 3(d-1)] ohms. Both agents get the topology (one sentence per group G1..G(n-1), numbered
bottom-up so every group refers only to earlier groups; G(n-1) is the whole network). A gets every resistance
but R_k (k uniform), in order, R_k absent from the list (only the slot-notice ablation says that R_k is missing);
B holds R_k. Answer: R_eq as a reduced fraction; draws with
a denominator above 500 are rejected (the authors' release rule; the paper states none).

Hard tier (docs/hard-tier.md): the same rule one and two steps on, n = 9 / 11 resistors of up to 14 / 17 ohms at
d4 / d5, with the denominator cap raised to 1000 / 2000 (``max_denominator``). k = 2 withholds a second
resistance, any other R_j (``second_hints``); A's network statement names every resistor and none as missing.

R_eq is strictly increasing in every resistance of a series-parallel network (d/da of a + b is 1 and of
ab/(a + b) is (b/(a + b))^2 > 0), so every other admissible value of R_k changes the answer.
"""

from __future__ import annotations

import functools
import random
import re
from fractions import Fraction
from typing import Any

from generators.base import Constraint, Family, HintSlot, Reject, Views, absent_slots, missing_slot_note
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique

MAX_DENOMINATOR = 500
HARD_MAX_DENOMINATOR = {4: 1000, 5: 2000}  # the hard tier's larger denominators (d1-3 keep 500)
R_MIN = 1
CONNECTIONS = ("series", "parallel")
_SLOT = re.compile(r"^R(\d+)$")

Tree = list  # ["leaf", k] | ["series" | "parallel", Tree, Tree]


def max_denominator(difficulty: int) -> int:
    return HARD_MAX_DENOMINATOR.get(difficulty, MAX_DENOMINATOR)


def combine(connection: str, a: Fraction, b: Fraction) -> Fraction:
    return a + b if connection == "series" else a * b / (a + b)


def build_tree(rng: random.Random, leaves: int) -> Tree:
    if leaves == 1:
        return ["leaf", 0]
    connection = rng.choice(CONNECTIONS)
    left = rng.randint(1, leaves - 1)
    return [connection, build_tree(rng, left), build_tree(rng, leaves - left)]


def label_leaves(tree: Tree, names: list[int]) -> None:
    """Assign ``names`` to the leaves from left to right (in place)."""
    stack = [tree]
    order = []
    while stack:
        node = stack.pop()
        if node[0] == "leaf":
            order.append(node)
        else:
            stack.extend((node[2], node[1]))
    for node, k in zip(order, names, strict=True):
        node[1] = k


def tree_resistance(tree: Tree, values: list[int]) -> Fraction:
    """Second route, used on the latent state: conductances for parallel parts, resistances for series."""
    if tree[0] == "leaf":
        return Fraction(values[tree[1] - 1])
    a, b = tree_resistance(tree[1], values), tree_resistance(tree[2], values)
    if tree[0] == "series":
        return a + b
    return 1 / (1 / a + 1 / b)


def groups(tree: Tree) -> list[Constraint]:
    """One topology constraint per internal node, bottom-up (post-order): G1, G2, ..."""
    out: list[Constraint] = []

    def walk(node: Tree) -> str:
        if node[0] == "leaf":
            return f"R{node[1]}"
        parts = [walk(node[1]), walk(node[2])]
        name = f"G{len(out) + 1}"
        out.append({"type": "topology", "group": name, "connection": node[0], "parts": parts})
        return name

    walk(tree)
    return out


def _names(letter: str, count: int) -> str:
    return ", ".join(f"{letter}{k}" for k in range(1, count + 1))


def ohms(v: int) -> str:
    return "1 ohm" if v == 1 else f"{v} ohms"


@functools.cache
def network_statement(n: int, lo: int, hi: int, network: str) -> str:
    return (
        f"A resistor network is built from resistors {_names('R', n)} by joining two parts at a time into "
        f"groups {_names('G', n - 1)}: two parts A and B joined in series have resistance A + B, joined in parallel "
        f"A*B/(A + B). {network} is the whole network between its two terminals; R_eq is its equivalent "
        f"resistance. Every resistance is an integer number of ohms from {lo} to {hi}."
    )


def network_domain(n: int, lo: int, hi: int, network: str) -> Constraint:
    return {
        "type": "domain",
        "statement": network_statement(n, lo, hi, network),
        "n_resistors": n,
        "r_min": lo,
        "r_max": hi,
        "network": network,
    }


def missing_domain(slot: str) -> Constraint:
    return missing_slot_note(slot, f"The resistance of {slot} is not given here; your partner knows it.")


class CircuitMissingResistance(Family):
    name = "circuit_missing_resistance"
    prefix = "cir"
    type = "B"
    answer_type = "rational"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, hi = 2 * difficulty + 1, 5 + 3 * (difficulty - 1)
        tree = build_tree(rng, n)
        names = list(range(1, n + 1))
        rng.shuffle(names)
        label_leaves(tree, names)
        values = [rng.randint(R_MIN, hi) for _ in range(n)]  # values[k-1] is R_k
        missing = rng.randint(1, n)
        cap = max_denominator(difficulty)
        if tree_resistance(tree, values).denominator > cap:
            raise Reject(f"R_eq has a denominator above {cap}")
        return {"n_resistors": n, "r_min": R_MIN, "r_max": hi, "tree": tree, "values": values, "missing": missing}

    def views(self, z: dict[str, Any]) -> Views:
        n, missing = z["n_resistors"], z["missing"]
        topology = groups(z["tree"])
        network = topology[-1]["group"]
        resistances = [{"type": "resistance", "resistor": k, "value": v} for k, v in enumerate(z["values"], start=1)]
        hint = resistances[missing - 1]
        slot = f"R{missing}"
        a = [network_domain(n, z["r_min"], z["r_max"], network), *topology]
        a += [missing_domain(slot) if c is hint else c for c in resistances]
        return Views(
            a=a,
            b=[*topology, hint],
            hint=hint,
            slot=slot,
            value=hint["value"],
            target={"type": "equivalent_resistance", "network": network},
            question=f"What is R_eq, the equivalent resistance in ohms of the whole network {network} between its "
            "two terminals? Give it as a reduced fraction.",
            unknowns=["R_eq"],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _network(constraints: list[Constraint]) -> tuple[int, int, int, str]:
        found = [c for c in constraints if c["type"] == "domain" and "n_resistors" in c]
        if not found:
            raise NotUnique("the network is not described")
        c = found[0]
        if any(f != c for f in found[1:]):
            raise Inconsistent("conflicting descriptions of the network")
        n, lo, hi, network = c["n_resistors"], c["r_min"], c["r_max"], c["network"]
        if c["statement"] != network_statement(n, lo, hi, network) or n < 1 or lo < 1 or hi < lo:
            raise Inconsistent("the network's domain statement does not match its fields")
        return n, lo, hi, network

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        n, lo, hi, network = self._network(constraints)
        if target["network"] != network:
            raise Inconsistent(f"the target network {target['network']} is not {network}")
        defined: dict[str, tuple[str, list[str]]] = {}
        values: dict[str, int] = {}
        for c in constraints:
            if c["type"] == "topology":
                entry = (c["connection"], list(c["parts"]))
                if c["connection"] not in CONNECTIONS or len(entry[1]) != 2:
                    raise Inconsistent(f"group {c['group']} is not two parts in series or parallel")
                if defined.setdefault(c["group"], entry) != entry:
                    raise Inconsistent(f"two definitions of {c['group']}")
            elif c["type"] == "resistance":
                k, v = c["resistor"], c["value"]
                if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi or not 1 <= k <= n:
                    raise Inconsistent(f"R{k} = {v!r} is not a resistor with an integer value from {lo} to {hi}")
                if values.setdefault(f"R{k}", v) != v:
                    raise Inconsistent(f"two values for R{k}")
        used: list[str] = []

        def expand(name: str, depth: int) -> None:
            if _SLOT.match(name):
                used.append(name)
                return
            if name not in defined:
                raise NotUnique(f"group {name} is not described")
            if depth > 2 * n:
                raise Inconsistent("the groups refer to each other in a cycle")
            for part in defined[name][1]:
                expand(part, depth + 1)

        expand(network, 0)
        if sorted(used) != sorted(f"R{k}" for k in range(1, n + 1)):
            raise Inconsistent(f"{network} does not use each of R1..R{n} exactly once")
        missing = [r for r in used if r not in values]
        if missing:  # R_eq is strictly increasing in every resistance
            raise NotUnique(f"resistances not given: {', '.join(sorted(missing))}")

        def value(name: str) -> Fraction:
            if name in values:
                return Fraction(values[name])
            connection, (left, right) = defined[name]
            return combine(connection, value(left), value(right))

        return value(network)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: any other resistance (R_eq is strictly increasing in each, so each alone leaves it open)."""
        return [HintSlot(c, f"R{c['resistor']}", c["value"]) for c in views.a if c["type"] == "resistance"]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        try:
            _, lo, hi, _ = self._network(view_a)
        except (NotUnique, Inconsistent):
            return  # no stated domain: no admissible completion to offer
        for v in range(lo, hi + 1):
            if v != hint["value"]:
                yield {**hint, "value": v}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The resistors R1..Rn that A's network statement declares and A is given no value for."""
        n, _, _, _ = self._network(view_a)
        return absent_slots(self, [f"R{k}" for k in range(1, n + 1)], view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        return tree_resistance(z["tree"], z["values"])

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "resistance":
                return f"R{c['resistor']} = {ohms(c['value'])}"
            case "topology":
                g, (p, q) = c["group"], c["parts"]
                formula = f"{g} = {p} + {q}" if c["connection"] == "series" else f"{g} = {p}*{q}/({p} + {q})"
                return f"{g} consists of {p} and {q} connected in {c['connection']} ({formula})."
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        return f"R{c['resistor']}" if c["type"] == "resistance" else None

    def fact_label(self, c: Constraint) -> str | None:
        return c["group"] if c["type"] == "topology" else self.slot_name(c)

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        m = _SLOT.match(slot)
        if not m:
            raise ValueError(f"not a resistor slot: {slot!r}")
        k = m.group(1)
        return [
            f"the resistance of R{k}",
            f"R{k}",
            f"R_{k}",
            f"resistor R{k}",
            f"the value of R{k}",
            f"the resistance R{k}",
            f"the resistance of resistor R{k}",
            f"the resistance of resistor {k}",
            f"how many ohms R{k} has",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "resistance":
            return None
        return SlotDescription("resistor", (c["resistor"],), attribute="resistance", unit="ohms",
                               synonyms=("resistance",), meanings=_resistor_meanings(c["resistor"]))

    def relation_meanings(self, constraints: list[Constraint]) -> dict[str, tuple[str, ...]]:
        """A resistor by its place in the network: "the resistor in series with R3", "the one paired with R1 in
        G1", "the resistor wired in series with the parallel pair", "the resistor that makes G2 with G1"."""
        groups = {c["group"]: c for c in constraints if c.get("type") == "topology"}
        out: dict[str, list[str]] = {}
        for name, group in groups.items():
            parts, how = group["parts"], group["connection"]
            for part in parts:
                others = [p for p in parts if p != part]
                if not part.startswith("R") or len(others) != 1:
                    continue
                other = others[0]
                phrases = out.setdefault(part, [])
                phrases += _partner_phrases(how, other.lower(), name.lower())
                if other in groups:  # the other part is a group: also by its kind ("the parallel pair")
                    for noun in GROUP_NOUNS:
                        phrases += _partner_phrases(how, f"the {groups[other]['connection']} {noun}", name.lower())
                if sum(p.startswith("R") for p in parts) == 1:
                    phrases += [f"the resistor in {name.lower()}", f"the only resistor in {name.lower()}"]
        return {slot: tuple(dict.fromkeys(p)) for slot, p in out.items()}


GROUP_NOUNS = ("pair", "block", "combination", "group", "section", "part", "branch", "network", "sub-network",
               "subnetwork")


def _partner_phrases(how: str, other: str, group: str) -> list[str]:
    """The ways to name the part joined ``how`` (series or parallel) to ``other`` in ``group``."""
    verbs = ("", "connected ", "wired ", "placed ", "put ", "joined ", "combined ", "that is ", "that sits ")
    done = "paralleled" if how == "parallel" else "in series"
    return [*(f"{v}in {how} with {other}" for v in verbs), f"{how} to {other}", f"{how} with {other}",
            f"in {how} to {other}", f"{done} with {other}", f"the resistor paired with {other}",
            f"the partner of {other}", f"{other} partner", f"{other}s partner", f"paired with {other} in {group}",
            f"joined to {other} in {group}", f"with {other} to make {group}", f"with {other} to form {group}",
            f"makes {group} with {other}", f"forms {group} with {other}", f"the other part of {group} besides {other}"]


def _resistor_meanings(k: int) -> tuple[str, ...]:
    """Ways to ask for the resistance of resistor ``k`` alone (the number is never last: r1 is not r11)."""
    nth = ordinal_words(k)[0]
    names = (f"r{k}", f"resistor {k}")
    return (
        *(f"how many ohms {r} has" for r in names), *(f"how many ohms {r} is" for r in names),
        *(f"how much resistance {r} has" for r in names), *(f"how much {r} resists" for r in names),
        *(f"how strongly {r} opposes current" for r in names), *(f"how big {r} is" for r in names),
        *(f"{r} in ohms" for r in names), *(f"{r} is worth in ohms" for r in names),
        *(f"{r} measures in ohms" for r in names), *(f"{r} rated at" for r in names),
        f"r{k} alone in ohms", f"resistor {k} by itself", f"resistor {k} on its own", f"resistor {k}s value",
        f"resistor {k}s resistance", f"resistor {k}s ohm value", f"r{k}s value", f"r{k}s resistance",
        f"resistance of {nth} resistor", f"the value of the {nth} resistor", f"the ohm value of the {nth} resistor",
        f"how many ohms the {nth} resistor has", f"how much resistance the {nth} resistor has",
        f"the ohm rating of the {nth} resistor", f"the size of the {nth} resistor", f"the {nth} resistor in ohms",
        f"ohms does r{k} have", f"ohms does resistor {k} have", f"resistance does r{k} have",
        f"resistance does resistor {k} have", f"r{k} opposes current", f"voltage per amp across r{k} alone",
        f"the ratio of voltage to current for r{k} alone", f"r{k} contributes on its own",
    )


FAMILY = CircuitMissingResistance()
