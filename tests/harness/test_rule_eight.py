"""rule/8 (issue 28, seventh round): points given by label (a polynomial's x = -3, -1, 0, 2, 3) are listed in
order, so "the leftmost evaluation point" is the first as surely as "the first" is, and "the rightmost" the last;
"the smallest value" stays unread, since it can mean the smallest p(x)."""

from __future__ import annotations

import pytest

from harness.mira.request_corpus import build_instances
from tests.harness.test_rule_sentences import judged


@pytest.fixture(scope="module")
def instances() -> dict[str, dict]:
    return build_instances(("pol-001986", "pol-002005"))  # hints p(-3) and p(2), points -3, -1, 0, 2, 3


@pytest.mark.parametrize("instance_id, text, offer, rule", [
    ("pol-001986", "What is the value at the leftmost evaluation point?", True, "hint"),
    ("pol-001986", "What value does p take at the leftmost of the five evaluation points?", True, "hint"),
    ("pol-001986", "What is p at the rightmost sample point?", False, "known_fact"),  # p(3) is A's
    ("pol-002005", "What is the value at the rightmost evaluation point?", False, "known_fact"),
    ("pol-001986", "What is the smallest value?", False, "nothing_named"),
    ("pol-002005", "What is the largest sample value?", False, "nothing_named"),
])
def test_ends_of_labelled_points(instances: dict[str, dict], instance_id: str, text: str, offer: bool,
                                 rule: str) -> None:
    offered, rationale = judged(instances, instance_id, text)
    assert (offered, rationale["rule"]) == (offer, rule), rationale
