"""Check a family's slot descriptions (``describe_slot``, ``relation_meanings``) before the responder reads them.

    .venv/bin/python scripts/check_slot_descriptions.py FAMILY [--instances N]

Over N instances of the family's blocks in the default split: every slot (the hint, A's and B's facts) is
described; no reader phrase (index, ordinal, position, meaning) of one slot is also a phrase of another slot of the
same instance, nor a meaning a request alias of another slot (the responder reads such a phrase as neither). Then the
meanings per slot type, and the rule responder's agreement for the family on the labelled request corpora in
tests/data (counts only: new phrases must not lose a decline). Exit status 1 when a phrase names two slots.
"""

from __future__ import annotations

import argparse
import collections
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generators.base import Family  # noqa: E402
from generators.describe import Layout, SlotDescription, reader_phrases  # noqa: E402
from generators.families import FAMILIES, get_family  # noqa: E402
from generators.split import generate, typed_slots  # noqa: E402
from harness.mira.agents.rule import RuleResponder  # noqa: E402
from harness.mira.agents.rule_lexicon import _alias_form, _description, slot_names  # noqa: E402
from harness.mira.request_corpus import build_instances, load_corpus  # noqa: E402


def described_slots(family: Family, instance: dict[str, Any]) -> list[tuple[str, SlotDescription, dict]]:
    """(slot, description with its meanings within the instance, constraint) of every described fact."""
    constraints = [instance["minimal_hint_spec"]["atomic_hints"][0]["constraint"]]
    for view in instance["agent_views"]:
        constraints += [c for c in view["private_data"]["constraints_machine"] if c not in constraints]
    relations = family.relation_meanings(constraints)
    out = []
    for c in constraints:
        slot, _ = slot_names(family, c)
        d = _description(family, slot, c)
        if slot is not None and d is not None:
            out.append((slot, replace(d, meanings=(*d.meanings, *relations.get(slot, ()))), c))
    return out


def problems(family: Family, instance: dict[str, Any]) -> list[str]:
    """The phrases of this instance that name two slots."""
    described = described_slots(family, instance)
    layout = Layout.of([d for _, d, _ in described])
    aliases = {slot: {_alias_form(a) for a in family.slot_aliases(slot, c)} for slot, _, c in described}
    owner: dict[str, str] = {}
    found = []
    for slot, d, _ in described:
        for phrase, how in reader_phrases(d, layout):
            form = _alias_form(phrase)
            if form and owner.setdefault(form, slot) != slot:
                found.append(f"{instance['id']}: '{phrase}' ({how}) names both {owner[form]} and {slot}")
            if how == "meaning":
                found += [f"{instance['id']}: meaning '{phrase}' of {slot} is an alias of {other}"
                          for other, forms in aliases.items() if other != slot and form in forms]
    return found


def agreement(family: Family) -> tuple[collections.Counter, collections.Counter]:
    """(labels, labels the rule responder decides as labelled) over the corpora's requests for the family."""
    corpus = load_corpus(sorted((ROOT / "tests" / "data").glob("rule_requests_*.jsonl")) +
                         sorted((ROOT / "tests" / "data").glob("heldout_requests_*.jsonl")))
    instances = build_instances(dict.fromkeys(item.id for item in corpus))
    responder, total, right = RuleResponder(), collections.Counter(), collections.Counter()
    for item in corpus:
        if instances[item.id]["family"] != family.name:
            continue
        offered = responder.judge(instances[item.id], item.request).offer
        total[item.label] += 1
        right[item.label] += offered == (item.label == "offer")
    return total, right


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=sorted(FAMILIES))
    parser.add_argument("--instances", type=int, default=40, help="instances of the default split to check")
    args = parser.parse_args(argv)
    family = get_family(args.family)
    every = [s for s in typed_slots(20, 50) if s.family == family.name]
    slots = every[::max(1, len(every) // max(1, args.instances))][:max(1, args.instances)]  # across difficulties
    found: list[str] = []
    meanings: dict[str, list[int]] = collections.defaultdict(list)
    for instance in generate(slots, 1234):
        found += problems(family, instance)
        for _, d, c in described_slots(family, instance):
            meanings[c.get("type", "?")].append(len(d.meanings))
    print("\n".join(found[:15]))
    for kind, counts in sorted(meanings.items()):
        print(f"slot type {kind}: meanings per slot {min(counts)} to {max(counts)}")
    total, right = agreement(family)
    print(f"phrases naming two slots: {len(found)}")
    print(f"rule responder on the labelled corpora: offers {right['offer']}/{total['offer']}, "
          f"declines {right['decline']}/{total['decline']}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
