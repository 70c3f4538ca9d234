"""Checks a family's slot descriptions: python scripts/check_slot_descriptions.py FAMILY [N]

1. every slot of N instances of the family's default-split blocks (hint, A's and B's constraints) is described
   without error; 2. no reader phrase (index, ordinal, position or meaning) of one slot is also a phrase of another
   slot of the same instance (it would name two things); 3. no meaning phrase of a slot equals a request alias of
   another slot; 4. prints how many phrases each slot type has; 5. aggregate responder agreement for the family on
   the labelled request corpora in tests/data (counts only: a family's new phrases must not lose a decline)."""
import collections
import glob
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT))
from generators.describe import Layout, reader_phrases  # noqa: E402
from generators.families import get_family  # noqa: E402
from generators.split import _build, typed_slots  # noqa: E402
from harness.mira.agents.rule_lexicon import _alias_form, _description, slot_names  # noqa: E402

fam_name = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
family = get_family(fam_name)
slots = [(p, s) for p, s in enumerate(typed_slots(20, 50)) if s.family == fam_name]
step = max(1, len(slots) // n)
problems = 0
counts: dict[str, list[int]] = collections.defaultdict(list)
for p, s in slots[::step][:n]:
    inst = _build((p, s, 1234))
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    cons = [hint["constraint"]]
    for v in inst["agent_views"]:
        cons += [c for c in v["private_data"]["constraints_machine"] if c not in cons]
    described = []
    for c in cons:
        name, _ = slot_names(family, c)
        if name is None:
            continue
        d = _description(family, name, c)
        if d is not None:
            described.append((name, d, c))
    layout = Layout.of([d for _, d, _ in described])
    owner: dict[str, str] = {}
    aliases = {}
    for name, _, c in described:
        try:
            aliases[name] = {_alias_form(a) for a in family.slot_aliases(name, c)}
        except Exception:
            aliases[name] = set()
    for name, d, c in described:
        phrases = list(reader_phrases(d, layout))
        counts[c.get("type", "?")].append(sum(1 for _, how in phrases if how == "meaning"))
        for phrase, how in phrases:
            form = _alias_form(phrase)
            if not form:
                continue
            if form in owner and owner[form] != name:
                problems += 1
                if problems <= 15:
                    print(f"{inst['id']}: '{phrase}' ({how}) names both {owner[form]} and {name}")
            owner.setdefault(form, name)
            if how == "meaning":
                for other, forms in aliases.items():
                    if other != name and form in forms:
                        problems += 1
                        if problems <= 15:
                            print(f"{inst['id']}: meaning '{phrase}' of {name} is an alias of {other}")
for t, cs in counts.items():
    print(f"slot type {t}: meanings per slot min {min(cs)} max {max(cs)}")
print("problems:", problems)

from harness.mira.agents.rule import RuleResponder  # noqa: E402
from harness.mira.request_corpus import build_instances, load_corpus  # noqa: E402

files = sorted(glob.glob(str(ROOT / "tests" / "data" / "rule_requests_*.jsonl")) +
               glob.glob(str(ROOT / "tests" / "data" / "heldout_requests_*.jsonl")))
corpus = [it for it in load_corpus(files) if it.id.startswith(fam_name[:3])]
inst = build_instances(it.id for it in corpus)
inst = {k: v for k, v in inst.items() if v["family"] == fam_name}
r = RuleResponder()
tot, ok = collections.Counter(), collections.Counter()
for it in corpus:
    if it.id not in inst:
        continue
    d = "offer" if r.judge(inst[it.id], it.request).offer else "decline"
    tot[it.label] += 1
    ok[it.label] += d == it.label
print(f"responder on the labelled request corpora for {fam_name}: offers {ok['offer']}/{tot['offer']}, "
      f"declines {ok['decline']}/{tot['decline']} (declines must not drop)")
