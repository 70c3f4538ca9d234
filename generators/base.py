"""The interface every MIRA-Math family implements, and helpers they share.

A family is a small object with five responsibilities (one module per family):

* ``sample(rng, difficulty)``  draws the latent complete state ``z`` (JSON-able);
* ``views(z)``                 splits ``z`` into Agent A's constraints, Agent B's constraints, the one
                               canonical atomic hint (one of B's constraints) and the target;
* ``solve(constraints, target)`` computes the exact target from *constraints alone* (never from ``z``),
                               raising ``NotUnique`` / ``Inconsistent``;
* ``hint_alternatives(hint, view_a, target)`` yields the hint slot with other values that the domain
                               A is told allows: the validator uses them to exhibit two completions of
                               A's view with different target values;
* ``render`` / ``slot_aliases`` give every surface form of a constraint from its machine form.

Constraints are plain dicts with a ``type`` key; fractions inside them are ``num``/``denom`` pairs.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

from generators.answers import Answer
from generators.describe import SlotDescription

Constraint = dict[str, Any]


@dataclass
class Views:
    """What each agent is told, plus the canonical hint and the target."""

    a: list[Constraint]
    b: list[Constraint]
    hint: Constraint  # must be an element of ``b``
    slot: str  # machine-readable name of the hint slot, e.g. "P(H)", "mu_4", "A[1][2]"
    value: Any  # the slot's atomic value as JSON (int, {"numerator", "denominator"}, ...)
    target: dict[str, Any]  # machine-readable target, solver-visible
    question: str  # the target question in words
    unknowns: list[str]
    more_hints: list[HintSlot] = field(default_factory=list)  # k > 1: the other withheld facts, also in ``b``

    def hints(self) -> list[HintSlot]:
        """Every withheld fact, the canonical hint first."""
        return [HintSlot(self.hint, self.slot, self.value), *self.more_hints]


@dataclass(frozen=True)
class HintSlot:
    """One withheld fact: the constraint B holds, the slot it fills, and the slot's value as JSON."""

    constraint: Constraint
    slot: str
    value: Any


class Family(ABC):
    name: ClassVar[str]
    prefix: ClassVar[str]
    type: ClassVar[str]  # "A" (fixed hint slot) or "B" (variable hint slot)
    answer_type: ClassVar[str]  # "int" | "rational" | "dict_int"
    answer_keys: ClassVar[tuple[str, ...]] = ()  # for dict_int; may be overridden per instance
    scales_with_difficulty: ClassVar[bool] = True
    max_attempts: ClassVar[int] = 2000  # rejection-sampling bound per instance

    # ------------------------------------------------------------ the five responsibilities
    @abstractmethod
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        """Draw a latent complete state; may raise ``Reject`` to ask for a fresh draw."""

    @abstractmethod
    def views(self, z: dict[str, Any]) -> Views:
        """Split the latent state into what A and B are told."""

    @abstractmethod
    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Answer:
        """The unique target value implied by ``constraints``."""

    @abstractmethod
    def hint_alternatives(
        self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]
    ) -> Iterable[Constraint]:
        """The hint slot filled with other values allowed by the domain A is told."""

    @abstractmethod
    def render(self, c: Constraint) -> str:
        """The natural-language text of one machine constraint."""

    @abstractmethod
    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        """Phrases that name the hint slot precisely (the first one is the canonical request)."""

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """The facts of A's view that a k = 2 instance may withhold as well as ``views.hint`` (docs/hard-tier.md).

        Type B: the other slots of the same list; Type A: a fact of another kind than the hint, where the family
        has one. The generator picks one with the instance's generator and moves it from A's view to B's; the
        checks then require that A needs both (each alone leaves the target open, with a witness) and that B's
        view alone does not settle the target. Each returned fact must be one of ``views.a``, filled by
        ``slot_name``, and accepted by ``hint_alternatives``, ``slot_aliases`` and ``describe_slot`` like a hint.
        """
        raise NotImplementedError(f"{self.name} does not declare second_hints (no k = 2 instances)")

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """``views`` with ``second`` moved from A's view to B's as a second withheld fact (k = 2).

        A's slot notices are dropped (k = 2 has no ablation view). Override to restate what A is told where a
        statement covered only the first slot (e.g. the stated range of the second one); never name either slot
        as missing.
        """
        if second.constraint not in views.a or second.constraint == views.hint:
            raise ValueError(f"{self.name}: second hint {second.slot} is not one of A's facts")
        a = [c for c in without_notices(views.a) if c != second.constraint]
        b = views.b if second.constraint in views.b else [*views.b, second.constraint]  # B may hold it already (Q)
        return replace(views, a=a, b=b, more_hints=[second])

    def slot_name(self, c: Constraint) -> str | None:
        """The slot a constraint fills (same naming as ``Views.slot``), or None for context facts.

        The rule responder uses it to tell a request for the hidden slot from a request for a fact
        A already holds; ``slot_aliases`` must accept every name returned here.
        """
        return None

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot ``c`` fills *is*, in structured form (``generators.describe``): the entity, its
        indices, attribute, unit and domain meanings, from which readers' phrases for it are made ("the fourth
        resistor", "the bottom row, first column", "the base rate"). None: the slot has no such description."""
        return None

    def relation_meanings(self, constraints: list[Constraint]) -> dict[str, tuple[str, ...]]:
        """Meanings a slot has only within its instance, read off the instance's other constraints (slot ->
        phrases): "the resistor in series with R3" names whichever resistor the network joins to R3. Added to
        ``describe_slot``'s meanings by the responder. None by default."""
        return {}

    def fact_label(self, c: Constraint) -> str | None:
        """The name, in A's notation, of the quantity a constraint gives; its rendered text must contain it.

        Agent B may be a model that sees only its own facts and the request, so every fact it holds must say
        which of A's quantities it is (issue 21). Defaults to ``slot_name``; families whose context facts
        carry no slot (e.g. a circuit's structure) name them here.
        """
        return self.slot_name(c)

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The slots, in canonical order, whose value would complete A's facts, judged from A's view alone.

        This is what a careful solver can work out without being told: the quantities that A's domain
        statements declare but A holds no value for (Type B: the one absent from an otherwise complete list),
        or, for Type A, the kinds of fact the family's facts leave open. It must never read a slot notice
        (``is_slot_notice``). The validator's localizability check requires the hint's slot to be in it and
        records its size (``candidates``).
        """
        raise NotImplementedError(f"{self.name} does not declare candidate_slots")

    def settled_slots(self, hint: Constraint) -> list[str]:
        """The other candidate slots that B's hint, with A's facts, also settles (docs/deviations/typeB-localization).

        Where several slots would each complete A's facts, B's fact names them all: its ``slot_aliases`` accept a
        request for any of them. The rule responder reads each one as its own quantity, so that a request for one
        candidate is a request for the hint and a request for two of them is a request for two things. Families
        with such hints store the list as the hint's ``settles``; markov and steady_state override this.
        """
        return [s for s in hint.get("settles", ()) if isinstance(s, str)]

    def aliases_with_settled(self, slot: str, hint: Constraint) -> list[str]:
        """The aliases of ``slot`` and of every slot the hint also settles (``settled_slots``), in that order: a
        request for any of them is a request for the hint."""
        return [alias for s in [slot, *self.settled_slots(hint)] for alias in self.slot_aliases(s, {})]

    def candidates_for(self, view_a: list[Constraint], target: dict[str, Any]) -> list[str]:
        """``candidate_slots`` narrowed by the target A is asked about (the question is part of what A sees).

        The localizability check calls this. By default the target changes nothing; a family whose gaps depend on
        the question (discrete_tomography: the cells whose value would settle the asked cell) overrides it.
        """
        return self.candidate_slots(view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> Answer | None:
        """Optional second route to the answer straight from ``z`` (checked against ``solve``)."""
        return None

    def keys_for(self, z: dict[str, Any]) -> tuple[str, ...]:
        """Answer keys for ``dict_int`` answers (override when they depend on the instance)."""
        return self.answer_keys

    def effective_difficulty(self, requested: int) -> int:
        """The difficulty a family runs at: a family that does not scale with the paper's difficulties 1-3 runs them
        all as 1; the hard tier's 4 and 5 always run as asked."""
        return requested if self.scales_with_difficulty or requested >= 4 else 1

    def canonical_request(self, slot: str, hint: Constraint) -> str:
        return f"What is {self.slot_aliases(slot, hint)[0]}?"


class Reject(Exception):
    """Raised by ``sample`` when a draw violates a generation rule; the caller draws again."""


# ------------------------------------------------------------------ shared helpers
def frac(c: Constraint, num: str = "num", den: str = "denom") -> Fraction:
    return Fraction(c[num], c[den])


def frac_fields(f: Fraction) -> dict[str, int]:
    return {"num": f.numerator, "denom": f.denominator}


def frac_json(f: Fraction) -> dict[str, int]:
    return {"numerator": f.numerator, "denominator": f.denominator}


def fmt_frac(f: Fraction) -> str:
    return str(f)


def by_type(constraints: Iterable[Constraint], kind: str) -> list[Constraint]:
    return [c for c in constraints if c["type"] == kind]


def one(constraints: Iterable[Constraint], kind: str) -> Constraint:
    """The single constraint of ``kind``; ``NotUnique`` if missing, ``Inconsistent`` if repeated."""
    from generators.errors import Inconsistent, NotUnique

    found = by_type(constraints, kind)
    if not found:
        raise NotUnique(f"no {kind} constraint")
    if len(found) > 1 and any(f != found[0] for f in found[1:]):
        raise Inconsistent(f"conflicting {kind} constraints")
    return found[0]


def missing_slot_note(slot: str, statement: str, **fields: Any) -> Constraint:
    """A slot notice: the fact that tells A which slot is missing and that B holds it.

    Only the ``slot_notice`` ablation shows it to A; default views drop it (``without_notices``), so no
    family may need it to solve, to list alternatives or to find its candidates.
    """
    return {"type": "domain", "statement": statement, "missing_slot": slot, **fields}


def is_slot_notice(c: Constraint) -> bool:
    """Whether a constraint tells A where its gap is (a ``missing_slot_note``)."""
    return c.get("type") == "domain" and "missing_slot" in c


def without_notices(view: list[Constraint]) -> list[Constraint]:
    """A view with every slot notice removed: what A sees by default."""
    return [c for c in view if not is_slot_notice(c)]


def absent_slots(family: Family, declared: Iterable[str], view_a: list[Constraint]) -> list[str]:
    """The ``declared`` slots (in their order) that no constraint of ``view_a`` fills: A's candidates when its domain
    statements declare a complete, ordered list of quantities and A holds a value for all but the withheld one."""
    held = {family.slot_name(c) for c in view_a if not is_slot_notice(c)}
    return [slot for slot in declared if slot not in held]


def stated_size(constraints: Iterable[Constraint], key: str, statement: Callable[[int], str], what: str,
                minimum: int = 1) -> int:
    """The size ``key`` that A's domain statement gives (e.g. ``n_states``), checked against its text.

    ``NotUnique`` when A is not told it; ``Inconsistent`` when two statements disagree or the text does not
    match the field (so a solver never trusts a size A was not actually told).
    """
    from generators.errors import Inconsistent, NotUnique

    found = [c for c in constraints if c["type"] == "domain" and key in c]
    if not found:
        raise NotUnique(f"the {what} is not described")
    if any(f != found[0] for f in found[1:]):
        raise Inconsistent(f"conflicting descriptions of the {what}")
    n = found[0][key]
    if found[0]["statement"] != statement(n) or n < minimum:
        raise Inconsistent(f"the {what} statement does not match its fields")
    return n


def lin_text(coeffs: dict[str, int | Fraction], rhs: int | Fraction) -> str:
    """``2a - b + 3c = 4`` (zero terms omitted, unit coefficients written bare)."""
    parts: list[str] = []
    for var, k in coeffs.items():
        if k == 0:
            continue
        mag = abs(k)
        term = var if mag == 1 else f"{mag}{var}" if Fraction(mag).denominator == 1 else f"({mag}){var}"
        if not parts:
            parts.append(term if k > 0 else f"-{term}")
        else:
            parts.append(f"+ {term}" if k > 0 else f"- {term}")
    return f"{' '.join(parts) or '0'} = {rhs}"


def fractions_between(max_den: int, lo: Fraction = Fraction(0), hi: Fraction = Fraction(1)) -> Iterator[Fraction]:
    """Distinct reduced fractions strictly between ``lo`` and ``hi`` with denominator <= ``max_den``."""
    seen: set[Fraction] = set()
    for den in range(1, max_den + 1):
        for num in range(int(lo * den) - 1, int(hi * den) + 2):
            f = Fraction(num, den)
            if lo < f < hi and f not in seen:
                seen.add(f)
                yield f
