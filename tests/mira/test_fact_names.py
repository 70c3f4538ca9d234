"""Every fact B holds names, in A's notation, the quantity it gives; the problem text agrees with the question.

Issue 21: an LLM responder can offer a fact only if it can tell that the fact is the one asked for, so the
hint text must name the hint slot the way A's view names it, and each of B's other facts must name its own
quantity. Issue 13 (item 4): the quantities listed as ``unknowns`` are exactly what the answer asks for.
Checked over the whole default split and over each family's difficulty range with other seeds.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from generators.families import FAMILIES
from generators.instances import build_instance
from generators.split import HARD_DIFFICULTIES, HARD_KS
from harness.mira.agents.rule import build_lexicon, judge
from tests.mira.default_split import default_split as shared_default_split
from verifiers.validate import NOTICE_TEXT


def names(text: str, name: str) -> bool:
    """``name`` occurs in ``text`` as a whole name (case-insensitive): ``m3`` is not found in ``m31``."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text, re.IGNORECASE) is not None


# Issue 24: a Type A view tells A the family's facts, not which kind of fact completes them. These hint kinds are
# named in B's fact from A's notation (x0; equations (1), (2)) but A's default view never names them itself.
TYPE_A_KINDS_A_WORKS_OUT = {"phase_retrieval": "sign(x", "rankdef_linear_shared": "equation ("}


def names_in_a_view(a_text: str, family_name: str, label: str) -> bool:
    kind = TYPE_A_KINDS_A_WORKS_OUT.get(family_name)
    return names(a_text, label) or (kind is not None and label.startswith(kind))


def naming_problems(inst: dict) -> list[str]:
    family = FAMILIES[inst["family"]]
    view_a, view_b = (v["private_data"] for v in inst["agent_views"])
    a_text = "\n".join([inst["question"], *view_a["constraints_text"]])
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    problems = []
    if family.fact_label(hint["constraint"]) != hint["slot"]:
        problems.append(f"the hint's label {family.fact_label(hint['constraint'])!r} is not its slot {hint['slot']!r}")
    for c, text in zip(view_b["constraints_machine"], view_b["constraints_text"], strict=True):
        label = family.fact_label(c)
        if not label:
            problems.append(f"B's fact {text!r} has no label")
        elif not names(text, label):
            problems.append(f"B's fact {text!r} does not name its quantity {label!r}")
        elif not names_in_a_view(a_text, inst["family"], label):
            problems.append(f"{label!r} (B's fact {text!r}) is not a name A's view uses")
    if not names(hint["text"], hint["slot"]):
        problems.append(f"the hint text {hint['text']!r} does not name the slot {hint['slot']!r}")
    return problems


def question_problems(inst: dict) -> list[str]:
    unknowns = inst["agent_views"][0]["private_data"]["unknowns"]
    problems = [f"unknown {u!r} is not named in the question" for u in unknowns if not names(inst["question"], u)]
    if inst["answer_type"] == "dict_int":
        if unknowns != inst["answer_keys"]:
            problems.append(f"unknowns {unknowns} are not the answer keys {inst['answer_keys']}")
    elif len(unknowns) != 1:
        problems.append(f"a single-value answer lists {len(unknowns)} unknowns")
    if inst["agent_views"][1]["private_data"]["unknowns"] != unknowns:
        problems.append("A and B list different unknowns")
    return problems


@lru_cache(maxsize=1)
def default_split() -> tuple[dict, ...]:
    return shared_default_split()  # generated once per run (tests/mira/default_split.py)


def test_default_split_facts_name_their_quantities_and_unknowns_match_the_question() -> None:
    bad = {}
    for inst in default_split():
        problems = naming_problems(inst) + question_problems(inst)
        if problems:
            bad.setdefault(inst["family"], (inst["id"], problems))
    assert not bad, bad
    assert {inst["family"] for inst in default_split()} == set(FAMILIES)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_difficulty_names_its_facts(name: str) -> None:
    family = FAMILIES[name]
    for difficulty in (1, 2, 3):
        for index in range(15):
            inst = build_instance(family, instance_id="t", dataset_seed=77, requested_difficulty=difficulty,
                                  index=index)
            assert naming_problems(inst) + question_problems(inst) == [], (difficulty, index)


def crt_instances() -> list[dict]:
    return [inst for inst in default_split() if inst["family"] == "crt_reconstruction"]


def test_crt_hint_names_the_third_congruence_and_both_numbers() -> None:
    for inst in crt_instances():
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]
        c = hint["constraint"]
        assert hint["text"] == (f"third congruence: x ≡ {c['residue']} (mod {c['mod']}), "
                                f"i.e. m3 = {c['mod']}, r3 = {c['residue']}")
        a_text = " ".join(inst["agent_views"][0]["private_data"]["constraints_text"])
        for name in ("m1", "m2", "m3", "r3", "third congruence"):
            assert names(a_text, name), name
        assert "one request" not in a_text  # that the pair is one fact is the ablation's notice (issue 24)


@pytest.mark.parametrize("request_text", [
    "What is the third congruence?",
    "What is the third congruence x ≡ r3 (mod m3)?",
    "What is m3?",
    "What is r3?",
    "What are m3 and r3?",
    "Please give me m3 and r3.",
    "What is x mod m3?",
    "What is the modulus m3 of the third congruence?",
])
def test_rule_responder_offers_natural_crt_requests(request_text: str) -> None:
    for inst in crt_instances()[::7]:
        assert judge(request_text, build_lexicon(inst)).offer, (inst["id"], request_text)


@pytest.mark.parametrize("request_text", ["What is m1?", "What is the first congruence?", "What is x?",
                                          "What is the second congruence?"])
def test_rule_responder_still_declines_known_crt_facts_and_the_target(request_text: str) -> None:
    for inst in crt_instances()[::7]:
        assert not judge(request_text, build_lexicon(inst)).offer, (inst["id"], request_text)


# ------------------------------------------------------------------ the hard tier (d4/d5, k = 1 and k = 2)
HARD_INDICES = range(3)


def hard_instances(name: str) -> list[dict]:
    family = FAMILIES[name]
    return [build_instance(family, instance_id="t", dataset_seed=1234, requested_difficulty=d, index=i, k=k)
            for d in HARD_DIFFICULTIES for k in HARD_KS for i in HARD_INDICES]


def statement_shapes(inst: dict) -> set[str]:
    """A's domain statements with their numbers masked: what the wording of A's view says besides the values."""
    view = inst["agent_views"][0]["private_data"]
    return {re.sub(r"-?\d+", "#", text) for c, text in zip(view["constraints_machine"], view["constraints_text"],
                                                          strict=True) if c["type"] == "domain"}


@pytest.mark.parametrize("name", list(FAMILIES))
def test_the_hard_tier_names_every_fact_b_holds_and_never_says_what_is_missing(name: str) -> None:
    """Every fact B holds at d4/d5, k = 1 and 2 (both withheld facts included), names its quantity as A's view names
    it, and neither A's view nor the question says what is missing or what B knows (validate's NOTICE_TEXT)."""
    for inst in hard_instances(name):
        key = (inst["difficulty"], inst["minimal_hint_spec"]["k_min"])
        assert naming_problems(inst) + question_problems(inst) == [], key
        view = inst["agent_views"][0]["private_data"]
        said = [text for text in [inst["question"], *view["constraints_text"]] if NOTICE_TEXT.search(text)]
        assert said == [], key


@pytest.mark.parametrize("name", list(FAMILIES))
def test_a_hard_tier_view_states_the_same_things_at_k1_and_k2(name: str) -> None:
    """A k = 2 view has no statement that k = 1 views lack (the wording never tells A its k; docs/hard-tier.md)."""
    by_k: dict[tuple[int, int], set[str]] = {}
    for inst in hard_instances(name):
        key = (inst["difficulty"], inst["minimal_hint_spec"]["k_min"])
        by_k.setdefault(key, set()).update(statement_shapes(inst))
    for d in HARD_DIFFICULTIES:
        assert by_k[d, 2] <= by_k[d, 1], (d, by_k[d, 2] - by_k[d, 1])
