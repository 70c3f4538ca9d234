"""deconvolution (B3): kernel and the measured samples but one known to A, B holds y_{k*}; target the signal x."""

from __future__ import annotations

import json
import random

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.deconvolution import FAMILY
from generators.instances import build_instance, sample_valid
from generators.linalg import rank
from verifiers.validate import instance_problems


def direct_convolution(x: list[int], h: list[int]) -> list[int]:
    """y_k = sum_i h_i x_{k-i}, written out independently of the family module."""
    n, m = len(x), len(h)
    return [sum(h[i] * x[k - i] for i in range(m) if 0 <= k - i < n) for k in range(n + m - 1)]


def toeplitz(h: list[int], n: int, rows: range) -> list[list[int]]:
    return [[h[k - j] if 0 <= k - j < len(h) else 0 for j in range(n)] for k in rows]


def test_worked_example() -> None:
    # x = (1, -2, 2, 0), h = (2, 1): y = (2, -3, 2, 2 | 0); B holds y_3 = 2
    z = {"x": [1, -2, 2, 0], "h": [2, 1], "missing": 3}
    v = FAMILY.views(z)
    assert [FAMILY.render(c) for c in v.a[1:]] == [
        "The kernel is h = (2, 1), i.e. h0 = 2, h1 = 1.",
        "y_0 = 2",
        "y_1 = -3",
        "y_2 = 2",
        "The measurement y_3 is not given here; your partner knows it.",
    ]
    assert v.slot == "y_3" and FAMILY.render(v.hint) == "y_3 = 2"
    assert FAMILY.solve([*v.a, v.hint], v.target) == (1, -2, 2, 0)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    w = check_views(FAMILY, v.a, v.b, v.hint, v.target, (1, -2, 2, 0))
    assert w.constraint == {"type": "conv_eq", "index": 3, "value": 4} and w.answer == (1, -2, 2, 1)
    with pytest.raises(Inconsistent):  # y_3 = 3 would force x3 = 1/2, but x is integral
        FAMILY.solve([*v.a, {**v.hint, "value": 3}], v.target)
    assert FAMILY.canonical_request(v.slot, v.hint) == "What is the measurement y_3?"
    assert {"y_3", "y3", "y[3]"} <= set(FAMILY.slot_aliases("y_3", v.hint))


def test_answer_reconvolves_to_the_measurements() -> None:
    for d in (1, 2, 3):
        for seed in range(40):
            z, v, answer, _, _ = sample_valid(FAMILY, 4400 * d + seed, d)
            h = v.a[1]["values"]
            n = len(answer)
            y = direct_convolution(list(answer), h)[:n]
            given = {c["index"]: c["value"] for c in [*v.a, v.hint] if c["type"] == "conv_eq"}
            assert given == dict(enumerate(y))
            assert list(answer) == z["x"]
            assert n == 3 + min(d, 2) and len(h) == (2 if d == 1 else 3)
            assert h[0] != 0 and any(h[1:]) and all(abs(e) <= 2 + d for e in [*h, *answer])


def test_paper_construction_only_admits_scaled_delta_kernels() -> None:
    """Why the family measures only y_0..y_{n-1}: with the full output, dropping one sample keeps rank n unless
    h = (h0, 0, ..., 0), for which each equation fixes one x_k on its own (the release's degenerate instances)."""
    rng = random.Random(3)
    for _ in range(200):
        n, m = rng.choice([(4, 2), (5, 3)])
        h = [rng.choice([-3, -2, -1, 1, 2, 3])] + [rng.randint(-3, 3) for _ in range(m - 1)]
        full = range(n + m - 1)
        deficient = [k for k in full if rank(toeplitz(h, n, range(0, k)) + toeplitz(h, n, range(k + 1, n + m - 1))) < n]
        if any(h[1:]):
            assert deficient == []
        else:
            assert deficient == list(range(n))
        # ours: the first n samples form an invertible triangular system and every one of them is necessary
        assert rank(toeplitz(h, n, range(n))) == n
        assert all(rank(toeplitz(h, n, [j for j in range(n) if j != k])) == n - 1 for k in range(n))


def test_delta_kernels_and_zero_h0_are_rejected() -> None:
    rng = random.Random(0)
    rng.randint = lambda a, b: 0  # type: ignore[method-assign]  # every kernel tap after h0 is 0
    with pytest.raises(Reject):
        FAMILY.sample(rng, 1)
    for h in ([3, 0], [-2, 0, 0], [0, 1]):
        v = FAMILY.views({"x": [1, 2, 3, 4], "h": h, "missing": 0})
        with pytest.raises(CheckFailed, match="global_uniqueness"):
            check_views(FAMILY, v.a, v.b, v.hint, v.target, (1, 2, 3, 4))


def test_every_position_can_be_missing() -> None:
    missing = set()
    for i in range(50):
        inst = build_instance(FAMILY, instance_id=f"dec-{i:06d}", dataset_seed=1234, requested_difficulty=2, index=i)
        slot = inst["minimal_hint_spec"]["atomic_hints"][0]["slot"]
        missing.add(slot)
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in a if "missing_slot" in c]
        assert FAMILY.candidate_slots(a) == [slot]
        assert inst["answer_keys"] == ["x0", "x1", "x2", "x3", "x4"]
    assert missing == {f"y_{k}" for k in range(5)}


def test_out_of_domain_completions_are_inconsistent() -> None:
    z = {"x": [2, -1, 0, 3, 1], "h": [-3, 2, 1], "missing": 1}
    v = FAMILY.views(z)
    with pytest.raises(Inconsistent):  # a sample that was not measured
        FAMILY.solve([*v.a, v.hint, {"type": "conv_eq", "index": 5, "value": 0}], v.target)
    with pytest.raises(Inconsistent):  # two values for one sample
        FAMILY.solve([*v.a, v.hint, {**v.hint, "value": v.hint["value"] + 1}], v.target)
    with pytest.raises(Inconsistent):  # a non-integer measurement
        FAMILY.solve([*v.a, {**v.hint, "value": 1.5}], v.target)
    assert FAMILY.solve([*v.a, v.hint], v.target) == (2, -1, 0, 3, 1)


def test_family_specific_corruptions_are_rejected() -> None:
    base = build_instance(FAMILY, instance_id="dec-000003", dataset_seed=1234, requested_difficulty=3, index=3)
    assert instance_problems(base) == []

    inst = json.loads(json.dumps(base))  # the kernel changed in A's view
    data = inst["agent_views"][0]["private_data"]
    k = next(i for i, c in enumerate(data["constraints_machine"]) if c["type"] == "kernel")
    kernel = data["constraints_machine"][k]
    kernel["values"][1] += 1 if kernel["values"][1] < 5 else -1
    data["constraints_text"][k] = FAMILY.render(kernel)
    assert instance_problems(inst)

    inst = json.loads(json.dumps(base))  # the answer permuted
    sol = inst["global_solution"]
    keys = list(sol)
    if sol[keys[0]] == sol[keys[1]]:
        sol[keys[0]] += 1
    else:
        sol[keys[0]], sol[keys[1]] = sol[keys[1]], sol[keys[0]]
    assert any(f == "global_solution" for f, _ in instance_problems(inst))

    inst = json.loads(json.dumps(base))  # a witness that makes x non-integral
    w = inst["verifier"]["underdetermination_witness"]
    w["constraint"]["value"] += 1
    w["text"] = FAMILY.render(w["constraint"])
    assert any("witness" in f for f, _ in instance_problems(inst))


def hard(difficulty: int, index: int, k: int = 1) -> dict:
    return build_instance(FAMILY, instance_id=f"dec-{index:06d}", dataset_seed=29, requested_difficulty=difficulty,
                          index=index, k=k)


def test_d4_and_d5_have_longer_signals_and_kernels_than_d3() -> None:
    def size(d: int, i: int) -> tuple[int, int, int]:
        z = hard(d, i)["global_metadata"]["latent"]
        return len(z["x"]), len(z["h"]), max(abs(v) for v in z["x"] + z["h"])

    sizes = {d: [size(d, i) for i in range(6)] for d in (3, 4, 5)}
    for d, (n, m, bound) in {3: (5, 3, 5), 4: (6, 4, 6), 5: (7, 5, 7)}.items():
        assert {s[:2] for s in sizes[d]} == {(n, m)} and max(s[2] for s in sizes[d]) <= bound
    assert max(s[2] for s in sizes[5]) > 5


def test_a_k2_instance_withholds_two_measured_samples() -> None:
    inst = hard(5, 0, k=2)
    hints = inst["minimal_hint_spec"]["atomic_hints"]
    assert [h["kind"] for h in hints] == ["conv_eq", "conv_eq"]
    assert sorted(h["slot"] for h in hints) == sorted(inst["verifier"]["candidate_slots"])
    given = [c for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if c["type"] == "conv_eq"]
    assert len(given) == 7 - 2
