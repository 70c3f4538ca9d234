"""portfolio_variance_missing_corr (B10): A knows w, sigma and all correlations but rho(a,b), which B holds."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest
import sympy

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.portfolio_variance_missing_corr import FAMILY, MAX_DENOMINATOR, is_psd
from generators.instances import build_instance, sample_valid
from verifiers.validate import instance_problems


def latent(weights: list[Fraction], sigmas: list[int], corrs: dict[tuple[int, int], Fraction], missing) -> dict:
    return {
        "n_assets": len(weights),
        "weights": [{"num": w.numerator, "denom": w.denominator} for w in weights],
        "sigmas": sigmas,
        "corrs": [
            {"asset_i": i, "asset_j": j, "num": r.numerator, "denom": r.denominator} for (i, j), r in corrs.items()
        ],
        "missing_pair": list(missing),
    }


def sympy_variance(z: dict, override: dict | None = None) -> sympy.Rational:
    """Independent route: w^T diag(sigma) R diag(sigma) w with sympy matrices."""
    n = z["n_assets"]
    r = sympy.eye(n)
    for c in z["corrs"]:
        val = sympy.Rational(c["num"], c["denom"])
        r[c["asset_i"], c["asset_j"]] = r[c["asset_j"], c["asset_i"]] = val
    for (i, j), val in (override or {}).items():
        r[i, j] = r[j, i] = sympy.Rational(val.numerator, val.denominator)
    w = sympy.Matrix([sympy.Rational(x["num"], x["denom"]) for x in z["weights"]])
    s = sympy.diag(*z["sigmas"])
    return (w.T * s * r * s * w)[0, 0]


def sympy_psd(rows: list[list[int]]) -> bool:
    """Brute force: every principal minor is >= 0."""
    m = sympy.Matrix(rows)
    n = len(rows)
    subsets = [list(idx) for k in range(1, n + 1) for idx in itertools.combinations(range(n), k)]
    return all(m.extract(idx, idx).det() >= 0 for idx in subsets)


def test_release_example_por_002042() -> None:
    # por-002042: w = (2/5, 3/5), sigma = (1, 3), B holds rho(0,1) = -1/4; answer 76/25
    z = latent([Fraction(2, 5), Fraction(3, 5)], [1, 3], {(0, 1): Fraction(-1, 4)}, (0, 1))
    v = FAMILY.views(z)
    assert v.slot == "rho(0,1)" and FAMILY.render(v.hint) == "rho(0,1) = -1/4"
    assert [FAMILY.render(c) for c in v.a[1:5]] == ["w_0 = 2/5", "w_1 = 3/5", "sigma_0 = 1", "sigma_1 = 3"]
    assert FAMILY.solve([*v.a, v.hint], v.target) == Fraction(76, 25) == FAMILY.answer_from_latent(z)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, Fraction(76, 25))
    # sigma_p^2 = 4/25 + 81/25 + 2 (6/25)(3) rho
    rho = Fraction(witness.constraint["num"], witness.constraint["denom"])
    assert witness.answer == Fraction(85, 25) + Fraction(36, 25) * rho


def test_solver_matches_sympy_on_generated_instances() -> None:
    for d in (1, 2, 3):
        for i in range(25):
            z, _, answer, witness, _ = sample_valid(FAMILY, 9000 + 100 * d + i, d)
            assert answer == Fraction(str(sympy_variance(z))) == FAMILY.answer_from_latent(z)
            assert answer.denominator <= MAX_DENOMINATOR and answer >= 0
            a, b = z["missing_pair"]
            rho = Fraction(witness.constraint["num"], witness.constraint["denom"])
            assert witness.answer == Fraction(str(sympy_variance(z, {(a, b): rho}))) != answer


def test_is_psd_matches_principal_minors() -> None:
    rng = random.Random(3)
    cases = [[[1, 1], [1, 1]], [[1, 2], [2, 1]], [[0, 0], [0, 1]], [[0, 1], [1, 1]], [[4, 2, 2], [2, 1, 1], [2, 1, 1]]]
    for _ in range(300):
        n = rng.randint(2, 4)
        m = [[0] * n for _ in range(n)]
        for i in range(n):
            m[i][i] = rng.randint(0, 3)
            for j in range(i + 1, n):
                m[i][j] = m[j][i] = rng.randint(-2, 2)
        cases.append(m)
    # rank-deficient PSD matrices (Gram matrices of fewer vectors) exercise the zero-pivot branch
    for _ in range(60):
        n = rng.randint(2, 4)
        vecs = [[rng.randint(-2, 2) for _ in range(n - 1)] for _ in range(n)]
        cases.append([[sum(a * b for a, b in zip(u, w, strict=True)) for w in vecs] for u in vecs])
    for m in cases:
        assert is_psd(m) == sympy_psd(m), m


def test_invalid_correlations_are_inconsistent() -> None:
    # three assets pairwise correlated at -2/3: the matrix has eigenvalue 1 - 4/3 < 0
    third = Fraction(1, 3)
    z = latent([third] * 3, [1, 2, 3], dict.fromkeys([(0, 1), (0, 2), (1, 2)], Fraction(-2, 3)), (0, 1))
    v = FAMILY.views(z)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, v.hint], v.target)
    ok = latent([third] * 3, [1, 2, 3], {(0, 1): Fraction(1, 2), (0, 2): Fraction(0), (1, 2): Fraction(1, 4)}, (0, 1))
    v = FAMILY.views(ok)
    for bad in (Fraction(1), Fraction(-1), Fraction(5, 4)):
        with pytest.raises(Inconsistent):
            FAMILY.solve([*v.a, {**v.hint, "num": bad.numerator, "denom": bad.denominator}], v.target)
    # weights that do not sum to 1; two different volatilities for one asset
    halves = [{"type": "weight", "asset": k, "num": 1, "denom": 2} for k in range(3)]
    with pytest.raises(Inconsistent):
        FAMILY.solve([*[c for c in v.a if c["type"] != "weight"], *halves, v.hint], v.target)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, v.hint, {"type": "std", "asset": 0, "value": 2}], v.target)


def test_zero_weight_makes_the_hint_useless() -> None:
    # w_0 = 0: rho(0,1) enters with coefficient 2 w_0 w_1 sigma_0 sigma_1 = 0, so A alone knows the variance
    z = latent([Fraction(0), Fraction(1, 2), Fraction(1, 2)], [2, 3, 4],
               {(0, 1): Fraction(1, 2), (0, 2): Fraction(0), (1, 2): Fraction(-1, 3)}, (0, 1))
    v = FAMILY.views(z)
    answer = FAMILY.solve([*v.a, v.hint], v.target)
    assert FAMILY.solve(v.a, v.target) == answer
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, answer)


def test_witness_respects_positive_semidefiniteness() -> None:
    # rho(0,2) = rho(1,2) = 3/4 forces rho(0,1) >= 1/8: the nearest grid values below 1/4 that break PSD are skipped
    corrs = {(0, 1): Fraction(1, 4), (0, 2): Fraction(3, 4), (1, 2): Fraction(3, 4)}
    z = latent([Fraction(1, 3)] * 3, [1, 1, 1], corrs, (0, 1))
    v = FAMILY.views(z)
    answer = FAMILY.solve([*v.a, v.hint], v.target)
    for alt in FAMILY.hint_alternatives(v.hint, v.a, v.target):
        rho = Fraction(alt["num"], alt["denom"])
        matrix = [[8, 8 * rho, 6], [8 * rho, 8, 6], [6, 6, 8]]
        valid = sympy_psd([[int(x * 3) for x in row] for row in matrix]) if (24 * rho).denominator == 1 else None
        try:
            FAMILY.solve([*v.a, alt], v.target)
            assert valid in (True, None)
        except Inconsistent:
            assert valid is False
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, answer)
    assert Fraction(witness.constraint["num"], witness.constraint["denom"]) >= Fraction(1, 8)


def test_sampling_follows_the_paper() -> None:
    for d in (1, 2, 3):
        for i in range(60):
            z, v, answer, _, _ = sample_valid(FAMILY, 300 * d + i, d)
            n = d + 1
            assert z["n_assets"] == n and len(z["corrs"]) == n * (n - 1) // 2
            weights = [Fraction(w["num"], w["denom"]) for w in z["weights"]]
            assert sum(weights) == 1 and all(w > 0 for w in weights)
            assert all(1 <= s <= 5 for s in z["sigmas"])
            for c in z["corrs"]:
                assert 12 % c["denom"] == 0 and -c["denom"] < c["num"] < c["denom"]
            assert answer.denominator <= MAX_DENOMINATOR
            a_corrs = [c for c in v.a if c["type"] == "corr"]
            assert len(a_corrs) == n * (n - 1) // 2 - 1
            assert all((c["asset_i"], c["asset_j"]) != tuple(z["missing_pair"]) for c in a_corrs)


def test_slot_is_named_in_a_view() -> None:
    inst = build_instance(FAMILY, instance_id="por-000001", dataset_seed=5, requested_difficulty=3, index=1)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    i, j = hint["constraint"]["asset_i"], hint["constraint"]["asset_j"]
    assert hint["slot"] == f"rho({i},{j})"
    assert hint["value"] == {"numerator": hint["constraint"]["num"], "denominator": hint["constraint"]["denom"]}
    texts = inst["agent_views"][0]["private_data"]["constraints_text"]
    assert not any("not given" in t or "partner" in t for t in texts)
    assert FAMILY.candidate_slots(inst["agent_views"][0]["private_data"]["constraints_machine"]) == [hint["slot"]]
    assert not any(t.startswith(f"rho({i},{j}) =") for t in texts)
    aliases = hint["request_aliases"]
    assert aliases[0].startswith(f"the correlation rho({i},{j})")
    assert {f"rho({i},{j})", f"ρ({i},{j})", f"the correlation between assets {i} and {j}"} <= set(aliases)
    for c in inst["agent_views"][0]["private_data"]["constraints_machine"]:
        slot = FAMILY.slot_name(c)
        if slot is not None:
            assert slot in FAMILY.slot_aliases(slot, c)


def test_corruptions_are_rejected() -> None:
    inst = build_instance(FAMILY, instance_id="por-000002", dataset_seed=5, requested_difficulty=3, index=2)
    assert instance_problems(inst) == []
    # B's correlation moved to a pair A already knows: A alone no longer misses anything it needs
    bad = copy.deepcopy(inst)
    a = bad["agent_views"][0]["private_data"]["constraints_machine"]
    known = next(c for c in a if c["type"] == "corr")
    hint = bad["minimal_hint_spec"]["atomic_hints"][0]
    moved = {**hint["constraint"], "asset_i": known["asset_i"], "asset_j": known["asset_j"]}
    hint["constraint"] = moved
    hint["text"] = FAMILY.render(moved)
    bad["agent_views"][1]["private_data"]["constraints_machine"] = [moved]
    bad["agent_views"][1]["private_data"]["constraints_text"] = [FAMILY.render(moved)]
    assert instance_problems(bad)
    # a changed volatility in A's view
    bad = copy.deepcopy(inst)
    pd = bad["agent_views"][0]["private_data"]
    k = next(i for i, c in enumerate(pd["constraints_machine"]) if c["type"] == "std")
    pd["constraints_machine"][k]["value"] += 1
    pd["constraints_text"][k] = FAMILY.render(pd["constraints_machine"][k])
    assert instance_problems(bad)
    # a witness correlation outside (-1, 1)
    bad = copy.deepcopy(inst)
    w = bad["verifier"]["underdetermination_witness"]
    w["constraint"]["num"], w["constraint"]["denom"] = 1, 1
    assert instance_problems(bad)


def test_hard_tier_portfolios_are_larger_than_d3() -> None:
    from generators.families.portfolio_variance_missing_corr import max_denominator

    found = {}
    for difficulty in (3, 4, 5):
        inst = build_instance(FAMILY, instance_id="por-000000", dataset_seed=5, requested_difficulty=difficulty,
                              index=0)
        view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        n = view_a[0]["n_assets"]
        assert sum(c["type"] == "corr" for c in view_a) == n * (n - 1) // 2 - 1
        assert Fraction(**inst["global_solution"]).denominator <= max_denominator(difficulty)
        found[difficulty] = (n, max_denominator(difficulty))
    assert found == {3: (4, 500), 4: (5, 2000), 5: (6, 5000)}


def test_k2_second_hint_is_another_correlation() -> None:
    inst = build_instance(FAMILY, instance_id="por-000000", dataset_seed=5, requested_difficulty=5, index=3, k=2)
    first, second = inst["minimal_hint_spec"]["atomic_hints"]
    assert first["constraint"]["type"] == second["constraint"]["type"] == "corr"
    assert first["slot"] != second["slot"] and second["slot"].startswith("rho(")
    view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    assert sum(c["type"] == "corr" for c in view_a) == 15 - 2
    assert instance_problems(inst) == []
