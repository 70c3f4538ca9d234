"""linear_system_separator: release example, Cramer's rule, box enumeration, integrality pinning, corruptions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.linear_system_separator import FAMILY, VARS
from generators.instances import build_instance
from generators.intlinalg import integer_points
from tests.mira.typea_views import default_view_candidates, notice_of
from verifiers.validate import instance_problems


def make(difficulty: int, index: int) -> dict:
    return build_instance(
        FAMILY, instance_id=f"lin-{index:06d}", dataset_seed=5, requested_difficulty=difficulty, index=index
    )


def views_of(solution: tuple[int, int, int], rows: list[list[int]], bound: int):
    rhs = [sum(k * x for k, x in zip(row, solution, strict=True)) for row in rows]
    return FAMILY.views({"solution": dict(zip(VARS, solution, strict=True)), "rows": rows, "rhs": rhs, "bound": bound})


def det3(m: list[list[int]]) -> int:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def cramer(rows: list[list[int]], rhs: list[int]) -> tuple[Fraction, ...]:
    d = det3(rows)
    out = []
    for j in range(3):
        m = [[rhs[i] if k == j else rows[i][k] for k in range(3)] for i in range(3)]
        out.append(Fraction(det3(m), d))
    return tuple(out)


def test_release_lin_000256() -> None:
    v = views_of((6, 2, 1), [[1, -2, -2], [-4, -2, -2]], 6)
    assert [FAMILY.render(c) for c in v.a[:2]] == ["Equation 1: a - 2b - 2c = 0", "Equation 2: -4a - 2b - 2c = -30"]
    assert FAMILY.render(v.hint) == "c = 1 (with the two equations, this also settles b)"  # a is no separator
    assert FAMILY.solve([*v.a, v.hint], v.target) == (6, 2, 1)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, (6, 2, 1))
    assert witness.answer[2] != 1


def test_integrality_and_range_can_pin_the_answer() -> None:
    # -a - 4b - c = -11 and b - 2c = 3 (coefficients in the d=1 range): b = 3 + 2c and a = -1 - 9c, so any
    # c != 0 puts a outside [-6, 6]; integrality and the range force (-1, 3, 0) without B
    v = views_of((-1, 3, 0), [[-1, -4, -1], [0, 1, -2]], 6)
    assert FAMILY.solve(v.a, v.target) == (-1, 3, 0)
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, (-1, 3, 0))


def test_sampler_rejects_pinned_singular_and_separator_free_draws() -> None:
    class Scripted:
        def __init__(self, values):
            self.values = iter(values)

        def randint(self, lo, hi):
            return next(self.values)

    # the pinned system above
    with pytest.raises(Reject, match="pin"):
        FAMILY.sample(Scripted([-1, 3, 0, -1, -4, -1, 0, 1, -2]), 1)
    # singular (a, b) block
    with pytest.raises(Reject, match="singular"):
        FAMILY.sample(Scripted([1, 1, 1, 1, 2, 3, 2, 4, 1]), 1)
    # c absent from both equations
    with pytest.raises(Reject, match="separator"):
        FAMILY.sample(Scripted([1, 1, 1, 1, 2, 0, 2, 1, 0]), 1)


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generated_instances_against_cramer_and_enumeration(difficulty: int) -> None:
    bound = 5 + difficulty
    for index in range(20):
        inst = make(difficulty, index)
        eqs = [c for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if c["type"] == "lin_eq"]
        c_value = inst["minimal_hint_spec"]["atomic_hints"][0]["value"]
        rows = [[e["coeffs"][v] for v in VARS] for e in eqs] + [[0, 0, 1]]
        rhs = [e["rhs"] for e in eqs] + [c_value]
        answer = tuple(inst["global_solution"][v] for v in VARS)
        assert cramer(rows, rhs) == answer
        # brute force over the box: c determines (a, b); at least two c values give integer points in the box
        open_cs = [
            c
            for c in range(-bound, bound + 1)
            for a, b in itertools.product(range(-bound, bound + 1), repeat=2)
            if all(r[0] * a + r[1] * b + r[2] * c == s for r, s in zip(rows[:2], rhs[:2], strict=True))
        ]
        assert len(open_cs) >= 2 and c_value in open_cs
        assert set(integer_points(rows[:2], rhs[:2], 3, -bound, bound)) == {
            p for p in itertools.product(range(-bound, bound + 1), repeat=3)
            if all(sum(k * x for k, x in zip(r, p, strict=True)) == s for r, s in zip(rows[:2], rhs[:2], strict=True))
        }


def test_out_of_range_or_fractional_completions_are_inconsistent() -> None:
    v = views_of((6, 2, 1), [[1, -2, -2], [-4, -2, -2]], 6)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "value": 7}], v.target)  # c outside [-6, 6]
    v = views_of((1, 1, 1), [[2, 0, 1], [0, 2, 1]], 6)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "value": 2}], v.target)  # a = b = 1/2


def test_without_domain_the_system_is_rational() -> None:
    v = views_of((1, 1, 1), [[2, 0, 1], [0, 2, 1]], 6)
    bare = [c for c in v.a if c["type"] != "domain"]
    with pytest.raises(NotUnique):
        FAMILY.solve(bare, v.target)
    assert FAMILY.solve([*bare, {**v.hint, "value": 2}], v.target) == (Fraction(1, 2), Fraction(1, 2), 2)


def test_corrupted_instances_are_rejected() -> None:
    inst = make(2, 4)
    w = inst["verifier"]["underdetermination_witness"]
    w["constraint"]["value"] = 5 + 2 + 1  # outside the stated box
    assert any(f == "verifier.underdetermination_witness" for f, _ in instance_problems(inst))
    inst = make(2, 4)
    inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]["value"] += 1
    assert instance_problems(inst)


def test_slots_and_aliases() -> None:
    inst = make(3, 0)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    assert hint["slot"] == "c" and hint["request_aliases"][0] == "the value of c"
    assert "the separator variable c" in hint["request_aliases"]
    eqs = inst["agent_views"][0]["private_data"]["constraints_machine"][:2]
    assert [FAMILY.slot_name(c) for c in eqs] == ["eq1", "eq2"]
    assert "the first equation" in FAMILY.slot_aliases("eq1", eqs[0])
    text = " ".join(inst["agent_views"][0]["private_data"]["constraints_text"])
    assert "+ -" not in text and "separator variable" not in text  # a notice, shown only in the ablation (issue 24)


def test_default_view_does_not_name_the_separator() -> None:
    """Issue 24: "c is the separator variable" told A which fact completes its equations; it is now a notice
    (shown only in the ablation), and any unknown whose value fixes the other two is a candidate."""
    sizes = default_view_candidates(FAMILY, seeds=60, extra_words=("separator", "once the value"))
    assert set(sizes) <= {2, 3} and sizes[2] and sizes[3]
    v = make_views(3, 0)
    assert "separator variable" in notice_of(FAMILY, v.a, "c")


def make_views(d: int, i: int):
    from generators.instances import instance_seed, sample_valid

    return sample_valid(FAMILY, instance_seed(1, FAMILY.name, d, i), d)[1]


def test_candidates_are_the_unknowns_that_separate_as_equations() -> None:
    def eq(name: str, a: int, b: int, c: int, rhs: int) -> dict:
        return {"type": "lin_eq", "name": name, "coeffs": {"a": a, "b": b, "c": c}, "rhs": rhs}

    domain = {"type": "domain", "statement": "...", "integer": True, "lower": -6, "upper": 6}
    # a + b + c = 3, a + 2b + c = 4: fixing b leaves a + c = 2 twice (open); fixing a or c fixes the rest
    assert FAMILY.candidate_slots([eq("eq1", 1, 1, 1, 3), eq("eq2", 1, 2, 1, 4), domain]) == ["a", "c"]
    assert FAMILY.candidate_slots([eq("eq1", -5, 2, -1, -16), eq("eq2", 3, 0, 5, 20), domain]) == ["a", "b", "c"]
    assert FAMILY.candidate_slots([eq("eq1", 1, 1, 1, 3), domain]) == []


def test_hint_settles_the_other_separators_without_their_values() -> None:
    """Every unknown whose value fixes the other two is a candidate; B's c names them all (the tomography design)."""
    for d, i in ((1, 0), (2, 3), (3, 0), (3, 5)):
        v = make_views(d, i)
        others = [s for s in FAMILY.candidate_slots(v.a) if s != "c"]
        assert v.hint["settles"] == others == FAMILY.settled_slots(v.hint)
        text = FAMILY.render(v.hint)
        assert text == f"c = {v.value}" + (f" (with the two equations, this also settles {' and '.join(others)})"
                                           if others else "")
        aliases = FAMILY.slot_aliases("c", v.hint)
        assert all(f"the value of {s}" in aliases for s in ["c", *others])


def test_rule_responder_offers_c_for_any_separator_but_not_for_two_or_the_solution() -> None:
    from harness.mira.agents.rule import judge
    from harness.mira.agents.rule_lexicon import build_lexicon

    inst = next(i for i in (make(3, k) for k in range(20))
                if i["minimal_hint_spec"]["atomic_hints"][0]["constraint"]["settles"] == ["a", "b"])
    lexicon = build_lexicon(inst)
    for request in ("What is c?", "What is a?", "Could you tell me the value of b?",
                    "What is the value of c (once c is known, the equations give a and b)?"):
        assert judge(request, lexicon).offer, request
    for request, rule in (("What are a and b?", "two_quantities"), ("What are a, b and c?", "two_quantities"),
                          ("What is a + b?", "two_quantities"), ("Can you give me a hint?", "nothing_named"),
                          ("What is the solution (a, b, c)?", "two_quantities")):
        got = judge(request, lexicon)
        assert (got.offer, got.rule) == (False, rule), (request, got)


def test_hard_tier_grows_the_box_the_coefficients_and_the_system() -> None:
    for d, (bound, coeff, n) in {3: (8, 6, 3), 4: (9, 7, 4), 5: (10, 8, 5)}.items():
        inst = make(d, 0)
        z = inst["global_metadata"]["latent"]
        assert z["bound"] == bound and len(z["solution"]) == n and len(z["rows"]) == n - 1
        assert inst["answer_keys"] == list("abcde"[:n])
        assert max(abs(k) for row in z["rows"] for k in row) <= coeff
        assert instance_problems(inst) == []
    widest = max(abs(k) for i in range(20) for row in make(5, i)["global_metadata"]["latent"]["rows"] for k in row)
    assert widest == 8


def test_k2_withholds_one_equation_as_well_as_c() -> None:
    for index in range(4):
        inst = build_instance(FAMILY, instance_id=f"lin-{index:06d}", dataset_seed=5, requested_difficulty=4,
                              index=index, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert (h1["slot"], h1["kind"], h2["kind"]) == ("c", "value", "lin_eq") and h2["slot"] in {"eq1", "eq2", "eq3"}
        a = inst["agent_views"][0]["private_data"]
        assert [c["type"] for c in a["constraints_machine"]] == ["lin_eq", "lin_eq", "domain"]
        equations = "three linear equations in a, b, c and d: Equation 1, Equation 2 and Equation 3"
        assert equations in a["constraints_text"][2]
        assert inst["verifier"]["candidate_slots"] == [h2["slot"], "a", "b", "c", "d"]
        assert "with the three equations, this also settles" in h1["text"]
