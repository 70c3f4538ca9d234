"""The deterministic well-posedness checks, shared by generation (rejection) and validation.

1. global uniqueness: A's and B's constraints together determine the target, and it equals the answer;
2. local underdetermination: A's view alone does not determine the target; a witness is exhibited:
   the hint slot filled with another value allowed by the domain A is told, giving another target value.
   B's view alone must not determine the target either (the paper checks each agent's view);
3. hint sufficiency: A's view plus the canonical hint determines the target, and it equals the answer;
4. localizability: from A's view alone, ``Family.candidate_slots`` lists the slots whose value would complete
   A's facts; the hint's slot must be one of them (their number is the record's ``candidates``).

With k > 1 withheld facts (the hard tier, docs/hard-tier.md), check 3 gives A every hint; check 2 runs once per
hint, on A's view plus all the *other* hints, so each hint is necessary and has its own witness; check 4 requires
every hint's slot among the candidates.

Every check reads A's view without slot notices (``generators.base.without_notices``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generators.answers import Answer, answers_equal
from generators.base import Constraint, Family, is_slot_notice
from generators.errors import Inconsistent, NotUnique

THREE_CHECKS = ("global_uniqueness", "local_underdetermination", "hint_sufficiency")  # the paper's checks 1-3


@dataclass
class Witness:
    """Another value of one hint's slot that, with A's view and the other hints, gives another target value."""

    constraint: Constraint
    answer: Answer
    missing: int = 0  # the index of the hint it replaces (0 when k = 1)


class CheckFailed(Exception):
    def __init__(self, check: str, message: str):
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message


def _solve(family: Family, constraints: list[Constraint], target: dict[str, Any], check: str) -> Answer:
    try:
        return family.solve(constraints, target)
    except NotUnique as exc:
        raise CheckFailed(check, f"target not determined ({exc})") from None
    except Inconsistent as exc:
        raise CheckFailed(check, f"constraints are inconsistent ({exc})") from None


def check_views(
    family: Family,
    view_a: list[Constraint],
    view_b: list[Constraint],
    hint: Constraint,
    target: dict[str, Any],
    answer: Answer,
) -> Witness:
    """Run all three checks for one withheld fact; return the underdetermination witness or raise ``CheckFailed``."""
    return check_hints(family, view_a, view_b, [hint], target, answer)[0]


def check_hints(
    family: Family,
    view_a: list[Constraint],
    view_b: list[Constraint],
    hints: list[Constraint],
    target: dict[str, Any],
    answer: Answer,
) -> list[Witness]:
    """The three checks for ``hints`` (k = len(hints)); one witness per hint, or ``CheckFailed``."""
    for hint in hints:
        if hint not in view_b:
            raise CheckFailed("hint", "a withheld fact is not one of B's constraints")
        if hint in view_a:
            raise CheckFailed("hint", "A already holds a withheld fact")
    if len(hints) > 1 and any(h == other for i, h in enumerate(hints) for other in hints[i + 1:]):
        raise CheckFailed("hint", "two withheld facts are the same")
    full = _solve(family, view_a + [c for c in view_b if c not in view_a], target, "global_uniqueness")
    if not answers_equal(answer, full):
        raise CheckFailed("global_uniqueness", f"full problem gives {full}, stored answer is {answer}")
    with_hints = _solve(family, [*view_a, *hints], target, "hint_sufficiency")
    if not answers_equal(answer, with_hints):
        raise CheckFailed("hint_sufficiency", f"A's view + hint gives {with_hints}, stored answer is {answer}")
    try:
        b_alone = family.solve(view_b, target)
    except (NotUnique, Inconsistent):
        b_alone = None
    if b_alone is not None:
        raise CheckFailed("local_underdetermination_b", f"B's view alone determines the target ({b_alone})")
    if len(hints) > 1:  # at k = 1 find_witness checks this very view
        require_open(family, view_a, target)
    witnesses = []
    for i, hint in enumerate(hints):
        others = [h for j, h in enumerate(hints) if j != i]
        witness = find_witness(family, [*view_a, *others], hint, target, answer)
        witnesses.append(Witness(witness.constraint, witness.answer, i))
    return witnesses


def require_open(family: Family, view_a: list[Constraint], target: dict[str, Any]) -> None:
    """``CheckFailed`` when ``view_a`` alone settles the target."""
    try:
        alone = family.solve(view_a, target)
    except (NotUnique, Inconsistent):
        return
    raise CheckFailed("local_underdetermination", f"A's view alone determines the target ({alone})")


def find_witness(
    family: Family, view_a: list[Constraint], hint: Constraint, target: dict[str, Any], answer: Answer
) -> Witness:
    """A completion of ``view_a`` by another value of ``hint``'s slot with another target value (``view_a`` is
    A's view, plus the other hints when k > 1)."""
    require_open(family, view_a, target)
    for alt in family.hint_alternatives(hint, view_a, target):
        if alt == hint:
            continue
        try:
            other = family.solve([*view_a, alt], target)
        except (NotUnique, Inconsistent):
            continue
        if not answers_equal(answer, other):
            return Witness(alt, other)
    raise CheckFailed(
        "local_underdetermination",
        "no completion of A's view within its stated domain gives a different target value",
    )


def check_localizability(
    family: Family, view_a: list[Constraint], slot: str | list[str], target: dict[str, Any]
) -> list[str]:
    """A's candidate slots, judged from ``view_a`` and the target alone; ``CheckFailed`` unless they hold ``slot``
    (every slot of a list, for k > 1).

    ``NotImplementedError`` passes through when the family declares no ``candidate_slots``.
    """
    if any(is_slot_notice(c) for c in view_a):
        raise CheckFailed("localizability", "candidates must be judged from A's view without its slot notice")
    candidates = list(family.candidates_for(view_a, target))
    if len(set(candidates)) != len(candidates):
        raise CheckFailed("localizability", f"candidate slots repeat a slot: {candidates}")
    for one_slot in [slot] if isinstance(slot, str) else slot:
        if one_slot not in candidates:
            raise CheckFailed(
                "localizability",
                f"the hint's slot {one_slot} is not among the candidates A's view leaves open {candidates}",
            )
    return candidates
