"""crt_reconstruction (A2): the default view (issue 24) and its candidate slots."""

from __future__ import annotations

from generators.families.crt_reconstruction import FAMILY
from tests.mira.typea_views import default_view_candidates, notice_of


def test_default_view_defines_the_third_congruence_but_not_how_to_ask_for_it() -> None:
    """"The third congruence is one fact ... one request ... is enough" told A how to ask B: a notice now."""
    assert set(default_view_candidates(FAMILY, seeds=60, extra_words=("known together", "one fact"))) == {1}
    v = FAMILY.views({"moduli": [17, 7, 13], "x": 1180})
    assert FAMILY.render(v.a[2]).startswith("x also satisfies a third congruence x ≡ r3 (mod m3), where m3 is a prime")
    assert "one request for the third congruence" in notice_of(FAMILY, v.a, "third congruence")
    assert FAMILY.solve([*v.a, v.hint], v.target) == 1180


def test_candidates_are_the_congruences_a_holds_no_value_for() -> None:
    v = FAMILY.views({"moduli": [17, 7, 13], "x": 1180})
    assert FAMILY.candidate_slots(v.a) == ["third congruence"]
    assert FAMILY.candidate_slots([v.a[0], v.hint]) == ["second congruence"]
