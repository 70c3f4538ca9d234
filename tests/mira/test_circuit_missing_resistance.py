"""circuit_missing_resistance (B2): topology shared, A misses one resistance, B holds it; target R_eq."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.circuit_missing_resistance import FAMILY
from generators.instances import build_instance, sample_valid
from generators.linalg import solve_unique
from verifiers.validate import instance_problems


def leaf(k: int) -> list:
    return ["leaf", k]


# T3 (cir-000924): R1 = 8, R2 = 11, R3 = 7 (held by B), R4 = 1, R5 = 4, R6 = 9, R7 = 6;
# G1 = R3 + R7, G2 = R2 + R5, G3 = R1 + G2, G4 = G3 + R6, G5 = G4 + R4, R_eq = G1 || G5 = 429/46.
T3_TREE = [
    "parallel",
    ["series", leaf(3), leaf(7)],
    ["series", ["series", ["series", leaf(1), ["series", leaf(2), leaf(5)]], leaf(6)], leaf(4)],
]
T3 = {"n_resistors": 7, "r_min": 1, "r_max": 11, "tree": T3_TREE, "values": [8, 11, 7, 1, 4, 9, 6], "missing": 3}


def nodal_resistance(tree: list, values: list[int]) -> Fraction:
    """Independent route: Kirchhoff nodal analysis of the network (terminal 0, ground 1, 1 A injected)."""
    edges: list[tuple[int, int, int]] = []
    nodes = [2]

    def place(node: list, a: int, b: int) -> None:
        if node[0] == "leaf":
            edges.append((a, b, values[node[1] - 1]))
        elif node[0] == "series":
            mid = nodes[0]
            nodes[0] += 1
            place(node[1], a, mid)
            place(node[2], mid, b)
        else:
            place(node[1], a, b)
            place(node[2], a, b)

    place(tree, 0, 1)
    free = [v for v in range(nodes[0]) if v != 1]  # node 1 is grounded
    index = {v: i for i, v in enumerate(free)}
    g = [[Fraction(0)] * len(free) for _ in free]
    for a, b, r in edges:
        for u, w in ((a, b), (b, a)):
            if u in index:
                g[index[u]][index[u]] += Fraction(1, r)
                if w in index:
                    g[index[u]][index[w]] -= Fraction(1, r)
    current = [Fraction(1) if v == 0 else Fraction(0) for v in free]
    return solve_unique(g, current)[index[0]]


def test_paper_t3_equivalent_resistance_429_over_46() -> None:
    v = FAMILY.views(T3)
    assert v.slot == "R3" and v.value == 7
    assert FAMILY.render(v.hint) == "R3 = 7 ohms"
    texts = [FAMILY.render(c) for c in v.a]
    assert texts[1:7] == [
        "G1 consists of R3 and R7 connected in series (G1 = R3 + R7).",
        "G2 consists of R2 and R5 connected in series (G2 = R2 + R5).",
        "G3 consists of R1 and G2 connected in series (G3 = R1 + G2).",
        "G4 consists of G3 and R6 connected in series (G4 = G3 + R6).",
        "G5 consists of G4 and R4 connected in series (G5 = G4 + R4).",
        "G6 consists of G1 and G5 connected in parallel (G6 = G1*G5/(G1 + G5)).",
    ]
    assert "The resistance of R3 is not given here; your partner knows it." in texts
    assert "R3 = 7 ohms" not in texts
    assert FAMILY.solve([*v.a, v.hint], v.target) == Fraction(429, 46)
    assert FAMILY.answer_from_latent(T3) == nodal_resistance(T3_TREE, T3["values"]) == Fraction(429, 46)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    check_views(FAMILY, v.a, v.b, v.hint, v.target, Fraction(429, 46))
    # the T3 request matches; B's topology sentences are context, not slots
    assert "the resistance of R3" in FAMILY.slot_aliases("R3", v.hint)
    assert FAMILY.canonical_request(v.slot, v.hint) == "What is the resistance of R3?"
    assert [FAMILY.slot_name(c) for c in v.b] == [None] * 6 + ["R3"]


def test_answer_matches_nodal_analysis_on_generated_instances() -> None:
    for d in (1, 2, 3):
        for seed in range(25):
            z, v, answer, _, _ = sample_valid(FAMILY, 9100 * d + seed, d)
            assert answer == nodal_resistance(z["tree"], z["values"])
            assert answer.denominator <= 500
            assert len(z["values"]) == 2 * d + 1 and all(1 <= r <= 5 + 3 * (d - 1) for r in z["values"])
            assert len([c for c in v.a if c["type"] == "topology"]) == 2 * d


def test_r_eq_is_strictly_increasing_in_the_hidden_resistance() -> None:
    for d in (1, 2, 3):
        for seed in range(8):
            _, v, _, _, _ = sample_valid(FAMILY, 300 * d + seed, d)
            values = [
                FAMILY.solve([*v.a, {**v.hint, "value": r}], v.target) for r in range(1, 5 + 3 * (d - 1) + 1)
            ]
            assert all(a < b for a, b in itertools.pairwise(values))


def test_topology_uses_every_resistor_once_and_names_nest() -> None:
    for i in range(40):
        inst = build_instance(FAMILY, instance_id=f"cir-{i:06d}", dataset_seed=1234, requested_difficulty=3, index=i)
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        groups = [c for c in a if c["type"] == "topology"]
        defined = [g["group"] for g in groups]
        parts = [p for g in groups for p in g["parts"]]
        assert sorted(p for p in parts if p.startswith("R")) == sorted(f"R{k}" for k in range(1, 8))
        for g in groups:  # bottom-up: each group refers only to groups defined before it
            assert all(defined.index(p) < defined.index(g["group"]) for p in g["parts"] if p.startswith("G"))
        assert inst["target"]["network"] == defined[-1] == "G6"
        slot = inst["minimal_hint_spec"]["atomic_hints"][0]["slot"]
        assert not [c for c in a if "missing_slot" in c]
        assert FAMILY.candidate_slots(a) == [slot]


def test_malformed_networks_are_rejected_by_the_solver() -> None:
    v = FAMILY.views(T3)
    full = [*v.a, v.hint]
    g1 = full.index(next(c for c in full if c.get("group") == "G1"))
    g5 = full.index(next(c for c in full if c.get("group") == "G5"))
    with pytest.raises(Inconsistent):  # R7 used twice, R3 never
        FAMILY.solve([*full[:g1], {**full[g1], "parts": ["R7", "R7"]}, *full[g1 + 1 :]], v.target)
    with pytest.raises(Inconsistent):  # a cycle: G5 contains itself
        FAMILY.solve([*full[:g5], {**full[g5], "parts": ["G5", "R4"]}, *full[g5 + 1 :]], v.target)
    with pytest.raises(NotUnique):  # a group that is never described
        FAMILY.solve([c for c in full if c.get("group") != "G2"], v.target)
    with pytest.raises(Inconsistent):  # neither series nor parallel
        FAMILY.solve([*full[:g1], {**full[g1], "connection": "bridge"}, *full[g1 + 1 :]], v.target)
    for bad in (0, 12, -7, True):  # outside the stated 1..11 ohms
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "value": bad}], v.target)
    with pytest.raises(CheckFailed, match="local_underdetermination_b"):  # B told everything A knows
        check_views(FAMILY, v.a, [*v.a, v.hint], v.hint, v.target, Fraction(429, 46))


def test_family_specific_corruptions_are_rejected() -> None:
    base = build_instance(FAMILY, instance_id="cir-000002", dataset_seed=1234, requested_difficulty=3, index=2)
    assert instance_problems(base) == []

    inst = json.loads(json.dumps(base))  # one group switched between series and parallel in both views
    for view in inst["agent_views"]:
        data = view["private_data"]
        for i, c in enumerate(data["constraints_machine"]):
            if c.get("group") == "G1":
                c["connection"] = "parallel" if c["connection"] == "series" else "series"
                data["constraints_text"][i] = FAMILY.render(c)
    assert any(f == "global_solution" for f, _ in instance_problems(inst))

    inst = json.loads(json.dumps(base))  # a known resistance changed in A's view only
    data = inst["agent_views"][0]["private_data"]
    i = next(i for i, c in enumerate(data["constraints_machine"]) if c["type"] == "resistance")
    c = data["constraints_machine"][i]
    c["value"] = c["value"] % 11 + 1
    data["constraints_text"][i] = FAMILY.render(c)
    assert any(f == "global_solution" for f, _ in instance_problems(inst))

    inst = json.loads(json.dumps(base))  # the target points at a sub-network
    inst["target"]["network"] = "G1"
    assert instance_problems(inst)


def hard(difficulty: int, index: int, k: int = 1) -> dict:
    return build_instance(FAMILY, instance_id=f"cir-{index:06d}", dataset_seed=29, requested_difficulty=difficulty,
                          index=index, k=k)


def test_d4_and_d5_have_more_and_larger_resistors_than_d3() -> None:
    def size(d: int, i: int) -> tuple[int, int]:
        z = hard(d, i)["global_metadata"]["latent"]
        return z["n_resistors"], z["r_max"]

    assert {d: {size(d, i) for i in range(3)} for d in (3, 4, 5)} == {3: {(7, 11)}, 4: {(9, 14)}, 5: {(11, 17)}}


def test_a_k2_instance_withholds_two_resistances() -> None:
    inst = hard(5, 0, k=2)
    hints = inst["minimal_hint_spec"]["atomic_hints"]
    assert [h["kind"] for h in hints] == ["resistance", "resistance"]
    assert sorted(h["slot"] for h in hints) == sorted(inst["verifier"]["candidate_slots"])
    given = [c for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if c["type"] == "resistance"]
    assert len(given) == 11 - 2
