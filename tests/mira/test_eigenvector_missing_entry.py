"""eigenvector_missing_entry (B5): M with a known eigenvector, one entry withheld; target (M^2)[i][t]."""

from __future__ import annotations

import copy
import random

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.eigenvector_missing_entry import FAMILY, bound, eigen_residual
from generators.instances import build_instance
from verifiers.validate import instance_problems


def latent(m: list[list[int]], v: list[int], lam: int, missing: tuple[int, int], target: tuple[int, int]) -> dict:
    n = len(m)
    return {"n": n, "entry_bound": 3, "eigenvalue": lam, "M": m, "v": v, "missing": list(missing),
            "target": list(target)}


def by_loops(m: list[list[int]], i: int, t: int) -> int:
    """(M^2)[i][t] through an explicit M·M product written out term by term (a third route)."""
    n = len(m)
    square = [[0] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            for k in range(n):
                square[r][c] += m[r][k] * m[k][c]
    return square[i][t]


# The authors' released instance eig-001267 (d = 1): M = [[1, -1], [0, -3]], v = (3, 0), B holds M[0][1] = -1,
# target (M^2)[0][1] = 2.
RELEASE = latent([[1, -1], [0, -3]], [3, 0], 1, (0, 1), (0, 1))


def test_release_instance_eig_001267() -> None:
    v = FAMILY.views(RELEASE)
    assert v.slot == "M[0][1]" and v.value == -1 and v.b == [v.hint]
    assert v.hint == {"type": "matrix_entry", "row": 0, "col": 1, "value": -1}
    assert FAMILY.solve([*v.a, v.hint], v.target) == 2
    assert FAMILY.answer_from_latent(RELEASE) == 2 == by_loops(RELEASE["M"], 0, 1)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, 2)
    assert witness.answer != 2
    texts = [FAMILY.render(c) for c in v.a]
    assert "The entry M[0][1] (row 0, column 1 of M) is not given here; your partner knows it." in texts
    assert "M[1][1] = -3" in texts and "v[1] = 0" in texts
    assert not any(t.startswith("M[0][1] =") for t in texts)
    assert FAMILY.render(v.hint) == "M[0][1] = -1"


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_sampled_latent_state_has_the_paper_structure(difficulty: int) -> None:
    rng = random.Random(difficulty)
    seen_slots = set()
    for _ in range(60):
        try:
            z = FAMILY.sample(rng, difficulty)
        except Reject:
            continue
        n, k, m, v = z["n"], bound(difficulty), z["M"], z["v"]
        i, j = z["missing"]
        _, t = z["target"]
        assert n == difficulty + 1 and k == 3 + 2 * (difficulty - 1)
        assert all(-k <= x <= k for row in m for x in row)
        assert 1 <= z["eigenvalue"] <= k
        assert v[j] == 0 and all(1 <= v[c] <= 3 for c in range(n) if c != j)
        assert eigen_residual(m, v) == z["eigenvalue"]
        assert m[j][t] != 0  # the paper's rule
        # every other value of the withheld entry keeps v an eigenvector, and changes the target
        for x in range(-k, k + 1):
            other = [row[:] for row in m]
            other[i][j] = x
            assert eigen_residual(other, v) == z["eigenvalue"]
        targets = {by_loops([[x if (r, c) == (i, j) else m[r][c] for c in range(n)] for r in range(n)], i, t)
                   for x in range(-k, k + 1)}
        assert len(targets) > 1
        assert FAMILY.answer_from_latent(z) == by_loops(m, i, t)
        seen_slots.add((i, j))
    assert len(seen_slots) > 1


def test_target_column_with_zero_entry_is_rejected() -> None:
    # the release's instance with target column 0: M[1][0] = 0, so (M^2)[0][0] = 1 whatever M[0][1] is
    z = latent([[1, -1], [0, -3]], [3, 0], 1, (0, 1), (0, 0))
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == 1
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 1)


def test_cancelling_dependence_is_rejected_though_the_paper_rule_passes() -> None:
    # t = j != i: the target is x * (M[j][j] + M[i][i]); here M[1][1] = -2 != 0 (paper's rule holds) but
    # M[0][0] + M[1][1] = 0, so (M^2)[0][1] = 0 for every x
    z = latent([[2, 5], [0, -2]], [1, 0], 2, (0, 1), (0, 1))
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == 0
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 0)


def test_entry_in_a_column_the_eigenvector_uses_is_pinned() -> None:
    # v = (1, 1, 0), lambda = 2: row 0 reads M[0][0] + M[0][1] = 2, so M[0][0] follows from A's view
    m = [[1, 1, 3], [2, 0, 1], [-1, 1, 2]]
    z = latent(m, [1, 1, 0], 2, (0, 0), (0, 1))
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == by_loops(m, 0, 1)
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, by_loops(m, 0, 1))
    # and every other value contradicts the eigenvector
    for x in (0, 2, -1):
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "value": x}], v.target)


def test_domain_violations_are_inconsistent() -> None:
    v = FAMILY.views(RELEASE)
    with pytest.raises(Inconsistent):  # not an integer
        FAMILY.solve([*v.a, {**v.hint, "value": 1.5}], v.target)
    broken = [({**c, "value": 1} if c["type"] == "eigvec" and c["index"] == 1 else c) for c in v.a]
    with pytest.raises(Inconsistent):  # v = (3, 1) is not an eigenvector of M
        FAMILY.solve([*broken, v.hint], v.target)
    with pytest.raises(Inconsistent):  # two values for one entry
        FAMILY.solve([*v.a, v.hint, {**v.hint, "value": 0}], v.target)


def make(difficulty: int, index: int) -> dict:
    return build_instance(FAMILY, instance_id=f"eig-{index:06d}", dataset_seed=7, requested_difficulty=difficulty,
                          index=index)


def test_corrupted_eigenvector_is_rejected() -> None:
    inst = make(3, 1)
    a = inst["agent_views"][0]["private_data"]
    k = next(i for i, c in enumerate(a["constraints_machine"]) if c["type"] == "eigvec" and c["value"] != 0)
    a["constraints_machine"][k]["value"] += 1
    a["constraints_text"][k] = FAMILY.render(a["constraints_machine"][k])
    assert instance_problems(inst)


def test_view_names_the_missing_slot_and_aliases_are_precise() -> None:
    for index in range(6):
        inst = make(2, index)
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]
        a = inst["agent_views"][0]["private_data"]
        assert not [c for c in a["constraints_machine"] if c.get("missing_slot")]
        assert FAMILY.candidate_slots(a["constraints_machine"]) == [hint["slot"]]
        assert hint["request_aliases"][0] == f"the entry {hint['slot']}"
        assert hint["slot"] in hint["request_aliases"]
        slots = [FAMILY.slot_name(c) for c in a["constraints_machine"]]
        assert hint["slot"] not in slots
        assert len([s for s in slots if s and s.startswith("M[")]) == 9 - 1


def test_witness_is_another_integer_entry() -> None:
    inst = make(1, 3)
    witness = inst["verifier"]["underdetermination_witness"]["constraint"]
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
    assert witness["type"] == "matrix_entry" and isinstance(witness["value"], int)
    assert (witness["row"], witness["col"]) == (hint["row"], hint["col"]) and witness["value"] != hint["value"]
    bad = copy.deepcopy(inst)
    bad["verifier"]["underdetermination_witness"]["constraint"]["value"] = hint["value"]
    assert instance_problems(bad)


def hard(difficulty: int, index: int, k: int = 1) -> dict:
    return build_instance(FAMILY, instance_id=f"eig-{index:06d}", dataset_seed=29, requested_difficulty=difficulty,
                          index=index, k=k)


def test_d4_and_d5_have_larger_matrices_and_entries_than_d3() -> None:
    def size(d: int, i: int) -> tuple[int, int]:
        z = hard(d, i)["global_metadata"]["latent"]
        assert len(z["M"]) == z["n"] and max(abs(x) for row in z["M"] for x in row) <= z["entry_bound"]
        return z["n"], z["entry_bound"]

    assert {d: {size(d, i) for i in range(3)} for d in (3, 4, 5)} == {3: {(4, 7)}, 4: {(5, 9)}, 5: {(6, 11)}}


def test_a_k2_instance_withholds_two_entries_of_the_free_column() -> None:
    for index in range(3):
        inst = hard(5, index, k=2)
        z = inst["global_metadata"]["latent"]
        (i, j), (_, t) = z["missing"], z["target"]
        hints = inst["minimal_hint_spec"]["atomic_hints"]
        assert [h["kind"] for h in hints] == ["matrix_entry", "matrix_entry"]
        assert t == j and [h["constraint"]["col"] for h in hints] == [j, j]
        assert hints[0]["constraint"]["row"] == i and hints[1]["constraint"]["row"] != i
        assert z["v"][j] == 0 and z["M"][i][hints[1]["constraint"]["row"]] != 0
