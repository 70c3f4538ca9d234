"""The configuration family F_1..F_3 on the Simple Reflex Agent's probe set Pi_RSA.

Everything here is computed from the probe library (``elenchos.library``) by running every probe on a fresh
kernel (paper Appendix B.3: "each probe under a fresh state"). Three modules: ``elenchos.observations``
(the tables), ``elenchos.classification`` (Pi_RSA, explanations, additive / interacting) and this one
(admissibility, the family and its records; it re-exports what the other two define for its users):

* ``observe(configs, probes)``: the observation of every configuration on every probe.
* ``pi_rsa()``: the Simple Reflex Agent's probe set, in one of two constructions (``PI_RSA_CHOICES``):

  - ``level0`` (default, as the paper builds it, Appendix B.2): the 13 Level-0 unique probes (one per
    mutation, ``-- level0:`` in the library), plus the fewest further core probes needed for equation (4) --
    for every ordered pair of distinct mutations (mu, mu') some probe tau has ``K_mu(tau) != K_mu'(tau)``
    and ``K_mu(tau) != K_ref(tau)`` -- (none while every Level-0 probe singles its mutation out);
  - ``cover``: a minimum subset of the core library satisfying equation (4), found by an exact set-cover
    search (iterative deepening, branch and bound); ties are broken by the SRA's reach, total source length,
    then library order.

  Either comes with the expected observation table (sound kernel and each singleton) that the SRA reads.
* ``family(max_k, pi_rsa=...)``: every candidate set S with ``|S| <= max_k`` classified by the three
  admissibility conditions (B.3) evaluated on the core library, with the identifiability extension
  (step 3), and every admissible set with ``k >= 2`` classified as additive or interacting on Pi_RSA (B.4)
  under two rules, reported side by side (``Candidate.kind`` and ``Candidate.kind_sra``).

Definitions as implemented (decisions are recorded in ``docs/elenchos.md``):

* ``div(S)`` is the vector ``(K_S(tau))`` over the core library in library order; since ``K_ref`` and the
  probes are fixed, ``div(S) = div(S')`` iff the vectors are equal.
* **Non-collapse**: ``div(S) != div(empty)`` (reason ``collapse``, kind ``sound_like``), and not every probe
  gives the same observation (reason ``collapse``, kind ``uniform``: the paper's formula). The prose reading
  "uniformly accepts or uniformly rejects" is reported per k as ``uniform_sigma`` but does not reject.
* **Non-subsumption** (generalised as in B.3 for k > 2): ``div(S)`` differs from ``div(S')`` for every
  admissible ``S'`` with ``1 <= |S'| < |S|`` (reason ``subsumed``; ``by_subset`` says whether one of the
  matching sets is a subset of S).
* **Identifiability**: candidates of the same size that pass the first two conditions and share a vector
  are re-tested on the core library extended by ``elenchos/probes/extension.lp``; those still sharing a
  vector are all rejected (reason ``unidentifiable``).
* **Additive, the paper's rule** (B.4, the default ``kind``; k >= 2, on Pi_RSA): on every probe tau,
  ``O_S(tau) = O_S'(tau)`` for some proper subset S' of S that is a singleton or itself additive (by this
  rule; recursive in k). Otherwise **interacting**.
* **Additive, the SRA-recoverable rule** (``kind_sra``; on Pi_RSA with the singleton table E): (a) on every
  probe ``O_S(tau) = E[mu][tau]`` for some ``mu in S``; (b) every member is *seen*: on some probe
  ``O_S(tau) = E[mu][tau] != E[ref][tau]``; (c) S is the only smallest set of at most three mutations that
  satisfies (a) and (b) for these observations (so the SRA recovers it). (a) implies the paper's formula, so
  an SRA-recoverable set is additive under both rules. Interacting sets (under either rule) get sub-types
  from the SRA-recoverable analysis: ``emergent`` (an observation that no singleton produces), ``deceptive``
  (an observation only an inactive singleton produces, or a smallest explanation containing an inactive
  mutation),
  ``partially_additive`` (a member never seen, effects that cancel on a probe, or a proper subset that
  explains everything). The primary sub-type is the first of these three that applies.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from elenchos.classification import (
    SUBTYPES,
    Interaction,
    PiRSA,
    build_level0_pi_rsa,
    build_pi_rsa,
    classify,
    paper_additive,
)
from elenchos.defaults import PI_RSA_CHOICES
from elenchos.library import Library, Probe, library
from elenchos.observations import MAX_K, SOUND, Config, candidates, classes_of, config_of, observe, set_id
from generators.safefs import UnsafePath, atomic_writer, open_regular
from lambdapy import MUTATION_IDS, Observation

__all__ = [
    "MAX_K", "PI_RSA_CHOICES", "RULES", "SOUND", "SUBTYPES", "Candidate", "Config", "Family", "Interaction",
    "PiRSA", "classes_of", "classify", "clear_cache", "config_of", "configuration_record", "family",
    "level0_probes", "observe", "paper_additive", "pi_rsa", "separate", "set_id",
]

RULES = ("paper", "sra")  # additivity: the paper's formula (B.4, default), the SRA-recoverable rule


def pi_rsa(choice: str = "level0") -> PiRSA:
    """The SRA's probe set (part of the configuration family computation, cached)."""
    return family(pi_rsa=choice).pi


def level0_probes() -> dict[str, str]:
    """Mutation id -> source of its Level-0 unique probe (read by the Level-0 system prompt); 13 distinct
    probes, one per mutation, whatever Pi_RSA the SRA uses."""
    return {m: p.source for m, p in library().level0().items()}


# ----------------------------------------------------------------------------------------------- family
@dataclass
class Candidate:
    ids: Config
    admissible: bool
    reason: str  # "admissible" | "collapse" | "subsumed" | "unidentifiable" | "null" | "single"
    detail: dict[str, Any]
    interaction: Interaction | None = None  # the SRA-recoverable analysis (k >= 2, admissible)
    paper_additive: bool | None = None  # the paper's formula (B.4) on Pi_RSA (k >= 2, admissible)

    @property
    def k(self) -> int:
        return len(self.ids)

    def _kind(self, additive: bool | None) -> str | None:
        if not self.admissible:
            return None
        if self.k == 0:
            return "none"
        if self.k == 1:
            return "single"
        assert additive is not None
        return "additive" if additive else "interacting"

    @property
    def kind(self) -> str | None:
        """Under the paper's rule (B.4): ``none`` (k = 0), ``single``, ``additive``, ``interacting``; None when
        not admissible."""
        return self._kind(self.paper_additive)

    @property
    def kind_sra(self) -> str | None:
        """As ``kind``, under the SRA-recoverable rule (a)+(b)+(c)."""
        return self._kind(None if self.interaction is None else self.interaction.kind == "additive")

    @property
    def subtype(self) -> str | None:
        """The primary interacting sub-type of a set interacting under the paper's rule."""
        return self.interaction.subtype if self.kind == "interacting" and self.interaction else None

    @property
    def subtype_sra(self) -> str | None:
        return self.interaction.subtype if self.kind_sra == "interacting" and self.interaction else None


@dataclass
class Family:
    max_k: int
    library: Library
    pi: PiRSA
    candidates: list[Candidate]
    observations: dict[Config, tuple[Observation, ...]]  # every candidate on the whole library
    stats: dict[str, Any]

    @property
    def pi_choice(self) -> str:
        return self.pi.kind

    def get(self, ids: Iterable[str]) -> Candidate:
        key = config_of(ids)
        for c in self.candidates:
            if c.ids == key:
                return c
        raise KeyError(f"{set_id(key)} is not a candidate (k <= {self.max_k})")

    def admissible(self, k: int | None = None) -> list[Candidate]:
        return [c for c in self.candidates if c.admissible and (k is None or c.k == k)]

    def counts(self) -> dict[str, dict[str, int]]:
        """Per k >= 1: candidates and how they were classified (the JSON line of the CLI)."""
        out: dict[str, dict[str, int]] = {}
        for k in range(1, self.max_k + 1):
            group = [c for c in self.candidates if c.k == k]
            row = {
                "candidates": len(group),
                "admissible": sum(c.admissible for c in group),
                "additive": sum(c.kind == "additive" for c in group),
                "interacting": sum(c.kind == "interacting" for c in group),
                "additive_sra": sum(c.kind_sra == "additive" for c in group),
                "interacting_sra": sum(c.kind_sra == "interacting" for c in group),
                "collapse": sum(c.reason == "collapse" for c in group),
                "subsumed": sum(c.reason == "subsumed" for c in group),
                "unidentifiable": sum(c.reason == "unidentifiable" for c in group),
            }
            if k >= 2:
                row["subsumed_by_subset"] = sum(c.reason == "subsumed" and c.detail["by_subset"] for c in group)
                for sub in SUBTYPES:  # primary sub-types of the sets interacting under the paper's rule
                    row[sub] = sum(c.subtype == sub for c in group)
                row["uniform_sigma"] = self.stats["uniform_sigma"].get(k, 0)
            out[f"k{k}"] = row
        return out

    def diverging(self, ids: Config) -> dict[str, str]:
        """Probe name -> the observation of K_S, on every library probe where K_S differs from K_ref."""
        obs, sound = self.observations[ids], self.observations[SOUND]
        return {p.name: str(o) for p, o, r in zip(self.library.probes, obs, sound, strict=True) if o != r}


@dataclass
class _Admissibility:
    """Everything that does not depend on Pi_RSA: observations and the admissibility of every candidate."""

    table: dict[Config, tuple[Observation, ...]]  # every candidate (k <= max(max_k, MAX_K)) on the core library
    out: dict[Config, Candidate]
    full: dict[Config, tuple[Observation, ...]]  # admissible candidates on the whole library
    uniform_sigma: dict[int, int]


def _admissibility(kmax: int, jobs: int | None) -> _Admissibility:
    lib = library()
    core, ext = list(lib.core), list(lib.extension)
    configs = candidates(kmax)
    table = observe(configs, core, jobs)
    sound = table[SOUND]
    out: dict[Config, Candidate] = {SOUND: Candidate(SOUND, True, "null", {})}
    for m in MUTATION_IDS:
        distinct = table[(m,)] != sound and all(table[(m,)] != table[(o,)] for o in MUTATION_IDS if o != m)
        out[(m,)] = Candidate((m,), True, "single", {"separated": distinct})
    ext_table: dict[Config, tuple[Observation, ...]] = {}
    uniform_sigma: dict[int, int] = {}
    for k in range(2, kmax + 1):
        lower: dict[tuple[Observation, ...], list[Config]] = defaultdict(list)
        for c in out.values():
            if c.admissible and 1 <= c.k < k:
                lower[table[c.ids]].append(c.ids)
        pending: dict[tuple[Observation, ...], list[Config]] = defaultdict(list)
        level = [c for c in configs if len(c) == k]
        uniform_sigma[k] = sum(len({o.sigma for o in table[c]}) == 1 for c in level)
        for c in level:
            vec = table[c]
            if vec == sound:
                out[c] = Candidate(c, False, "collapse", {"kind": "sound_like"})
            elif len(set(vec)) == 1:
                out[c] = Candidate(c, False, "collapse", {"kind": "uniform"})
            elif vec in lower:
                matches = lower[vec]
                out[c] = Candidate(c, False, "subsumed", {
                    "by": [list(s) for s in matches], "by_subset": any(set(s) < set(c) for s in matches)})
            else:
                pending[vec].append(c)
        for group in pending.values():
            if len(group) == 1:
                out[group[0]] = Candidate(group[0], True, "admissible", {})
                continue
            separate(group, ext, ext_table, out)
    admissible = [c for c in configs if out[c].admissible]
    if ext:  # observations on the whole library (core + extension) for every admissible set
        need = [c for c in admissible if c not in ext_table]
        ext_table.update(observe(need, ext, jobs))
    full = {c: table[c] + (ext_table[c] if ext else ()) for c in admissible}
    return _Admissibility(table, out, full, uniform_sigma)


def _compute_family(max_k: int, jobs: int | None, choice: str = "level0") -> Family:
    lib = library()
    kmax = max(max_k, MAX_K)  # Pi_RSA's tie-break always looks at pairs and triples
    key = (kmax, lib.sha256)
    if key not in _ADMISSIBILITY:
        _ADMISSIBILITY[key] = _stored_admissibility(kmax, jobs, lib.sha256)
    base = _ADMISSIBILITY[key]
    table, full = base.table, base.full
    out = {c: replace(cand) for c, cand in base.out.items()}  # fresh copies: the classification is per Pi_RSA
    configs = list(out)
    admissible = [c for c in configs if out[c].admissible]
    composites = [c for c in admissible if len(c) >= 2]
    if choice == "level0":
        pi = build_level0_pi_rsa(lib, table)
    else:
        pi = build_pi_rsa(lib, table, [c for c in composites if len(c) <= MAX_K])
    pi_index = [lib.index(p.name) for p in pi.probes]
    additive: dict[Config, bool] = {}
    for c in composites:  # by size: the paper's rule is recursive in k
        out[c].interaction = classify(c, [full[c][j] for j in pi_index], pi)
        additive[c] = out[c].paper_additive = paper_additive(c, pi_index, table, additive)
    stats = {"library_probes": len(lib), "core_probes": len(lib.core), "extension_probes": len(lib.extension),
             "uniform_sigma": base.uniform_sigma, "library_sha256": lib.sha256}
    kept = [out[c] for c in configs if len(c) <= max_k]
    return Family(max_k, lib, pi, kept, {c: v for c, v in full.items() if len(c) <= max_k}, stats)


# The observations and admissibility (~3 s of CPU) are the same for every process that runs the same code on the
# same library. A folder named by STORE_ENV (opt-in, set only by the test suite for its own processes) keeps them
# between processes as JSON (plain data: reading it runs nothing), keyed by the library's and the code's sha256;
# only a folder no one else may write is used, so that no one else's table is taken for ours. Without it every
# process computes them itself.
STORE_ENV = "MIRA_ELENCHOS_FAMILY_STORE"
_CODE = (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "lambdapy")


def _code_sha256() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for root in _CODE:
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".lark") and p.is_file()):
            digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


STORE_FORMAT = "elenchos-admissibility/1"


def _stored_admissibility(kmax: int, jobs: int | None, library_sha256: str) -> _Admissibility:
    folder = os.environ.get(STORE_ENV)
    if not folder:
        return _admissibility(kmax, jobs)
    store = Path(folder)
    store.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not _private(store):  # a table others could have written is not taken for ours: compute instead
        return _admissibility(kmax, jobs)
    path = store / f"admissibility-{kmax}-{library_sha256[:16]}-{_code_sha256()[:32]}.json"
    try:
        with open_regular(path, MAX_STORED_BYTES, root=store) as f:
            return _admissibility_from_json(json.loads(f.read(MAX_STORED_BYTES + 1)))
    except (OSError, UnsafePath, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError):
        pass  # missing, or not a table this code wrote: computed and stored again
    base = _admissibility(kmax, jobs)
    record = _admissibility_to_json(base)
    if record is not None:
        with atomic_writer(path, "w") as f:  # create-then-rename: no reader sees half a file
            json.dump(record, f, ensure_ascii=False, separators=(",", ":"))
    return base


def _admissibility_to_json(base: _Admissibility) -> dict[str, Any] | None:
    """``base`` as plain JSON data, each distinct observation once; None if it holds more than that format keeps
    (a candidate already classified on a Pi_RSA)."""
    if any(c.interaction is not None or c.paper_additive is not None for c in base.out.values()):
        return None
    index: dict[Observation, int] = {}

    def vector(observations: tuple[Observation, ...]) -> list[int]:
        return [index.setdefault(o, len(index)) for o in observations]

    table = [[list(c), vector(v)] for c, v in base.table.items()]
    full = [[list(c), vector(v)] for c, v in base.full.items()]
    return {"format": STORE_FORMAT,
            "observations": [[o.sigma, o.result, *(o.epsilon or (None, None))] for o in index],
            "table": table, "full": full,
            "out": [[list(c.ids), c.admissible, c.reason, c.detail] for c in base.out.values()],
            "uniform_sigma": [[k, n] for k, n in base.uniform_sigma.items()]}


def _admissibility_from_json(record: dict[str, Any]) -> _Admissibility:
    """The inverse of ``_admissibility_to_json`` (a ``ValueError`` ... for a record of another shape)."""
    if record.get("format") != STORE_FORMAT:
        raise ValueError("not a stored admissibility table")
    observations = [Observation(str(sigma), None if result is None else str(result),
                                None if category is None else (str(category), str(message)))
                    for sigma, result, category, message in record["observations"]]

    def vectors(rows: list[Any]) -> dict[Config, tuple[Observation, ...]]:
        return {tuple(map(str, c)): tuple(observations[i] for i in v) for c, v in rows}

    out = {tuple(map(str, ids)): Candidate(tuple(map(str, ids)), bool(admissible), str(reason), dict(detail))
           for ids, admissible, reason, detail in record["out"]}
    return _Admissibility(vectors(record["table"]), out, vectors(record["full"]),
                          {int(k): int(n) for k, n in record["uniform_sigma"]})


MAX_STORED_BYTES = 256 << 20


def _private(folder: Path) -> bool:
    """A real folder of this user that no one else may write."""
    st = os.lstat(folder)
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def separate(group: list[Config], ext: list[Probe], ext_table: dict[Config, tuple[Observation, ...]],
             out: dict[Config, Candidate]) -> None:
    """Identifiability, step 3: re-test sets that share a vector on the core library with the extension
    probes; admit the ones that become unique, reject the ones that stay confusable."""
    missing = [c for c in group if c not in ext_table]
    if ext and missing:
        ext_table.update(observe(missing, ext, jobs=1))
    extended: dict[tuple[Observation, ...], list[Config]] = defaultdict(list)
    for c in group:
        extended[ext_table.get(c, ())].append(c)
    for c in group:
        twins = [o for o in extended[ext_table.get(c, ())] if o != c]
        if twins:
            out[c] = Candidate(c, False, "unidentifiable", {"confusable_with": [list(t) for t in twins]})
        else:
            by = [p.name for j, p in enumerate(ext) if any(ext_table[c][j] != ext_table[o][j] for o in group if o != c)]
            out[c] = Candidate(c, True, "admissible", {"separated_by_extension": by})


_FAMILIES: dict[tuple[int, str], Family] = {}
_ADMISSIBILITY: dict[tuple[int, str], _Admissibility] = {}


def family(max_k: int = MAX_K, jobs: int | None = None, pi_rsa: str = "level0") -> Family:
    """The configuration family up to ``max_k``, classified on the Pi_RSA ``pi_rsa`` (``level0``: the paper's
    construction; ``cover``: the minimum set cover). Cached per process (the observations and admissibility
    are shared by both choices); ``jobs`` only changes the speed."""
    if not 1 <= max_k <= 4:
        raise ValueError("max_k must be between 1 and 4")
    if pi_rsa not in PI_RSA_CHOICES:
        raise ValueError(f"pi_rsa must be one of {', '.join(PI_RSA_CHOICES)}, not {pi_rsa!r}")
    if (max_k, pi_rsa) not in _FAMILIES:
        _FAMILIES[(max_k, pi_rsa)] = _compute_family(max_k, jobs, pi_rsa)
    return _FAMILIES[(max_k, pi_rsa)]


def clear_cache() -> None:
    """Forget the computed families and observations (the benchmark times a cold computation)."""
    _FAMILIES.clear()
    _ADMISSIBILITY.clear()


def configuration_record(fam: Family, cand: Candidate) -> dict[str, Any]:
    """One line of ``configurations.jsonl`` (schema ``elenchos_configuration``)."""
    inter = cand.interaction
    return {
        "id": set_id(cand.ids),
        "mutations": list(cand.ids),
        "k": cand.k,
        "admissible": cand.admissible,
        "reason": cand.reason,
        "detail": cand.detail,
        "interaction": cand.kind,
        "interaction_sra": cand.kind_sra,
        "pi_rsa": fam.pi_choice,
        "subtype": cand.subtype,
        "subtypes": inter.subtypes if inter and cand.kind == "interacting" else [],
        "subtype_sra": cand.subtype_sra,
        "subtypes_sra": inter.subtypes if inter else [],
        "classes": classes_of(cand.ids),
        "seen_on_pi_rsa": inter.seen if inter else ([] if cand.k == 0 else list(cand.ids)),
        "explanations": inter.explanations if inter else ([] if cand.k == 0 else [list(cand.ids)]),
        "notes": inter.notes if inter else [],
        "diverging_probes": sorted(fam.diverging(cand.ids)) if cand.admissible else [],
    }
