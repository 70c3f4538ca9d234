"""Shared checks for the Type A families' default views (issue 24): A is told the family's facts, never where the
gap is. Used by ``tests/mira/test_<family>.py``; not a test module itself."""

from __future__ import annotations

from collections import Counter

import pytest

from generators.answers import answers_equal
from generators.base import Family, is_slot_notice, without_notices
from generators.checks import check_views
from generators.errors import Inconsistent, NotUnique
from generators.instances import instance_seed, sample_valid

# Words that only a notice says: who holds what, or that something is withheld.
NOTICE_WORDS = ("partner", "not given", "is missing", "withheld", "agent b", "ask for", "request")


def default_view_candidates(family: Family, seeds: int = 25, extra_words: tuple[str, ...] = ()) -> Counter[int]:
    """Over ``seeds`` draws per difficulty 1-3, check the default view (every notice stripped) and return how
    often each candidate-set size occurs.

    The default view carries no notice and no notice wording; it stays underdetermined, the hint still
    completes it to the answer, the three checks pass on it, and ``candidate_slots`` names the hint's slot
    without reading a notice (the same list with or without them).
    """
    sizes: Counter[int] = Counter()
    for difficulty in (1, 2, 3):
        for index in range(seeds):
            seed = instance_seed(24, family.name, difficulty, index)
            _, v, answer, _, _ = sample_valid(family, seed, family.effective_difficulty(difficulty))
            view_a = without_notices(v.a)
            assert not any(is_slot_notice(c) for c in view_a)
            text = " ".join(family.render(c) for c in view_a).lower()
            for word in (*NOTICE_WORDS, *extra_words):
                assert word not in text, f"{family.name} d{difficulty}#{index}: default view says {word!r}: {text}"
            assert answers_equal(family.solve([*view_a, v.hint], v.target), answer)
            with pytest.raises((NotUnique, Inconsistent)):
                family.solve(view_a, v.target)
            check_views(family, view_a, v.b, v.hint, v.target, answer)
            candidates = family.candidate_slots(view_a)
            assert v.slot in candidates, f"{family.name} d{difficulty}#{index}: {v.slot} not in {candidates}"
            assert family.candidate_slots(v.a) == candidates
            sizes[len(candidates)] += 1
    return sizes


def notice_of(family: Family, view_a: list[dict], slot: str) -> str:
    """The rendered text of the one slot notice in an ablation view (it must name ``slot``)."""
    notices = [c for c in view_a if is_slot_notice(c)]
    assert len(notices) == 1 and notices[0]["missing_slot"] == slot
    return family.render(notices[0])
