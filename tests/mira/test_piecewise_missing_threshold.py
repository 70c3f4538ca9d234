"""piecewise_missing_threshold (A9): branches and query point known to A, threshold t held by B."""

from __future__ import annotations

import random

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.piecewise_missing_threshold import FAMILY, ranges
from generators.instances import build_instance, sample_valid
from tests.mira.typea_views import default_view_candidates, notice_of
from verifiers.validate import instance_problems


def latent(d: int, x: int, t: int, a0: int, b0: int, a1: int, b1: int) -> dict:
    return {
        "difficulty": d,
        "branches": [{"slope": a0, "intercept": b0}, {"slope": a1, "intercept": b1}],
        "x": x,
        "threshold": t,
    }


def indicator_value(z: dict) -> int:
    """f(x) = [x < t]·(a0 x + b0) + [x >= t]·(a1 x + b1), computed independently of the family."""
    x, t = z["x"], z["threshold"]
    (lo, hi) = z["branches"]
    return int(x < t) * (lo["slope"] * x + lo["intercept"]) + int(x >= t) * (hi["slope"] * x + hi["intercept"])


def test_release_example_pie_000494() -> None:
    # pie-000494: x = -7, f(x) = x if x < t, f(x) = 3x - 1 if x >= t, B holds t = 3; answer -7.
    z = latent(1, -7, 3, 1, 0, 3, -1)
    v = FAMILY.views(z)
    assert [FAMILY.render(c) for c in v.a[:3]] == ["The query point is x = -7.", "f(x) = x if x < t",
                                                   "f(x) = 3x - 1 if x >= t"]
    assert FAMILY.render(v.hint) == "threshold: t = 3"
    assert FAMILY.solve([*v.a, v.hint], v.target) == -7
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, -7)
    assert witness.answer == -22 and witness.constraint["value"] <= -7  # t <= x activates 3x - 1


def test_a_alone_has_exactly_the_two_branch_values() -> None:
    z = latent(2, 4, -4, -1, 6, 3, 6)
    v = FAMILY.views(z)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    # brute force over every admissible t: the target takes both branch values
    values = {FAMILY.solve([*v.a, {**v.hint, "value": t}], v.target) for t in range(-11, 12) if t != 4}
    assert values == {2, 18}


def test_solver_matches_independent_evaluation_on_generated_instances() -> None:
    for d in (1, 2, 3):
        for i in range(40):
            seed = 1000 * d + i
            z, _, answer, _, _ = sample_valid(FAMILY, seed, d)
            assert answer == indicator_value(z) == FAMILY.answer_from_latent(z)


def test_sampling_ranges_are_the_papers() -> None:
    for d in (1, 2, 3):
        slope_max, intercept_max, point_max = ranges(d)
        assert (slope_max, intercept_max, point_max) == (2 + d, 4 + 2 * d, 5 + 3 * d)
        rng = random.Random(d)
        slopes, intercepts, points, thresholds = set(), set(), set(), set()
        for _ in range(3000):
            try:
                z = FAMILY.sample(rng, d)
            except Reject:
                continue
            slopes.update(b["slope"] for b in z["branches"])
            intercepts.update(b["intercept"] for b in z["branches"])
            points.add(z["x"])
            thresholds.add(z["threshold"])
            assert z["x"] != z["threshold"]
        assert slopes == set(range(-slope_max, slope_max + 1))
        assert intercepts == set(range(-intercept_max, intercept_max + 1))
        assert thresholds == set(range(-point_max, point_max + 1))
        # the ends of the range are excluded for x (one branch only would be possible there)
        assert points == set(range(-point_max + 1, point_max))


@pytest.mark.parametrize("x", [-8, 8])
def test_query_point_at_the_end_of_the_range_is_degenerate(x: int) -> None:
    t = 0
    z = latent(1, x, t, 1, 0, 2, 1)
    v = FAMILY.views(z)
    answer = FAMILY.solve([*v.a, v.hint], v.target)
    assert FAMILY.solve(v.a, v.target) == answer  # A's view alone pins f(x)
    with pytest.raises(CheckFailed) as exc:
        check_views(FAMILY, v.a, v.b, v.hint, v.target, answer)
    assert exc.value.check == "local_underdetermination"


def test_equal_branch_values_are_degenerate() -> None:
    z = latent(1, 2, 5, 1, 3, 2, 1)  # both branches give 5 at x = 2
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == 5
    with pytest.raises(CheckFailed):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 5)


def test_thresholds_outside_the_stated_domain_are_inconsistent() -> None:
    v = FAMILY.views(latent(1, -7, 3, 1, 0, 3, -1))
    for bad in (-7, 9, -9):  # t = x, and |t| > 8
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "value": bad}], v.target)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, v.hint, {**v.hint, "value": 4}], v.target)
    alternatives = [c["value"] for c in FAMILY.hint_alternatives(v.hint, v.a, v.target)]
    assert -7 not in alternatives and set(alternatives) <= set(range(-8, 9))
    assert alternatives[0] <= -7  # the other side of x comes first


def test_b_alone_does_not_know_f() -> None:
    v = FAMILY.views(latent(1, -7, 3, 1, 0, 3, -1))
    with pytest.raises(NotUnique):
        FAMILY.solve(v.b, v.target)


def test_moved_threshold_in_a_generated_instance_is_rejected() -> None:
    inst = build_instance(FAMILY, instance_id="pie-000000", dataset_seed=1234, requested_difficulty=3, index=0)
    assert instance_problems(inst) == []
    x = inst["agent_views"][0]["private_data"]["constraints_machine"][0]["x"]
    b = inst["agent_views"][1]["private_data"]
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    t = hint["constraint"]["value"]
    moved = {"type": "threshold", "value": x + 1 if t <= x else x - 1}  # other side of x
    b["constraints_machine"][1] = moved
    b["constraints_text"][1] = FAMILY.render(moved)
    hint["constraint"], hint["text"] = moved, FAMILY.render(moved)
    assert any(f == "global_solution" for f, _ in instance_problems(inst))


def test_slots() -> None:
    v = FAMILY.views(latent(1, -7, 3, 1, 0, 3, -1))
    assert v.slot == "t" and FAMILY.slot_name(v.hint) == "t"
    assert FAMILY.canonical_request(v.slot, v.hint) == "What is the threshold t?"
    assert [FAMILY.slot_name(c) for c in v.a] == ["x", "branch x < t", "branch x >= t", None, None]
    for c in v.a[:3]:
        assert FAMILY.slot_aliases(FAMILY.slot_name(c), c)


def test_default_view_states_the_range_of_t_but_not_who_holds_it() -> None:
    sizes = default_view_candidates(FAMILY, seeds=60)
    assert set(sizes) == {1}
    v = FAMILY.views(latent(1, -7, 3, 1, 0, 3, -1))
    assert FAMILY.render(v.a[3]) == "The threshold t is an integer with -8 <= t <= 8 and t != x."
    assert "your partner knows it" in notice_of(FAMILY, v.a, "t")
    assert FAMILY.candidate_slots(v.a) == ["t"]
    assert FAMILY.candidate_slots([v.a[0], v.a[1], v.hint]) == ["branch x >= t"]


def test_hard_difficulties_extend_the_ranges() -> None:
    assert [ranges(d) for d in (3, 4, 5)] == [(5, 10, 14), (6, 12, 17), (7, 14, 20)]
    inst = build_instance(FAMILY, instance_id="pie-000000", dataset_seed=3, requested_difficulty=5, index=0)
    assert "-20 <= t <= 20" in " ".join(inst["agent_views"][0]["private_data"]["constraints_text"])


def test_k2_withholds_the_active_branch_and_b_gives_up_the_query_point() -> None:
    for i in range(6):
        inst = build_instance(FAMILY, instance_id=f"pie-{i:06d}", dataset_seed=5, requested_difficulty=4, index=i, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        z = inst["global_metadata"]["latent"]
        active = "lt" if z["x"] < z["threshold"] else "geq"
        assert h1["slot"] == "t" and h2["constraint"]["type"] == "branch_formula"
        assert h2["constraint"]["condition"] == active
        view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        view_b = inst["agent_views"][1]["private_data"]["constraints_machine"]
        assert [c["condition"] for c in view_a if c["type"] == "branch_formula"] == [
            "geq" if active == "lt" else "lt"]
        assert {c["type"] for c in view_b} == {"threshold", "branch_formula"}
        assert instance_problems(inst) == []


def test_known_threshold_and_active_branch_settle_f_without_the_other_branch() -> None:
    v = FAMILY.views(latent(1, 2, 5, 1, 3, 2, -1))
    lower = next(c for c in v.a if c["type"] == "branch_formula" and c["condition"] == "lt")
    query = next(c for c in v.a if c["type"] == "query_point")
    assert FAMILY.solve([query, lower, v.hint], v.target) == 5
    upper = next(c for c in v.a if c["type"] == "branch_formula" and c["condition"] == "geq")
    with pytest.raises(NotUnique):
        FAMILY.solve([query, upper, v.hint], v.target)
