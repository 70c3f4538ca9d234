"""rule/5's general readings: a request of several sentences, slots located by coordinates (``rule_reference``),
value alternatives, a question restated after it, "that's missing" roles. Each reading is checked both ways: it
offers the hint, and the same reading of another slot (or of two things) declines."""

from __future__ import annotations

import pytest

from harness.mira.agents.rule import RuleResponder
from harness.mira.request_corpus import build_instances

IDS = ("bay-000015", "dec-001074", "mar-001824", "dis-001224", "eig-001324", "lin-001674", "lap-001474",
       "eig-001374")


@pytest.fixture(scope="module")
def instances() -> dict[str, dict]:
    return build_instances(IDS)


def judged(instances: dict[str, dict], instance_id: str, request: str) -> tuple[bool, dict]:
    judgement = RuleResponder().judge(instances[instance_id], request)
    return judgement.offer, judgement.rationale()


@pytest.mark.parametrize("instance_id, text", [
    # the question points back to the need stated before it
    ("dec-001074", "Using y_k = h0*x_k + h1*x_(k-1) + h2*x_(k-2) with k = 0, only h0*x_0 survives. So I need the "
                   "measured value at k = 0. What is it?"),
    ("eig-001374", "(M^2)[2][3] = M[2][0]·M[0][3] + M[2][1]·M[1][3] = 21 − M[2][0]. So I just need the first entry "
                   "of row 2 of M. What is it?"),
    ("bay-000015", "Both likelihoods are known to me. The one thing still missing is P(H). Could you send it?"),
    # reasoning first, the question alone names the hint
    ("bay-000015", "P(E|H) = 1/5 and P(E|not H) = 3/4 are in my list, which leaves the prior. What is P(H)?"),
    # coordinates read as a grammar
    ("mar-001824", "In row 1 of the transition matrix, what's the last entry?"),
    ("dec-001074", "What is the measured value at k = 0?"),
    ("lap-001474", "What's the middle value along the top boundary row?"),
    # values a quantity may take; a question restated after it; "that's absent"
    ("dis-001224", "Could you please tell me whether cell(2,1) is 0 or 1? Thank you."),
    ("eig-001324", "In the product M·v, what weight multiplies v[0] in the row-1 component? That is, the entry of M "
                   "at row 1, column 0."),
    ("lin-001674", "Please send the coefficient that's absent from my list of A entries."),
    # a meaning with no numbers, reworded: three of its words or more, and more than any other slot's
    ("bay-000015", "Before any evidence is observed, how likely is it that the hypothesis is true?"),
])
def test_offers(instances: dict[str, dict], instance_id: str, text: str) -> None:
    offer, rationale = judged(instances, instance_id, text)
    assert offer, rationale


@pytest.mark.parametrize("instance_id, text", [
    # something added after the question; two things pointed back to
    ("bay-000015", "What is P(H)? And P(E) as well."),
    ("bay-000015", "I need P(H) and P(E). Could you give me them?"),
    # the question points back to a need that names a fact A holds
    ("dec-001074", "So I need the measured value at k = 1. What is it?"),
    # coordinates of a fact A holds, of the target, of no slot
    ("mar-001824", "In row 0 of the transition matrix, what's the first entry?"),
    ("dec-001074", "What is the measured value at k = 1?"),
    ("dec-001074", "What is the measured value at k = 40?"),
    ("lap-001474", "What's the middle value along the bottom boundary row?"),
    # two words of a meaning are not enough ("anything", "problem")
    ("bay-000015", "Can you share anything that would help me finish this Bayes problem?"),
    # a restatement naming a fact A holds
    ("eig-001324", "What weight multiplies v[1]? That is, the entry of M at row 0, column 1."),
])
def test_declines(instances: dict[str, dict], instance_id: str, text: str) -> None:
    offer, rationale = judged(instances, instance_id, text)
    assert not offer, rationale


def test_rationale_names_the_reading(instances: dict[str, dict]) -> None:
    _, rationale = judged(instances, "dec-001074", "With k = 0 only h0*x_0 survives. So I need the measured value at "
                                                   "k = 0. What is it?")
    assert any(d.startswith("sentences: the question points back to") for d in rationale["described"])
    _, rationale = judged(instances, "mar-001824", "In row 1 of the transition matrix, what's the last entry?")
    assert any("reference: row and column" in d for d in rationale["described"])


@pytest.mark.parametrize("text, slot", [
    ("what is the top left corner?", "P(0->0)"),
    ("the bottom right corner", "P(3->3)"),
    ("the last entry in row major order", "P(3->3)"),
    ("the first entry in row major order", "P(0->0)"),
    ("in row1 of the matrix,whats the last entry?", "P(1->3)"),
    ("the middle row,rightmost entry", None),  # four rows have no middle one
    ("the entry in row1 and row2", None),  # two rows: no one cell
])
def test_coordinates_read_as_a_grammar(instances: dict[str, dict], text: str, slot: str | None) -> None:
    from harness.mira.agents.rule_lexicon import build_lexicon
    from harness.mira.agents.rule_reference import structured_reference

    found = structured_reference(text, build_lexicon(instances["mar-001824"]))
    assert (found.name.slot if found else None) == slot
