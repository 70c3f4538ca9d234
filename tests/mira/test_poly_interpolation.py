"""poly_interpolation (B9): A knows delta of the delta+1 points of p, B holds the value at the named last x."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.poly_interpolation import (
    FAMILY,
    coefficient_bound,
    degree_for,
    horner,
    interpolate,
    vanishing_poly,
)
from generators.instances import build_instance, sample_valid
from generators.linalg import solve_unique
from verifiers.validate import instance_problems


def latent(coeffs: list[int], xs: list[int], hidden: int, query: int) -> dict:
    return {
        "degree": len(coeffs) - 1,
        "coeffs": coeffs,
        "xs": xs,
        "ys": [horner(coeffs, x) for x in xs],
        "hidden_index": hidden,
        "query_x": query,
    }


def vandermonde_coefficients(points: list[tuple[int, int]]) -> list[Fraction]:
    """Independent route: solve the Vandermonde system for the monomial coefficients."""
    rows = [[Fraction(x) ** k for k in range(len(points))] for x, _ in points]
    return solve_unique(rows, [Fraction(y) for _, y in points])


def target(x: int, degree: int) -> dict:
    return {"type": "poly_value", "poly": "p", "x": x, "degree": degree}


def pts(*pairs: tuple[int, int]) -> list[dict]:
    return [{"type": "point", "x": x, "y": y} for x, y in pairs]


def test_release_example_pol_001863() -> None:
    # pol-001863: p(x) = 4 + 3x - 3x^2 - 3x^3; A: p(2) = -26, p(3) = -95, p(1) = 1; B: p(0) = 4; target p(5) = -431
    a, b = pts((2, -26), (3, -95), (1, 1)), pts((0, 4))[0]
    assert FAMILY.solve([*a, b], target(5, 3)) == -431
    with pytest.raises(NotUnique):
        FAMILY.solve(a, target(5, 3))
    z = latent([4, 3, -3, -3], [0, 1, 2, 3], hidden=0, query=5)
    v = FAMILY.views(z)
    assert v.slot == "p(0)" and v.value == 4 and FAMILY.render(v.hint) == "p(0) = 4"
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, -431)
    # completions are p + k (x-1)(x-2)(x-3): the witness moves p(5) by a multiple of (5-1)(5-2)(5-3) = 24
    assert (witness.answer - (-431)) % 24 == 0 and witness.answer != -431


def test_zero_leading_coefficient_is_rejected() -> None:
    # the release's weakness (e.g. pol-001864): with a zero x^3 coefficient A's three points already fix p
    z = latent([1, -2, 3, 0], [-1, 0, 1, 2], hidden=3, query=3)
    v = FAMILY.views(z)
    with pytest.raises(Inconsistent):  # "degree exactly 3" is violated
        FAMILY.solve([*v.a, v.hint], v.target)
    with pytest.raises(CheckFailed):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, horner(z["coeffs"], 3))


def test_non_integer_coefficients_are_inconsistent() -> None:
    # x(x-1)(x-2)/6 takes integer values at integers but its coefficients are not integers
    with pytest.raises(Inconsistent):
        FAMILY.solve(pts((0, 0), (1, 0), (2, 0), (3, 1)), target(4, 3))
    # with only the first three points an integer completion still exists (k x(x-1)(x-2))
    with pytest.raises(NotUnique):
        FAMILY.solve(pts((0, 0), (1, 0), (2, 0)), target(4, 3))
    # three points whose quadratic interpolant is not integral admit no integer cubic at all
    with pytest.raises(Inconsistent):
        FAMILY.solve(pts((0, 0), (2, 1), (4, 0)), target(1, 3))


def test_conflicting_and_degenerate_constraints() -> None:
    with pytest.raises(Inconsistent):
        FAMILY.solve(pts((0, 1), (0, 2), (1, 0), (2, 0), (3, 0)), target(4, 3))
    with pytest.raises(Inconsistent):  # the query point must not be an interpolation point
        FAMILY.solve(pts((0, 1), (1, 0), (2, 0), (3, 0)), target(2, 3))
    # an extra point off the cubic through the others
    with pytest.raises(Inconsistent):
        FAMILY.solve(pts((0, 0), (1, 1), (2, 8), (3, 27), (-1, 0)), target(4, 3))
    assert FAMILY.solve(pts((0, 0), (1, 1), (2, 8), (3, 27), (-1, -1)), target(4, 3)) == 64


def test_interpolation_matches_vandermonde_and_latent() -> None:
    for d in (1, 2, 3):
        for i in range(40):
            z, v, answer, witness, _ = sample_valid(FAMILY, 7000 + 100 * d + i, d)
            points = list(zip(z["xs"], z["ys"], strict=True))
            coeffs = vandermonde_coefficients(points)
            assert coeffs == [Fraction(c) for c in z["coeffs"]]
            numer, lcm = interpolate(points)
            assert [Fraction(c, lcm) for c in numer] == coeffs
            assert answer == horner(z["coeffs"], z["query_x"]) == FAMILY.answer_from_latent(z)
            # the witness is another integer-coefficient polynomial of exact degree through A's points
            wpoints = [(c["x"], c["y"]) for c in v.a if c["type"] == "point"]
            wpoints.append((witness.constraint["x"], witness.constraint["y"]))
            wcoeffs = vandermonde_coefficients(wpoints)
            assert all(c.denominator == 1 for c in wcoeffs) and wcoeffs[-1] != 0
            assert horner([int(c) for c in wcoeffs], z["query_x"]) == witness.answer != answer


def test_every_completion_of_a_moves_the_target() -> None:
    z = latent([2, 0, -1, 1, 3], [-3, -1, 0, 2, 3], hidden=2, query=-2)
    v = FAMILY.views(z)
    step = horner(vanishing_poly([-3, -1, 2, 3]), 0)
    assert step == (0 + 3) * (0 + 1) * (0 - 2) * (0 - 3) == 18
    answers = {}
    for k in range(-3, 4):
        alt = {**v.hint, "y": v.hint["y"] + k * step}
        try:
            answers[k] = FAMILY.solve([*v.a, alt], v.target)
        except Inconsistent:
            answers[k] = None
    # lead coefficient 3 + k vanishes at k = -3 only; every other k gives a distinct p(-2)
    assert answers[-3] is None
    assert len({a for a in answers.values() if a is not None}) == 6


def test_sampling_follows_the_paper() -> None:
    for d in (1, 2, 3):
        delta, bound = degree_for(d), coefficient_bound(d)
        assert (delta, bound) == ({1: 3, 2: 4, 3: 4}[d], 3 + d)
        for i in range(60):
            z, v, _, _, attempts = sample_valid(FAMILY, 500 * d + i, d)
            assert attempts == 1  # no rejection sampling needed
            assert len(z["coeffs"]) == delta + 1 and z["coeffs"][-1] != 0
            assert all(abs(c) <= bound for c in z["coeffs"])
            assert len(set(z["xs"])) == delta + 1 and z["query_x"] not in z["xs"]
            a_points = [c for c in v.a if c["type"] == "point"]
            assert len(a_points) == delta and all(c["x"] != v.hint["x"] for c in a_points)


def test_slot_is_named_in_a_view() -> None:
    inst = build_instance(FAMILY, instance_id="pol-000001", dataset_seed=5, requested_difficulty=2, index=1)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    x = hint["constraint"]["x"]
    assert hint["slot"] == f"p({x})" and hint["value"] == hint["constraint"]["y"]
    texts = inst["agent_views"][0]["private_data"]["constraints_text"]
    assert not any("not given" in t or "partner" in t for t in texts)
    assert all(not t.startswith(f"p({x}) =") for t in texts)
    a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    assert FAMILY.candidate_slots(a) == [hint["slot"]]
    aliases = hint["request_aliases"]
    assert aliases[0] == f"the value p({x})" and f"the value of p at x = {x}" in aliases
    for c in inst["agent_views"][0]["private_data"]["constraints_machine"]:
        if c["type"] == "point":
            assert FAMILY.slot_name(c) == f"p({c['x']})" and f"p({c['x']})" in FAMILY.slot_aliases(f"p({c['x']})", c)


def test_corruptions_are_rejected() -> None:
    inst = build_instance(FAMILY, instance_id="pol-000002", dataset_seed=5, requested_difficulty=3, index=2)
    assert instance_problems(inst) == []
    # a changed value in A's view (text kept in step): the stored answer no longer follows
    bad = copy.deepcopy(inst)
    a = bad["agent_views"][0]["private_data"]
    k = next(i for i, c in enumerate(a["constraints_machine"]) if c["type"] == "point")
    a["constraints_machine"][k]["y"] += 1
    a["constraints_text"][k] = FAMILY.render(a["constraints_machine"][k])
    assert instance_problems(bad)
    # B holds a point at an x that A already has (with another value): inconsistent
    bad = copy.deepcopy(inst)
    hint = bad["minimal_hint_spec"]["atomic_hints"][0]
    moved = {**hint["constraint"], "x": a["constraints_machine"][k]["x"]}
    hint["constraint"] = moved
    hint["text"] = FAMILY.render(moved)
    bad["agent_views"][1]["private_data"]["constraints_machine"] = [moved]
    bad["agent_views"][1]["private_data"]["constraints_text"] = [FAMILY.render(moved)]
    assert instance_problems(bad)
    # a witness that is not an allowed completion
    bad = copy.deepcopy(inst)
    w = bad["verifier"]["underdetermination_witness"]
    w["constraint"]["y"] += 1
    assert instance_problems(bad)


def test_hard_tier_polynomials_have_higher_degree_than_d3() -> None:
    found = {}
    for difficulty in (3, 4, 5):
        inst = build_instance(FAMILY, instance_id="pol-000000", dataset_seed=5, requested_difficulty=difficulty,
                              index=0)
        domain = inst["agent_views"][0]["private_data"]["constraints_machine"][0]
        assert len(domain["eval_points"]) == degree_for(difficulty) + 1
        found[difficulty] = (degree_for(difficulty), coefficient_bound(difficulty))
        if difficulty >= 4:
            assert all(-4 <= x <= 4 for x in domain["eval_points"]) and -5 <= inst["target"]["x"] <= 5
    assert found == {3: (4, 6), 4: (5, 7), 5: (6, 8)}


def test_k2_second_hint_is_another_evaluation() -> None:
    inst = build_instance(FAMILY, instance_id="pol-000000", dataset_seed=5, requested_difficulty=5, index=2, k=2)
    first, second = inst["minimal_hint_spec"]["atomic_hints"]
    assert first["constraint"]["type"] == second["constraint"]["type"] == "point"
    assert first["slot"] != second["slot"] and second["slot"] == f"p({second['constraint']['x']})"
    view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    assert [c["type"] for c in view_a].count("point") == degree_for(5) - 1
    assert instance_problems(inst) == []
