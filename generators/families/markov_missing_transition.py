"""B8 markov_missing_transition: a Markov chain with one row partly withheld; target a stationary probability.

n = min(d + 1, 4) states; every row of P is drawn as positive integer parts Unif[1, 2 + d] normalised by their
sum (denominators up to n(2 + d), as in the paper). A row r and a partition of its columns are uniform: A knows
n - 2 entries of row r, B holds the entry in column c, and the last entry (column c') follows from the row sum.
The target state s is uniform; draws whose answer pi_s has a denominator above 200 are rejected (the authors'
release; the paper states no threshold for this family), and so are draws where pi_s does not depend on the
withheld entry.

Deviation (the paper leaves A unable to tell which of the two missing entries B holds): A is not told which
entries are absent (only the slot-notice ablation says that P(r->c) is held by the partner and P(r->c') follows
from the row sum); its candidates are the two entries of row r it has no value for, and either one, with the row
sum, fixes the other. So B's fact names both: the hint carries ``row_partner`` = c', its text says that it also
fixes P(r->c'), and a request for either entry is a request for it (docs/deviations/typeB-localization.md). A is
told every row sums to 1 and every
transition probability is strictly positive, so A's admissible set is P(r->c) = p in (0, s), s = 1 - (A's known
entries of row r), P(r->c') = s - p. pi_s is a Moebius function of p (a rank-one change of P), hence either
constant or injective on that interval: the validator's witness is another p in (0, s).

Hard tier (docs/hard-tier.md): the state cap min(d + 1, 4) is lifted for d >= 4, n = d + 1 (5 / 6 states), parts in
[1, 2 + d] as before (6 / 7); the denominator cap grows with them (200 at d <= 3, 10^6 at d4, 10^7 at d5: at
n = 6 no draw in 2000 had pi_s with a denominator <= 200). At k = 2 B also holds an entry P(r2->e) of another
row r2 != r, and A loses that row's entry P(r2->e') as well (e' != e uniform, with e drawn among the row's
entries): the second hint carries ``row_partner`` = e' and its text says that, with row r2 summing to 1, it also
fixes P(r2->e'), which is true, since the two rows' gaps are independent. Each hint's text stays true at k = 2
(the first's row r is untouched by the second), and A's four candidates are the two gaps of each row.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import product
from math import gcd, lcm
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    absent_slots,
    frac,
    frac_fields,
    frac_json,
    missing_slot_note,
    stated_size,
)
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import det, minor
from generators.linalg import solve_unique

MAX_DENOMINATOR = 200
HARD_MAX_DENOMINATOR = {4: 10**6, 5: 10**7}
_SLOT = re.compile(r"^P\((\d+)->(\d+)\)$")
ALTERNATIVE_SHARES = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(1, 4), Fraction(3, 4), Fraction(1, 5))


def n_states(difficulty: int) -> int:
    return min(difficulty + 1, 4) if difficulty <= 3 else difficulty + 1


def max_denominator(difficulty: int) -> int:
    return HARD_MAX_DENOMINATOR.get(difficulty, MAX_DENOMINATOR)


def slot_of(i: int, j: int) -> str:
    return f"P({i}->{j})"


def parse_slot(slot: str) -> tuple[int, int]:
    m = _SLOT.match(slot)
    if not m:
        raise ValueError(f"not a transition slot: {slot!r}")
    return int(m.group(1)), int(m.group(2))


def stationary_weights(q: list[list[int]], dens: list[int]) -> list[int]:
    """Integer weights proportional to pi (pi P = pi), where row i of P is q[i][.] / dens[i] (integers).

    Matrix-tree theorem in determinant form: pi_s is proportional to the principal minor det((I - P) without row
    and column s). With the integer matrix L = diag(dens) - q (row i is dens[i] times row i of I - P) that minor
    is det(L_ss) / prod_{i != s} dens[i], so pi_s is proportional to dens[s] det(L_ss).
    """
    n = len(q)
    lap = [[(dens[i] if i == j else 0) - q[i][j] for j in range(n)] for i in range(n)]
    weights = [dens[s] * det(minor(lap, s, s)) for s in range(n)]
    if sum(weights) == 0 or any(w < 0 for w in weights):
        raise Inconsistent("the chain has no unique stationary distribution")
    return weights


def stationary_scaled(q: list[list[int]], dens: list[int]) -> list[Fraction]:
    """pi for the integer form of P (see ``stationary_weights``)."""
    weights = stationary_weights(q, dens)
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def stationary_one(q: list[list[int]], dens: list[int], s: int) -> Fraction:
    """pi_s alone (see ``stationary_weights``)."""
    weights = stationary_weights(q, dens)
    return Fraction(weights[s], sum(weights))


def stationary_by_elimination(p: list[list[Fraction]]) -> list[Fraction]:
    """A third route, for tests: solve pi (P - I) = 0 with sum(pi) = 1 by ``Fraction`` Gauss-Jordan."""
    n = len(p)
    rows = [[p[i][j] - (1 if i == j else 0) for i in range(n)] for j in range(n)] + [[Fraction(1)] * n]
    return solve_unique(rows, [Fraction(0)] * n + [Fraction(1)])


def stationary(p: list[list[Fraction]]) -> list[Fraction]:
    """pi for a matrix of ``Fraction``s (each row scaled to integers by the lcm of its denominators)."""
    dens = [lcm(*(x.denominator for x in row)) for row in p]
    q = [[x.numerator * (d // x.denominator) for x in row] for row, d in zip(p, dens, strict=True)]
    return stationary_scaled(q, dens)


@cache
def in_trees(n: int, root: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every spanning tree of the complete digraph on n states directed towards ``root``, as (state, parent) edges."""
    others = [u for u in range(n) if u != root]
    trees = []
    for choice in product(range(n), repeat=len(others)):
        parent = dict(zip(others, choice, strict=True))
        if any(parent[u] == u for u in others):
            continue
        ok = True
        for u in others:
            seen, x = set(), u
            while x != root and x not in seen:
                seen.add(x)
                x = parent[x]
            ok = ok and x == root
        if ok:
            trees.append(tuple(parent.items()))
    return tuple(trees)


def stationary_by_trees(parts: list[list[int]]) -> list[Fraction]:
    """Second route (Markov chain tree theorem) for P[i][j] = parts[i][j] / sum(parts[i]): pi_s is proportional
    to the total weight of the spanning trees directed towards s, a tree weighing the product of its edges'
    transition probabilities. Scaled by the product of all row sums, every weight is an integer."""
    n = len(parts)
    sums = [sum(row) for row in parts]
    weights = []
    for root in range(n):
        total = 0
        for tree in in_trees(n, root):
            w = 1
            for u, v in tree:
                w *= parts[u][v]
            total += w
        weights.append(total * sums[root])
    whole = sum(weights)
    return [Fraction(w, whole) for w in weights]


def transition_slots(n: int) -> list[str]:
    """P(i->j), row by row: the transition probabilities the chain statement declares."""
    return [slot_of(i, j) for i in range(n) for j in range(n)]


@cache
def chain_statement(n: int) -> str:
    states = range(n)
    row_sum = " + ".join(f"P(i->{j})" for j in states)
    balance = " + ".join(f"pi_{i}·P({i}->j)" for i in states)
    total = " + ".join(f"pi_{i}" for i in states)
    return (
        f"A Markov chain has states {', '.join(map(str, states))}. P(i->j) is the probability that the chain "
        f"moves from state i to state j in one step; the transition probabilities are "
        f"{', '.join(transition_slots(n))}. For every state i, {row_sum} = 1, and every transition probability "
        "P(i->j) is strictly positive. pi_i is the stationary probability of state i: the unique "
        f"distribution with pi_j = {balance} for every state j and {total} = 1."
    )


def missing_statement(slot: str, derived: str) -> str:
    r, _ = parse_slot(slot)
    return (
        f"The transition probability {slot} is not given here; your partner knows it. {derived} is not given "
        f"either: it follows from row {r} summing to 1 once {slot} is known."
    )


class MarkovMissingTransition(Family):
    name = "markov_missing_transition"
    prefix = "mar"
    type = "B"
    answer_type = "rational"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, top = n_states(difficulty), 2 + difficulty
        parts = [[rng.randint(1, top) for _ in range(n)] for _ in range(n)]
        s = rng.randrange(n)
        sums = [sum(row) for row in parts]
        weights = stationary_weights(parts, sums)
        total, cap = sum(weights), max_denominator(difficulty)
        if total // gcd(weights[s], total) > cap:
            raise Reject(f"pi_{s} has a denominator above {cap}")
        pi = Fraction(weights[s], total)
        r = rng.randrange(n)
        cols = list(range(n))
        rng.shuffle(cols)
        known_cols, c, derived = sorted(cols[: n - 2]), cols[n - 2], cols[n - 1]
        # pi_s is Moebius in the withheld entry, so one other admissible value decides whether it depends on it:
        # split the two entries' joint mass in halves (or 3:1 if it already is), in units of 1/4 to stay integral
        room = parts[r][c] + parts[r][derived]
        moved = [[4 * x for x in row] for row in parts]
        share = 3 * room if 2 * parts[r][c] == room else 2 * room
        moved[r][c], moved[r][derived] = share, 4 * room - share
        if stationary_scaled(moved, [4 * x for x in sums])[s] == pi:
            raise Reject(f"pi_{s} does not depend on P({r}->{c})")
        return {
            "n_states": n,
            "parts": parts,
            "row": r,
            "known_cols": known_cols,
            "hint_col": c,
            "derived_col": derived,
            "target_state": s,
        }

    def views(self, z: dict[str, Any]) -> Views:
        n, r, c, derived, s = z["n_states"], z["row"], z["hint_col"], z["derived_col"], z["target_state"]
        entries = [
            {"type": "transition", "from_state": i, "to_state": j, **frac_fields(Fraction(x, sum(row)))}
            for i, row in enumerate(z["parts"])
            for j, x in enumerate(row)
        ]
        hint = entries[r * n + c] = {**entries[r * n + c], "row_partner": derived}
        slot, derived_slot = slot_of(r, c), slot_of(r, derived)
        gap = missing_slot_note(slot, missing_statement(slot, derived_slot), derived_slot=derived_slot)
        a: list[Constraint] = [{"type": "domain", "statement": chain_statement(n), "n_states": n}]
        for e in entries:
            if e is hint:
                a.append(gap)
            elif not (e["from_state"] == r and e["to_state"] == derived):
                a.append(e)
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=frac_json(frac(hint)),
            target={"type": "stationary_probability", "state": s},
            question=f"What is pi_{s}, the stationary probability of state {s}? Give it as a reduced fraction.",
            unknowns=[f"pi_{s}"],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _size(constraints: list[Constraint]) -> int:
        return stated_size(constraints, "n_states", chain_statement, "chain", minimum=2)

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        n = self._size(constraints)
        known: dict[tuple[int, int], tuple[int, int]] = {}  # reduced (num, denom)
        for c in constraints:
            if c["type"] != "transition":
                continue
            i, j = c["from_state"], c["to_state"]
            if not (0 <= i < n and 0 <= j < n):
                raise Inconsistent(f"P({i}->{j}) is not a transition of the chain")
            num, den = c["num"], c["denom"]
            if type(num) is not int or type(den) is not int or den <= 0:
                raise Inconsistent(f"P({i}->{j}) is not a fraction")
            if not 0 < num < den:
                raise Inconsistent(f"P({i}->{j}) = {num}/{den} is not strictly between 0 and 1")
            g = gcd(num, den)
            if known.setdefault((i, j), (num // g, den // g)) != (num // g, den // g):
                raise Inconsistent(f"two values for P({i}->{j})")
        s = target["state"]
        if not 0 <= s < n:
            raise Inconsistent(f"state {s} is not a state of the chain")
        # integer form: row i of P is q[i][.] / dens[i]; missing entries are None until derived
        q: list[list[int | None]] = []
        dens: list[int] = []
        open_rows = []
        for i in range(n):
            row = [known.get((i, j)) for j in range(n)]
            d = lcm(*(f[1] for f in row if f is not None)) if any(f is not None for f in row) else 1
            qi: list[int | None] = [None if f is None else f[0] * (d // f[1]) for f in row]
            gaps = [j for j, x in enumerate(qi) if x is None]
            rest = d - sum(x for x in qi if x is not None)
            if not gaps:
                if rest != 0:
                    raise Inconsistent(f"row {i} does not sum to 1")
            elif rest <= 0:
                raise Inconsistent(f"the given entries of row {i} leave no room for positive missing entries")
            elif len(gaps) == 1:
                qi[gaps[0]] = rest
            else:
                open_rows.append((i, gaps, rest))
            q.append(qi)
            dens.append(d)
        if not open_rows:
            return stationary_one(q, dens, s)  # type: ignore[arg-type]
        if len(open_rows) > 1 or len(open_rows[0][1]) > 2:
            raise NotUnique("more than one transition probability is free")
        (i, (c1, c2), room) = open_rows[0]
        # pi_s is Moebius in the free entry, so two admissible points decide: shares 1/3 and 2/3 of the room
        q[i] = [None if x is None else 3 * x for x in q[i]]
        dens[i] *= 3
        values = []
        for first in (room, 2 * room):
            q[i][c1], q[i][c2] = first, 3 * room - first
            values.append(stationary_one(q, dens, s))  # type: ignore[arg-type]
        if values[0] != values[1]:
            raise NotUnique(f"pi_{s} depends on P({i}->{c1}), which is not given")
        return values[0]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        r = hint["from_state"]
        given = sum((frac(c) for c in view_a if c["type"] == "transition" and c["from_state"] == r), Fraction(0))
        room = 1 - given
        for share in ALTERNATIVE_SHARES:
            yield {**hint, **frac_fields(room * share)}

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: an entry P(r2->e) of another row, with another entry e' of that row as its ``row_partner``
        (``withhold`` takes P(r2->e') from A as well); one choice per (r2, e, e')."""
        n, r = z["n_states"], z["row"]
        out = []
        for c in views.a:
            if c["type"] != "transition" or c["from_state"] == r:
                continue
            for partner in range(n):
                if partner != c["to_state"]:
                    out.append(HintSlot({**c, "row_partner": partner}, self.slot_name(c), frac_json(frac(c))))
        return out

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """The second entry goes to B with its ``row_partner``; A loses the partner entry as well, so that the row
        has two gaps and either one, with the row sum, fixes the other (as the hint's text says)."""
        hint = second.constraint
        plain = {k: v for k, v in hint.items() if k != "row_partner"}
        views = super().withhold(views, HintSlot(plain, second.slot, second.value))
        row, partner = hint["from_state"], hint["row_partner"]
        a = [c for c in views.a
             if not (c["type"] == "transition" and (c["from_state"], c["to_state"]) == (row, partner))]
        return replace(views, a=a, b=[*views.b[:-1], hint], more_hints=[second])

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The transition probabilities P(i->j) (row by row) that A is given no value for."""
        n = self._size(view_a)
        return absent_slots(self, transition_slots(n), view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        return stationary_by_trees(z["parts"])[z["target_state"]]

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "transition":
                text = f"P({c['from_state']}->{c['to_state']}) = {frac(c)}"
                if "row_partner" in c:
                    text += (f" (with row {c['from_state']} summing to 1, this also fixes "
                             f"{slot_of(c['from_state'], c['row_partner'])})")
                return text
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        return slot_of(c["from_state"], c["to_state"]) if c["type"] == "transition" else None

    def settled_slots(self, hint: Constraint) -> list[str]:
        partner = hint.get("row_partner") if hint.get("type") == "transition" else None
        return [] if partner is None else [slot_of(hint["from_state"], partner)]

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if self.settled_slots(hint):  # B's fact also fixes the row's other absent entry
            return self.aliases_with_settled(slot, hint)
        i, j = parse_slot(slot)
        return [
            f"the transition probability P({i}->{j})",
            f"P({i}->{j})",
            f"P({i} -> {j})",
            f"P({i}→{j})",
            f"P({i} → {j})",
            f"P[{i}][{j}]",
            f"P_{i}{j}",
            f"P_{{{i}{j}}}",
            f"P_{{{i},{j}}}",
            f"p_{i}{j}",
            f"p{i}{j}",
            f"P({i},{j})",
            f"the transition probability from state {i} to state {j}",
            f"the probability of moving from state {i} to state {j}",
            f"the probability of going from state {i} to state {j}",
            f"the ({i},{j}) entry of the transition matrix",
            f"the ({i}, {j}) entry of P",
            f"the entry in row {i}, column {j} of P",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "transition":
            return None
        i, j = c["from_state"], c["to_state"]
        meanings = [f"the probability of moving from state {i} to state {j}",
                    f"the probability of going from state {i} to state {j}",
                    f"the chance the chain goes from state {i} to state {j}",
                    f"the chance of jumping from state {i} to state {j}",
                    f"the probability that the chain moves from state {i} to state {j}",
                    f"the probability of a transition from state {i} to state {j}"]
        if i == j:
            meanings += [f"the chance the chain stays in state {i}", f"the probability of staying in state {i}",
                         f"the probability that the chain stays in state {i}", f"the chance of staying in state {i}",
                         f"the probability the chain stays in state {i}", f"the probability that it stays in state {i}",
                         f"the probability of remaining in state {i}", f"the self-transition probability of state {i}",
                         f"the self-loop probability of state {i}"]
        meanings += _transition_meanings(i, j)
        return SlotDescription("transition probability", (i, j), axes=("row", "column"), base=0, owner="P",
                               synonyms=("entry",), meanings=tuple(meanings))


FAMILY = MarkovMissingTransition()


def _transition_meanings(i: int, j: int) -> list[str]:
    """More ways to ask for P(i->j) in words: the one-step move from state ``i`` to state ``j``, its entry of
    the transition matrix, the next state given the current one; for ``i == j`` staying put. State ``i`` comes
    before state ``j`` in each (a reader's numbers in that order; "j given i" would also read as P(j->i))."""
    frm, to = f"state {i}", f"state {j}"
    out = [f"the transition probability from {frm} to {to}", f"the probability to go from {frm} to {to}",
           f"the probability to jump from {frm} to {to}", f"the odds of going from {frm} to {to}",
           f"the likelihood of going from {frm} to {to}", f"the likelihood of moving from {frm} to {to}",
           f"how likely the chain moves from {frm} to {to}", f"how likely it is to go from {frm} to {to}",
           f"the one-step probability from {frm} to {to}", f"the one step probability from {frm} to {to}",
           f"the probability of stepping from {frm} to {to}", f"the probability of hopping from {frm} to {to}",
           f"the chance of moving from {frm} to {to}", f"the chance of going from {frm} to {to}",
           f"the chance to go from {frm} to {to}", f"the probability of passing from {frm} to {to}",
           f"the probability of switching from {frm} to {to}", f"the chance of switching from {frm} to {to}",
           f"the probability that {frm} goes to {to}", f"the chance that {frm} goes to {to}",
           f"the probability {frm} leads to {to}", f"the probability that {frm} transitions to {to}",
           f"the probability of {frm} going to {to}", f"{frm} to {to} probability", f"{frm} to {to} transition",
           f"{frm} -> {to} probability", f"the transition from {frm} to {to}", f"the transition {frm} -> {to}",
           f"the jump from {frm} to {to}", f"the move from {frm} to {to}", f"the step from {frm} to {to}",
           f"from {frm}, the probability of going next to {to}", f"given {frm}, the probability of {to} next",
           f"given {frm}, the chance of {to} next", f"the entry for {frm} to {to} in the transition matrix",
           f"how often the chain goes from {frm} to {to}", f"the fraction of steps from {frm} that go to {to}"]
    if i == j:
        out += [f"the probability of staying put in {frm}", f"the chance of staying put in {frm}",
                f"the chance the chain remains in {frm}", f"the probability the chain remains in {frm}",
                f"the probability of remaining at {frm}", f"the chance of remaining in {frm}",
                f"the holding probability of {frm}", f"the stay probability of {frm}",
                f"the probability of not leaving {frm}", f"the chance of not leaving {frm}",
                f"the probability that the chain does not leave {frm}", f"the chance {frm} stays put",
                f"the probability of returning to {frm} in one step", f"the probability of looping back to {frm}",
                f"the self transition probability of {frm}", f"the self-transition of {frm}",
                f"the self-loop of {frm}", f"{frm} self-transition", f"{frm} self-loop",
                f"the probability of a self-transition at {frm}", f"the chance of staying at {frm}"]
    return out
