"""rule/7's readings (issue 28, sixth round): names set aside ("not among y_0, y_1", "- not L1", "I only know the
mod 5 and mod 7 ones"), a lack that points back at the question's noun, "one more congruence", the correlation
matrix's cells and corners, the parts of one fact asked together, the list a described name is counted in, "x0, is
it plus or minus", and quoted formulas found by a scan that stays linear. Each reading is checked both ways where it
can wrongly offer."""

from __future__ import annotations

import re
import signal

import pytest

from harness.mira.agents.rule import RuleResponder, quoted_formulas
from harness.mira.agents.rule_lexicon import places
from harness.mira.request_corpus import build_instances
from tests.harness.test_rule_sentences import judged

IDS = ("geo-000122", "dec-001093", "crt-000102", "crt-000096", "por-002053", "por-002074", "pol-001986",
       "pha-000472", "ran-000584", "lin-000295", "lin-001671")


@pytest.fixture(scope="module")
def instances() -> dict[str, dict]:
    return build_instances(IDS)


@pytest.mark.parametrize("instance_id, text", [
    ("geo-000122", "What's the other line through P — not L1, the one I don't have?"),
    ("dec-001093", "Which measured sample do you have? It's the one not among y_0, y_1, y_2, y_4 — please send its "
                   "value."),
    ("crt-000102", "Apart from the mod-7 and mod-3 conditions I was given, x obeys one more congruence. Which one is "
                   "it?"),
    ("crt-000096", "Please send the congruence I don't have — I only know the mod 5 and mod 7 ones."),
    ("por-002053", "In the 2×2 correlation matrix, what's the top-right entry?"),
    ("por-002053", "What's the off-diagonal entry of the 2×2 correlation matrix?"),
    ("por-002074", "What's the top-right entry of the 3x3 correlation matrix?"),
    ("por-002074", "What's the bottom-left entry of the correlation matrix?"),
    ("por-002074", "What is the entry in row 2, column 0 of the correlation matrix?"),
    ("pha-000472", "x0 is it minus or plus?"),
    ("pha-000472", "x0, is it pos or neg?"),
    # the parts of one fact, asked together
    ("ran-000584", "so what are the coefficients and the constant of equation (3)?"),
    ("crt-000096", "What are the modulus and the remainder of the third congruence?"),
    ("lin-000295", "What's the value of the last unknown in the triple (a, b, c)?"),
])
def test_offers(instances: dict[str, dict], instance_id: str, text: str) -> None:
    offer, rationale = judged(instances, instance_id, text)
    assert offer, rationale


@pytest.mark.parametrize("instance_id, text, rule", [
    ("geo-000122", "What's L1 — not L2?", "known_fact"),  # the name set aside is the hint; L1 is asked
    ("dec-001093", "What's y_0 — not y_3?", "known_fact"),
    ("dec-001093", "Which measured samples do you have? Send the ones not among y_0, y_1.", "two_quantities"),
    ("crt-000102", "I need one more hint.", "nothing_named"),  # "one more" with no kind of fact names nothing
    ("por-002074", "What's the entry in row 0, column 1 of the correlation matrix?", "known_fact"),
    # the diagonal is all ones, no slot: the words a correlation's meanings share do not make it one
    ("por-002074", "What's the bottom-right entry of the correlation matrix?", "nothing_named"),
    ("ran-000584", "What are the coefficients and right-hand side of equation 1?", "known_fact"),
    ("crt-000096", "What are the modulus and remainder of the first congruence?", "known_fact"),
    # B holds one coefficient of equation 3: all of them and its constant are several quantities
    ("lin-001671", "What are the coefficients and the constant of equation 3?", "nothing_named"),
    ("lin-000295", "What are (a, b, c)?", "two_quantities"),
])
def test_declines(instances: dict[str, dict], instance_id: str, text: str, rule: str) -> None:
    offer, rationale = judged(instances, instance_id, text)
    assert not offer and rationale["rule"] == rule, rationale


def test_everything_except_a_name_asks_for_that_name(instances: dict[str, dict]) -> None:
    # "except" sets the name against what A has, not against what is asked: it stays asked
    offer, rationale = judged(instances, "dec-001093", "Everything is numeric except y_3, so that is what I need.")
    assert offer, rationale


def test_a_rationale_shows_the_names_not_the_marks_that_stood_for_them(instances: dict[str, dict]) -> None:
    offer, rationale = judged(instances, "lin-000295", "What is c in (a, b, c)?")
    assert not offer and not any("\ue000" <= ch <= "\ue0ff" for phrase in rationale["asked"] for ch in phrase)


def test_places_in_a_matrix() -> None:
    assert places("the top-right entry") == {"top right"}
    assert places("the upper right cell and the lower-left one") == {"top right", "bottom left"}
    assert places("the off-diagonal entry") == {"diagonal"}
    assert places("on the right of the '<' sign") == frozenset()


_OLD_QUOTED_FORMULA = re.compile(r"(['\"])([^'\"]*(?:[=<>≡]|[a-z]{2,}[^'\"]*\s[^'\"]*[a-z]{2,})[^'\"]*)\1"
                                 r"(?:(?<=\")|(?![a-z0-9]))")


@pytest.mark.parametrize("text", [
    "in 'f(x) = 2x + 1 if x < t', what is t", "'ab' 'x = 1'", "the 'sign' of x0", "'ab cd'e 'x y'",
    "\"every equation is linear\" and 'x'", "'ab \"cd ef\" gh'", "it's a 'b c' thing'", "", "'", "'''",
])
def test_quoted_formulas_reads_what_the_regex_it_replaces_read(text: str) -> None:
    assert quoted_formulas(text) == [m.group(2) for m in _OLD_QUOTED_FORMULA.finditer(text)]


def test_an_unmatched_quote_before_a_long_clause_is_read_in_bounded_time(instances: dict[str, dict]) -> None:
    # the regex quoted_formulas replaced took 45 s on 1,200 such characters, and hours on the 4,000 allowed
    request = "What is '" + "ab " * 1300 + "?"
    assert len(request) < 4000

    def hang(*_: object) -> None:
        raise TimeoutError("the rule responder did not finish a hostile request within 20 s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(20)
    try:
        judgement = RuleResponder().judge(instances["pol-001986"], request)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not judgement.offer
