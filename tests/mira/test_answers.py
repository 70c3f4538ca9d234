from fractions import Fraction

import pytest

from generators.answers import decode_answer, encode_answer
from verifiers.answers import AnswerParseError, check_answer, parse_answer

KEYS = ["a", "b", "c"]


@pytest.mark.parametrize(
    "raw",
    [
        "10/37",
        " 10 / 37 ",
        "20/74",
        "\\frac{10}{37}",
        "\\dfrac{20}{74}",
        "$\\frac{10}{37}$",
        "\\boxed{10/37}",
        '{"numerator": 10, "denominator": 37}',
        '{"answer": "10/37"}',
        {"numerator": 20, "denominator": 74},
        "P(H|E) = 10/37",
        "Answer: 10/37",
        '{"value": "10/37"}',
    ],
)
def test_rational_forms_accepted(raw) -> None:
    assert check_answer(raw, "rational", Fraction(10, 37))


@pytest.mark.parametrize(
    "raw",
    [
        "10/36",
        "0.27",
        "0.2702702702702703",
        "10/37 or 11/37",
        "about 10/37",
        "",
        "10/0",
        '{"numerator": 10}',
        "ten over thirty-seven",
        True,
    ],
)
def test_rational_near_misses_rejected(raw) -> None:
    assert not check_answer(raw, "rational", Fraction(10, 37))


@pytest.mark.parametrize(
    "raw", ["-3/4", "-\\frac{3}{4}", "\\frac{-3}{4}", "-0.75", "3/-4", '{"numerator": -3, "denominator": 4}']
)
def test_negative_fractions(raw) -> None:
    assert check_answer(raw, "rational", Fraction(-3, 4))


@pytest.mark.parametrize("raw", ["12", 12, "12.0", "24/2", '{"value": 12}', "x = 12", "\\boxed{12}", "12."])
def test_int_forms_accepted(raw) -> None:
    assert check_answer(raw, "int", 12)


@pytest.mark.parametrize("raw", ["12.5", "13", "11.999", "1 2", "12, 13", 12.000001, "[12]"])
def test_int_near_misses_rejected(raw) -> None:
    assert not check_answer(raw, "int", 12)


@pytest.mark.parametrize(
    "raw",
    [
        "(1, -2, 3)",
        "[1,-2,3]",
        "a = 1, b = -2, c = 3",
        "a=1; b=-2; c=3",
        "c = 3, a = 1, b = -2",
        '{"a": 1, "b": -2, "c": 3}',
        '{"answer": {"a": 1, "b": -2, "c": 3}}',
        "(a, b, c) = (1, -2, 3)",
        [1, -2, 3],
        "a = 1, b = -2 and c = 3",
        '{"A": 1, "B": -2, "C": 3}',
    ],
)
def test_vector_forms_accepted(raw) -> None:
    assert check_answer(raw, "dict_int", (1, -2, 3), KEYS)


@pytest.mark.parametrize(
    "raw",
    [
        "(1, -2)",
        "(1, -2, 3, 4)",
        "a = 1, b = -2",
        "a = 1, b = -2, c = 3, a = 2",
        '{"a": 1, "b": -2, "d": 3}',
        "(1, 2, 3)",
        "(3, -2, 1)",
        "1 -2 3",
    ],
)
def test_vector_partial_or_wrong_rejected(raw) -> None:
    assert not check_answer(raw, "dict_int", (1, -2, 3), KEYS)


def test_float_json_is_exact_decimal() -> None:
    assert parse_answer("0.5", "rational") == Fraction(1, 2)
    assert parse_answer('{"value": 0.1}', "rational") == Fraction(1, 10)
    with pytest.raises(AnswerParseError):
        parse_answer("1e400x", "rational")


def test_encode_decode_round_trip() -> None:
    for answer_type, value, keys in [
        ("int", -7, []),
        ("rational", Fraction(-6, 8), []),
        ("dict_int", (1, 2), ["x", "y"]),
    ]:
        assert decode_answer(answer_type, encode_answer(answer_type, value, keys), keys) == value
    assert encode_answer("rational", Fraction(6, 8)) == {"numerator": 3, "denominator": 4}
    with pytest.raises(ValueError):
        decode_answer("int", {"value": True})
    with pytest.raises(ValueError):
        encode_answer("int", Fraction(1, 2))
