"""Pi_RSA (equation 4), the configuration family F_1..F_3 and the additive / interacting classification."""

from __future__ import annotations

import itertools
import json

import pytest

from elenchos.classification import explanations, minimum_covers
from elenchos.curated import AMBIGUOUS_DECISION, TABLE6, benchmark_sets, check, ladder_sets, resolve_ambiguous
from elenchos.family import (
    SOUND,
    Family,
    PiRSA,
    classify,
    observe,
    paper_additive,
    separate,
)
from elenchos.library import library
from lambdapy import MUTATION_IDS, Observation

# --------------------------------------------------------------------------------------------------- Pi_RSA


def _eq4(table: dict, probes: range) -> list[tuple[str, str]]:
    """Ordered pairs (mu, mu') that no probe separates in the sense of equation (4)."""
    missing = []
    for a, b in itertools.permutations(MUTATION_IDS, 2):
        if not any(table[(a,)][j] != table[(b,)][j] and table[(a,)][j] != table[SOUND][j] for j in probes):
            missing.append((a, b))
    return missing


@pytest.mark.parametrize("choice", ["level0", "cover"])
def test_pi_rsa_separates_every_singleton_from_sound_and_from_every_other(choice: str, fam: Family,
                                                                        cover_fam: Family) -> None:
    pi = {"level0": fam, "cover": cover_fam}[choice].pi
    assert pi.kind == choice
    configs = [SOUND, *((m,) for m in MUTATION_IDS)]
    fresh = observe(configs, list(pi.probes), jobs=1)  # re-run: the expected table is what the kernels do
    assert {k: fresh[(k,) if k != "sound" else SOUND] for k in pi.expected} == pi.expected
    assert _eq4(fresh, range(len(pi.probes))) == []
    for m in MUTATION_IDS:  # in particular every singleton differs from the sound kernel
        assert pi.expected[m] != pi.expected["sound"]


def test_default_pi_rsa_is_the_level0_probes_as_the_paper_builds_it(fam: Family) -> None:
    pi = fam.pi
    level0 = [p.name for p in fam.library.level0().values()]
    assert pi.kind == "level0" and list(pi.names[:13]) == level0 and len(set(level0)) == 13
    # the Level-0 probes all single their mutation out, so equation (4) needs no extra probe
    assert pi.search["extra_for_equation_4"] == [] and len(pi.probes) == 13


def test_cover_pi_rsa_is_a_minimum_cover_found_by_search(cover_fam: Family) -> None:
    fam = cover_fam
    pi = fam.pi
    assert pi.search["minimum_size"] == len(pi.probes) and pi.search["minimum_covers"] >= 1
    assert all(p.core for p in pi.probes)
    table = {c: fam.observations[c] for c in [SOUND, *((m,) for m in MUTATION_IDS)]}
    index = [fam.library.index(p.name) for p in pi.probes]
    for drop in index:  # irredundant: no probe can be removed
        assert _eq4(table, [j for j in index if j != drop]) != []


def test_minimum_covers_is_exact_on_small_instances() -> None:
    import random

    rng = random.Random(7)
    for _ in range(30):
        universe_bits = rng.randint(3, 9)
        masks = [rng.getrandbits(universe_bits) for _ in range(rng.randint(3, 8))]
        universe = (1 << universe_bits) - 1
        union = 0
        for m in masks:
            union |= m
        if union != universe:
            with pytest.raises(ValueError):
                minimum_covers(masks, universe)
            continue
        size, covers = minimum_covers(masks, universe)
        brute = [set(c) for k in range(1, len(masks) + 1) for c in itertools.combinations(range(len(masks)), k)
                 if _covers(masks, c, universe)]
        best = min(len(c) for c in brute)
        assert size == best
        assert sorted(map(sorted, covers)) == sorted(sorted(c) for c in brute if len(c) == best)


def _covers(masks: list[int], chosen: tuple[int, ...], universe: int) -> bool:
    got = 0
    for j in chosen:
        got |= masks[j]
    return got == universe


# Which Level-0 probes single their mutation out among the 13 (output pair unique): all of them today. A
# library change that loses this for a mutation must update this record (and docs/elenchos.md).
LEVEL0_SINGLES_OUT = dict.fromkeys(MUTATION_IDS, True)


def test_level0_probes_are_distinct_and_each_shows_its_mutation(fam: Family, cover_fam: Family) -> None:
    from elenchos.family import level0_probes
    from elenchos.probes import PI_RSA

    assert level0_probes() == PI_RSA and list(PI_RSA) == list(MUTATION_IDS)
    assert len(set(PI_RSA.values())) == 13  # thirteen different probes
    configs = [SOUND, *((m,) for m in MUTATION_IDS)]
    for m, name in fam.pi.level0.items():
        probe = fam.library.by_name(name)
        assert probe.level0 == m and probe.source == PI_RSA[m] and m in probe.targets
        fresh = observe(configs, [probe], jobs=1)  # run it again: K_mu differs from K_ref on it
        own = fresh[(m,)][0]
        assert own != fresh[SOUND][0], m
        singles_out = all(own != fresh[(o,)][0] for o in MUTATION_IDS if o != m)
        assert fam.pi.level0_unique[m] == singles_out == LEVEL0_SINGLES_OUT[m], m
    assert cover_fam.pi.level0 == fam.pi.level0  # the prompt's probes do not depend on the SRA's Pi_RSA


def test_level0_prompt_shows_thirteen_different_probes() -> None:
    import re

    from harness.prompts.elenchos import elenchos_system_prompt

    text = elenchos_system_prompt(0, 1)
    shown = re.findall(r"^Unique probe: (.+)$", text, flags=re.M)
    assert len(shown) == 13 and len(set(shown)) == 13
    assert all(json.loads(s) for s in shown)


# --------------------------------------------------------------------------------------------------- F_k


def test_every_candidate_is_classified_exactly_once(fam: Family) -> None:
    counts = fam.counts()
    assert {k: v["candidates"] for k, v in counts.items()} == {"k1": 13, "k2": 78, "k3": 286}
    for k, row in counts.items():
        assert row["admissible"] + row["collapse"] + row["subsumed"] + row["unidentifiable"] == row["candidates"]
        if k != "k1":
            assert row["additive"] + row["interacting"] == row["admissible"]
            assert sum(row[s] for s in ("emergent", "deceptive", "partially_additive")) == row["interacting"]
    for cand in fam.candidates:
        assert cand.reason in {"null", "single", "admissible", "collapse", "subsumed", "unidentifiable"}
        assert (cand.kind is not None) == cand.admissible
    assert counts["k1"]["admissible"] == 13  # by construction, and every singleton is separated
    assert all(c.detail["separated"] for c in fam.candidates if c.k == 1)


def test_f2_counts_are_sane_next_to_the_paper(fam: Family) -> None:
    k2 = fam.counts()["k2"]
    assert 55 <= k2["admissible"] <= 78 and k2["collapse"] == 0  # the paper: 64 admissible, 0 collapse
    assert 0 < k2["subsumed"] <= 20 and k2["additive"] >= 40 and k2["interacting"] >= 5


def test_known_subsumptions_and_interactions(fam: Family) -> None:
    # ID_05 wins over ID_11 in the kernel: the pair behaves exactly like ID_05
    assert fam.get(["ID_05", "ID_11"]).reason == "subsumed"
    assert fam.get(["ID_05", "ID_11"]).detail["by"] == [["ID_05"]]
    # the Appendix E gemini trace's set, absent from Table 6, is subsumed by ID_02 here
    assert fam.get(["ID_02", "ID_08"]).reason == "subsumed"
    # ID_07 accepts every type comparison, masking the other equality mutations completely
    assert fam.get(["ID_01", "ID_07"]).detail["by"] == [["ID_07"]]
    assert fam.get(["ID_04", "ID_06"]).kind == "interacting"
    assert fam.get(["ID_01", "ID_03"]).kind == "additive"


def test_admissible_sets_are_pairwise_identifiable_on_the_library(fam: Family) -> None:
    vectors = {}
    for cand in fam.admissible():
        vec = fam.observations[cand.ids]
        assert vec not in vectors, (cand.ids, vectors.get(vec))
        vectors[vec] = cand.ids
    for cand in fam.candidates:
        if cand.reason == "subsumed":  # a subsumed set looks exactly like an admissible smaller one
            assert all(len(s) < cand.k for s in cand.detail["by"])


def test_subsumption_for_k3_uses_admissible_sets_of_lower_k(fam: Family) -> None:
    triple = next(c for c in fam.candidates if c.k == 3 and c.reason == "subsumed")
    assert all(fam.get(s).admissible for s in triple.detail["by"])


def test_uniform_sigma_sets_are_reported_but_not_rejected(fam: Family) -> None:
    """The prose's 'uniformly accepts' reading is a diagnostic only (documented decision): such sets stay
    admissible when their outputs differ."""
    n_core = len(fam.library.core)
    uniform = [c for c in fam.admissible() if c.k >= 2
               and len({o.sigma for o in fam.observations[c.ids][:n_core]}) == 1]
    assert 0 < len(uniform) <= sum(fam.counts()[f"k{k}"]["uniform_sigma"] for k in (2, 3))
    assert all("ID_07" in c.ids and len(set(fam.observations[c.ids][:n_core])) > 1 for c in uniform)


def test_identifiability_extension_separates_or_rejects() -> None:
    """Step 3 on made-up observations: a group that the extension separates is admitted, the rest rejected."""
    probes = list(library().core[:2])
    a, b, c = ("ID_01", "ID_02"), ("ID_01", "ID_03"), ("ID_02", "ID_03")
    obs = [Observation.accepted("x : A"), Observation.accepted("y : A")]
    ext_table = {a: (obs[0], obs[0]), b: (obs[0], obs[1]), c: (obs[0], obs[1])}
    out: dict = {}
    separate([a, b, c], probes, ext_table, out)
    assert out[a].admissible and out[a].detail["separated_by_extension"] == [probes[1].name]
    assert out[b].reason == out[c].reason == "unidentifiable"
    assert out[b].detail["confusable_with"] == [list(c)]
    out = {}
    separate([a, b], [], {}, out)  # no extension probes: both rejected
    assert {out[a].reason, out[b].reason} == {"unidentifiable"}


# ------------------------------------------------------------------------------------ additive / interacting


def _toy_pi() -> PiRSA:
    """Three probes; ID_01 diverges on probe 0, ID_02 on probe 1, ID_03 on probes 1 and 2, ID_04 on 0 and 1."""
    ok = Observation.accepted("ok : T")

    def o(text: str) -> Observation:
        return Observation.accepted(text)

    expected = {"sound": (ok, ok, ok)}
    expected.update({m: (ok, ok, ok) for m in MUTATION_IDS})
    expected["ID_01"] = (o("a"), ok, ok)
    expected["ID_02"] = (ok, o("b"), ok)
    expected["ID_03"] = (ok, o("c"), o("c"))
    expected["ID_04"] = (o("a2"), o("d"), ok)
    return PiRSA(tuple(library().core[:3]), expected, {}, {}, {})


def test_classification_cases() -> None:
    pi = _toy_pi()
    ok = Observation.accepted("ok : T")
    a, b, c, d = (Observation.accepted(x) for x in "abcd")
    additive = classify(("ID_01", "ID_02"), (a, b, ok), pi)
    assert additive.kind == "additive" and additive.explanations == [["ID_01", "ID_02"]]
    emergent = classify(("ID_01", "ID_02"), (a, Observation.accepted("new"), ok), pi)
    assert emergent.subtype == "emergent"
    deceptive = classify(("ID_01", "ID_03"), (a, d, c), pi)  # probe 1 shows ID_04's output (inactive)
    assert "deceptive" in deceptive.subtypes and deceptive.kind == "interacting"
    hidden = classify(("ID_01", "ID_02"), (a, ok, ok), pi)  # ID_02's effect cancelled on probe 1
    assert hidden.subtype == "partially_additive" and hidden.seen == ["ID_01"]
    ambiguous = classify(("ID_02", "ID_03"), (ok, c, c), pi)  # ID_02 never seen; {ID_03} explains it all
    assert ambiguous.subtype == "partially_additive" and ambiguous.explanations == [["ID_03"]]


def test_explanations_are_the_smallest_consistent_sets() -> None:
    pi = _toy_pi()
    ok = Observation.accepted("ok : T")
    a, b = Observation.accepted("a"), Observation.accepted("b")
    assert explanations((ok, ok, ok), pi) == [()]
    assert explanations((a, ok, ok), pi) == [("ID_01",)]
    assert explanations((a, b, ok), pi) == [("ID_01", "ID_02")]
    assert explanations((a, b, ok), pi, sizes=(1,)) == []
    assert explanations((Observation.accepted("z"), ok, ok), pi) == []


@pytest.mark.parametrize("choice", ["level0", "cover"])
def test_every_sra_recoverable_set_is_recovered_from_pi_rsa(choice: str, fam: Family, cover_fam: Family) -> None:
    fam = {"level0": fam, "cover": cover_fam}[choice]
    index = [fam.library.index(p.name) for p in fam.pi.probes]
    for cand in fam.admissible():
        if cand.k >= 2 and cand.kind_sra == "additive":
            observed = [fam.observations[cand.ids][j] for j in index]
            assert explanations(observed, fam.pi) == [cand.ids]
            assert cand.kind == "additive"  # the stricter rule implies the paper's formula


def test_paper_formula_cases() -> None:
    """B.4 on made-up observations: each probe must show a singleton's or an additive subset's output."""
    a, b, c, ab = (Observation.accepted(x) for x in ("a", "b", "c", "ab"))
    table = {("ID_01",): (a, a), ("ID_02",): (b, b), ("ID_03",): (c, c),
             ("ID_01", "ID_02"): (a, b), ("ID_01", "ID_03"): (ab, c)}
    assert paper_additive(("ID_01", "ID_02"), [0, 1], table, {})  # probe 0 like ID_01, probe 1 like ID_02
    assert not paper_additive(("ID_01", "ID_03"), [0, 1], table, {})  # probe 0: an output no member gives
    assert paper_additive(("ID_01", "ID_03"), [1], table, {})  # ... but on probe 1 alone it is additive
    table[("ID_01", "ID_02", "ID_03")] = (ab, b)  # probe 0 is {ID_01, ID_03}'s output
    assert not paper_additive(("ID_01", "ID_02", "ID_03"), [0, 1], table, {("ID_01", "ID_03"): False})
    assert paper_additive(("ID_01", "ID_02", "ID_03"), [0, 1], table, {("ID_01", "ID_03"): True})


@pytest.mark.parametrize("choice", ["level0", "cover"])
def test_both_rules_are_reported_and_the_paper_formula_is_the_default(choice: str, fam: Family,
                                                                      cover_fam: Family) -> None:
    fam = {"level0": fam, "cover": cover_fam}[choice]
    index = [fam.library.index(p.name) for p in fam.pi.probes]
    additive: dict = {}
    for cand in fam.admissible():
        if cand.k < 2:
            assert cand.kind == cand.kind_sra
            continue
        additive[cand.ids] = paper_additive(cand.ids, index, fam.observations, additive)
        assert cand.kind == ("additive" if additive[cand.ids] else "interacting")
        assert cand.kind_sra == cand.interaction.kind
    for row in fam.counts().values():
        assert row["additive"] + row["interacting"] == row["additive_sra"] + row["interacting_sra"]
        assert row["additive"] >= row["additive_sra"]


# --------------------------------------------------------------------------------------------------- Table 6


def test_table6_rows_and_our_column_decision(fam: Family) -> None:
    assert len(TABLE6) == 29 and sum(r.ladder is None for r in TABLE6) == 6
    assert resolve_ambiguous(fam) == AMBIGUOUS_DECISION
    assert list(AMBIGUOUS_DECISION.values()).count("ladder") == 4
    ladder, bench = ladder_sets(), benchmark_sets()
    assert [r.order for r in ladder].count("k1") == 13 and len(ladder) == 23
    assert sum(r.order == "k2+" for r in ladder) == 7 and sum(r.order == "k2x" for r in ladder) == 3
    assert len(bench) == 14 and sum(r.order == "k2+" for r in bench) == 3 and sum(r.order == "k3+" for r in bench) == 3
    rows = check(fam)
    assert all(r["admissible"] for r in rows)  # every curated set is admissible in our family
    assert all(r["agrees"] for r in rows if r["order"] in ("k0", "k1"))


def test_generators_cli_writes_the_family_and_prints_counts(tmp_path, capsys, fam: Family) -> None:
    from generators.__main__ import main

    assert main(["elenchos", "--max-k", "3", "--out", str(tmp_path), "--sessions", "--repetitions", "1"]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert json.loads(printed[-1]) == fam.counts()
    k2 = fam.counts()["k2"]
    level0_row = next(x.split() for x in printed if x.startswith("k2  level0"))
    assert level0_row[4:8] == [str(k2[x]) for x in ("additive", "interacting", "additive_sra", "interacting_sra")]
    assert any(x.startswith("k2  cover") for x in printed) and any(x.startswith("k2  paper") for x in printed)
    lines = [json.loads(x) for x in (tmp_path / "configurations.jsonl").read_text().splitlines()]
    assert len(lines) == 1 + 13 + 78 + 286
    assert sum(x["admissible"] for x in lines if x["k"] == 2) == fam.counts()["k2"]["admissible"]
    pi_record = json.loads((tmp_path / "pi_rsa.json").read_text())
    assert pi_record["probes"][0]["name"] == fam.pi.names[0] and pi_record["kind"] == "level0"
    sessions = [json.loads(x) for x in (tmp_path / "ladder.jsonl").read_text().splitlines()]
    assert {s["metadata"]["pi_rsa"] for s in sessions} == {"level0"}
    assert all(s["metadata"]["interaction_sra"] in ("single", "additive", "interacting") for s in sessions)
    assert len((tmp_path / "ladder.jsonl").read_text().splitlines()) == 69
    assert "| {ID_04, ID_06} |" in (tmp_path / "admissible.md").read_text()


def test_table6_document_is_up_to_date_and_every_difference_is_explained(fam: Family, cover_fam: Family) -> None:
    from pathlib import Path

    from elenchos.table6 import missing_explanations, render

    fams = {"level0": fam, "cover": cover_fam}
    assert missing_explanations(fams) == []
    committed = (Path(__file__).resolve().parents[2] / "docs" / "elenchos-table6.md").read_text(encoding="utf-8")
    assert committed == render(fams), "regenerate with: python -m elenchos table6"
