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


def test_hard_tier_scales_the_number_of_congruences_and_the_primes() -> None:
    """d1-3 stay at effective difficulty 1 (three congruences); d4 and d5 run as asked with 4 and 5 congruences
    over larger primes, so x ranges over a far larger interval."""
    from generators.instances import build_instance

    assert [FAMILY.effective_difficulty(d) for d in (1, 2, 3, 4, 5)] == [1, 1, 1, 4, 5]
    sizes = {}
    for d in (3, 4, 5):
        inst = build_instance(FAMILY, instance_id="crt-000000", dataset_seed=5, requested_difficulty=d, index=0)
        moduli = inst["global_metadata"]["latent"]["moduli"]
        sizes[d] = (len(moduli), min(moduli))
        assert inst["target"]["n_congruences"] == len(moduli)
    assert sizes[3][0] == 3 and sizes[4][0] == 4 and sizes[5][0] == 5
    assert sizes[4][1] >= 11 and sizes[5][1] >= 17


def test_k2_withholds_a_second_congruence_and_restates_the_range_for_all() -> None:
    from generators.instances import build_instance

    for index in range(4):
        inst = build_instance(FAMILY, instance_id="crt-000000", dataset_seed=5, requested_difficulty=5, index=index,
                              k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert h1["slot"] == "fifth congruence" and h1["kind"] == h2["kind"] == "congruence"
        assert h2["slot"] in {"first congruence", "second congruence", "third congruence", "fourth congruence"}
        text = " ".join(inst["agent_views"][0]["private_data"]["constraints_text"])
        assert "x satisfies 5 congruences" in text and h2["text"] not in text
        # every congruence is named alike (as B's facts name them), none singled out; k = 1 says the same
        statement = next(t for t in inst["agent_views"][0]["private_data"]["constraints_text"] if "satisfies" in t)
        assert all(f"the {o} congruence x ≡ r{i} (mod m{i})" in statement
                   for i, o in enumerate(("first", "second", "third", "fourth", "fifth"), start=1))
        k1 = build_instance(FAMILY, instance_id="crt-000000", dataset_seed=5, requested_difficulty=5, index=index)
        assert statement in k1["agent_views"][0]["private_data"]["constraints_text"]
