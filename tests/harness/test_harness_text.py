from __future__ import annotations

import pytest

from harness.text import find_spans, normalize, token_estimate, word_count


@pytest.mark.parametrize("variant", ["μ4", "mu_4", "mu4", "Mu 4", "MU_4", "\\mu_{4}", "μ₄", "µ4", "mu_{4}"])
def test_greek_underscore_space_case_variants_agree(variant: str) -> None:
    assert normalize(variant) == "mu4"


@pytest.mark.parametrize(
    ("a", "b"),
    [("P( H )", "p(h)"), ("P(0 → 0)", "p(0->0)"), ("false-positive rate", "false positive rate"),
     ("λ_2", "lambda2"), ("ρ(0,1)", "rho(0,1)"), ("A[1][2]", "a[1][2]"), ("don’t", "dont")],
)
def test_normal_forms(a: str, b: str) -> None:
    assert normalize(a) == normalize(b) == b


def test_names_match_whole_names_only() -> None:
    text = normalize("what are mu42 and mu4?")
    assert find_spans(text, ["mu_4"]) == [(text.index("mu4?"), text.index("mu4?") + 3)]
    assert find_spans(normalize("P(H|E)"), ["P(H)"]) == []
    assert find_spans(normalize("give me your prior"), ["the prior"]) != []


def test_token_estimate_is_words_times_1_3() -> None:
    assert word_count("What is  the prior P(H)?") == 5
    assert word_count(None) == 0
    assert token_estimate(10) == 13.0


def test_powers_and_the_middle_dot_read_as_written_in_ascii() -> None:
    from harness.text import normalize

    assert normalize("the sum of k²·q_k") == normalize("the sum of k^2*q_k") == "the sum of k^2*q k"
    assert normalize("x³") == "x^3" and normalize("μ₄") == "mu4"
