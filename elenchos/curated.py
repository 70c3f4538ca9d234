"""The paper's curated mutation sets (Table 6) and its published counts, checked against our family.

Table 6 lists, for each set, whether the Difficulty Ladder and the wide-panel Benchmark use it, and the
analysis-time classes. The text extraction lost the column of six single-mark ``2+`` rows ("?" in the
digest): exactly four of them are Ladder-only and two Benchmark-only (the Ladder has 7 additive pairs, the
Benchmark 3, ``{ID_03, ID_10}`` is in both). ``AMBIGUOUS_DECISION`` records our assignment; the rule behind
it (``resolve_ambiguous``) is re-checked against our family every time ``docs/elenchos-table6.md`` is
generated:

1. the Benchmark uses additive sets only (paper Section 5.2), so a "?" pair that is interacting in our
   family (the default classification: the paper's formula on the Level-0 Pi_RSA) goes to the Ladder, where
   interacting pairs are part of the design;
2. among the remaining candidates, the Benchmark takes the two that make its additive pairs cover the most
   mutation classes (ties: Table 6 order).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from elenchos.family import Config, Family, classes_of, config_of, configuration_record

# Paper Table 5 (k = 2) and Section 4 / Appendix B counts.
PAPER_COUNTS: dict[str, dict[str, int | None]] = {
    "k2": {"candidates": 78, "admissible": 64, "additive": 55, "interacting": 9, "collapse": 0, "subsumed": 14,
           "unidentifiable": None},
    "k3": {"candidates": 286, "admissible": None, "additive": None, "interacting": None, "collapse": None,
           "subsumed": None, "unidentifiable": None},
}


@dataclass(frozen=True)
class CuratedSet:
    ids: Config
    order: str  # "k0", "k1", "k2+", "k2x", "k3+" (paper Table 6)
    ladder: bool | None  # None: the "?" rows (column lost in the extraction)
    benchmark: bool | None
    paper_classes: tuple[str, ...]  # as printed (e.g. "universe x binding" -> ("universe", "binding"))
    note: str = ""

    @property
    def k(self) -> int:
        return len(self.ids)

    @property
    def paper_interaction(self) -> str:
        return {"k0": "none", "k1": "single", "k2+": "additive", "k3+": "additive", "k2x": "interacting"}[self.order]


def _row(ids: tuple[str, ...], order: str, ladder: bool | None, benchmark: bool | None, classes: str,
         note: str = "") -> CuratedSet:
    return CuratedSet(config_of(ids), order, ladder, benchmark, tuple(classes.split(" x ")) if classes else (), note)


TABLE6: tuple[CuratedSet, ...] = (
    _row((), "k0", False, True, "", "null baseline"),
    _row(("ID_01",), "k1", True, False, "def_equality"),
    _row(("ID_02",), "k1", True, True, "binding"),
    _row(("ID_03",), "k1", True, False, "def_equality"),
    _row(("ID_04",), "k1", True, False, "binding"),
    _row(("ID_05",), "k1", True, False, "free_name"),
    _row(("ID_06",), "k1", True, True, "binding"),
    _row(("ID_07",), "k1", True, True, "def_equality"),
    _row(("ID_08",), "k1", True, True, "binding"),
    _row(("ID_09",), "k1", True, False, "application"),
    _row(("ID_10",), "k1", True, False, "def_equality"),
    _row(("ID_11",), "k1", True, True, "free_name"),
    _row(("ID_12",), "k1", True, False, "universe"),
    _row(("ID_13",), "k1", True, True, "application"),
    _row(("ID_01", "ID_03"), "k2+", True, False, "def_equality", "Ladder: ground truth of an Appendix E Level-2 trace"),
    _row(("ID_02", "ID_04"), "k2+", None, None, "binding"),
    _row(("ID_02", "ID_06"), "k2+", True, False, "binding", "Ladder: ground truth of an Appendix E Level-2 trace"),
    _row(("ID_02", "ID_12"), "k2+", None, None, "universe x binding"),
    _row(("ID_03", "ID_10"), "k2+", True, True, "def_equality"),
    _row(("ID_04", "ID_09"), "k2+", None, None, "application x binding"),
    _row(("ID_06", "ID_09"), "k2+", None, None, "application x binding"),
    _row(("ID_06", "ID_10"), "k2+", None, None, "def_equality x binding"),
    _row(("ID_07", "ID_13"), "k2+", None, None, "def_equality x application"),
    _row(("ID_04", "ID_06"), "k2x", True, True, "binding"),
    _row(("ID_04", "ID_08"), "k2x", True, False, "binding"),
    _row(("ID_09", "ID_10"), "k2x", True, False, "def_equality x application"),
    _row(("ID_01", "ID_03", "ID_10"), "k3+", False, True, "def_equality"),
    _row(("ID_02", "ID_03", "ID_06"), "k3+", False, True, "def_equality x binding"),
    _row(("ID_07", "ID_09", "ID_12"), "k3+", False, True, "def_equality x application x universe"),
)

# Our column assignment of the six "?" rows (see the module docstring for the rule).
AMBIGUOUS_DECISION: dict[Config, str] = {
    ("ID_02", "ID_04"): "ladder",
    ("ID_02", "ID_12"): "benchmark",
    ("ID_04", "ID_09"): "ladder",
    ("ID_06", "ID_09"): "benchmark",
    ("ID_06", "ID_10"): "ladder",
    ("ID_07", "ID_13"): "ladder",
}

# The Appendix E trace whose ground truth is not a curated set.
APPENDIX_E_EXTRA: Config = ("ID_02", "ID_08")


def in_ladder(row: CuratedSet) -> bool:
    return row.ladder if row.ladder is not None else AMBIGUOUS_DECISION[row.ids] == "ladder"


def in_benchmark(row: CuratedSet) -> bool:
    return row.benchmark if row.benchmark is not None else AMBIGUOUS_DECISION[row.ids] == "benchmark"


def ladder_sets() -> list[CuratedSet]:
    """The 23 Ladder sets in Table 6 order (13 singletons, 7 additive and 3 interacting pairs)."""
    return [r for r in TABLE6 if in_ladder(r)]


def benchmark_sets() -> list[CuratedSet]:
    """The 14 Benchmark sets in Table 6 order (null, 6 singletons, 3 + 1 pairs, 3 triplets)."""
    return [r for r in TABLE6 if in_benchmark(r)]


def curated(ids: Config) -> CuratedSet | None:
    key = config_of(ids)
    return next((r for r in TABLE6 if r.ids == key), None)


def resolve_ambiguous(fam: Family) -> dict[Config, str]:
    """Apply the documented rule to our family (used to check ``AMBIGUOUS_DECISION``)."""
    rows = [r for r in TABLE6 if r.ladder is None]
    fixed_bench = [r for r in TABLE6 if r.order == "k2+" and r.benchmark]
    eligible = [r for r in rows if fam.get(r.ids).kind == "additive"]
    need = 2

    def coverage(choice: tuple[CuratedSet, ...]) -> int:
        return len({c for r in (*fixed_bench, *choice) for c in classes_of(r.ids)})

    best = max(itertools.combinations(eligible, need), key=lambda ch: (coverage(ch), [-rows.index(r) for r in ch]))
    return {r.ids: ("benchmark" if r in best else "ladder") for r in rows}


def check(fam: Family) -> list[dict[str, Any]]:
    """Every Table 6 row with our admissibility, interaction (``ours``: the paper's formula; ``ours_sra``: the
    SRA-recoverable rule) and classes next to the paper's; ``agrees`` is for the paper's formula."""
    out = []
    for row in TABLE6:
        cand = fam.get(row.ids) if row.k <= fam.max_k else None
        ours = cand.kind if cand and cand.admissible else (cand.reason if cand else "not computed")
        ours_classes = classes_of(row.ids)
        out.append({
            "mutations": list(row.ids),
            "order": row.order,
            "ladder": in_ladder(row),
            "benchmark": in_benchmark(row),
            "ambiguous_column": row.ladder is None,
            "paper_interaction": row.paper_interaction,
            "ours": ours,
            "ours_subtype": cand.subtype if cand else None,
            "ours_sra": (cand.kind_sra if cand.admissible else cand.reason) if cand else "not computed",
            "ours_sra_subtype": cand.subtype_sra if cand else None,
            "admissible": bool(cand and cand.admissible),
            "paper_classes": sorted(row.paper_classes),
            "ours_classes": ours_classes,
            "agrees": (bool(cand and cand.admissible) and (ours == row.paper_interaction)
                       and sorted(row.paper_classes) == sorted(ours_classes)),
        })
    return out


def configuration_lines(fam: Family) -> list[dict[str, Any]]:
    """``configurations.jsonl``: every candidate with its Table 6 membership (schema
    ``elenchos_configuration``)."""
    out = []
    for cand in fam.candidates:
        row = curated(cand.ids)
        record = configuration_record(fam, cand)
        record["in_ladder"] = bool(row and in_ladder(row))
        record["in_benchmark"] = bool(row and in_benchmark(row))
        record["paper"] = None if row is None else {"order": row.order, "interaction": row.paper_interaction,
                                                    "classes": list(row.paper_classes),
                                                    "ambiguous_column": row.ladder is None}
        out.append(record)
    return out
