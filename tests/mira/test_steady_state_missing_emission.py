"""steady_state_missing_emission (B11): B holds E[s*][o*]; A also lacks one other entry of row s* (row sum)."""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest

from generators.base import without_notices
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.steady_state_missing_emission import (
    FAMILY,
    stationary,
    stationary_by_tree_theorem,
)
from generators.instances import build_instance, sample_valid
from verifiers.validate import instance_problems

F = Fraction


def cell(x: Fraction) -> dict:
    return {"num": x.numerator, "denom": x.denominator}


def latent(p: list[list[Fraction]], e: list[list[Fraction]], s: int, o: int, derived: int) -> dict:
    return {
        "n_states": len(p),
        "n_symbols": len(e[0]),
        "P": [[cell(x) for x in row] for row in p],
        "E": [[cell(x) for x in row] for row in e],
        "missing_state": s,
        "target_symbol": o,
        "derived_symbol": derived,
    }


def full_constraints(z: dict) -> list[dict]:
    n, m = z["n_states"], z["n_symbols"]
    transitions = [
        {"type": "transition", "from_state": i, "to_state": j, **z["P"][i][j]} for i in range(n) for j in range(n)
    ]
    emissions = [{"type": "emission", "state": s, "symbol": o, **z["E"][s][o]} for s in range(n) for o in range(m)]
    return transitions + emissions


def power_iteration(z: dict, steps: int = 400) -> list[float]:
    """Independent numeric route: iterate a distribution under P (floats, tests only)."""
    p = [[x["num"] / x["denom"] for x in row] for row in z["P"]]
    n = len(p)
    dist = [1.0 / n] * n
    for _ in range(steps):
        dist = [sum(dist[i] * p[i][j] for i in range(n)) for j in range(n)]
    return dist


def pairs(p: list[list[Fraction]]) -> list[list[tuple[int, int]]]:
    return [[(x.numerator, x.denominator) for x in row] for row in p]


RELEASE_P = [[F(3, 5), F(2, 5)], [F(1, 4), F(3, 4)]]
RELEASE_E = [[F(4, 7), F(3, 7)], [F(3, 7), F(4, 7)]]


def test_release_example_ste_002169() -> None:
    # ste-002169: P = [[3/5, 2/5], [1/4, 3/4]], E = [[4/7, 3/7], [3/7, 4/7]], B holds e(0, 1) = 3/7; answer 47/91
    z = latent(RELEASE_P, RELEASE_E, s=0, o=1, derived=0)
    target = {"type": "observation_probability", "symbol": 1, "n_states": 2, "n_symbols": 2}
    assert stationary(pairs(RELEASE_P)) == [F(5, 13), F(8, 13)]
    assert FAMILY.solve(full_constraints(z), target) == F(47, 91) == FAMILY.answer_from_latent(z)
    v = FAMILY.views(z)
    assert v.slot == "E[0][1]"
    assert FAMILY.render(v.hint) == "E[0][1] = 3/7 (with row 0 of E summing to 1, this also fixes E[0][0])"
    a = without_notices(v.a)
    assert FAMILY.solve([*a, v.hint], v.target) == F(47, 91)
    assert FAMILY.candidate_slots(a) == ["E[0][0]", "E[0][1]"]
    witness = check_views(FAMILY, a, v.b, v.hint, v.target, F(47, 91))
    e01 = F(witness.constraint["num"], witness.constraint["denom"])
    assert witness.answer == F(5, 13) * e01 + F(8, 13) * F(4, 7)


def test_release_split_is_degenerate() -> None:
    # the release gives A every other emission, e(0, 0) = 4/7 included: the row sum then yields e(0, 1) = 3/7
    z = latent(RELEASE_P, RELEASE_E, s=0, o=1, derived=0)
    hint = next(c for c in full_constraints(z) if c["type"] == "emission" and (c["state"], c["symbol"]) == (0, 1))
    release_a = [c for c in full_constraints(z) if c != hint]
    target = {"type": "observation_probability", "symbol": 1, "n_states": 2, "n_symbols": 2}
    assert FAMILY.solve(release_a, target) == F(47, 91)
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, release_a, [hint], hint, target, F(47, 91))


def test_stationary_routes_agree_with_power_iteration() -> None:
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(2, 4)
        p = []
        for _ in range(n):
            parts = [rng.randint(0, 5) for _ in range(n)]
            parts[rng.randrange(n)] += 1
            p.append([F(k, sum(parts)) for k in parts])
        # make it irreducible: a cycle through all states with positive probability
        p = [[x * F(1, 2) + (F(1, 2) if j == (i + 1) % n else 0) for j, x in enumerate(row)] for i, row in enumerate(p)]
        exact = stationary(pairs(p))
        assert exact == stationary_by_tree_theorem(pairs(p))
        assert sum(exact) == 1
        assert all(sum(exact[i] * p[i][j] for i in range(n)) == exact[j] for j in range(n))
    for d in (1, 2, 3):
        for i in range(20):
            z, _, answer, _, _ = sample_valid(FAMILY, 4000 + 100 * d + i, d)
            pi = stationary(pairs([[F(x["num"], x["denom"]) for x in row] for row in z["P"]]))
            approx = power_iteration(z)
            assert all(abs(float(a) - b) < 1e-12 for a, b in zip(pi, approx, strict=True))
            o = z["target_symbol"]
            numeric = sum(approx[s] * z["E"][s][o]["num"] / z["E"][s][o]["denom"] for s in range(z["n_states"]))
            assert abs(float(answer) - numeric) < 1e-12
            assert answer == FAMILY.answer_from_latent(z)


def test_reducible_chain_has_no_unique_answer() -> None:
    identity = [[F(1), F(0)], [F(0), F(1)]]
    with pytest.raises(NotUnique):
        stationary(pairs(identity))
    z = latent(identity, RELEASE_E, s=0, o=1, derived=0)
    target = {"type": "observation_probability", "symbol": 1, "n_states": 2, "n_symbols": 2}
    with pytest.raises(NotUnique):
        FAMILY.solve(full_constraints(z), target)


def test_probability_rules_are_enforced() -> None:
    z = latent(RELEASE_P, RELEASE_E, s=0, o=1, derived=0)
    target = {"type": "observation_probability", "symbol": 1, "n_states": 2, "n_symbols": 2}
    full = full_constraints(z)
    # a transition row that does not sum to 1
    bad = [({**c, "num": 4} if c["type"] == "transition" and (c["from_state"], c["to_state"]) == (0, 0) else c)
           for c in full]
    with pytest.raises(Inconsistent):
        FAMILY.solve(bad, target)
    # an emission above 1, a negative one, a conflicting duplicate
    for value in ((8, 7), (-1, 7)):
        alt = {"type": "emission", "state": 0, "symbol": 1, "num": value[0], "denom": value[1]}
        with pytest.raises(Inconsistent):
            FAMILY.solve([c for c in full if c["type"] != "emission" or c["state"] == 1] + [alt], target)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*full, {"type": "emission", "state": 1, "symbol": 0, "num": 1, "denom": 2}], target)
    # a hint value leaving no room for the derived entry of its row (E[0][1] = 1 with E[0][0] also 4/7)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*full[:-4], *full[-2:], {**full[-3], "num": 1, "denom": 1}, full[-4]], target)


def test_views_hide_exactly_two_entries_of_row_s_star() -> None:
    for d in (1, 2, 3):
        for i in range(40):
            z, v, answer, witness, _ = sample_valid(FAMILY, 600 * d + i, d)
            n, m = d + 1, min(d + 1, 3)
            assert (z["n_states"], z["n_symbols"]) == (n, m)
            s, o, o2 = z["missing_state"], z["target_symbol"], z["derived_symbol"]
            emissions = {(c["state"], c["symbol"]) for c in v.a if c["type"] == "emission"}
            assert len([c for c in v.a if c["type"] == "transition"]) == n * n
            assert emissions == {(r, c) for r in range(n) for c in range(m)} - {(s, o), (s, o2)}
            assert v.target["symbol"] == o and o2 != o
            # the witness keeps row s* a distribution: 0 <= E[s*][o*] <= 1 - (A's entries of the row)
            room = 1 - sum(F(c["num"], c["denom"]) for c in v.a if c["type"] == "emission" and c["state"] == s)
            assert 0 <= F(witness.constraint["num"], witness.constraint["denom"]) <= room
            assert witness.answer != answer


def test_slot_is_named_in_a_view() -> None:
    inst = build_instance(FAMILY, instance_id="ste-000001", dataset_seed=5, requested_difficulty=3, index=1)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    s, o = hint["constraint"]["state"], hint["constraint"]["symbol"]
    assert hint["slot"] == f"E[{s}][{o}]"
    texts = inst["agent_views"][0]["private_data"]["constraints_text"]
    assert not any("not given" in t or "partner" in t for t in texts)
    partner = f"E[{s}][{hint['constraint']['row_partner']}]"
    assert FAMILY.candidate_slots(inst["agent_views"][0]["private_data"]["constraints_machine"]) == sorted(
        [hint["slot"], partner])
    assert partner in hint["request_aliases"]
    aliases = hint["request_aliases"]
    assert aliases[0].startswith(f"the emission probability E[{s}][{o}]")
    assert {f"E[{s}][{o}]", f"e({s}, {o})", f"P(symbol {o} | state {s})"} <= set(aliases)
    for view in inst["agent_views"]:
        for c in view["private_data"]["constraints_machine"]:
            slot = FAMILY.slot_name(c)
            if slot is not None:
                assert slot in FAMILY.slot_aliases(slot, c)


def test_corruptions_are_rejected() -> None:
    inst = build_instance(FAMILY, instance_id="ste-000002", dataset_seed=5, requested_difficulty=2, index=2)
    assert instance_problems(inst) == []
    z = inst["global_metadata"]["latent"]
    # giving A the derived entry of row s* (as the release does) lets A compute the hint from the row sum
    bad = copy.deepcopy(inst)
    s, o2 = z["missing_state"], z["derived_symbol"]
    derived = {"type": "emission", "state": s, "symbol": o2, **z["E"][s][o2]}
    pd = bad["agent_views"][0]["private_data"]
    pd["constraints_machine"].insert(-1, derived)
    pd["constraints_text"].insert(-1, FAMILY.render(derived))
    problems = instance_problems(bad)
    assert problems and "local_underdetermination" in problems[0][1]
    # a changed transition in A's view (and its row partner, so the row still sums to 1)
    bad = copy.deepcopy(inst)
    pd = bad["agent_views"][0]["private_data"]
    t0, t1 = (k for k, c in enumerate(pd["constraints_machine"]) if c["type"] == "transition" and c["from_state"] == 0
              and c["to_state"] in (0, 1))
    c0, c1 = pd["constraints_machine"][t0], pd["constraints_machine"][t1]
    shift = F(1, 100)
    v0, v1 = F(c0["num"], c0["denom"]) + shift, F(c1["num"], c1["denom"]) - shift
    pd["constraints_machine"][t0] = {**c0, **cell(v0)}
    pd["constraints_machine"][t1] = {**c1, **cell(v1)}
    pd["constraints_text"][t0] = FAMILY.render(pd["constraints_machine"][t0])
    pd["constraints_text"][t1] = FAMILY.render(pd["constraints_machine"][t1])
    assert instance_problems(bad)
    # text drifting from the machine constraint
    bad = copy.deepcopy(inst)
    bad["agent_views"][1]["private_data"]["constraints_text"][0] = "E[0][0] = 1/2"
    assert instance_problems(bad)


def test_hard_tier_models_are_larger_than_d3() -> None:
    from generators.families.steady_state_missing_emission import n_symbols

    found = {}
    for difficulty in (3, 4, 5):
        inst = build_instance(FAMILY, instance_id="ste-000000", dataset_seed=5, requested_difficulty=difficulty,
                              index=0)
        domain = inst["agent_views"][0]["private_data"]["constraints_machine"][0]
        assert domain["n_symbols"] == n_symbols(difficulty)
        found[difficulty] = (domain["n_states"], domain["n_symbols"])
    assert found == {3: (4, 3), 4: (5, 5), 5: (6, 6)}


def test_k2_second_hint_is_the_target_symbol_in_another_state_with_its_partner() -> None:
    inst = build_instance(FAMILY, instance_id="ste-000000", dataset_seed=5, requested_difficulty=5, index=4, k=2)
    first, second = (h["constraint"] for h in inst["minimal_hint_spec"]["atomic_hints"])
    assert first["type"] == second["type"] == "emission" and first["state"] != second["state"]
    assert first["symbol"] == second["symbol"] == inst["target"]["symbol"]
    view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    held = {(c["state"], c["symbol"]) for c in view_a if c["type"] == "emission"}
    gaps = {(h["state"], o) for h in (first, second) for o in (h["symbol"], h["row_partner"])}
    assert len(gaps) == 4 and not gaps & held and len(held) == 36 - 4
    assert sorted(inst["verifier"]["candidate_slots"]) == sorted(f"E[{s}][{o}]" for s, o in gaps)
    for h in (first, second):  # each text's "this also fixes" is true: the row's other gap is the partner
        assert FAMILY.settled_slots(h) == [f"E[{h['state']}][{h['row_partner']}]"]
    assert instance_problems(inst) == []
