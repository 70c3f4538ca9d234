"""phase_retrieval (A8): squared DFT magnitudes known to A, sign(x0) held by B, target the signal."""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import product

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.phase_retrieval import (
    FAMILY,
    accepted_signals,
    bound_for,
    integer_signals,
    magnitudes,
)
from generators.instances import build_instance
from tests.mira.typea_views import default_view_candidates, notice_of
from verifiers.validate import instance_problems


def dft_magnitudes(x: tuple[int, ...]) -> tuple[int, ...]:
    """|X_k|^2 from the definition X_k = sum_n x_n (-i)^(kn), in exact Gaussian-integer arithmetic."""
    powers = [(1, 0), (0, -1), (-1, 0), (0, 1)]  # (-i)^m for m = 0..3 as (re, im)
    out = []
    for k in range(4):
        re = sum(x[n] * powers[(k * n) % 4][0] for n in range(4))
        im = sum(x[n] * powers[(k * n) % 4][1] for n in range(4))
        out.append(re * re + im * im)
    return tuple(out)


@lru_cache(maxsize=4)
def box_classes(bound: int) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Brute force: every signal of the box with x0 != 0, grouped by its DFT magnitudes."""
    classes: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for x in product(range(-bound, bound + 1), repeat=4):
        if x[0] != 0:
            classes.setdefault(dft_magnitudes(x), []).append(x)
    return classes


def brute_force(mags: tuple[int, ...], bound: int, sign: int | None = None) -> list[tuple[int, ...]]:
    members = box_classes(bound).get(mags, [])
    return [x for x in members if sign is None or (x[0] > 0) == (sign > 0)]


def views_for(x: tuple[int, ...], bound: int):
    return FAMILY.views({"bound": bound, "x": list(x)})


def test_release_example_pha_000439() -> None:
    # The authors' released instance pha-000439: |FFT(x)|^2 = [0, 16, 0, 16], sign(x0) = 1, bound 3.
    v = views_for((2, 0, -2, 0), 3)
    assert v.a[0] == {"type": "fft_mag_sq", "values": [0, 16, 0, 16]}
    assert v.hint == {"type": "sign", "index": 0, "sign": 1, "settles": ["sign(x2)"]}  # B's sign also settles x2's
    assert FAMILY.solve([*v.a, v.hint], v.target) == (2, 0, -2, 0)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, (2, 0, -2, 0))
    assert witness.answer == (-2, 0, 2, 0)


def test_closed_form_matches_the_dft_definition() -> None:
    for x in product(range(-3, 4), repeat=4):
        assert magnitudes(x) == dft_magnitudes(x)


def test_enumeration_matches_brute_force_over_the_box() -> None:
    rng = random.Random(5)
    box = list(product(range(-3, 4), repeat=4))
    for x in [*rng.sample(box, 60), (1, 2, 0, 0), (3, -1, 2, 2)]:
        mags = magnitudes(x)
        in_box = [y for y in integer_signals(mags) if y[0] != 0 and max(map(abs, y)) <= 3]
        assert in_box == brute_force(mags, 3)


def test_accepted_pool_is_exactly_the_paper_rule() -> None:
    for bound in (3, 4):
        pool = set(accepted_signals(bound))
        for members in box_classes(bound).values():
            for x in members:
                rule = len(members) > 1 and len([y for y in members if (y[0] > 0) == (x[0] > 0)]) == 1
                assert rule == (x in pool), x
        # The paper's rule only keeps reversal-symmetric signals (x1 = x3): reversal keeps x0.
        assert all(x[1] == x[3] for x in pool)
    assert len(accepted_signals(3)) == 28 and len(accepted_signals(4)) == 36


def test_difficulty_scaling_caps_at_two() -> None:
    assert [bound_for(d) for d in (1, 2, 3)] == [3, 4, 4]
    for d in (1, 2, 3):
        rng = random.Random(d)
        for _ in range(50):
            z = FAMILY.sample(rng, d)
            assert z["bound"] == bound_for(d) and max(map(abs, z["x"])) <= z["bound"] and z["x"][0] != 0


def test_every_accepted_signal_is_valid_and_latent_route_agrees() -> None:
    for bound in (3, 4):
        for x in accepted_signals(bound):
            v = views_for(x, bound)
            answer = FAMILY.solve([*v.a, v.hint], v.target)
            assert answer == FAMILY.answer_from_latent({"bound": bound, "x": list(x)}) == x
            assert brute_force(magnitudes(x), bound, sign=v.hint["sign"]) == [x]
            check_views(FAMILY, v.a, v.b, v.hint, v.target, answer)


def test_shift_and_reversal_ambiguities_are_rejected() -> None:
    # (1, 2, 0, 0) and its reversal (1, 0, 0, 2) have the same magnitudes and the same sign of x0.
    v = views_for((1, 2, 0, 0), 3)
    with pytest.raises(NotUnique):
        FAMILY.solve([*v.a, v.hint], v.target)
    with pytest.raises(CheckFailed) as exc:
        check_views(FAMILY, v.a, v.b, v.hint, v.target, (1, 2, 0, 0))
    assert exc.value.check == "global_uniqueness"


def test_corruptions_are_inconsistent() -> None:
    v = views_for((2, 0, -2, 0), 3)
    # |X_1|^2 must equal |X_3|^2 for a real signal
    with pytest.raises(Inconsistent):
        FAMILY.solve([{"type": "fft_mag_sq", "values": [0, 16, 0, 9]}, *v.a[1:], v.hint], v.target)
    # magnitudes of no integer signal (|X_0|^2 not a square)
    with pytest.raises(Inconsistent):
        FAMILY.solve([{"type": "fft_mag_sq", "values": [2, 16, 0, 16]}, *v.a[1:], v.hint], v.target)
    # a sign outside {-1, +1}
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "sign": 0}], v.target)
    # the stated box excludes the only signals with these magnitudes
    small_box = {**v.a[2], "bound": 1}
    with pytest.raises(Inconsistent):
        FAMILY.solve([v.a[0], v.a[1], small_box, v.hint], v.target)
    # B's view alone (the sign bit) determines nothing
    with pytest.raises(NotUnique):
        FAMILY.solve(v.b, v.target)


def test_flipped_sign_in_a_generated_instance_is_rejected() -> None:
    inst = build_instance(FAMILY, instance_id="pha-000000", dataset_seed=1234, requested_difficulty=2, index=0)
    assert instance_problems(inst) == []
    b = inst["agent_views"][1]["private_data"]
    b["constraints_machine"][0]["sign"] *= -1
    b["constraints_text"][0] = FAMILY.render(b["constraints_machine"][0])
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    hint["constraint"] = b["constraints_machine"][0]
    hint["text"] = b["constraints_text"][0]
    assert any(f == "global_solution" for f, _ in instance_problems(inst))


def test_texts_and_aliases() -> None:
    v = views_for((2, 0, -2, 0), 3)
    assert FAMILY.render(v.a[0]) == "Squared DFT magnitudes of x: |X_0|^2 = 0, |X_1|^2 = 16, |X_2|^2 = 0, |X_3|^2 = 16"
    assert FAMILY.render(v.hint) == "sign(x0) = +1 (with the squared DFT magnitudes, this also settles the sign of x2)"
    assert "-3 <= x_i <= 3" in FAMILY.render(v.a[2]) and "x0 != 0" in FAMILY.render(v.a[2])
    aliases = FAMILY.slot_aliases("sign(x0)", v.hint)
    assert "the sign of x0" in aliases and FAMILY.slot_name(v.hint) == "sign(x0)"
    assert FAMILY.canonical_request(v.slot, v.hint).startswith("What is sign(x0)")


def test_sample_never_rejects() -> None:
    rng = random.Random(0)
    for d in (1, 2, 3):
        try:
            FAMILY.sample(rng, d)
        except Reject:  # pragma: no cover - the pool draw is always acceptable
            pytest.fail("sample rejected a draw from the accepted pool")


def test_default_view_does_not_mention_a_sign() -> None:
    """Issue 24: the sentence "The sign of x0 ... is not given to you; your partner knows it." is a notice now;
    the default view keeps the box (with x0 != 0) and the DFT convention, and never says "sign"."""
    sizes = default_view_candidates(FAMILY, seeds=60, extra_words=("sign(", "sign of", "+1 or -1"))
    assert set(sizes) <= {1, 2, 4}
    v = views_for((2, 0, -2, 0), 3)
    assert "your partner knows it" in notice_of(FAMILY, v.a, "sign(x0)")


@pytest.mark.parametrize(
    ("x", "slots"),
    [
        ((2, 0, -2, 0), ["sign(x0)", "sign(x2)"]),
        ((1, 1, 1, 1), ["sign(x0)", "sign(x1)", "sign(x2)", "sign(x3)"]),
        ((3, 0, 0, 0), ["sign(x0)"]),
        ((-2, 2, -2, 2), ["sign(x0)", "sign(x1)", "sign(x2)", "sign(x3)"]),
    ],
)
def test_candidates_are_the_signs_that_split_x_from_minus_x(x: tuple[int, ...], slots: list[str]) -> None:
    v = views_for(x, 3)
    assert FAMILY.candidate_slots(v.a) == slots
    for slot in slots:  # either sign of that entry leaves exactly one signal
        i = int(slot[len("sign(x"):-1])
        for s in (1, -1):
            assert FAMILY.solve([*v.a, {"type": "sign", "index": i, "sign": s}], v.target)


@pytest.mark.parametrize(
    ("x", "text"),
    [
        ((3, 0, 0, 0), "sign(x0) = +1"),
        ((-2, 2, -2, 2),
         "sign(x0) = -1 (with the squared DFT magnitudes, this also settles the signs of x1, x2 and x3)"),
    ],
)
def test_hint_settles_every_other_candidate_without_its_value(x: tuple[int, ...], text: str) -> None:
    """A's candidates are every sign that splits x from -x; B's sign(x0) names them all (the tomography design)."""
    v = views_for(x, 3)
    assert v.hint["settles"] == [s for s in FAMILY.candidate_slots(v.a) if s != "sign(x0)"]
    assert FAMILY.render(v.hint) == text
    aliases = FAMILY.slot_aliases(v.slot, v.hint)
    for slot in FAMILY.candidate_slots(v.a):
        assert slot in aliases and f"the sign of {slot[5:-1]}" in aliases
    assert FAMILY.settled_slots(v.hint) == v.hint["settles"]


def test_rule_responder_offers_b_s_sign_for_any_candidate_one_at_a_time() -> None:
    from harness.mira.agents.rule import judge
    from harness.mira.agents.rule_lexicon import build_lexicon

    inst = next(i for i in (build_instance(FAMILY, instance_id=f"pha-{k:06d}", dataset_seed=1234,
                                           requested_difficulty=2, index=k) for k in range(40))
                if len(i["minimal_hint_spec"]["atomic_hints"][0]["constraint"]["settles"]) == 3)
    lexicon = build_lexicon(inst)
    for request in ("What is sign(x0)?", "What is the sign of x1?", "Could you tell me sign(x3)?",
                    "Is x2 positive or negative?", "What is x3's sign?", "Is x1 negative?"):
        assert judge(request, lexicon).offer, request
    for request in ("What are sign(x0) and sign(x2)?", "What is x1?", "What is the phase of X_1?"):
        assert not judge(request, lexicon).offer, request
    assert judge("What are the signs of x1 and x2?", lexicon).rule == "two_quantities"


def test_hard_difficulties_extend_the_bound() -> None:
    assert [bound_for(d) for d in (3, 4, 5)] == [4, 5, 6]
    for d in (4, 5):
        biggest = max(max(map(abs, build_instance(FAMILY, instance_id=f"pha-{i:06d}", dataset_seed=3,
                                                   requested_difficulty=d, index=i)["global_metadata"]["latent"]["x"]))
                      for i in range(30))
        assert 4 < biggest <= bound_for(d)


def test_k2_withholds_a_squared_magnitude_as_well() -> None:
    seconds = set()
    for i in range(8):
        inst = build_instance(FAMILY, instance_id=f"pha-{i:06d}", dataset_seed=5, requested_difficulty=5, index=i, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert h1["slot"] == "sign(x0)" and h2["constraint"]["type"] == "dft_mag_sq"
        k = h2["constraint"]["k"]
        seconds.add(k)
        x = inst["global_metadata"]["latent"]["x"]
        assert h2["value"] == magnitudes(tuple(x))[k] and h2["slot"] == f"|X_{k}|^2"
        view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert sorted(c["k"] for c in view_a if c["type"] == "dft_mag_sq") == sorted({0, 1, 2, 3} - {k})
        assert not any(c["type"] == "fft_mag_sq" for c in view_a)
        assert instance_problems(inst) == []
    assert seconds == {0, 2}
