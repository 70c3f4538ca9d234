"""discrete_tomography (B4): row and column sums known to A, one named cell held by B; target another cell."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.discrete_tomography import (
    FAMILY,
    GRIDS_BY_MARGINS,
    MARGINS,
    SIZE,
    bit,
    qualifying_hints,
    settling_cells,
)
from generators.instances import build_instance, sample_valid
from verifiers.validate import instance_problems

ALL_GRIDS = [[list(bits[0:3]), list(bits[3:6]), list(bits[6:9])] for bits in itertools.product((0, 1), repeat=9)]


def consistent(rows: list[int], cols: list[int], cells: dict[tuple[int, int], int]) -> list[list[list[int]]]:
    """Brute force over all 512 grids, independently of the family's lookup tables."""
    return [
        g
        for g in ALL_GRIDS
        if [sum(r) for r in g] == rows
        and [sum(g[i][j] for i in range(3)) for j in range(3)] == cols
        and all(g[i][j] == v for (i, j), v in cells.items())
    ]


def sums(view: list[dict]) -> tuple[list[int], list[int]]:
    rows = [c["value"] for c in sorted((c for c in view if c["type"] == "row_sum"), key=lambda c: c["row"])]
    cols = [c["value"] for c in sorted((c for c in view if c["type"] == "col_sum"), key=lambda c: c["col"])]
    return rows, cols


def test_generated_instances_by_brute_force() -> None:
    for seed in range(150):
        z, v, answer, _, _ = sample_valid(FAMILY, 2024 + seed, 1)
        rows, cols = sums(v.a)
        (ti, tj), (hi, hj) = z["target"], z["hint"]
        assert (ti, tj) != (hi, hj)
        grids = consistent(rows, cols, {})
        assert {g[ti][tj] for g in grids} == {0, 1}  # the target cell is ambiguous for A
        v_h = v.hint["value"]
        pinned = consistent(rows, cols, {(hi, hj): v_h})
        assert pinned == [z["grid"]] and z["grid"][ti][tj] == answer  # the paper's rule: exactly one grid
        other = consistent(rows, cols, {(hi, hj): 1 - v_h})
        assert other and {g[ti][tj] for g in other} == {1 - answer}  # B's other reply fixes the other bit
        assert FAMILY.answer_from_latent(z) == answer


def test_release_example_dis_001136_meets_the_paper_rule_but_not_ours() -> None:
    """Sums (1,2,1)/(2,1,1), target cell(0,0) = 0, B holds cell(0,1) = 1: one grid with the hint, as the paper
    asks, but with cell(0,1) = 0 the target stays open, so no reply of B's could witness A's uncertainty."""
    grid = [[0, 1, 0], [1, 0, 1], [1, 0, 0]]
    z = {"grid": grid, "target": [0, 0], "hint": [0, 1]}
    v = FAMILY.views(z)
    assert [FAMILY.render(c) for c in v.a[1:7]] == [
        "r_0 = 1 (row 0 sums to 1)",
        "r_1 = 2 (row 1 sums to 2)",
        "r_2 = 1 (row 2 sums to 1)",
        "c_0 = 2 (column 0 sums to 2)",
        "c_1 = 1 (column 1 sums to 1)",
        "c_2 = 1 (column 2 sums to 1)",
    ]
    assert FAMILY.render(v.a[7]) == "No cell values are given here; your partner knows the value of cell(0,1)."
    assert FAMILY.render(v.hint) == "cell(0,1) = 1" and v.slot == "cell(0,1)"
    assert consistent([1, 2, 1], [2, 1, 1], {(0, 1): 1}) == [grid]
    assert FAMILY.solve([*v.a, v.hint], v.target) == 0
    with pytest.raises(NotUnique):
        FAMILY.solve([*v.a, {**v.hint, "value": 0}], v.target)
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 0)


def test_degenerate_instances_are_rejected() -> None:
    # sums with a single completion: A's view already determines every cell
    full = {"grid": [[1, 1, 1], [1, 1, 1], [1, 1, 0]], "target": [0, 0], "hint": [2, 2]}
    v = FAMILY.views(full)
    assert FAMILY.solve(v.a, v.target) == 1
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 1)
    # the hint cell is the target cell (the paper requires them to differ)
    same = {"grid": [[1, 0, 0], [0, 1, 0], [0, 0, 0]], "target": [0, 0], "hint": [0, 0]}
    v = FAMILY.views(same)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, v.hint], v.target)
    with pytest.raises(CheckFailed, match="global_uniqueness"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, 1)
    # cell values outside {0, 1}, sums no grid has
    v = FAMILY.views({"grid": [[1, 0, 0], [0, 1, 0], [0, 0, 0]], "target": [0, 0], "hint": [1, 0]})
    for bad in (2, -1, True):
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "value": bad}], v.target)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {"type": "row_sum", "row": 0, "value": 4}], v.target)


def test_always_effective_difficulty_one_with_named_cells() -> None:
    seen_hints, seen_targets = set(), set()
    for i in range(60):
        inst = build_instance(FAMILY, instance_id=f"dis-{i:06d}", dataset_seed=1234, requested_difficulty=3, index=i)
        assert inst["difficulty"] == 1 and inst["requested_difficulty"] == 3 and inst["request_budget"] == 3
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in a if "missing_slot" in c]
        candidates = FAMILY.candidates_for(a, inst["target"])
        assert hint["slot"] in candidates and len(candidates) in (1, 3)
        assert hint["constraint"]["settles"] == [c for c in candidates if c != hint["slot"]]
        for cell in candidates:  # a request for any candidate names B's fact
            assert FAMILY.slot_aliases(cell, {})[0] in hint["request_aliases"]
        seen_hints.add(hint["slot"])
        seen_targets.add((inst["target"]["row"], inst["target"]["col"]))
    assert len(seen_hints) >= 7 and len(seen_targets) >= 7
    aliases = FAMILY.slot_aliases("cell(1,2)", {"type": "cell", "row": 1, "col": 2, "value": 0})
    assert aliases[0] == "the value of cell(1,2)"
    assert {"cell(1,2)", "G[1][2]", "c12", "x_1_2", "the cell in row 1, column 2"} <= set(aliases)
    assert FAMILY.slot_aliases("row_sum(2)", {})[:3] == ["the sum of row 2", "row_sum(2)", "r_2"]


def test_family_specific_corruptions_are_rejected() -> None:
    base = build_instance(FAMILY, instance_id="dis-000004", dataset_seed=1234, requested_difficulty=2, index=4)
    assert instance_problems(base) == []

    inst = json.loads(json.dumps(base))  # B's cell flipped: A + hint now gives the other bit
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    flipped = {**hint["constraint"], "value": 1 - hint["constraint"]["value"]}
    hint.update(constraint=flipped, value=flipped["value"], text=FAMILY.render(flipped))
    inst["agent_views"][1]["private_data"].update(
        constraints_machine=[flipped], constraints_text=[FAMILY.render(flipped)]
    )
    assert any(f == "global_solution" for f, _ in instance_problems(inst))

    inst = json.loads(json.dumps(base))  # one row sum moved to another row: the sums no longer match a grid
    data = inst["agent_views"][0]["private_data"]
    rows = [i for i, c in enumerate(data["constraints_machine"]) if c["type"] == "row_sum"]
    a, b = (data["constraints_machine"][i] for i in rows[:2])
    if a["value"] == b["value"]:
        a["value"] = (a["value"] + 1) % 4
    else:
        a["value"], b["value"] = b["value"], a["value"]
    for i in rows[:2]:
        data["constraints_text"][i] = FAMILY.render(data["constraints_machine"][i])
    assert instance_problems(inst)

    inst = json.loads(json.dumps(base))  # the target moved onto the hint cell
    inst["target"].update(row=hint["constraint"]["row"], col=hint["constraint"]["col"])
    assert instance_problems(inst)


def test_b_fact_settles_every_candidate_whatever_its_value() -> None:
    """Over every (grid, target, hint) the generator can draw: 1 or 3 candidates, and either value of the hint
    cell settles every candidate, so the hint's text ("this also settles ...") is true of the witness too."""
    sizes = set()
    for g in range(1 << (SIZE * SIZE)):
        completions = GRIDS_BY_MARGINS[MARGINS[g]]
        for target in [(i, j) for i in range(SIZE) for j in range(SIZE)]:
            if len({bit(c, *target) for c in completions}) < 2:
                continue
            candidates = settling_cells(MARGINS[g], target)
            for hint in qualifying_hints(g, target):
                assert hint in candidates
                sizes.add(len(candidates))
                for value in (0, 1):
                    left = [c for c in completions if bit(c, *hint) == value]
                    assert all(len({bit(c, *cell) for c in left}) == 1 for cell in candidates)
    assert sizes == {1, 3}


def test_rule_responder_reads_each_candidate_cell_as_its_own_quantity() -> None:
    """A request for any one cell B's fact settles is offered; one naming two of them asks for two things."""
    from harness.mira.agents.rule import judge
    from harness.mira.agents.rule_lexicon import build_lexicon

    inst = next(i for i in (build_instance(FAMILY, instance_id=f"dis-{k:06d}", dataset_seed=1234,
                                           requested_difficulty=1, index=k) for k in range(40))
                if len(i["minimal_hint_spec"]["atomic_hints"][0]["constraint"]["settles"]) == 2)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    assert FAMILY.settled_slots(hint["constraint"]) == hint["constraint"]["settles"]
    lexicon = build_lexicon(inst)
    first, second = hint["constraint"]["settles"]
    for cell in (hint["slot"], first, second):
        assert judge(f"What is {cell}?", lexicon).offer, cell
    for request in (f"What are {hint['slot']} and {first}?", f"What are {first} and {second}?"):
        got = judge(request, lexicon)
        assert (got.offer, got.rule) == (False, "two_quantities"), request


def hard(difficulty: int, index: int, k: int = 1) -> dict:
    return build_instance(FAMILY, instance_id=f"dis-{index:06d}", dataset_seed=29, requested_difficulty=difficulty,
                          index=index, k=k)


def test_d4_and_d5_are_real_difficulties_with_4x4_and_5x5_grids() -> None:
    assert [FAMILY.effective_difficulty(d) for d in (1, 2, 3, 4, 5)] == [1, 1, 1, 4, 5]
    for d, n in ((3, 3), (4, 4), (5, 5)):
        for i in range(3):
            inst = hard(d, i)
            grid = inst["global_metadata"]["latent"]["grid"]
            assert len(grid) == n and {len(row) for row in grid} == {n}
            sums = [c for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if "sum" in c["type"]]
            assert len(sums) == 2 * n
            assert inst["request_budget"] == 3 * (1 if d == 3 else d)


def test_interchanges_find_every_grid_the_enumeration_finds() -> None:
    from generators.families.discrete_tomography import _enumerate, completions_of, nmargins

    rng = random.Random(5)
    for n in (4, 5):
        for _ in range(30):
            g = rng.randrange(1 << (n * n))
            found = completions_of(g, n)
            if found is not None:
                assert found == _enumerate(nmargins(g, n), n)


def test_a_k2_instance_withholds_two_cells_neither_settling_the_target_alone() -> None:
    for i in range(3):
        inst = hard(4 + i % 2, i, k=2)
        hints = inst["minimal_hint_spec"]["atomic_hints"]
        assert [h["kind"] for h in hints] == ["cell", "cell"]
        view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in view_a if c["type"] == "cell"]
        for hint in hints:
            assert hint["slot"] in inst["verifier"]["candidate_slots"]
            with pytest.raises(NotUnique):
                FAMILY.solve([*view_a, hint["constraint"]], inst["target"])
        both = FAMILY.solve([*view_a, *(h["constraint"] for h in hints)], inst["target"])
        assert both == inst["global_solution"]["value"]
        first, second = (set(h["constraint"]["settles"]) for h in hints)
        assert not first & second
