"""rule/7: quoted formulas found by a scan that stays linear (the regex it replaces backtracked for minutes over a
long clause after an unmatched quote)."""

from __future__ import annotations

import re
import signal

import pytest

from harness.mira.agents.rule import RuleResponder, quoted_formulas
from harness.mira.request_corpus import build_instances

_OLD_QUOTED_FORMULA = re.compile(r"(['\"])([^'\"]*(?:[=<>≡]|[a-z]{2,}[^'\"]*\s[^'\"]*[a-z]{2,})[^'\"]*)\1"
                                 r"(?:(?<=\")|(?![a-z0-9]))")


@pytest.mark.parametrize("text", [
    "in 'f(x) = 2x + 1 if x < t', what is t", "'ab' 'x = 1'", "the 'sign' of x0", "'ab cd'e 'x y'",
    "\"every equation is linear\" and 'x'", "'ab \"cd ef\" gh'", "it's a 'b c' thing'", "", "'", "'''",
])
def test_quoted_formulas_reads_what_the_regex_it_replaces_read(text: str) -> None:
    assert quoted_formulas(text) == [m.group(2) for m in _OLD_QUOTED_FORMULA.finditer(text)]


def test_an_unmatched_quote_before_a_long_clause_is_read_in_bounded_time() -> None:
    # the regex quoted_formulas replaced took 45 s on 1,200 such characters, and hours on the 4,000 allowed
    request = "What is '" + "ab " * 1300 + "?"
    assert len(request) < 4000

    def hang(*_: object) -> None:
        raise TimeoutError("the rule responder did not finish a hostile request within 20 s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(20)
    try:
        judgement = RuleResponder().judge(build_instances(["pol-001986"])["pol-001986"], request)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not judgement.offer
