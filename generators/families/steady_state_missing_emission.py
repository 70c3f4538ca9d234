"""B11 steady_state_missing_emission: HMM observation probability under the stationary law; B holds E[s*][o*].

Paper (Appendix C, B11): n = d + 1 hidden states, m = min(d + 1, 3) symbols; transition matrix P and emission
matrix E, each row a random distribution; pi is the stationary distribution of P; target
P(observe o*) = sum_s pi_s E[s][o*]; one emission entry E[s*][o*], chosen uniformly, is withheld (B holds it);
A knows P and every other emission entry.

As written this is degenerate: E's rows are distributions, so E[s*][o*] = 1 - (the rest of row s*) and A can
solve alone (the authors' release is solvable without B in every instance). Smallest sound change (the same
split the paper uses for markov_missing_transition): A is also not told one other entry E[s*][o'] of that row,
o' != o* chosen uniformly. A then knows m - 2 entries of row s* (none at m = 2), B holds E[s*][o*], the target is
still P(observe o*).

A is not told which entries are absent (only the slot-notice ablation says so): its candidates are the two entries
of row s* it has no value for, and either one, with the row sum, fixes the other. So B's fact names both (the hint
carries ``row_partner`` = o', its text says that it also fixes E[s*][o'], and a request for either entry is a
request for it; docs/deviations/typeB-localization.md).

Rows are built from positive integer parts k ~ Unif[1, 4] normalised by their sum (the paper does not give the
distribution; the release's example rows 3/5 2/5, 1/4 3/4, 4/7 3/7 fit this). All entries of P are positive, so
the chain is ergodic, pi is unique and pi_{s*} > 0: the target moves with E[s*][o*].

Hard tier (docs/hard-tier.md): n = d + 1 continues (5 / 6 hidden states) and the symbol cap min(d + 1, 3) is
lifted for d >= 4, m = d + 1 (5 / 6 symbols); row parts stay in [1, 4]. At k = 2 B also holds E[s2][o*] for another
state s2 != s* (the target's symbol: an entry of another column would not move the target), and A loses that row's
entry E[s2][o''] as well (o'' != o* uniform): the second hint carries ``row_partner`` = o'' and its text says that,
with row s2 of E summing to 1, it also fixes E[s2][o''], which is true. Each hint's text stays true at k = 2 (the
two rows' gaps are independent), and A's four candidates are the two gaps of each row.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction
from math import gcd
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Views,
    absent_slots,
    frac,
    frac_json,
    missing_slot_note,
    stated_size,
)
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique

ROW_PARTS = (1, 4)
_SLOT = re.compile(r"^([PE])\[(\d+)\]\[(\d+)\]$")


def random_row(rng: random.Random, size: int) -> list[dict[str, int]]:
    """A random distribution over ``size`` outcomes: positive integer parts normalised, as reduced num/denom."""
    parts = [rng.randint(*ROW_PARTS) for _ in range(size)]
    total = sum(parts)
    row = []
    for k in parts:
        g = gcd(k, total)
        row.append({"num": k // g, "denom": total // g})
    return row


def _text(num: int, den: int) -> str:
    return str(num) if den == 1 else f"{num}/{den}"


Pair = tuple[int, int]  # an exact probability num/den, den > 0 (not necessarily reduced)


def _lcm(values) -> int:
    out = 1
    for v in values:
        out = out * v // gcd(out, v)
    return out


def _bareiss_solve(a: list[list[int]], b: list[int]) -> list[Fraction]:
    """The unique solution of a x = b for an integer matrix (fraction-free Gaussian elimination).

    Raises ``NotUnique`` when the matrix is singular.
    """
    n = len(a)
    m = [[*row, bi] for row, bi in zip(a, b, strict=True)]
    prev = 1
    for k in range(n):
        piv = next((i for i in range(k, n) if m[i][k]), None)
        if piv is None:
            raise NotUnique("singular system")
        m[k], m[piv] = m[piv], m[k]
        mk = m[k]
        for i in range(k + 1, n):
            mi = m[i]
            f = mi[k]
            for j in range(k + 1, n + 1):
                mi[j] = (mi[j] * mk[k] - f * mk[j]) // prev
            mi[k] = 0
        prev = mk[k]
    x: list[Fraction] = [Fraction(0)] * n
    for i in range(n - 1, -1, -1):
        acc = Fraction(m[i][n]) - sum((m[i][j] * x[j] for j in range(i + 1, n) if m[i][j]), Fraction(0))
        x[i] = acc / m[i][i]
    return x


_STATIONARY_CACHE: dict[tuple[Pair, ...], list[Fraction]] = {}


def stationary(p: list[list[Pair]]) -> list[Fraction]:
    """The unique pi with pi P = pi and sum(pi) = 1 (exact elimination); ``NotUnique`` if P has several.

    With d_i the common denominator of row i (P[i][j] = a_ij / d_i) and y_i = pi_i / d_i, the balance equations
    sum_i a_ij y_i = d_j y_j and the normalisation sum_i d_i y_i = 1 form an integer system.
    """
    key = tuple(x for row in p for x in row)
    cached = _STATIONARY_CACHE.get(key)
    if cached is not None:
        return list(cached)
    n = len(p)
    dens = [_lcm(den for _, den in row) for row in p]
    a = [[num * (dens[i] // den) for num, den in row] for i, row in enumerate(p)]
    system = [[a[i][j] - (dens[j] if i == j else 0) for i in range(n)] for j in range(n - 1)]
    system.append(dens)
    y = _bareiss_solve(system, [0] * (n - 1) + [1])
    pi = [d * yi for d, yi in zip(dens, y, strict=True)]
    if len(_STATIONARY_CACHE) > 1024:
        _STATIONARY_CACHE.clear()
    _STATIONARY_CACHE[key] = pi
    return list(pi)


def _det(m: list[list[int]]) -> int:
    if not m:
        return 1
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * _det([row[:j] + row[j + 1 :] for row in m[1:]]) for j in range(len(m)) if m[0][j])


def stationary_by_tree_theorem(p: list[list[Pair]]) -> list[Fraction]:
    """pi_i proportional to the i-th diagonal minor of I - P (Markov chain tree theorem): a second route.

    Rows of I - P are scaled by their common denominators d_r to integers; the i-th minor of the scaled matrix
    is (prod_{r != i} d_r) times the true one, so pi_i is proportional to d_i * (scaled minor i).
    """
    n = len(p)
    dens = [_lcm(den for _, den in row) for row in p]
    lap = [[(dens[i] if i == j else 0) - num * (dens[i] // den) for j, (num, den) in enumerate(row)]
           for i, row in enumerate(p)]
    weights = [dens[i] * _det([[lap[r][c] for c in range(n) if c != i] for r in range(n) if r != i])
               for i in range(n)]
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def n_symbols(difficulty: int) -> int:
    return min(difficulty + 1, 3) if difficulty <= 3 else difficulty + 1


def transition_slots(n: int) -> list[str]:
    return [f"P[{i}][{j}]" for i in range(n) for j in range(n)]


def emission_slots(n: int, m: int) -> list[str]:
    return [f"E[{s}][{o}]" for s in range(n) for o in range(m)]


def hmm_statement(n: int, m: int) -> str:
    states = ", ".join(str(i) for i in range(n))
    symbols = ", ".join(str(o) for o in range(m))
    return (
        f"A hidden Markov model has hidden states {states} and observation symbols {symbols}. P[i][j] is the "
        "probability that the hidden chain moves from state i to state j in one step; E[s][o] is the probability of "
        "observing symbol o when the chain is in state s; the transition probabilities are "
        f"{', '.join(transition_slots(n))} and the emission probabilities {', '.join(emission_slots(n, m))}. Every "
        "row of P and every row of E is a probability distribution (entries between 0 and 1 that sum to 1). pi is "
        "the stationary distribution of P (pi P = pi, with entries summing to 1)."
    )


class SteadyStateMissingEmission(Family):
    name = "steady_state_missing_emission"
    prefix = "ste"
    type = "B"
    answer_type = "rational"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, m = difficulty + 1, n_symbols(difficulty)
        p = [random_row(rng, n) for _ in range(n)]
        e = [random_row(rng, m) for _ in range(n)]
        s_star, o_star = rng.randrange(n), rng.randrange(m)
        derived = rng.choice([o for o in range(m) if o != o_star])
        return {
            "n_states": n,
            "n_symbols": m,
            "P": p,
            "E": e,
            "missing_state": s_star,
            "target_symbol": o_star,
            "derived_symbol": derived,
        }

    # ------------------------------------------------------------------ views
    def views(self, z: dict[str, Any]) -> Views:
        n, m = z["n_states"], z["n_symbols"]
        s_star, o_star, derived = z["missing_state"], z["target_symbol"], z["derived_symbol"]
        transitions = [
            {"type": "transition", "from_state": i, "to_state": j, **z["P"][i][j]} for i in range(n) for j in range(n)
        ]
        emissions = [{"type": "emission", "state": s, "symbol": o, **z["E"][s][o]} for s in range(n) for o in range(m)]
        withheld = emissions[s_star * m + derived]
        hint = emissions[s_star * m + o_star] = {**emissions[s_star * m + o_star], "row_partner": derived}
        slot = f"E[{s_star}][{o_star}]"
        definition = {"type": "domain", "statement": hmm_statement(n, m), "n_states": n, "n_symbols": m}
        missing = missing_slot_note(
            slot,
            f"The emission probability {slot} (symbol {o_star} in state {s_star}) is not given; your "
            f"partner knows it. E[{s_star}][{derived}] is not given either: it is 1 minus the other entries of "
            f"row {s_star} of E. All the other entries of P and E are listed.",
        )
        a = [definition, *transitions, *[e for e in emissions if e is not hint and e is not withheld], missing]
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=frac_json(frac(hint)),
            target={"type": "observation_probability", "symbol": o_star, "n_states": n, "n_symbols": m},
            question=f"In the stationary regime, what is the probability of observing symbol {o_star}, "
            f"P(observe {o_star}) = sum over states s of pi_s E[s][{o_star}]? Give it as a reduced fraction.",
            unknowns=[f"P(observe {o_star})"],
        )

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: E[s2][o*] of another state s2, with another symbol o'' of that row as its ``row_partner``
        (``withhold`` takes E[s2][o''] from A as well); one choice per (s2, o'')."""
        m, s_star, o_star = z["n_symbols"], z["missing_state"], z["target_symbol"]
        return [HintSlot({**c, "row_partner": partner}, self.slot_name(c), frac_json(frac(c)))
                for c in views.a if c["type"] == "emission" and c["symbol"] == o_star and c["state"] != s_star
                for partner in range(m) if partner != o_star]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """The second entry goes to B with its ``row_partner``; A loses the partner entry as well, so that the row
        has two gaps and either one, with the row sum, fixes the other (as the hint's text says)."""
        hint = second.constraint
        plain = {k: v for k, v in hint.items() if k != "row_partner"}
        views = super().withhold(views, HintSlot(plain, second.slot, second.value))
        state, partner = hint["state"], hint["row_partner"]
        a = [c for c in views.a if not (c["type"] == "emission" and (c["state"], c["symbol"]) == (state, partner))]
        return replace(views, a=a, b=[*views.b[:-1], hint], more_hints=[second])

    # ------------------------------------------------------------------ solving
    @staticmethod
    def _matrix(constraints: list[Constraint], kind: str, row_key: str, col_key: str, rows: int, cols: int):
        entries: dict[tuple[int, int], Pair] = {}
        for c in constraints:
            if c["type"] != kind:
                continue
            key = (c[row_key], c[col_key])
            if not (0 <= key[0] < rows and 0 <= key[1] < cols):
                raise Inconsistent(f"{kind} index {key} out of range")
            num, den = c["num"], c["denom"]
            if den <= 0 or not 0 <= num <= den:
                raise Inconsistent(f"{kind} {key} = {num}/{den} is not a probability")
            old = entries.setdefault(key, (num, den))
            if old[0] * den != num * old[1]:
                raise Inconsistent(f"two different values for {kind} {key}")
        return entries

    @staticmethod
    def _complete_rows(entries: dict[tuple[int, int], Pair], rows: int, cols: int, what: str):
        """Fill each row with one unknown entry from the row sum; check complete rows sum to 1.

        Returns the cells left open (rows with two or more unknowns, whose values are only bounded).
        """
        open_cells: dict[int, list[int]] = {}
        for r in range(rows):
            unknown = []
            sn, sd = 0, 1  # the sum of the known entries, sn / sd (unreduced; denominators are small)
            for c in range(cols):
                entry = entries.get((r, c))
                if entry is None:
                    unknown.append(c)
                else:
                    sn, sd = sn * entry[1] + entry[0] * sd, sd * entry[1]
            rest = sd - sn  # (1 - sum of the known entries) * sd
            if rest < 0 or (not unknown and rest != 0):
                raise Inconsistent(f"row {r} of {what} does not sum to 1")
            if len(unknown) == 1:
                entries[(r, unknown[0])] = (rest, sd)
            elif unknown and rest == 0:
                for c in unknown:  # entries are >= 0 and sum to 0
                    entries[(r, c)] = (0, 1)
            elif unknown:
                open_cells[r] = unknown
        return open_cells

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        n, m, o_star = target["n_states"], target["n_symbols"], target["symbol"]
        p = self._matrix(constraints, "transition", "from_state", "to_state", n, n)
        e = self._matrix(constraints, "emission", "state", "symbol", n, m)
        if self._complete_rows(p, n, n, "P"):
            raise NotUnique("some rows of P are not determined")
        open_e = self._complete_rows(e, n, m, "E")
        pi = stationary([[p[(i, j)] for j in range(n)] for i in range(n)])
        undetermined = [s for s, cols in open_e.items() if o_star in cols and pi[s] != 0]
        if undetermined:
            # E[s][o*] ranges over [0, 1 - (known entries of row s)], an interval of positive length
            raise NotUnique(f"E[{undetermined[0]}][{o_star}] is not determined")
        total = Fraction(0)
        for s in range(n):
            if (s, o_star) in e and pi[s]:
                num, den = e[(s, o_star)]
                total += pi[s] * num / den
        return total

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """Other values of E[s*][o*]: fractions j/k of the room 1 - (the entries of row s* that A knows).

        Every such value keeps E[s*][o*] and the derived entry of row s* in [0, 1].
        """
        s = hint["state"]
        known = [(c["num"], c["denom"]) for c in view_a if c["type"] == "emission" and c["state"] == s]
        den = _lcm(d for _, d in known)
        rest = den - sum(num * (den // d) for num, d in known)
        if rest <= 0:
            return
        for j, k in ((1, 2), (1, 3), (2, 3), (1, 4), (3, 4)):
            num, dd = rest * j, den * k
            g = gcd(num, dd)
            yield {**hint, "num": num // g, "denom": dd // g}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The entries of P (row by row), then of E, that A's statement declares and A has no value for."""
        m = self._symbols(view_a)
        n = stated_size(view_a, "n_states", lambda k: hmm_statement(k, m), "model", minimum=1)
        return absent_slots(self, transition_slots(n) + emission_slots(n, m), view_a)

    @staticmethod
    def _symbols(view_a: list[Constraint]) -> int:
        found = [c for c in view_a if c["type"] == "domain" and "n_symbols" in c]
        if not found:
            raise NotUnique("the observation symbols are not described")
        return found[0]["n_symbols"]

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        pi = stationary_by_tree_theorem([[(x["num"], x["denom"]) for x in row] for row in z["P"]])
        o = z["target_symbol"]
        return sum((pi[s] * Fraction(row[o]["num"], row[o]["denom"]) for s, row in enumerate(z["E"])), Fraction(0))

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "transition":
                return f"P[{c['from_state']}][{c['to_state']}] = {_text(c['num'], c['denom'])}"
            case "emission":
                text = f"E[{c['state']}][{c['symbol']}] = {_text(c['num'], c['denom'])}"
                if "row_partner" in c:
                    text += (f" (with row {c['state']} of E summing to 1, this also fixes "
                             f"E[{c['state']}][{c['row_partner']}])")
                return text
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "transition":
                return f"P[{c['from_state']}][{c['to_state']}]"
            case "emission":
                return f"E[{c['state']}][{c['symbol']}]"
        return None

    def settled_slots(self, hint: Constraint) -> list[str]:
        partner = hint.get("row_partner") if hint.get("type") == "emission" else None
        return [] if partner is None else [f"E[{hint['state']}][{partner}]"]

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        m = _SLOT.match(slot)
        if m is None:
            return [slot]
        kind, i, j = m.groups()
        if kind == "E" and self.settled_slots(hint):  # B's fact also fixes the row's other absent entry
            return self.aliases_with_settled(slot, hint)
        if kind == "E":
            return [
                f"the emission probability E[{i}][{j}] of symbol {j} in state {i}",
                f"E[{i}][{j}]",
                f"e({i}, {j})",
                f"e({i},{j})",
                f"E_{i}{j}",
                f"P(symbol {j} | state {i})",
                f"the emission probability of symbol {j} in state {i}",
                f"the probability of observing symbol {j} in state {i}",
                f"the probability of emitting symbol {j} from state {i}",
            ]
        return [
            f"the transition probability P[{i}][{j}] from state {i} to state {j}",
            f"P[{i}][{j}]",
            f"P({i} -> {j})",
            f"P_{i}{j}",
            f"the probability of moving from state {i} to state {j}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "emission":
            s, o = c["state"], c["symbol"]
            return SlotDescription("emission probability", (s, o), axes=("row", "column"), base=0, owner="E",
                                   meanings=(f"the probability of emitting symbol {o} from hidden state {s}",
                                             f"the probability of emitting symbol {o} from state {s}",
                                             f"the probability that state {s} emits symbol {o}",
                                             f"the probability that hidden state {s} emits symbol {o}",
                                             f"the chance state {s} emits symbol {o}",
                                             f"how likely hidden state {s} is to emit symbol {o}",
                                             f"how likely state {s} is to emit symbol {o}",
                                             f"the probability of observing symbol {o} in hidden state {s}",
                                             f"the probability of observing symbol {o} in state {s}",
                                             f"the probability of seeing symbol {o} when the chain is in state {s}",
                                             *_emission_meanings(s, o)))
        if c["type"] == "transition":
            i, j = c["from_state"], c["to_state"]
            return SlotDescription("transition probability", (i, j), axes=("row", "column"), base=0, owner="P",
                                   meanings=(f"the probability of moving from state {i} to state {j}",
                                             f"the chance the chain goes from state {i} to state {j}",
                                             f"the probability of going from state {i} to state {j}",
                                             f"the probability of jumping from state {i} to state {j}",
                                             f"the chance of a transition from state {i} to state {j}",
                                             f"the probability the hidden chain moves from state {i} to state {j}",
                                             f"how likely the chain moves from state {i} to state {j}",
                                             f"the one-step probability from state {i} to state {j}"))
        return None


def _emission_meanings(s: int, o: int) -> tuple[str, ...]:
    """More domain phrases for E[s][o]: always with both the state and the symbol (the target is symbol o's
    probability over all states; the other entries of E share one of the two)."""
    return (f"the probability that state {s} outputs symbol {o}", f"the probability of symbol {o} given state {s}",
            f"the probability of symbol {o} given hidden state {s}", f"the chance of symbol {o} given state {s}",
            f"the likelihood of symbol {o} in state {s}", f"how often state {s} produces symbol {o}",
            f"the probability of producing symbol {o} in state {s}",
            f"the probability of generating symbol {o} from state {s}",
            f"the chance of seeing symbol {o} in state {s}", f"the chance of observing symbol {o} from state {s}",
            f"the output probability of symbol {o} in state {s}",
            f"the observation probability of symbol {o} in state {s}",
            f"the emission probability for state {s} and symbol {o}",
            f"state {s}'s probability of emitting symbol {o}",
            f"the probability that symbol {o} is observed in state {s}",
            f"the probability symbol {o} is emitted in state {s}",
            f"the probability of observation {o} given state {s}",
            f"the probability of observation {o} in state {s}", f"the chance hidden state {s} produces observation {o}",
            f"how likely symbol {o} is in state {s}", f"the probability of emitting {o} from state {s}",
            f"the emission of symbol {o} from state {s}", f"the probability state {s} emits symbol {o}",
            f"how likely symbol {o} is when the chain is in state {s}",
            f"the chance of symbol {o} being emitted from state {s}")


FAMILY = SteadyStateMissingEmission()
