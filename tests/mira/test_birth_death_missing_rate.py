"""birth_death_missing_rate (B1): A knows every rate but one, B holds the missing rate; target pi_s."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from generators.checks import CheckFailed, check_views, find_witness
from generators.errors import Inconsistent, NotUnique
from generators.families.birth_death_missing_rate import FAMILY, stationary_global_balance
from generators.instances import build_instance, sample_valid
from verifiers.validate import instance_problems


def latent(lambdas: list[int], mus: list[int], missing: str, target: int, hi: int = 9) -> dict:
    return {
        "n_states": len(lambdas) + 1,
        "rate_min": 1,
        "rate_max": hi,
        "lambdas": lambdas,
        "mus": mus,
        "missing_slot": missing,
        "target_state": target,
    }


def generator_matrix(lambdas: list[int], mus: list[int]) -> list[list[Fraction]]:
    n = len(lambdas) + 1
    q = [[Fraction(0)] * n for _ in range(n)]
    for i in range(n):
        if i + 1 < n:
            q[i][i + 1] = Fraction(lambdas[i])
        if i > 0:
            q[i][i - 1] = Fraction(mus[i - 1])
        q[i][i] = -sum(q[i])
    return q


# T1 (bir-000768): 5 states, B holds mu_4 = 2, target pi_2, ground truth 1/9. The paper gives only these values;
# lambda = (1, 1, 4, 4), mu = (1, 1, 2, 2) is a chain with exactly them (weights 1, 1, 1, 2, 4).
T1 = latent([1, 1, 4, 4], [1, 1, 2, 2], "mu_4", 2)


def test_paper_t1_pi2_is_one_ninth_with_mu4_two() -> None:
    v = FAMILY.views(T1)
    assert v.slot == "mu_4" and v.value == 2 and v.b == [v.hint]
    assert v.hint == {"type": "death_rate", "from_state": 4, "to_state": 3, "value": 2}
    assert v.unknowns == ["pi_2"]
    assert FAMILY.solve([*v.a, v.hint], v.target) == Fraction(1, 9)
    assert FAMILY.answer_from_latent(T1) == Fraction(1, 9)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, Fraction(1, 9))
    assert witness.answer != Fraction(1, 9)
    # A sees the gap, named: the note sits where mu_4 would be
    texts = [FAMILY.render(c) for c in v.a]
    assert "The death rate mu_4 (from state 4 down to state 3) is not given here; your partner knows it." in texts
    assert not any(t.startswith("mu_4 =") for t in texts)


def test_paper_t1_requests_are_all_declined() -> None:
    """The nine T1 requests name other (or non-existent) rates; none is an alias of mu_4."""
    v = FAMILY.views(T1)
    aliases = {a.lower() for a in FAMILY.slot_aliases(v.slot, v.hint)}
    requests = ["lambda_2", "mu_0", "mu_2", "lambda_2", "lambda_1", "lambda_3", "lambda_0", "mu_3", "lambda_4"]
    assert not aliases & {r.lower() for r in requests}
    assert not aliases & ({f"the birth rate {r}" for r in requests} | {f"the death rate {r}" for r in requests})
    slots = {FAMILY.slot_name(c) for c in v.a} - {None}
    assert "mu_0" not in slots and "lambda_4" not in slots  # rates that do not exist in a 5-state chain
    assert {"the death rate mu_4", "mu_4", "μ4", "the death rate from state 4 to state 3"} <= set(
        FAMILY.slot_aliases("mu_4", v.hint)
    )
    assert FAMILY.canonical_request(v.slot, v.hint) == "What is the death rate mu_4?"


def test_answer_matches_exact_global_balance_on_generated_instances() -> None:
    """Independent route: solve pi Q = 0 by elimination, and check the balance equations exactly."""
    for d in (1, 2, 3):
        for seed in range(30):
            z, _, answer, _, _ = sample_valid(FAMILY, 7000 * d + seed, d)
            pi = stationary_global_balance(z["lambdas"], z["mus"])
            q = generator_matrix(z["lambdas"], z["mus"])
            n = z["n_states"]
            assert all(sum(pi[i] * q[i][j] for i in range(n)) == 0 for j in range(n))
            assert sum(pi) == 1 and answer == pi[z["target_state"]]
            assert answer.denominator <= 300
            assert n == d + 2 and all(1 <= r <= 3 + 2 * d for r in z["lambdas"] + z["mus"])


def test_every_other_value_of_the_hidden_rate_changes_the_target() -> None:
    for d in (1, 2, 3):
        for seed in range(10):
            _, v, answer, _, _ = sample_valid(FAMILY, 500 * d + seed, d)
            others = [FAMILY.solve([*v.a, alt], v.target) for alt in FAMILY.hint_alternatives(v.hint, v.a, v.target)]
            assert len(others) == 3 + 2 * d - 1 and answer not in others
            assert len(set(others)) == len(others)  # strictly monotone in the rate


def test_hidden_slot_and_target_vary_over_the_split() -> None:
    slots, targets = set(), set()
    for i in range(60):
        inst = build_instance(FAMILY, instance_id=f"bir-{i:06d}", dataset_seed=1234, requested_difficulty=3, index=i)
        slots.add(inst["minimal_hint_spec"]["atomic_hints"][0]["slot"])
        targets.add(inst["target"]["state"])
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in a if "missing_slot" in c]  # A is not told which rate is missing ...
        assert FAMILY.candidate_slots(a) == [inst["minimal_hint_spec"]["atomic_hints"][0]["slot"]]  # ... it sees it
    assert slots == {f"lambda_{i}" for i in range(4)} | {f"mu_{i}" for i in range(1, 5)}
    assert targets == set(range(5))


def test_completions_outside_the_stated_domain_are_inconsistent() -> None:
    v = FAMILY.views(T1)
    for bad in (0, 10, -2, True):
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "value": bad}], v.target)
    with pytest.raises(Inconsistent):  # a death rate that moves up is not a transition of the chain
        FAMILY.solve([*v.a, {**v.hint, "to_state": 5}], v.target)
    with pytest.raises(Inconsistent):  # two values for one rate
        FAMILY.solve([*v.a, v.hint, {**v.hint, "value": 3}], v.target)
    with pytest.raises(Inconsistent):  # a domain statement that does not match its fields
        chain = {**v.a[0], "statement": v.a[0]["statement"].replace("from 1 to 9", "from 1 to 12")}
        FAMILY.solve([chain, *v.a[1:], v.hint], v.target)


def test_degenerate_views_are_rejected() -> None:
    v = FAMILY.views(T1)
    # A's view that already holds the missing rate
    with pytest.raises(CheckFailed, match="hint"):
        check_views(FAMILY, [*v.a, v.hint], v.b, v.hint, v.target, Fraction(1, 9))
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        find_witness(FAMILY, [*v.a, v.hint], v.hint, v.target, Fraction(1, 9))
    # a hint that is not a rate A is missing: B holds lambda_0, which A already has
    lam0 = next(c for c in v.a if FAMILY.slot_name(c) == "lambda_0")
    with pytest.raises(CheckFailed):
        check_views(FAMILY, v.a, [lam0], lam0, v.target, Fraction(1, 9))
    # A's view without the description of the chain: nothing is determined
    with pytest.raises(CheckFailed, match="global_uniqueness"):
        check_views(FAMILY, v.a[1:], v.b, v.hint, v.target, Fraction(1, 9))


def test_family_specific_corruptions_are_rejected() -> None:
    base = build_instance(FAMILY, instance_id="bir-000001", dataset_seed=1234, requested_difficulty=2, index=1)
    assert instance_problems(base) == []

    inst = json.loads(json.dumps(base))  # B's rate changed in hint and view alike: the stored answer no longer follows
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    new = {**hint["constraint"], "value": hint["constraint"]["value"] % 7 + 1}
    hint.update(constraint=new, value=new["value"], text=FAMILY.render(new))
    inst["agent_views"][1]["private_data"].update(constraints_machine=[new], constraints_text=[FAMILY.render(new)])
    assert any(f == "global_solution" for f, _ in instance_problems(inst))

    inst = json.loads(json.dumps(base))  # another target state
    inst["target"]["state"] = (inst["target"]["state"] + 1) % 4
    assert instance_problems(inst)

    inst = json.loads(json.dumps(base))  # a witness outside the stated range of rates
    w = inst["verifier"]["underdetermination_witness"]
    w["constraint"] = {**w["constraint"], "value": 50}
    w["text"] = FAMILY.render(w["constraint"])
    assert any("witness" in f for f, _ in instance_problems(inst))

    inst = json.loads(json.dumps(base))  # the text of a rate drifts from its machine form
    inst["agent_views"][0]["private_data"]["constraints_text"][2] += " (approximately)"
    assert any("constraints_text" in f for f, _ in instance_problems(inst))


def hard(difficulty: int, index: int, k: int = 1) -> dict:
    return build_instance(FAMILY, instance_id=f"bir-{index:06d}", dataset_seed=29, requested_difficulty=difficulty,
                          index=index, k=k)


def test_d4_and_d5_have_more_states_and_wider_rates_than_d3() -> None:
    sizes = {d: {(hard(d, i)["global_metadata"]["latent"]["n_states"], hard(d, i)["global_metadata"]["latent"][
        "rate_max"]) for i in range(3)} for d in (3, 4, 5)}
    assert sizes == {3: {(5, 9)}, 4: {(6, 11)}, 5: {(7, 13)}}


def test_a_k2_instance_withholds_two_rates_of_the_chain() -> None:
    inst = hard(5, 0, k=2)
    hints = inst["minimal_hint_spec"]["atomic_hints"]
    assert [h["kind"] in ("birth_rate", "death_rate") for h in hints] == [True, True]
    slots = {h["slot"] for h in hints}
    assert len(slots) == 2 and slots == set(inst["verifier"]["candidate_slots"])
    given = [c for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if c["type"] != "domain"]
    assert len(given) == 2 * (7 - 1) - 2
