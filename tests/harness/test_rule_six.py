"""rule/6's readings (issue 28, fifth round): lacks stated in any word order, confirming another quantity, context
after a comma, chat spellings, typeset power sums, relations to an unknown, quoted definitions, rows and columns as
i and j, a typed-out matrix with one blank. Each reading is checked both ways where it can wrongly offer: it
offers the hint, and the same words about another slot (or two things) decline."""

from __future__ import annotations

import pytest

from harness.mira.request_corpus import build_instances
from tests.harness.test_rule_sentences import judged

IDS = ("pha-000474", "cir-000828", "bir-000674", "pol-001957", "cir-000822", "dec-000991", "ran-000595",
       "ran-000562", "geo-000156", "mar-001781", "mom-000382", "lin-001593", "lap-001473", "pie-000506",
       "cir-000855", "mat-000339", "dis-001177", "eig-001407", "mom-000362", "lin-001575", "bay-000054",
       "bay-000017", "bay-000044", "cir-000817", "ste-002290")

MATRIX = ("I have every entry except one:\n$$M = \\begin{pmatrix} -3 & 3 & 0 & 5 \\\\ -3 & ? & -3 & 6 \\\\ "
          "6 & 2 & 5 & 0 \\\\ -7 & -5 & 5 & 3 \\end{pmatrix}$$\nWhat goes in place of the `?`")


@pytest.fixture(scope="module")
def instances() -> dict[str, dict]:
    return build_instances(IDS)


@pytest.mark.parametrize("instance_id, text", [
    ("pha-000474", "is x0 pos or neg??"),
    ("pha-000474", "is x0 + or - ?? just the sign"),
    ("cir-000828", "Can you give me the resistance of the one resistor I haven't been told about?"),
    ("dec-000991", "whats y2, i have y0 y1 y3 already"),
    ("ran-000595", "eqation 3 pls??"),
    ("ran-000562", "send eqn 3 pls"),
    ("geo-000156", "hey wats the equation for L2 , need it to get P"),
    ("mar-001781", "whats the prob of going 0 -> 2?? need it bad"),
    ("mom-000382", "What is Σ k²·q_k?"),
    ("mom-000382", "What's the sum of k² times the weight qk over the support {0, 1, 2}?"),
    ("lin-001593", "In the first equation, what's the coefficient in front of x0?"),
    ("lin-001575", "wat is the x0 coefficent in eq 0 ?? thx"),
    ("lap-001473", "What's the boundary value directly above u_1_3?"),
    ("pie-000506", "\"The threshold t is an integer with -11 <= t <= 11 and t != x.\" Which integer is it?"),
    ("cir-000855", "Is R3 equal to 5 ohms, like R1? Please check the value of R3 for me."),
    ("mat-000339", "What is the entry with i = 1 and j = 0?"),
    ("eig-001407", MATRIX),
    ("bay-000017", "Bayes' rule needs three inputs: the likelihood under H, the likelihood under not-H, and the prior. "
                   "I have the first two. Could you give me the third?"),
    ("bay-000044", "In the numerator P(E|H)·P(H) of Bayes' formula, I know the first factor. "
                   "What's the second factor?"),
    # the circuit's topology (Family.relation_meanings): R3 joins the parallel pair G1 = R2 || R1 in series
    ("cir-000817", "How many ohms is the resistor wired in series with the parallel pair?"),
    ("cir-000817", "I have R1 and R2 but not the resistor put in series with G1 to make G2. What's its resistance?"),
    ("ste-002290", "What is the entry in row 0, column 0 of E?"),
])
def test_offers(instances: dict[str, dict], instance_id: str, text: str) -> None:
    offer, rationale = judged(instances, instance_id, text)
    assert offer, rationale


@pytest.mark.parametrize("instance_id, text, rule", [
    ("bir-000674", "What do you know about the chain's rates?", "nothing_named"),  # asks what B knows: vague
    ("pol-001957", "What's p(-1)? And is p(1) = 4 correct?", "two_quantities"),
    ("cir-000822", "What's R2? Also, just to be safe, confirm R1 = 2 ohms.", "two_quantities"),
    ("lap-001473", "What is u_1_3?", "target"),  # the unknown itself, not the boundary value above it
    ("pie-000506", "\"t != x\" - give me t and x", "two_quantities"),
    ("dis-001177", "What are the top-right and bottom-left cells?", None),
    ("eig-001407", MATRIX.replace("`?`", "`?` and what is the eigenvalue?"), None),
    ("mom-000362", "Send me both of the moment equations you hold.", "everything"),
    ("bay-000054", "I'm stuck on this one. Can you give me whatever would help?", "nothing_named"),
    ("bay-000017", "Bayes' rule needs three inputs: the likelihood under H, the likelihood under not-H, and the prior. "
                   "I have the last two. Could you give me the first?", None),  # the first is a likelihood
    ("bay-000044", "In the numerator P(E|H)·P(H), what's the first factor?", None),
    ("cir-000817", "What's the resistor in parallel with R1?", "known_fact"),  # R2, which A has
    # E and P are both matrices: a position without its matrix names neither (it used to name E, first by name)
    ("ste-002290", "What is the entry in row 0, column 0?", "nothing_named"),
    ("ste-002290", "What is the top-left entry?", "nothing_named"),
])
def test_declines(instances: dict[str, dict], instance_id: str, text: str, rule: str | None) -> None:
    offer, rationale = judged(instances, instance_id, text)
    assert not offer, rationale
    if rule is not None:
        assert rationale["rule"] == rule, rationale


def test_rationale_names_the_reading(instances: dict[str, dict]) -> None:
    _, by_clause = judged(instances, "cir-000828", "Can you give me the resistance of the one resistor I haven't "
                                                   "been told about?")
    assert any("by clause" in d for d in by_clause["described"]), by_clause
    _, blank = judged(instances, "eig-001407", MATRIX)
    assert any("blank in a matrix" in d for d in blank["described"]), blank
    _, related = judged(instances, "lap-001473", "What's the boundary value directly above u_1_3?")
    assert any("row 0, column 3" in d for d in related["described"]), related
