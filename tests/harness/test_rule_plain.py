"""The rule responder's plain-request path (issue 27) agrees with its full reading: the same judgement and
rationale for every hint name in every asking frame, over the default split, the hard tier's k = 1 records and the
instances of the labelled corpora; any other request is left to the full reading."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generators.split import _build, hard_slots, typed_slots
from harness.mira.agents.rule import RuleResponder, judge, plain_request
from harness.mira.agents.rule_lexicon import build_lexicon
from harness.mira.request_corpus import build_instances, load_corpus

DATA = Path(__file__).resolve().parents[1] / "data"
FRAMES = ("What is {}?", "what's {}", "{}?", "{}", "Need {}.", "I need {}.", "Give me {}, please.",
          "Could you please tell me {}?", "Hi! Can you give me {}?", "Please send {}.", "What is the {}?",
          "What is your {}?", "WHAT IS {} ??")


@pytest.fixture(scope="module")
def instances() -> list[dict]:
    split = typed_slots(20, 50)
    out = [_build((p, split[p], 1234)) for p in range(0, len(split), 13)]
    hard = [s for s in hard_slots(2) if s.k == 1]
    out += [_build((p, s, 1234)) for p, s in enumerate(hard)]
    corpus = load_corpus(sorted(DATA.glob("rule_requests_*.jsonl")))
    out += list(build_instances(sorted({item.id for item in corpus})[::7]).values())
    return out


def test_plain_path_agrees_with_the_full_reading(instances: list[dict]) -> None:
    taken, families = 0, Counter()
    for n, instance in enumerate(instances):
        hint = instance["minimal_hint_spec"]["atomic_hints"][0]
        lexicon = build_lexicon(instance)
        for name in (*hint["request_aliases"], hint["slot"]):
            for frame in (FRAMES[0], FRAMES[1 + n % (len(FRAMES) - 1)]):  # every frame, over the instances
                request = frame.format(name)
                plain = plain_request(instance, request)
                if plain is None:
                    continue
                taken += 1
                families[instance["family"]] += 1
                assert plain == judge(request, lexicon), (instance["id"], request)
    assert taken > 3 * len(instances)
    assert len(families) == 22, sorted(families)  # every family has names the plain path reads


def test_canonical_requests_take_the_plain_path(instances: list[dict]) -> None:
    from generators.families import get_family

    missed = Counter()
    for instance in instances:
        hint = instance["minimal_hint_spec"]["atomic_hints"][0]
        request = get_family(instance["family"]).canonical_request(hint["slot"], hint["constraint"])
        if plain_request(instance, request) is None:
            missed[instance["family"]] += 1
    assert set(missed) <= {"moment_problem", "graph_path_sums"}, missed  # a linear form in the name: read whole


@pytest.mark.parametrize("request_text", [
    "What is P(H)? And P(E)?", "What is P(E)?", "What is the remaining prior?", "What is P(H) or P(E|H)?",
    "I have P(E|H) = 1/2. What is P(H)?", "What is P(H|E)?", "Give me everything.", "What is not P(H)?",
])
def test_other_requests_are_read_whole(request_text: str) -> None:
    instance = build_instances(["bay-000015"])["bay-000015"]
    assert plain_request(instance, request_text) is None


def test_responder_uses_the_plain_path_without_building_a_lexicon() -> None:
    instance = build_instances(["bay-000015"])["bay-000015"]
    responder = RuleResponder()
    assert responder.judge(instance, "What is P(H)?").offer
    assert not responder._lexicons  # nothing built for a plain request
    assert not responder.judge(instance, "What is P(H)? And P(E)?").offer
    assert responder._lexicons
