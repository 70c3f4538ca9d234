"""geometry_coordinates: release example, Cramer's rule, the construction-aware pinning rule, corruptions."""

from __future__ import annotations

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.geometry_coordinates import FAMILY, OFFSETS, decoy_normals
from generators.instances import build_instance
from tests.mira.typea_views import default_view_candidates
from verifiers.validate import instance_problems

TARGET = {"type": "distance", "from": "P", "to": "Q"}


def make(difficulty: int, index: int) -> dict:
    return build_instance(
        FAMILY, instance_id=f"geo-{index:06d}", dataset_seed=17, requested_difficulty=difficulty, index=index
    )


def latent(p, q, l1, l2, d=1) -> dict:
    return {"P": list(p), "Q": list(q), "L1": list(l1), "L2": list(l2), "coord_bound": 4 + d, "coeff_bound": 3 + d}


def construction_distances(l1: dict, q: dict, bound: int) -> set[int]:
    """Distances a solver who knows the paper's construction could still assign: Q - offset on L1, in the box."""
    a, b, c = l1["coeffs"]["x"], l1["coeffs"]["y"], l1["rhs"]
    out = set()
    for ox, oy in OFFSETS:
        x, y = q["x"] - ox, q["y"] - oy
        if a * x + b * y == c and max(abs(x), abs(y)) <= bound:
            out.add(5 if abs(ox) + abs(oy) == 7 else 13)
    return out


def test_release_geo_000136_answer_and_why_we_would_not_generate_it() -> None:
    # L1: 3x - 3y = 3, L2: -3y = 3, Q = (12, 4): P = (0, -1), |PQ| = 13
    v = FAMILY.views(latent((0, -1), (12, 4), (3, -3), (0, -3)))
    assert [FAMILY.render(c) for c in v.a[:2]] == ["L1: 3x - 3y = 3", "Q = (12, 4)"]
    assert FAMILY.render(v.hint) == "L2: -3y = 3"
    assert FAMILY.solve([*v.a, v.hint], v.target) == 13
    # Within the stated domain A's view is open (integer points of L1 at distances 7, 13 and 17 from Q) ...
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    check_views(FAMILY, v.a, v.b, v.hint, v.target, 13)
    # ... but a solver who knows the paper's offsets finds only one candidate on L1: the distance is pinned.
    assert construction_distances(v.a[0], v.a[1], 5) == {13}
    assert decoy_normals((0, -1), (12, 4), 5, 4) == []


def test_a_line_whose_only_admissible_point_is_p_is_rejected() -> None:
    # L1: 4x + 3y = 0 has the integer points (-3, 4), (0, 0), (3, -4) in [-5, 5]^2; from Q = (3, 4) they lie at
    # whole distances 6, 5 and 8: A's view is open within the stated domain
    v = FAMILY.views(latent((0, 0), (3, 4), (4, 3), (1, 0)))
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    # L1: 4x - 3y = 0 has the same three kinds of points; from Q = (4, -3) only P = (0, 0) is at a whole
    # distance (the others are at sqrt(50)), so integrality alone pins |PQ| = 5: the validator rejects it
    v = FAMILY.views(latent((0, 0), (4, -3), (4, -3), (1, 0)))
    assert FAMILY.solve(v.a, v.target) == 5
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 5)


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generated_instances_against_cramer_and_construction(difficulty: int) -> None:
    bound = 4 + difficulty
    for index in range(25):
        inst = make(difficulty, index)
        l1, q = inst["agent_views"][0]["private_data"]["constraints_machine"][:2]
        l2 = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
        (a1, b1), (a2, b2) = (tuple(ln["coeffs"].values()) for ln in (l1, l2))
        det = a1 * b2 - a2 * b1
        x, y = (l1["rhs"] * b2 - l2["rhs"] * b1) / det, (a1 * l2["rhs"] - a2 * l1["rhs"]) / det
        assert x == int(x) and y == int(y) and max(abs(x), abs(y)) <= bound
        d2 = (x - q["x"]) ** 2 + (y - q["y"]) ** 2
        assert d2 in (25, 169) and inst["global_solution"]["value"] ** 2 == d2
        # even knowing the construction, L1 passes candidates at both distances
        assert construction_distances(l1, q, bound) == {5, 13}
        assert max(abs(a2), abs(b2)) <= 3 + difficulty and max(abs(a1), abs(b1)) <= 3 + difficulty
        # the stored witness is itself a construction-consistent decoy (offsets first)
        w = inst["verifier"]["underdetermination_witness"]
        assert w["answer"]["value"] in (5, 13) and w["answer"] != inst["global_solution"]


def test_domain_violations_are_inconsistent() -> None:
    v = FAMILY.views(latent((1, 1), (4, 5), (1, -1), (1, 1)))  # L1: x - y = 0, L2: x + y = 2
    assert FAMILY.solve([*v.a, v.hint], v.target) == 5
    with pytest.raises(Inconsistent):  # parallel to L1
        FAMILY.solve([*v.a, {**v.hint, "coeffs": {"x": 2, "y": -2}, "rhs": 3}], v.target)
    with pytest.raises(Inconsistent):  # coefficient 9 outside [-4, 4]
        FAMILY.solve([*v.a, {**v.hint, "coeffs": {"x": 9, "y": 1}, "rhs": 10}], v.target)
    with pytest.raises(Inconsistent):  # x + y = 1 meets L1 at (1/2, 1/2)
        FAMILY.solve([*v.a, {**v.hint, "rhs": 1}], v.target)
    with pytest.raises(Inconsistent):  # x + y = 4 meets L1 at (2, 2): distance sqrt(13)
        FAMILY.solve([*v.a, {**v.hint, "rhs": 4}], v.target)
    with pytest.raises(Inconsistent):  # x + y = 14 meets L1 at (7, 7): outside the box
        FAMILY.solve([*v.a, {**v.hint, "rhs": 14}], v.target)


def test_corrupted_instances_are_rejected() -> None:
    inst = make(2, 6)
    w = inst["verifier"]["underdetermination_witness"]["constraint"]
    w["coeffs"] = {"x": w["coeffs"]["x"] * 2, "y": w["coeffs"]["y"] * 2}
    w["rhs"] *= 2  # the same line, but not the form hint_alternatives gives
    assert any(f == "verifier.underdetermination_witness" for f, _ in instance_problems(inst))
    inst = make(2, 6)
    q = inst["agent_views"][0]["private_data"]["constraints_machine"][1]
    q["x"] += 1
    assert instance_problems(inst)


def test_slots_and_texts() -> None:
    inst = make(3, 2)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    assert hint["slot"] == "L2" and hint["request_aliases"][0] == "the equation of the second line L2"
    assert {"L2", "line L2", "the second line", "the other line"} <= set(hint["request_aliases"])
    a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    assert [FAMILY.slot_name(c) for c in a] == ["L1", "Q", None]
    b = inst["agent_views"][1]["private_data"]["constraints_machine"]
    assert b[1] == a[1]  # B also holds Q, as in the paper
    with pytest.raises(NotUnique):
        FAMILY.solve(b, inst["target"])


def test_default_view_names_no_gap_and_one_candidate() -> None:
    """Issue 24: without the ablation's notices A's view still works, and the hint's slot is its only candidate."""
    assert set(default_view_candidates(FAMILY, seeds=60)) == {1}


def test_candidates_are_the_facts_a_holds_no_value_for() -> None:
    v = FAMILY.views({"P": [1, 2], "Q": [4, 6], "L1": [1, -1], "L2": [2, 1], "coord_bound": 5, "coeff_bound": 4})
    assert FAMILY.candidate_slots(v.a) == ["L2"]
    assert FAMILY.candidate_slots([c for c in v.a if c["type"] != "point"]) == ["L2", "Q"]


def test_hard_tier_grows_the_box_and_the_coefficient_range() -> None:
    bounds = {}
    for d in (3, 4, 5):
        z = make(d, 0)["global_metadata"]["latent"]
        bounds[d] = (z["coord_bound"], z["coeff_bound"])
    assert bounds == {3: (7, 6), 4: (8, 7), 5: (9, 8)}
    lengths = {d: {make(d, i)["global_solution"]["value"] for i in range(30)} for d in (3, 4, 5)}
    assert lengths == {3: {5, 13}, 4: {5, 13, 17}, 5: {5, 13, 17, 25}}


def test_k2_withholds_the_point_q_as_well_as_l2() -> None:
    for index in range(4):
        inst = build_instance(FAMILY, instance_id=f"geo-{index:06d}", dataset_seed=17, requested_difficulty=5,
                              index=index, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert (h1["slot"], h1["kind"], h2["slot"], h2["kind"]) == ("L2", "lin_eq", "Q", "point")
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not any(c["type"] == "point" for c in a)
        b = inst["agent_views"][1]["private_data"]["constraints_machine"]
        assert [c["type"] for c in b] == ["lin_eq", "point"]
        assert instance_problems(inst) == []
