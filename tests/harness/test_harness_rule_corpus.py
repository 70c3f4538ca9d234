"""The rule responder against the labelled request corpora in tests/data/ (every line must agree).

``rule_requests_own.jsonl`` was written for issue 13 (``tests/data/make_rule_requests.py``);
``rule_requests_independent.jsonl`` was written by another party without seeing the responder, in the
styles of different models; ``rule_requests_described.jsonl`` (issue 28,
``tests/data/make_rule_requests_described.py``) describes the slot in words: ordinals, positions, roles, domain
meanings, quoted formulas, reasons, confirm clauses; ``rule_requests_general.jsonl`` (rule/3) checks the
general mechanisms on instances the held-out style corpus does not use: free-order roles, "that other line",
statements of need, relations ("the term right after a(0)"), ordinals among the others, the cells B's fact
settles; ``rule_requests_resp3.jsonl`` (rule/4) checks the mechanisms of rule/4 on instances no other corpus uses:
misspelt names, roles ("my list of samples is missing one", "the resistor connected in series with R2"), positions
counted from either end ("second from the left"), indices after a few words ("the measured output at time step 1"),
meanings by modulus or expectation ("x mod 17", "E[K^2]"). Requests whose label is open to dispute are left out
(docs/harness.md).
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from generators.families import FAMILIES, get_family
from harness.mira.agents.rule import RuleResponder
from harness.mira.request_corpus import build_instances, load_corpus, measure
from harness.mira.types import DECLINE_MESSAGE, ResponderTurn

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = {"own": DATA / "rule_requests_own.jsonl", "independent": DATA / "rule_requests_independent.jsonl",
         "described": DATA / "rule_requests_described.jsonl", "general": DATA / "rule_requests_general.jsonl",
         "resp3": DATA / "rule_requests_resp3.jsonl"}
OFFER_STYLES = {"short", "polite", "formula_restated", "latex", "justification_first", "words", "because", "type_b"}
DECLINE_STYLES = {"vague", "target", "known_fact", "wrong_slot", "two_things", "everything"}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(FILES.values())


@pytest.fixture(scope="module")
def instances(corpus):
    return build_instances(item.id for item in corpus)


def test_corpus_covers_every_family_difficulty_and_style(corpus, instances) -> None:
    own = [item for item in corpus if item.source == FILES["own"].name]
    per_family = Counter(instances[item.id]["family"] for item in own)
    assert set(per_family) == set(FAMILIES)
    assert min(per_family.values()) >= 25, per_family
    for family in FAMILIES:
        difficulties = {instances[i.id]["requested_difficulty"] for i in own if instances[i.id]["family"] == family}
        assert difficulties == {1, 2, 3}, family
    assert {i.style for i in own if i.label == "offer"} >= OFFER_STYLES
    assert {i.style for i in own if i.label == "decline"} >= DECLINE_STYLES
    independent = {i.style for i in corpus if i.source == FILES["independent"].name}
    assert len(independent) >= 14


@pytest.mark.parametrize("source", list(FILES))
def test_rule_responder_agrees_on_every_line(corpus, instances, source: str) -> None:
    responder = RuleResponder()
    items = [item for item in corpus if item.source == FILES[source].name]

    def decide(instance, request):
        judgement = responder.judge(instance, request)
        return ("offer" if judgement.offer else "decline"), judgement.rationale()

    agreement = measure(items, instances, decide)
    wrong = [f"{i.source}:{i.line} [{i.id}] {i.style}: expected {i.label}, got {got} ({why['rule']}, "
             f"asked {why['asked']}): {i.request!r}" for i, got, why in agreement.disagreements]
    assert not wrong, "\n".join(wrong)


def test_described_corpus_covers_every_family_and_kind(corpus, instances) -> None:
    described = [item for item in corpus if item.source == FILES["described"].name]
    assert {instances[item.id]["family"] for item in described} == set(FAMILIES)
    assert {i.style for i in described if i.label == "offer"} >= {"ordinal", "position", "role", "meaning",
                                                                   "quoted_formula", "reason", "index"}
    assert {i.style for i in described if i.label == "decline"} >= {"confirm", "described_known", "role_ambiguous",
                                                                     "two_things"}


DESCRIBED = [  # (family, request, decision, rule, the description the rationale names)
    ("circuit_missing_resistance", "How many ohms does the 2nd resistor have?", "offer", "hint", "ordinal: resistor 2"),
    ("circuit_missing_resistance", "What is the resistance of the second resistor?", "offer", "hint",
     "ordinal: resistor 2"),
    ("circuit_missing_resistance", "What is the resistance of the third resistor?", "decline", "known_fact",
     "ordinal: resistor 3"),
    ("crt_reconstruction", "Could you send the congruence that is not in my list?", "offer", "hint",
     "role: the only congruence B holds"),
    ("rankdef_linear_shared", "Please give me the equation I am missing.", "decline", "ambiguous", "role: B holds 2"),
    ("markov_missing_transition", "What is the chance the chain stays in state 1?", "offer", "hint",
     "meaning: P transition probability"),
]


@pytest.mark.parametrize(("family", "request_text", "expected", "rule", "via"), DESCRIBED)
def test_described_requests_name_their_description(family, request_text, expected, rule, via) -> None:
    judgement = RuleResponder().judge(first_instance(family), request_text)
    assert ("offer" if judgement.offer else "decline") == expected, judgement
    assert judgement.rule == rule, judgement
    assert any(via in d for d in judgement.rationale()["described"]), judgement


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_describes_its_hint_slot(family: str) -> None:
    from generators.describe import Layout, SlotDescription, reader_phrases

    inst = first_instance(family)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    description = get_family(family).describe_slot(hint["slot"], hint["constraint"])
    assert isinstance(description, SlotDescription), family
    assert list(reader_phrases(description, Layout.of([description]))) or description.meanings, family


def test_confirm_clause_asks_and_constant_term_is_p0() -> None:
    inst = first_instance("recurrence_missing_init")
    assert not RuleResponder().judge(inst, "What is a(1)? Also, please confirm that a(0) = -1.").offer
    assert RuleResponder().judge(inst, "What is a(1)? I know a(0) = -1.").offer
    poly = build_instances(["pol-001976"])["pol-001976"]  # B holds p(0)
    judgement = RuleResponder().judge(poly, "What is the constant term of the polynomial p?")
    assert judgement.offer and judgement.rule == "hint", judgement


def test_every_decision_says_why(corpus, instances) -> None:
    responder = RuleResponder()
    for item in corpus[:200]:
        inst = instances[item.id]
        b = next(v for v in inst["agent_views"] if v["agent_id"] == "B")["private_data"]
        decision = responder.respond([ResponderTurn(inst["id"], inst["family"], b["constraints_text"],
                                                    item.request, privileged=inst)])[0]
        assert decision.rationale is not None and decision.rationale["rule"]
        if decision.kind == "offer":
            assert decision.rationale["rule"] == "hint" and decision.rationale["asked"]
        else:
            assert decision.message == DECLINE_MESSAGE and decision.rationale["rule"] != "hint"


CASES = [  # (family, request, decision, rule): the issue's examples and the crt parts
    ("moment_problem", "What is the second moment m2 = q1 + 4q2?", "offer", "hint"),
    ("moment_problem", "What is the second moment, q1 + 4q2?", "offer", "hint"),
    ("moment_problem", "What is q1 + 4q2?", "offer", "hint"),
    ("moment_problem", "What are m2 and q1?", "decline", "two_quantities"),
    ("geometry_coordinates", "What is the equation of line L2 (a2*x + b2*y = c2)?", "offer", "hint"),
    ("geometry_coordinates", "What is L2?", "offer", "hint"),
    ("crt_reconstruction", "What are m3 and r3?", "offer", "hint"),
    ("crt_reconstruction", "what is x mod m3?", "offer", "hint"),
    ("crt_reconstruction", r"What is $x \equiv r_3 \pmod{m_3}$?", "offer", "hint"),
    ("crt_reconstruction", "What is x?", "decline", "target"),
    ("bayes_missing_prior", "What are P(H) and P(E)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "What is P(H), and also P(E|H)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "What is P(H) as well as P(E)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "What is P(H) and the value of P(E)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "I need P(H) because the posterior P(H|E) depends on it.", "offer", "hint"),
    ("bayes_missing_prior", "What is P(E|H)?", "decline", "known_fact"),
    ("bayes_missing_prior", "Could you share everything you have?", "decline", "everything"),
    ("bayes_missing_prior", "What is missing?", "decline", "nothing_named"),
]


MORE = [  # (family, request, decision) on the family's first instance: follow-ups, consequences, notation
    ("moment_problem","What's the value of m2? I already have m0 and m1.","offer"),
    ("bayes_missing_prior","Hey, can you give me P(H)? Thx","offer"),
    ("moment_problem","m2 please","offer"),
    ("moment_problem","Do you know the second-moment equation?","offer"),
    ("geometry_coordinates","What is L2? I need it to find P and then the distance to Q.","offer"),
    ("linear_system_separator","Need: c","offer"),
    ("birth_death_missing_rate","What's lambda_0 and mu_1?","decline"),
    ("piecewise_missing_threshold",
     "Could you tell me the value of the threshold t, so I know which branch applies at x = 3?", "offer"),
    ("circuit_missing_resistance","Please provide R2 (in ohms).","offer"),
    ("bayes_missing_prior","What is P(H)? And what is P(E)?","decline"),
    ("moment_problem","Please tell me m2, the second moment (i.e. q1 + 4q2).","offer"),
    ("phase_retrieval","I need the value of x0's sign.","offer"),
    ("phase_retrieval","Is x0 positive or negative?","offer"),
    ("moment_problem","What is m2? What is m1?","decline"),
    ("moment_problem","What is m1?","decline"),
    ("moment_problem","What is the first moment?","decline"),
    ("bayes_missing_prior","What's the likelihood P(E|H)?","decline"),
    ("bayes_missing_prior","What is the prior? I know the likelihoods P(E|H) = 1/2 and P(E|not H) = 2/5.","offer"),
    ("crt_reconstruction","What is the modulus of the third congruence?","offer"),
    ("crt_reconstruction","What are m1 and m2?","decline"),
    ("crt_reconstruction","Give me the remainder of x when divided by m3.","offer"),
    ("graph_path_sums","What is e01 + e20?","offer"),
    ("graph_path_sums","What is e01?","decline"),
    ("graph_path_sums","What are e01 and e20?","decline"),
    ("recurrence_missing_init","What is a(1)? With a(0) = -1 and the recurrence I can then get a(5).","offer"),
    ("recurrence_missing_init","What are a(1) and a(2)?","decline"),
    ("linear_system_separator","What's c? Then I can solve for a and b.","offer"),
    ("linear_system_separator","What are a, b and c?","decline"),
    ("matrix_completion","**m10** = ?","offer"),
    ("rankdef_linear_shared","Could you send me equation (3)? Equations (1) and (2) alone are rank deficient.","offer"),
    ("laplace_grid","What is the value u(1,0) on the boundary?","offer"),
    ("markov_missing_transition","What is P(1→1)?","offer"),
    ("markov_missing_transition","What are the transition probabilities out of state 1?","decline"),
    ("poly_interpolation","p(-3)=?","offer"),
    ("portfolio_variance_missing_corr","What's ρ₀₁?","offer"),
    ("steady_state_missing_emission","I need E[1][1] — the probability that state 1 emits symbol 1.","offer"),
]


# Written after the corpora agreed fully and measured once before any fix: 40/44 agreed (docs/harness.md).
LATER = [
    ('bayes_missing_prior', '{"request": "Please provide the prior probability P(H)."}', 'offer'),
    ('bayes_missing_prior', "Request: P(H). Reason: Bayes' theorem requires the prior.", 'offer'),
    ('bayes_missing_prior', '- Needed: P(H)\n- Purpose: compute the posterior', 'offer'),
    ('bayes_missing_prior', 'Can you tell me P(E)?', 'decline'),
    ('bayes_missing_prior', "What's the posterior probability of H given E?", 'decline'),
    ('moment_problem', 'Please share the second moment equation (the one involving q1 + 4q2).', 'offer'),
    ('moment_problem', "I'd appreciate it if you could send the value of $m_2$, the second moment.", 'offer'),
    ('moment_problem', 'What are the values of q0, q1 and q2?', 'decline'),
    ('moment_problem', 'Could you give me m2 and m1?', 'decline'),
    ('geometry_coordinates', 'Could you share the equation of the other line, L2?', 'offer'),
    ('geometry_coordinates', 'What are the coordinates of P?', 'decline'),
    ('geometry_coordinates', 'Send L2 please; with L1 I can then intersect them.', 'offer'),
    ('crt_reconstruction', 'What is the third congruence (modulus and residue)?', 'offer'),
    ('crt_reconstruction', 'Which residue does x leave modulo m3, and what is m3?', 'offer'),
    ('crt_reconstruction', 'What is the value of x modulo 3?', 'decline'),
    ('circuit_missing_resistance', 'Resistance of R2 in ohms?', 'offer'),
    ('circuit_missing_resistance', 'How are R1 and R2 connected, and what is R2?', 'decline'),
    ('circuit_missing_resistance', "What's the equivalent resistance of the network?", 'decline'),
    ('deconvolution', 'Kindly provide the measurement $y_3$ so I can finish the deconvolution.', 'offer'),
    ('deconvolution', 'What is x3?', 'decline'),
    ('laplace_grid', 'To close the system I need the boundary value u_1_0. What is it?', 'offer'),
    ('laplace_grid', 'What is u_1_1?', 'decline'),
    ('markov_missing_transition', 'What is the one-step probability P(1→1) of staying in state 1?', 'offer'),
    ('markov_missing_transition', 'What is the stationary probability pi_0?', 'decline'),
    ('poly_interpolation', 'What value does the polynomial take at x = -3, i.e. p(-3)?', 'offer'),
    ('poly_interpolation', 'What is p(4)?', 'decline'),
    ('portfolio_variance_missing_corr', 'Could you share the correlation coefficient between asset 0 and asset 1?',
     'offer'),
    ('portfolio_variance_missing_corr', 'What are the weights w_0 and w_1?', 'decline'),
    ('steady_state_missing_emission', 'What is E[1][1], i.e. P(observe 1 | state 1)?', 'offer'),
    ('recurrence_missing_init', 'I need the initial condition a(1) in order to iterate the recurrence forward.',
     'offer'),
    ('recurrence_missing_init', 'What is a(5)?', 'decline'),
    ('phase_retrieval', 'Is x_0 > 0 or < 0?', 'offer'),
    ('piecewise_missing_threshold', 'Where exactly does f switch branches, i.e. what is t?', 'offer'),
    ('piecewise_missing_threshold', 'What is f(3)?', 'decline'),
    ('rankdef_linear_shared', 'Please send me equation (3) so the system becomes full rank.', 'offer'),
    ('rankdef_linear_shared', 'Please send me both equations (3) and (4).', 'decline'),
    ('linear_system_missing_coeff', 'What is the coefficient A[0][1]? (it multiplies x1 in equation 0)', 'offer'),
    ('linear_system_missing_coeff', 'What is b[1]?', 'decline'),
    ('matrix_completion', "I'm missing the bottom-left entry of M. Can you give it to me?", 'offer'),
    ('discrete_tomography', 'What is in cell (1,2) of the grid?', 'offer'),
    ('eigenvector_missing_entry', 'What is the eigenvalue λ?', 'decline'),
    ('graph_path_sums', "What's the path sum through vertex 0, s3?", 'offer'),
    ('birth_death_missing_rate', 'At what rate does the chain move up from state 0 to state 1?', 'offer'),
    ('linear_system_separator', 'Tell me all the values you know.', 'decline'),
]


@pytest.mark.parametrize(("family", "request_text", "expected"), MORE + LATER)
def test_more_requests(family: str, request_text: str, expected: str) -> None:
    judgement = RuleResponder().judge(first_instance(family), request_text)
    assert ("offer" if judgement.offer else "decline") == expected, judgement


@functools.cache
def first_instance(family: str) -> dict:
    from generators.split import typed_slots

    position = next(p for p, s in enumerate(typed_slots(20, 50)) if s.family == family)
    instance_id = f"{get_family(family).prefix}-{position:06d}"
    return build_instances([instance_id])[instance_id]


@pytest.mark.parametrize(("family", "request_text", "expected", "rule"), CASES)
def test_issue_examples(family: str, request_text: str, expected: str, rule: str) -> None:
    judgement = RuleResponder().judge(first_instance(family), request_text)
    assert ("offer" if judgement.offer else "decline") == expected, judgement
    assert judgement.rule == rule, judgement


def test_shared_regex_finds_exactly_what_the_instances_own_regex_finds(corpus, instances) -> None:
    """Lexicons share one regex per family shape (numbers generic); the instance's own longest name is then
    taken. It must find the same names, at the same places, as a regex compiled from the instance's names
    (the lexicon as it was before issue 27), descriptions aside."""
    import dataclasses
    import re

    from harness.mira.agents.rule_lexicon import (
        ARTICLE_NEXT,
        LINEAR_EXPR,
        _linear_form,
        build_lexicon,
        find_mentions,
        trie_regex,
    )
    from harness.text import normalize

    def reference(text, lexicon, pattern):
        found = [(m.start(), m.end(), m.group()) for m in LINEAR_EXPR.finditer(text)
                 if lexicon.linear and _linear_form(m.group()) == lexicon.linear]
        linear = list(found)
        for m in pattern.finditer(text):
            if not any(start < m.end() and m.start() < end for start, end, _ in linear):
                found.append((m.start(), m.end(), m.group()))
        # rule/3: "a" before a word ("give me a hint") is the article, not a name
        return sorted((start, form) for start, _, form in found
                      if not (form == "a" and ARTICLE_NEXT.match(text, start + 1)))

    own: dict[int, re.Pattern[str]] = {}
    for item in corpus[::2]:
        lexicon = dataclasses.replace(build_lexicon(instances[item.id]), described=None)
        pattern = own.setdefault(id(lexicon.names), re.compile(trie_regex(list(lexicon.names))))
        text = normalize(item.request)
        assert [(m.start, m.form) for m in find_mentions(text, lexicon)] == reference(text, lexicon, pattern), item
