"""markov_missing_transition (B8): one row of P partly withheld (B holds one entry); target pi_s."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from generators.base import Reject, without_notices
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.markov_missing_transition import (
    FAMILY,
    stationary_by_elimination,
    stationary_by_trees,
    stationary_scaled,
)
from generators.instances import build_instance
from verifiers.validate import instance_problems


def latent(parts: list[list[int]], row: int, hint_col: int, derived_col: int, target: int) -> dict:
    n = len(parts)
    known = sorted(c for c in range(n) if c not in (hint_col, derived_col))
    return {"n_states": n, "parts": parts, "row": row, "known_cols": known, "hint_col": hint_col,
            "derived_col": derived_col, "target_state": target}


def matrix(parts: list[list[int]]) -> list[list[Fraction]]:
    return [[Fraction(x, sum(row)) for x in row] for row in parts]


def power_iteration_close(p: list[list[Fraction]], pi: list[Fraction], squarings: int = 6) -> bool:
    """Exact power iteration: every row of P^(2^k) approaches pi (checked within 10^-9, in Fractions)."""
    m = p
    n = len(p)
    for _ in range(squarings):
        m = [[sum((m[i][k] * m[k][j] for k in range(n)), Fraction(0)) for j in range(n)] for i in range(n)]
    return all(abs(m[i][j] - pi[j]) < Fraction(1, 10**9) for i in range(n) for j in range(n))


# The authors' released instance mar-001736 (d = 1): both rows (2/5, 3/5), B holds P(0->0) = 2/5, pi_0 = 2/5.
RELEASE = latent([[2, 3], [2, 3]], 0, 0, 1, 0)


def test_release_instance_mar_001736() -> None:
    v = FAMILY.views(RELEASE)
    assert v.slot == "P(0->0)" and v.value == {"numerator": 2, "denominator": 5} and v.b == [v.hint]
    assert v.hint == {"type": "transition", "from_state": 0, "to_state": 0, "num": 2, "denom": 5, "row_partner": 1}
    assert FAMILY.render(v.hint) == "P(0->0) = 2/5 (with row 0 summing to 1, this also fixes P(0->1))"
    assert FAMILY.solve([*v.a, v.hint], v.target) == Fraction(2, 5)
    assert FAMILY.answer_from_latent(RELEASE) == Fraction(2, 5)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    a = without_notices(v.a)
    witness = check_views(FAMILY, a, v.b, v.hint, v.target, Fraction(2, 5))
    assert witness.answer != Fraction(2, 5)
    assert FAMILY.candidate_slots(a) == ["P(0->0)", "P(0->1)"]
    texts = [FAMILY.render(c) for c in v.a]  # the slot-notice ablation's view
    assert ("The transition probability P(0->0) is not given here; your partner knows it. P(0->1) is not given "
            "either: it follows from row 0 summing to 1 once P(0->0) is known.") in texts
    assert "P(1->0) = 2/5" in texts and not any(t.startswith("P(0->") for t in texts)


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_routes_agree_and_pi_is_stationary(difficulty: int) -> None:
    rng = random.Random(400 + difficulty)
    done = 0
    while done < 6:
        try:
            z = FAMILY.sample(rng, difficulty)
        except Reject:
            continue
        done += 1
        n = z["n_states"]
        assert n == min(difficulty + 1, 4)
        assert all(1 <= x <= 2 + difficulty for row in z["parts"] for x in row)
        assert all(sum(row) <= n * (2 + difficulty) for row in z["parts"])
        p = matrix(z["parts"])
        by_det = stationary_scaled(z["parts"], [sum(row) for row in z["parts"]])
        assert by_det == stationary_by_trees(z["parts"]) == stationary_by_elimination(p)
        assert sum(by_det) == 1
        assert all(sum(by_det[i] * p[i][j] for i in range(n)) == by_det[j] for j in range(n))  # pi P = pi
        assert power_iteration_close(p, by_det)
        s = z["target_state"]
        assert by_det[s].denominator <= 200
        v = FAMILY.views(z)
        assert FAMILY.solve([*v.a, v.hint], v.target) == by_det[s] == FAMILY.answer_from_latent(z)
        # A knows exactly n - 2 entries of the withheld row
        assert len([c for c in v.a if c["type"] == "transition" and c["from_state"] == z["row"]]) == n - 2


def test_lumpable_chain_where_the_target_ignores_the_hint_is_rejected() -> None:
    # rows 1 and 2 are equal, so states 1 and 2 lump together: moving mass between P(0->1) and P(0->2)
    # does not change pi_0
    z = latent([[2, 3, 1], [2, 1, 1], [2, 1, 1]], 0, 1, 2, 0)
    v = FAMILY.views(z)
    expected = stationary_by_trees(z["parts"])[0]
    assert FAMILY.solve(v.a, v.target) == expected
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, expected)
    with pytest.raises(Reject, match="does not depend"):  # and the sampler refuses to draw it
        FAMILY.sample(ScriptedRng([*(x for row in z["parts"] for x in row), 0, 0]), 2)


def test_sampled_targets_depend_on_the_withheld_entry() -> None:
    rng = random.Random(0)
    for _ in range(100):
        try:
            z = FAMILY.sample(rng, 2)
        except Reject:
            continue
        p = matrix(z["parts"])
        r, c, d, s = z["row"], z["hint_col"], z["derived_col"], z["target_state"]
        room = p[r][c] + p[r][d]
        for share in (Fraction(1, 7), Fraction(5, 7)):
            moved = [row[:] for row in p]
            moved[r][c], moved[r][d] = room * share, room * (1 - share)
            if moved[r][c] != p[r][c]:
                assert stationary_by_elimination(moved)[s] != stationary_by_elimination(p)[s]


class ScriptedRng:
    """Replays given randint/randrange results; shuffle leaves the list as it is."""

    def __init__(self, values: list[int]):
        self.values = list(values)

    def randint(self, lo: int, hi: int) -> int:
        return self.values.pop(0)

    def randrange(self, n: int) -> int:
        return self.values.pop(0)

    def shuffle(self, xs: list) -> None:
        pass


def test_giving_a_the_derivable_entry_is_rejected() -> None:
    # the paper's split needs two missing entries in the row: with only one, the row sum gives it away
    z = latent([[1, 2, 3], [3, 2, 1], [1, 1, 1]], 1, 0, 2, 2)
    v = FAMILY.views(z)
    derived = {"type": "transition", "from_state": 1, "to_state": 2, "num": 1, "denom": 6}
    expected = stationary_by_trees(z["parts"])[2]
    assert FAMILY.solve([*v.a, derived], v.target) == expected
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, [*v.a, derived], v.b, v.hint, v.target, expected)


def test_completions_outside_the_stated_domain_are_inconsistent() -> None:
    z = latent([[1, 2, 3], [3, 2, 1], [1, 1, 1]], 1, 0, 2, 2)
    v = FAMILY.views(z)
    # A knows P(1->1) = 1/3, so P(1->0) must lie strictly between 0 and 2/3
    for bad in ((2, 3), (3, 4), (0, 1), (-1, 6)):
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "num": bad[0], "denom": bad[1]}], v.target)
    alternatives = list(FAMILY.hint_alternatives(v.hint, v.a, v.target))
    assert all(0 < Fraction(c["num"], c["denom"]) < Fraction(2, 3) for c in alternatives)


def make(difficulty: int, index: int) -> dict:
    return build_instance(FAMILY, instance_id=f"mar-{index:06d}", dataset_seed=17, requested_difficulty=difficulty,
                          index=index)


def test_corrupted_row_that_does_not_sum_to_one_is_rejected() -> None:
    inst = make(3, 1)
    a = inst["agent_views"][0]["private_data"]
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
    k = next(i for i, c in enumerate(a["constraints_machine"])
             if c["type"] == "transition" and c["from_state"] != hint["from_state"])
    c = a["constraints_machine"][k]
    c["num"], c["denom"] = (1, 2 * c["denom"]) if c["num"] != 1 else (1, c["denom"] + 1)
    a["constraints_text"][k] = FAMILY.render(c)
    assert instance_problems(inst)


def test_both_absent_entries_are_candidates_and_name_b_fact() -> None:
    slots = set()
    for index in range(10):
        inst = make(3, index)
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]
        slots.add(hint["slot"])
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in a if c.get("missing_slot")]
        r, partner = hint["constraint"]["from_state"], hint["constraint"]["row_partner"]
        derived = f"P({r}->{partner})"
        assert FAMILY.candidate_slots(a) == sorted([hint["slot"], derived])
        assert derived in hint["text"] and derived in hint["request_aliases"]
        names = [FAMILY.slot_name(c) for c in a]
        assert hint["slot"] not in names and derived not in names
        notice = FAMILY.views(inst["global_metadata"]["latent"]).a
        assert [c["derived_slot"] for c in notice if c.get("missing_slot")] == [derived]
        assert hint["request_aliases"][0] == f"the transition probability {hint['slot']}"
        assert inst["answer_type"] == "rational"
    assert len(slots) >= 5


def test_hard_tier_chains_are_larger_than_d3() -> None:
    from generators.families.markov_missing_transition import max_denominator, n_states

    found = {}
    for difficulty in (3, 4, 5):
        inst = build_instance(FAMILY, instance_id="mar-000000", dataset_seed=5, requested_difficulty=difficulty,
                              index=0)
        n = inst["agent_views"][0]["private_data"]["constraints_machine"][0]["n_states"]
        assert n == n_states(difficulty)
        assert Fraction(**inst["global_solution"]).denominator <= max_denominator(difficulty)
        found[difficulty] = (n, max_denominator(difficulty))
    assert found == {3: (4, 200), 4: (5, 10**6), 5: (6, 10**7)}


def test_k2_second_hint_is_an_entry_of_another_row_with_its_partner() -> None:
    inst = build_instance(FAMILY, instance_id="mar-000000", dataset_seed=5, requested_difficulty=5, index=4, k=2)
    first, second = (h["constraint"] for h in inst["minimal_hint_spec"]["atomic_hints"])
    assert first["type"] == second["type"] == "transition" and first["from_state"] != second["from_state"]
    view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    held = {(c["from_state"], c["to_state"]) for c in view_a if c["type"] == "transition"}
    gaps = {(h["from_state"], col) for h in (first, second) for col in (h["to_state"], h["row_partner"])}
    assert len(gaps) == 4 and not gaps & held and len(held) == 36 - 4
    assert sorted(inst["verifier"]["candidate_slots"]) == sorted(f"P({i}->{j})" for i, j in gaps)
    for h in (first, second):  # each text's "this also fixes" is true: the row's other gap is the partner
        assert FAMILY.settled_slots(h) == [f"P({h['from_state']}->{h['row_partner']})"]
    assert instance_problems(inst) == []
