"""recurrence_missing_init (A11): A knows r1, r2, a(0); B holds a(1); target a(n*)."""

from __future__ import annotations

import random

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.recurrence_missing_init import FAMILY, basis_terms, iterate, ranges
from generators.instances import build_instance, sample_valid
from tests.mira.typea_views import default_view_candidates, notice_of
from verifiers.validate import instance_problems


def latent(r1: int, r2: int, a0: int, a1: int, n: int) -> dict:
    return {"r1": r1, "r2": r2, "a0": a0, "a1": a1, "n": n}


def matrix_power_term(r1: int, r2: int, a0: int, a1: int, n: int) -> int:
    """a(n) from the companion matrix: (a(n+1), a(n)) = M^n (a(1), a(0)), M = [[r1, r2], [1, 0]]."""
    result = [[1, 0], [0, 1]]
    base = [[r1, r2], [1, 0]]
    k = n
    while k:
        if k & 1:
            result = [[sum(result[i][m] * base[m][j] for m in range(2)) for j in range(2)] for i in range(2)]
        base = [[sum(base[i][m] * base[m][j] for m in range(2)) for j in range(2)] for i in range(2)]
        k >>= 1
    return result[1][0] * a1 + result[1][1] * a0


def test_release_instance_rec_000612_is_degenerate_and_rejected() -> None:
    # rec-000612: a(n+2) = 2 a(n+1) - 2 a(n), a(0) = 1, B holds a(1) = -3, target a(8) = 16.
    z = latent(2, -2, 1, -3, 8)
    v = FAMILY.views(z)
    assert FAMILY.solve([*v.a, v.hint], v.target) == 16
    assert basis_terms(2, -2, 8) == (16, 0)  # a(8) = 16·a(0) + 0·a(1)
    assert FAMILY.solve(v.a, v.target) == 16  # A needs no hint at all
    with pytest.raises(CheckFailed) as exc:
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 16)
    assert exc.value.check == "local_underdetermination"
    with pytest.raises(Reject):  # the sampler refuses these parameters when it draws them
        FAMILY.sample(ScriptedRng([2, -2, 1, -3, 8]), 1)  # type: ignore[arg-type]


class ScriptedRng:
    """Stands in for random.Random: randint returns the scripted values in order."""

    def __init__(self, values: list[int]):
        self.values = list(values)

    def randint(self, lo: int, hi: int) -> int:
        value = self.values.pop(0)
        assert lo <= value <= hi
        return value


@pytest.mark.parametrize(("r1", "r2", "n"), [(1, -1, 6), (2, -2, 4), (1, -1, 9)])
def test_digest_degenerate_cases_pin_the_answer_from_a(r1: int, r2: int, n: int) -> None:
    assert basis_terms(r1, r2, n)[1] == 0
    v = FAMILY.views(latent(r1, r2, 3, 2, n))
    with pytest.raises(CheckFailed):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, FAMILY.solve([*v.a, v.hint], v.target))


def test_sampler_accepts_a_regular_draw() -> None:
    assert FAMILY.sample(ScriptedRng([2, -1, 1, -3, 6]), 1) == latent(2, -1, 1, -3, 6)  # type: ignore[arg-type]
    with pytest.raises(Reject):
        FAMILY.sample(ScriptedRng([3, 0, 1, -3, 6]), 1)  # type: ignore[arg-type]


def test_r2_zero_lets_b_alone_solve_and_is_rejected() -> None:
    v = FAMILY.views(latent(3, 0, 2, -1, 5))
    answer = FAMILY.solve([*v.a, v.hint], v.target)
    assert answer == -81 == FAMILY.solve(v.b, v.target)  # a(5) = 3^4·a(1): a(0) is irrelevant
    with pytest.raises(CheckFailed) as exc:
        check_views(FAMILY, v.a, v.b, v.hint, v.target, answer)
    assert exc.value.check == "local_underdetermination_b"


def test_three_routes_agree() -> None:
    rng = random.Random(11)
    for _ in range(300):
        r1, r2, n = rng.randint(1, 6), rng.randint(-2, 2), rng.randint(0, 10)
        a0, a1 = rng.randint(-6, 6), rng.randint(-6, 6)
        p, q = basis_terms(r1, r2, n)
        assert iterate(r1, r2, a0, a1, n) == matrix_power_term(r1, r2, a0, a1, n) == p * a0 + q * a1


def test_generated_instances_follow_the_paper() -> None:
    for d in (1, 2, 3):
        r1_max, init_max, n_max = ranges(d)
        assert (r1_max, init_max, n_max) == (3 + d, 3 + d, 7 + d)
        for i in range(30):
            z, v, answer, _, _ = sample_valid(FAMILY, 500 * d + i, d)
            assert 1 <= z["r1"] <= r1_max and -2 <= z["r2"] <= 2 and z["r2"] != 0
            assert abs(z["a0"]) <= init_max and abs(z["a1"]) <= init_max and 4 <= z["n"] <= n_max
            by_matrix = matrix_power_term(z["r1"], z["r2"], z["a0"], z["a1"], z["n"])
            assert answer == FAMILY.answer_from_latent(z) == by_matrix
            assert v.target["index"] == z["n"] and f"a({z['n']})" in v.question


def test_sampler_covers_the_ranges() -> None:
    rng = random.Random(2)
    seen_r1, seen_r2, seen_n = set(), set(), set()
    for _ in range(2000):
        try:
            z = FAMILY.sample(rng, 3)
        except Reject:
            continue
        seen_r1.add(z["r1"])
        seen_r2.add(z["r2"])
        seen_n.add(z["n"])
    assert seen_r1 == set(range(1, 7)) and seen_r2 == {-2, -1, 1, 2} and seen_n == set(range(4, 11))


def test_corruptions() -> None:
    v = FAMILY.views(latent(2, 1, 1, 3, 6))
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, v.hint, {**v.hint, "value": 4}], v.target)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "value": 1.5}], v.target)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.b, v.target)
    inst = build_instance(FAMILY, instance_id="rec-000000", dataset_seed=1234, requested_difficulty=1, index=2)
    assert instance_problems(inst) == []
    inst["target"]["index"] += 1  # asking for another term: the stored answer no longer fits
    assert any(f == "global_solution" for f, _ in instance_problems(inst))


def test_texts_and_slots() -> None:
    v = FAMILY.views(latent(2, -2, 1, -3, 8))
    assert FAMILY.render(v.a[0]) == "Recurrence: a(n+2) = 2·a(n+1) - 2·a(n) for every n >= 0"
    fibonacci = FAMILY.views(latent(1, 1, 0, 1, 5)).a[0]
    assert FAMILY.render(fibonacci) == "Recurrence: a(n+2) = a(n+1) + a(n) for every n >= 0"
    assert [FAMILY.render(c) for c in v.b] == [FAMILY.render(v.a[0]), "a(1) = -3"]
    assert v.slot == "a(1)" and FAMILY.slot_name(v.hint) == "a(1)"
    assert FAMILY.canonical_request(v.slot, v.hint) == "What is the initial value a(1)?"
    assert "a_1" in FAMILY.slot_aliases("a(1)", v.hint)
    assert FAMILY.slot_name(v.a[1]) == "a(0)" and FAMILY.slot_aliases("a(0)", v.a[1])[0] == "the initial value a(0)"


def test_default_view_states_the_sequence_but_not_who_holds_a1() -> None:
    sizes = default_view_candidates(FAMILY, seeds=60)
    assert set(sizes) == {1}
    v = FAMILY.views(latent(2, -2, 3, -3, 5))
    assert FAMILY.render(v.a[2]) == (
        "a(0), a(1), a(2), ... is a sequence of integers that satisfies the recurrence for every n >= 0."
    )
    assert "your partner knows it" in notice_of(FAMILY, v.a, "a(1)")
    assert FAMILY.candidate_slots(v.a) == ["a(1)"]
    assert FAMILY.candidate_slots([v.a[0], v.hint]) == ["a(0)"]


def test_hard_difficulties_extend_the_ranges() -> None:
    assert ranges(3) == (6, 6, 10)
    assert ranges(4) == (7, 7, 11)
    assert ranges(5) == (8, 8, 12)
    n_max = max(build_instance(FAMILY, instance_id=f"rec-{i:06d}", dataset_seed=3, requested_difficulty=5,
                               index=i)["global_metadata"]["latent"]["n"] for i in range(30))
    assert n_max > ranges(3)[2]


def test_k2_withholds_the_recurrence_rule_as_well() -> None:
    inst = build_instance(FAMILY, instance_id="rec-000000", dataset_seed=5, requested_difficulty=4, index=0, k=2)
    h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
    assert (h1["slot"], h2["slot"]) == ("a(1)", "recurrence")
    assert h2["constraint"]["type"] == "recurrence"
    view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    view_b = inst["agent_views"][1]["private_data"]["constraints_machine"]
    assert [c["type"] for c in view_a] == ["init", "domain"]
    assert view_b.count(h2["constraint"]) == 1
    assert "r1 and r2" in inst["agent_views"][0]["private_data"]["constraints_text"][1]
    assert instance_problems(inst) == []
