"""The rule responder: a table of request/decision cases, generic over every registered family."""

from __future__ import annotations

import re

import pytest

from generators.families import FAMILIES, get_family
from harness.mira.agents.rule import MAX_REQUEST_CHARS, RuleResponder, slot_names
from harness.mira.types import DECLINE_MESSAGE, ResponderTurn
from harness.text import alias_form

VAGUE = [
    "What is missing?",
    "What information do you have?",
    "Can you help me solve the problem?",
    "Please give me the missing information.",
    "What is the answer?",
    "I don't know what to ask.",
    "Tell me everything you know.",
    "",
]
TO_GREEK = {"mu": "μ", "lambda": "λ", "rho": "ρ", "sigma": "σ", "pi": "π"}


def ask(instance: dict, request: str) -> str:
    b = next(v for v in instance["agent_views"] if v["agent_id"] == "B")["private_data"]
    turn = ResponderTurn(instance["id"], instance["family"], b["constraints_text"], request, privileged=instance)
    decision = RuleResponder().respond([turn])[0]
    if decision.kind == "offer":
        hint = instance["minimal_hint_spec"]["atomic_hints"][0]["text"]
        assert decision.has_exact_match and decision.constraint_quoted == hint
    else:
        assert decision.message == DECLINE_MESSAGE
    return decision.kind


def hint_of(instance: dict) -> dict:
    return instance["minimal_hint_spec"]["atomic_hints"][0]


def paraphrases(alias: str) -> list[str]:
    """Surface variants of one alias: sentence frames, case, underscores/spaces, Greek letters."""
    out = [alias, f"What is {alias}?", f"Could you please tell me {alias}?", f"I need {alias}.", alias.upper()]
    out.append(re.sub(r"_", " ", alias))
    out.append(re.sub(r"(?<=[A-Za-z])_(?=\d)", "", alias))
    for name, letter in TO_GREEK.items():
        if re.search(rf"\b{name}(?=[_\s]?[\d(])", alias):
            out.append(re.sub(rf"\b{name}(?=[_\s]?[\d(])", letter, alias))
    return out


def by_family(instances: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for inst in instances:
        groups.setdefault(inst["family"], []).append(inst)
    return groups


@pytest.fixture(scope="module")
def families(instances: list[dict]) -> dict[str, list[dict]]:
    return by_family(instances)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_offers_on_every_alias_and_its_paraphrases(families: dict[str, list[dict]], family: str) -> None:
    for inst in families[family]:
        hint = hint_of(inst)
        for alias in [*hint["request_aliases"], hint["slot"]]:
            for request in paraphrases(alias):
                assert ask(inst, request) == "offer", (inst["id"], request)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_declines_vague_requests(families: dict[str, list[dict]], family: str) -> None:
    for inst in families[family]:
        for request in VAGUE:
            assert ask(inst, request) == "decline", (inst["id"], request)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_declines_facts_a_already_holds(families: dict[str, list[dict]], family: str) -> None:
    fam = get_family(family)
    for inst in families[family]:
        a_view = inst["agent_views"][0]["private_data"]["constraints_machine"]
        for constraint in a_view:
            slot, names = slot_names(fam, constraint)
            if slot is None or slot == hint_of(inst)["slot"]:
                continue
            for name in names:
                assert ask(inst, f"What is {name}?") == "decline", (inst["id"], name)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_declines_two_slots_at_once(families: dict[str, list[dict]], family: str) -> None:
    fam = get_family(family)
    for inst in families[family]:
        a_view = inst["agent_views"][0]["private_data"]["constraints_machine"]
        known = [slot_names(fam, c) for c in a_view]
        known = [names for slot, names in known if slot is not None and slot != hint_of(inst)["slot"]]
        if known:
            request = f"What are {hint_of(inst)['request_aliases'][0]} and {known[0][0]}?"
            assert ask(inst, request) == "decline", (inst["id"], request)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_declines_slots_of_other_instances(families: dict[str, list[dict]], family: str) -> None:
    """Wrong slot: the hint slot of a sibling instance, when it is a different slot here."""
    fam = get_family(family)
    slots = {(hint_of(i)["slot"], alias_form(fam.slot_aliases(hint_of(i)["slot"], hint_of(i)["constraint"])[0])):
             hint_of(i)["constraint"] for i in families[family]}
    for inst in families[family]:
        own = {alias_form(a) for a in [*hint_of(inst)["request_aliases"], hint_of(inst)["slot"]]}
        for (slot, first_form), _ in slots.items():
            if slot != hint_of(inst)["slot"] and first_form not in own:
                assert ask(inst, f"What is {first_form}?") == "decline", (inst["id"], slot)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_declines_the_target_question(families: dict[str, list[dict]], family: str) -> None:
    for inst in families[family]:
        assert ask(inst, inst["question"]) == "decline", inst["id"]


# ---------------------------------------------------------------------------- specific cases
BAYES_CASES = [
    ("What is the prior P(H)?", "offer"),
    ("p(h)", "offer"),
    ("What is your prior probability of H?", "offer"),
    ("the base rate of H, please", "offer"),
    ("What is P(H|E)?", "decline"),  # the target
    ("What is P(E|H)?", "decline"),  # A holds it
    ("the likelihood", "decline"),
    ("P(E|not H)", "decline"),
    ("What are the prior and P(E|H)?", "decline"),  # two slots
    ("What is the posterior?", "decline"),
    ("What is missing?", "decline"),
    ("What's P(H)? And P(E|H) too, if you have it.", "decline"),  # a follow-up adding a second quantity
    ("What's P(H)? P(E|H) as well.", "decline"),
    ("What's P(H)? And thanks too!", "offer"),
]
CRT_CASES = [
    ("What is the third congruence?", "offer"),
    ("Please give me the remaining congruence.", "offer"),
    ("the third modulus and residue", "offer"),
    ("What is x mod m3?", "offer"),
    ("What is x?", "decline"),  # the target
    ("What is the congruence?", "decline"),  # vague
    ("What is the first congruence?", "decline"),
    ("Which primes are the moduli?", "decline"),
]


def _first(instances: list[dict], family: str) -> dict:
    return next(i for i in instances if i["family"] == family)


@pytest.mark.parametrize(("request_text", "expected"), BAYES_CASES)
def test_bayes_cases(instances: list[dict], request_text: str, expected: str) -> None:
    assert ask(_first(instances, "bayes_missing_prior"), request_text) == expected


@pytest.mark.parametrize(("request_text", "expected"), CRT_CASES)
def test_crt_cases(instances: list[dict], request_text: str, expected: str) -> None:
    assert ask(_first(instances, "crt_reconstruction"), request_text) == expected


def test_crt_declines_a_congruence_a_already_holds(instances: list[dict]) -> None:
    inst = _first(instances, "crt_reconstruction")
    for c in inst["agent_views"][0]["private_data"]["constraints_machine"]:
        if c["type"] == "congruence":
            assert ask(inst, f"What is x mod {c['mod']}?") == "decline"
            assert ask(inst, f"the congruence x mod {c['mod']}") == "decline"


def test_a_request_with_more_names_than_marks_is_declined_unread(instances: list[dict]) -> None:
    instance = _first(instances, "moment_problem")
    responder = RuleResponder()
    assert responder.judge(instance, "What is m2? " + "m2 " * 254).offer  # 255 names: read whole
    for request in ("What is " + "m2 " * 300 + "m1?", "What is m2 " + "m2 " * 300 + "or m1?"):
        judgement = responder.judge(instance, request)
        assert not judgement.offer and judgement.rule == "too_many_names", judgement


def test_a_request_over_the_length_bound_is_declined_unread(instances: list[dict]) -> None:
    instance = _first(instances, "moment_problem")
    responder = RuleResponder()
    preamble = "I have worked through the moment equations carefully. " * 70  # 3,850 characters of context
    assert len(preamble) < MAX_REQUEST_CHARS and responder.judge(instance, preamble + "What is m2?").offer
    long = preamble * 2 + "What is m2?"
    judgement = responder.judge(instance, long)
    assert not judgement.offer and judgement.rule == "too_long", judgement


def test_described_phrases_fast_path_equals_alias_form() -> None:
    """The lexicon's fast paths for plain phrases (lower case, or with capitals, commas and hyphens between words)
    give exactly ``alias_form``."""
    from generators.describe import Layout, SlotDescription, reader_phrases, role_phrases
    from harness.mira.agents.rule_lexicon import _alias_form
    from harness.text import alias_form

    cells = [SlotDescription("entry", (i, j), axes=("row", "column"), base=0, owner="M", synonyms=("matrix entry",))
             for i in range(3) for j in range(3)]
    samples = [SlotDescription("output sample", (k,), base=0, synonyms=("measurement",)) for k in range(4)]
    phrases = [p for group in (cells, samples) for d in group for p, _ in reader_phrases(d, Layout.of(group))]
    phrases += [p for d in cells[:1] + samples[:1] for p in role_phrases(d)]
    phrases += ["your prior", "the lambda rate", "pi", "an entry", "mod m3", "the i.e. entry", "a 4th entry", "the 2nd",
                "an 1", "x 1 2", "the 3 entries", "row 10 column 2", "your 2 rates", "The A-B", "a-b", "x0-1 y",
                "Row 1, Column 2", "an-1", "the, x", "M, row 2", "X-Ray 3", "1-2", "A, 1", "a b-c, d-4 e",
                "the bottom row of M, second column", "the top-left entry", "row 1,column 2", "row 1 ,column 2"]
    assert len(phrases) > 1000
    assert [_alias_form(p) for p in phrases] == [alias_form(p) for p in phrases]
