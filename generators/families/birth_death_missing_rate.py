"""B1 birth_death_missing_rate: a birth-death chain with one rate withheld; target a stationary probability.

States 0..n-1 (n = d + 2); birth rates lambda_i (i -> i+1, i = 0..n-2) and death rates mu_i (i -> i-1,
i = 1..n-1), integers from Unif[1, 3 + 2d]. One of the 2(n-1) rates, chosen uniformly, is withheld: A is told
every other rate (in order, the withheld one absent from the list), B holds the missing one; only the slot-notice
ablation also tells A which one is missing. Target: pi_s for s ~ Unif[0, n-1], as a
reduced fraction; draws whose answer has a denominator above 300 are rejected (the paper's rule).

Hard tier (docs/hard-tier.md): the same rule one and two steps on, n = 6 / 7 states and rates up to 11 / 13 at
d4 / d5, with the denominator cap raised to 600 / 1000 (``max_denominator``). k = 2 withholds a second rate, any
other of the 2(n-1) (``second_hints``); A's chain statement names every rate and none as missing, so it stands.

pi_s is strictly monotone in every single rate (decreasing in a rate on the far side of s, increasing in one on
the near side), so any other admissible value of the withheld rate changes the target: A's view never
determines it, and the validator's witness is simply another rate value from A's stated range.
"""

from __future__ import annotations

import functools
import random
import re
from fractions import Fraction
from typing import Any

from generators.base import Constraint, Family, HintSlot, Reject, Views, absent_slots, missing_slot_note
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique
from generators.linalg import solve_unique

MAX_DENOMINATOR = 300
HARD_MAX_DENOMINATOR = {4: 600, 5: 1000}  # the hard tier's larger denominators (d1-3 keep the paper's 300)
RATE_MIN = 1
_SLOT = re.compile(r"^(lambda|mu)_(\d+)$")


def stationary_weights(lambdas: list[int], mus: list[int]) -> list[int]:
    """Unnormalised integer weights W_i = lambda_0...lambda_{i-1} * mu_{i+1}...mu_{n-1} (``mus[i-1]`` is mu_i).

    This is detailed balance, pi_i = pi_0 * prod_{k<i} lambda_k / mu_{k+1}, with every denominator cleared by
    multiplying through by mu_1...mu_{n-1}; it is also the Markov chain tree theorem (the only spanning tree
    directed into state i is the path of up-moves from below and down-moves from above).
    """
    n = len(lambdas) + 1
    up = [1] * n  # up[i] = lambda_0 ... lambda_{i-1}
    for i in range(1, n):
        up[i] = up[i - 1] * lambdas[i - 1]
    down = [1] * n  # down[i] = mu_{i+1} ... mu_{n-1}
    for i in range(n - 2, -1, -1):
        down[i] = down[i + 1] * mus[i]
    return [u * d for u, d in zip(up, down, strict=True)]


def stationary(lambdas: list[int], mus: list[int]) -> list[Fraction]:
    weights = stationary_weights(lambdas, mus)
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def stationary_recursive(lambdas: list[int], mus: list[int]) -> list[Fraction]:
    """A second route, in rationals: pi_{i+1} = pi_i * lambda_i / mu_{i+1} from pi_0 = 1, then normalised."""
    pi = [Fraction(1)]
    for lam, mu in zip(lambdas, mus, strict=True):
        pi.append(pi[-1] * lam / mu)
    total = sum(pi)
    return [p / total for p in pi]


def stationary_global_balance(lambdas: list[int], mus: list[int]) -> list[Fraction]:
    """A third route (used by the tests): solve pi Q = 0, sum(pi) = 1 for the generator matrix Q exactly."""
    n = len(lambdas) + 1
    q = [[Fraction(0)] * n for _ in range(n)]
    for i, lam in enumerate(lambdas):
        q[i][i + 1] = Fraction(lam)
    for i, mu in enumerate(mus, start=1):
        q[i][i - 1] = Fraction(mu)
    for i in range(n):
        q[i][i] = -sum(q[i])
    rows = [[q[i][j] for i in range(n)] for j in range(n)] + [[Fraction(1)] * n]
    return solve_unique(rows, [Fraction(0)] * n + [Fraction(1)])


def max_denominator(difficulty: int) -> int:
    return HARD_MAX_DENOMINATOR.get(difficulty, MAX_DENOMINATOR)


def rate_slot(c: Constraint) -> str:
    return f"{'lambda' if c['type'] == 'birth_rate' else 'mu'}_{c['from_state']}"


def rate_constraint(slot: str, value: int) -> Constraint:
    kind, i = _parse_slot(slot)
    if kind == "lambda":
        return {"type": "birth_rate", "from_state": i, "to_state": i + 1, "value": value}
    return {"type": "death_rate", "from_state": i, "to_state": i - 1, "value": value}


def _parse_slot(slot: str) -> tuple[str, int]:
    m = _SLOT.match(slot)
    if not m:
        raise ValueError(f"not a rate slot: {slot!r}")
    return m.group(1), int(m.group(2))


def _describe(slot: str) -> str:
    kind, i = _parse_slot(slot)
    if kind == "lambda":
        return f"birth rate lambda_{i} (from state {i} up to state {i + 1})"
    return f"death rate mu_{i} (from state {i} down to state {i - 1})"


@functools.cache
def chain_statement(n: int, lo: int, hi: int) -> str:
    return (
        f"A continuous-time birth-death Markov chain has states {', '.join(map(str, range(n)))}. From state i it "
        f"moves up to state i+1 at birth rate lambda_i (i = 0..{n - 2}) and down to state i-1 at death rate mu_i "
        f"(i = 1..{n - 1}); there are no other transitions. The rates are {', '.join(all_slots(n))}. Every rate is "
        f"an integer from {lo} to {hi}. pi_i denotes the stationary (long-run) probability of state i."
    )


def missing_statement(slot: str) -> str:
    return f"The {_describe(slot)} is not given here; your partner knows it."


def chain_domain(n: int, lo: int, hi: int) -> Constraint:
    return {"type": "domain", "statement": chain_statement(n, lo, hi), "n_states": n, "rate_min": lo, "rate_max": hi}


def missing_domain(slot: str) -> Constraint:
    return missing_slot_note(slot, missing_statement(slot))


def all_slots(n: int) -> list[str]:
    return [f"lambda_{i}" for i in range(n - 1)] + [f"mu_{i}" for i in range(1, n)]


class BirthDeathMissingRate(Family):
    name = "birth_death_missing_rate"
    prefix = "bir"
    type = "B"
    answer_type = "rational"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, hi = difficulty + 2, 3 + 2 * difficulty
        lambdas = [rng.randint(RATE_MIN, hi) for _ in range(n - 1)]
        mus = [rng.randint(RATE_MIN, hi) for _ in range(n - 1)]
        missing = all_slots(n)[rng.randrange(2 * (n - 1))]  # uniform over all 2(n-1) rates
        target = rng.randrange(n)
        weights = stationary_weights(lambdas, mus)
        cap = max_denominator(difficulty)
        if Fraction(weights[target], sum(weights)).denominator > cap:
            raise Reject(f"pi_{target} has a denominator above {cap}")
        return {
            "n_states": n,
            "rate_min": RATE_MIN,
            "rate_max": hi,
            "lambdas": lambdas,  # lambda_0 .. lambda_{n-2}
            "mus": mus,  # mu_1 .. mu_{n-1}
            "missing_slot": missing,
            "target_state": target,
        }

    def views(self, z: dict[str, Any]) -> Views:
        n, missing, s = z["n_states"], z["missing_slot"], z["target_state"]
        rates = [rate_constraint(f"lambda_{i}", v) for i, v in enumerate(z["lambdas"])]
        rates += [rate_constraint(f"mu_{i}", v) for i, v in enumerate(z["mus"], start=1)]
        hint = next(c for c in rates if rate_slot(c) == missing)
        a = [chain_domain(n, z["rate_min"], z["rate_max"])]
        a += [missing_domain(missing) if c is hint else c for c in rates]
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=missing,
            value=hint["value"],
            target={"type": "stationary_probability", "state": s},
            question=f"What is pi_{s}, the stationary (long-run) probability that the chain is in state {s}? "
            "Give it as a reduced fraction.",
            unknowns=[f"pi_{s}"],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _chain(constraints: list[Constraint]) -> tuple[int, int, int]:
        found = [c for c in constraints if c["type"] == "domain" and "n_states" in c]
        if not found:
            raise NotUnique("the state space is not given")
        c = found[0]
        if any(f != c for f in found[1:]):
            raise Inconsistent("conflicting descriptions of the chain")
        n, lo, hi = c["n_states"], c["rate_min"], c["rate_max"]
        if c["statement"] != chain_statement(n, lo, hi) or n < 2 or lo < 1 or hi < lo:
            raise Inconsistent("the chain's domain statement does not match its fields")
        return n, lo, hi

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        n, lo, hi = self._chain(constraints)
        rates: dict[str, int] = {}
        for c in constraints:
            if c["type"] not in ("birth_rate", "death_rate"):
                continue
            i, step = c["from_state"], 1 if c["type"] == "birth_rate" else -1
            if c["to_state"] != i + step or not (0 <= i < n and 0 <= i + step < n):
                raise Inconsistent(f"{c['type']} from {i} to {c['to_state']} is not a transition of the chain")
            v = c["value"]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise Inconsistent(f"{rate_slot(c)} = {v!r} is not an integer from {lo} to {hi}")
            if rates.setdefault(rate_slot(c), v) != v:
                raise Inconsistent(f"two values for {rate_slot(c)}")
        s = target["state"]
        if not 0 <= s < n:
            raise Inconsistent(f"state {s} is not a state of the chain")
        missing = [slot for slot in all_slots(n) if slot not in rates]
        if missing:  # pi_s is strictly monotone in every rate, so each missing rate leaves it open
            raise NotUnique(f"rates not given: {', '.join(missing)}")
        lambdas = [rates[f"lambda_{i}"] for i in range(n - 1)]
        mus = [rates[f"mu_{i}"] for i in range(1, n)]
        weights = stationary_weights(lambdas, mus)
        return Fraction(weights[s], sum(weights))

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: any other rate of the chain (pi_s is strictly monotone in each, so each alone leaves it open)."""
        return [HintSlot(c, rate_slot(c), c["value"]) for c in views.a if c["type"] in ("birth_rate", "death_rate")]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        try:
            _, lo, hi = self._chain(view_a)
        except (NotUnique, Inconsistent):
            return  # no stated domain: no admissible completion to offer
        for v in range(lo, hi + 1):
            if v != hint["value"]:
                yield {**hint, "value": v}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The rates lambda_0.. and mu_1.. that A's chain statement declares and A is given no value for."""
        n, _, _ = self._chain(view_a)
        return absent_slots(self, all_slots(n), view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        return stationary_recursive(z["lambdas"], z["mus"])[z["target_state"]]

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "birth_rate":
                i, v = c["from_state"], c["value"]
                return f"lambda_{i} = {v}: from state {i} the chain moves up to state {c['to_state']} at rate {v}."
            case "death_rate":
                i, v = c["from_state"], c["value"]
                return f"mu_{i} = {v}: from state {i} the chain moves down to state {c['to_state']} at rate {v}."
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        return rate_slot(c) if c["type"] in ("birth_rate", "death_rate") else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        kind, i = _parse_slot(slot)
        if kind == "lambda":
            j, word, direction, greek = i + 1, "birth", "up", "λ"
        else:
            j, word, direction, greek = i - 1, "death", "down", "μ"
        return [
            f"the {word} rate {kind}_{i}",
            f"{kind}_{i}",
            f"{greek}_{i}",
            f"{greek}{i}",
            f"{kind}{i}",
            f"{kind} {i}",
            f"the {word} rate of state {i}",
            f"the {word} rate from state {i} to state {j}",
            f"the rate from state {i} to state {j}",
            f"the transition rate from state {i} to state {j}",
            f"the rate of moving {direction} from state {i} to state {j}",
            f"the rate {i} -> {j}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] not in ("birth_rate", "death_rate"):
            return None
        i, j = c["from_state"], c["to_state"]
        up = c["type"] == "birth_rate"
        move = "up" if up else "down"
        # lambda_0 is the first birth rate, mu_1 the first death rate
        return SlotDescription("birth rate" if up else "death rate", (i,), base=0 if up else 1, kind="rate", meanings=(
            f"the rate from state {i} to state {j}", f"the rate of going from state {i} to state {j}",
            f"the rate at which the chain moves {move} from state {i}", f"the rate of moving {move} from state {i}",
            f"the rate at which the chain jumps from state {i} to state {j}", f"the jump rate from {i} to {j}",
            f"how fast the chain moves from state {i} to state {j}", f"the transition rate from {i} to {j}",
            f"the {'birth' if up else 'death'} rate out of state {i}",
            f"the {'birth' if up else 'death'} rate at state {i}", f"the {move}ward rate out of state {i}",
            f"the {move}ward rate from state {i}", f"the {move}ward rate of state {i}",
            *(f"{verb} {move} from state {i}" for verb in ("move", "moves", "moving", "go", "goes", "going", "jump",
                                                           "jumps", "jumping", "step", "steps", "transition")),
            *_rate_meanings(i, j, up)))


def _rate_meanings(i: int, j: int, up: bool) -> tuple[str, ...]:
    """More ways to name the rate from state ``i`` to its neighbour ``j``, one step up (birth) or down (death)."""
    move, word = ("up", "birth") if up else ("down", "death")
    side, grow = ("below", "grows") if up else ("above", "shrinks")
    flow = ("arrival", "growth", "increase") if up else ("departure", "service", "decrease")
    return (
        f"the rate of {word}s in state {i}", f"the {word} intensity in state {i}", f"the {word} parameter of state {i}",
        *(f"the {f} rate in state {i}" for f in flow), *(f"the {f} rate from state {i}" for f in flow),
        f"the {move} rate from state {i}", f"the {move} rate in state {i}", f"the {move}ward jump rate at state {i}",
        f"the {move}ward transition rate from state {i}", f"the rate of going {move} from state {i}",
        f"the rate of a step {move} from state {i}", f"the rate of stepping {move} to state {j}",
        f"the rate of leaving state {i} for state {j}", f"the rate of leaving state {i} {move}ward",
        f"how quickly the chain leaves state {i} {move}ward", f"how often the chain jumps from {i} to {j}",
        f"the rate of transitions from {i} to {j}", f"the rate of the {i} to {j} transition",
        f"the {i} to {j} rate", f"the transition intensity from state {i} to state {j}",
        f"the intensity of the jump from {i} to {j}",
        f"the rate of entering state {j} from {side}",
        f"the generator entry from state {i} to state {j}", f"the off-diagonal generator entry from {i} to {j}",
        f"the rate the population {grow} from {i} to {j}", f"the rate the population goes from {i} to {j}",
        f"the speed of the {i} to {j} jump", f"the exponential clock rate from state {i} to state {j}",
    )


FAMILY = BirthDeathMissingRate()
