"""Observation tables, the Simple Reflex Agent's probe set Pi_RSA, and the configuration family F_1..F_3.

Everything here is computed from the probe library (``elenchos.library``) by running every probe on a fresh
kernel (paper Appendix B.3: "each probe under a fresh state"):

* ``observe(configs, probes)``: the observation of every configuration on every probe.
* ``pi_rsa()``: a minimum subset of the core library satisfying the paper's equation (4) for the 13
  singletons -- for every ordered pair of distinct mutations (mu, mu') some probe tau has
  ``K_mu(tau) != K_mu'(tau)`` and ``K_mu(tau) != K_ref(tau)`` -- found by an exact set-cover search
  (iterative deepening, branch and bound); ties are broken by total source length, then library order.
  It comes with the expected observation table (sound kernel and each singleton) that the SRA reads.
* ``family(max_k)``: every candidate set S with ``|S| <= max_k`` classified by the three admissibility
  conditions (B.3) evaluated on the core library, with the identifiability extension (step 3), and every
  admissible set with ``k >= 2`` classified as additive or interacting on Pi_RSA (B.4).

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
* **Additive** (k >= 2, on Pi_RSA with the singleton table E): (a) the paper's formula -- on every probe
  ``O_S(tau) = E[mu][tau]`` for some ``mu in S``; (b) every member is *seen*: on some probe
  ``O_S(tau) = E[mu][tau] != E[ref][tau]``; (c) S is the only smallest set of at most three mutations that
  satisfies (a) and (b) for these observations (so the SRA recovers it). Otherwise **interacting**, with
  sub-types: ``emergent`` (an observation that no singleton produces), ``deceptive`` (an observation only an
  inactive singleton produces, or a smallest explanation containing an inactive mutation),
  ``partially_additive`` (a member never seen, effects that cancel on a probe, or a proper subset that
  explains everything). The primary sub-type is the first of these three that applies.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from elenchos.library import CLASSES, Library, Probe, library
from harness.lifeline import watch_parent
from lambdapy import MUTATION_IDS, MUTATIONS, Kernel, KernelConfig, Observation

Config = tuple[str, ...]  # sorted mutation ids; () is the sound kernel
SOUND: Config = ()
SUBTYPES = ("emergent", "deceptive", "partially_additive")
MAX_K = 3


def config_of(ids: Iterable[str]) -> Config:
    return tuple(sorted(set(ids)))


def classes_of(ids: Iterable[str]) -> list[str]:
    """The Table 6 labels of the members, without repetition, in ``CLASSES`` order."""
    labels = {MUTATIONS[m].label for m in ids}
    return [c for c in CLASSES if c in labels]


def set_id(ids: Sequence[str]) -> str:
    return "cfg-" + ("+".join(ids) if ids else "null")


# ----------------------------------------------------------------------------------------------- observe
def _observe_chunk(args: tuple[list[Config], list[str]]) -> list[tuple[Observation, ...]]:
    configs, sources = args
    out = []
    for config in configs:
        kc = KernelConfig.from_ids(config)
        out.append(tuple(Kernel(kc).probe(src) for src in sources))
    return out


def default_jobs() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def observe(configs: Sequence[Config], probes: Sequence[Probe], jobs: int | None = None
            ) -> dict[Config, tuple[Observation, ...]]:
    """``{config: (observation per probe)}``, each probe on a fresh kernel. ``jobs > 1`` uses processes
    (the result does not depend on it)."""
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if multiprocessing.current_process().daemon:  # e.g. a datasets worker: it may not start processes
        jobs = 1
    sources = [p.source for p in probes]
    configs = list(configs)
    if jobs == 1 or len(configs) * len(sources) < 2000:
        rows = _observe_chunk((configs, sources))
    else:
        size = max(1, -(-len(configs) // (jobs * 4)))
        chunks = [(configs[i:i + size], sources) for i in range(0, len(configs), size)]
        with worker_pool(jobs) as pool:
            rows = [row for part in pool.map(_observe_chunk, chunks) for row in part]
    return dict(zip(configs, rows, strict=True))


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A process pool whose workers exit when this process dies (a killed run leaves no orphans)."""
    return ProcessPoolExecutor(max_workers=jobs, initializer=watch_parent, initargs=(os.getpid(),))


def candidates(max_k: int = MAX_K) -> list[Config]:
    """Every subset of the ontology with at most ``max_k`` members, by size, then lexicographically."""
    return [c for k in range(max_k + 1) for c in itertools.combinations(MUTATION_IDS, k)]


# ----------------------------------------------------------------------------------------------- Pi_RSA
@dataclass(frozen=True)
class PiRSA:
    """The SRA's probe set and its expected observation table."""

    probes: tuple[Probe, ...]  # in library order
    expected: dict[str, tuple[Observation, ...]]  # "sound" and every mutation id -> one observation per probe
    level0: dict[str, str]  # mutation id -> probe name (its Level-0 "unique probe")
    level0_unique: dict[str, bool]  # does that probe's output pair single the mutation out among all 13?
    search: dict[str, Any]  # how the cover was found (for the docs and the record)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.probes)

    @property
    def sound(self) -> tuple[Observation, ...]:
        return self.expected["sound"]

    def record(self) -> dict[str, Any]:
        return {
            "probes": [{"name": p.name, "class": p.probe_class, "source": p.source} for p in self.probes],
            "expected": {key: [o.to_json() for o in obs] for key, obs in self.expected.items()},
            "level0": dict(self.level0),
            "level0_unique": dict(self.level0_unique),
            "search": dict(self.search),
        }


def separating_elements(table: dict[Config, tuple[Observation, ...]], n_probes: int) -> list[int]:
    """Per probe, the bitmask of the ordered pairs (mu, mu') it separates in the sense of eq. (4)."""
    ids = list(MUTATION_IDS)
    pairs = [(a, b) for a in ids for b in ids if a != b]
    masks = []
    for j in range(n_probes):
        ref = table[SOUND][j]
        mask = 0
        for bit, (a, b) in enumerate(pairs):
            oa = table[(a,)][j]
            if oa != ref and oa != table[(b,)][j]:
                mask |= 1 << bit
        masks.append(mask)
    return masks


def minimum_covers(masks: Sequence[int], universe: int, limit: int = 20_000) -> tuple[int, list[frozenset[int]]]:
    """The size of a minimum set cover and every cover of that size (up to ``limit`` of them).

    Exact: iterative deepening over the cover size; at each node branch on the uncovered element with the
    fewest covering sets; prune with ceil(uncovered / largest remaining coverage)."""
    if universe == 0:
        return 0, [frozenset()]
    if universe & ~_union(masks):
        raise ValueError("the library cannot separate every ordered pair of singletons (equation 4)")
    covering: dict[int, list[int]] = defaultdict(list)
    bits = [b for b in range(universe.bit_length()) if universe >> b & 1]
    for b in bits:
        covering[b] = [j for j, m in enumerate(masks) if m >> b & 1]
    best_gain = max(bin(m & universe).count("1") for m in masks)
    depth = -(-bin(universe).count("1") // best_gain)
    while True:
        found: set[frozenset[int]] = set()
        _dfs(universe, [], depth, masks, covering, bits, found, limit)
        if found:
            return depth, sorted(found, key=lambda s: sorted(s))
        depth += 1


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _dfs(uncovered: int, chosen: list[int], depth: int, masks: Sequence[int], covering: dict[int, list[int]],
         bits: list[int], found: set[frozenset[int]], limit: int) -> None:
    if len(found) >= limit:
        return
    if uncovered == 0:
        found.add(frozenset(chosen))
        return
    left = depth - len(chosen)
    if left == 0:
        return
    gain = max(bin(masks[j] & uncovered).count("1") for j in range(len(masks)))
    if gain == 0 or -(-bin(uncovered).count("1") // gain) > left:
        return
    element = min((b for b in bits if uncovered >> b & 1), key=lambda b: len(covering[b]))
    for j in covering[element]:
        chosen.append(j)
        _dfs(uncovered & ~masks[j], chosen, depth, masks, covering, bits, found, limit)
        chosen.pop()


def _level0(table: dict[Config, tuple[Observation, ...]], probes: Sequence[Probe], chosen: Sequence[int],
            ) -> tuple[dict[str, str], dict[str, bool]]:
    """Per mutation, the probe (preferably of Pi_RSA) whose output pair best singles it out."""
    level0: dict[str, str] = {}
    unique: dict[str, bool] = {}
    for m in MUTATION_IDS:
        def score(j: int, m: str = m) -> tuple[int, int, int]:
            own = table[(m,)][j]
            if own == table[SOUND][j]:
                return (-1, 0, 0)
            separated = sum(own != table[(o,)][j] for o in MUTATION_IDS if o != m)
            return (separated, -len(probes[j].source), -j)

        best = max(chosen, key=score)
        if score(best)[0] < len(MUTATION_IDS) - 1:  # no probe of Pi_RSA singles it out: look in the library
            alternative = max(range(len(probes)), key=score)
            if score(alternative)[0] > score(best)[0]:
                best = alternative
        level0[m] = probes[best].name
        unique[m] = score(best)[0] == len(MUTATION_IDS) - 1
    return level0, unique


def build_pi_rsa(lib: Library, table: dict[Config, tuple[Observation, ...]],
                 composites: Sequence[Config] = ()) -> PiRSA:
    """Pi_RSA from the core-library observations of the sound kernel and the singletons.

    Among all minimum covers, the one under which the most of ``composites`` (the admissible pairs, then the
    admissible triples) are additive -- the SRA's reach --, then the shortest total source, then library
    order."""
    core = list(lib.core)
    masks = separating_elements(table, len(core))
    n_pairs = len(MUTATION_IDS) * (len(MUTATION_IDS) - 1)
    size, covers = minimum_covers(masks, (1 << n_pairs) - 1)

    def make(chosen: Sequence[int]) -> PiRSA:
        expected = {"sound": tuple(table[SOUND][j] for j in chosen)}
        expected.update({m: tuple(table[(m,)][j] for j in chosen) for m in MUTATION_IDS})
        return PiRSA(tuple(core[j] for j in chosen), expected, {}, {}, {})

    def reach(chosen: Sequence[int], k: int) -> int:
        pi = make(chosen)
        return sum(classify(c, [table[c][j] for j in chosen], pi).kind == "additive"
                   for c in composites if len(c) == k)

    ranked = [sorted(c) for c in covers]
    reach_range: dict[str, list[int]] = {}
    for k in (2, 3):  # keep the covers with the largest reach at k, then break the remaining ties at k + 1
        if len(ranked) > 1 and any(len(c) == k for c in composites):
            scores = {tuple(c): reach(c, k) for c in ranked}
            top = max(scores.values())
            reach_range[f"k{k}"] = [min(scores.values()), top]
            ranked = [c for c in ranked if scores[tuple(c)] == top]
    chosen = min(ranked, key=lambda c: (sum(len(core[j].source) for j in c), c))
    pi = make(chosen)
    level0, unique = _level0(table, core, chosen)
    search = {"elements": n_pairs, "library_probes": len(core), "minimum_size": size,
              "minimum_covers": len(covers),
              "tie_break": "most additive admissible pairs, then triples; then total source length; then "
                           "library order",
              "tied_after_reach": len(ranked), "additive_range": reach_range, "library_sha256": lib.sha256}
    return PiRSA(pi.probes, pi.expected, level0, unique, search)


def pi_rsa() -> PiRSA:
    """The SRA's probe set (part of the configuration family computation, cached)."""
    return family().pi


def level0_probes() -> dict[str, str]:
    """Mutation id -> source of its Level-0 unique probe (read by the Level-0 system prompt)."""
    lib = library()
    return {m: lib.by_name(name).source for m, name in pi_rsa().level0.items()}


# ----------------------------------------------------------------------------------------------- explain
def seen_members(observed: Sequence[Observation], pi: PiRSA) -> set[str]:
    """Mutations whose singleton signature (a divergent expected observation) appears in ``observed``."""
    sound = pi.sound
    return {m for m in MUTATION_IDS
            for j, o in enumerate(observed) if o != sound[j] and o == pi.expected[m][j]}


def explains(candidate: Sequence[str], observed: Sequence[Observation], pi: PiRSA) -> bool:
    """Conditions (a) and (b): every observation is some member's expected one; every member is seen."""
    sound = pi.sound
    for j, o in enumerate(observed):
        if not any(pi.expected[m][j] == o for m in candidate):
            return False
    return all(any(o != sound[j] and o == pi.expected[m][j] for j, o in enumerate(observed)) for m in candidate)


def explanations(observed: Sequence[Observation], pi: PiRSA, sizes: Iterable[int] = (1, 2, 3)) -> list[Config]:
    """The smallest sets (of an allowed size) that explain ``observed`` additively; [()] if it is the sound
    kernel's; [] if nothing explains it."""
    if tuple(observed) == pi.sound:
        return [SOUND]
    pool = sorted(seen_members(observed, pi))
    for k in sorted(set(sizes)):
        found = [c for c in itertools.combinations(pool, k) if explains(c, observed, pi)]
        if found:
            return found
    return []


@dataclass
class Interaction:
    kind: str  # "additive" | "interacting"
    subtypes: list[str]
    subtype: str | None
    seen: list[str]  # members seen on Pi_RSA
    explanations: list[list[str]]  # smallest additive explanations of O_S on Pi_RSA (sizes 1-3)
    notes: list[str] = field(default_factory=list)


def classify(config: Config, observed: Sequence[Observation], pi: PiRSA) -> Interaction:
    """Additive or interacting (with sub-types) for an admissible set with ``k >= 2``."""
    sound = pi.sound
    members = set(config)
    seen = sorted(seen_members(observed, pi) & members)
    expl = explanations(observed, pi)
    notes: list[str] = []
    emergent = deceptive = partial = False
    for j, o in enumerate(observed):
        producers = {m for m in MUTATION_IDS if pi.expected[m][j] == o}
        if o == sound[j]:
            if not any(pi.expected[m][j] == o for m in config):
                partial = True
                notes.append(f"{pi.probes[j].name}: the members' effects cancel (sound output)")
            continue
        if not producers:
            emergent = True
            notes.append(f"{pi.probes[j].name}: an output no singleton produces")
        elif not producers & members:
            deceptive = True
            notes.append(f"{pi.probes[j].name}: looks like {', '.join(sorted(producers))} (inactive)")
    unseen = sorted(members - set(seen))
    if unseen:
        partial = True
        notes.append(f"never seen on Pi_RSA: {', '.join(unseen)}")
    for e in expl:
        if set(e) - members:
            deceptive = True
        elif set(e) < members:
            partial = True
    if expl and expl != [config] and not notes:
        notes.append("smallest explanations: " + "; ".join("{" + ", ".join(e) + "}" for e in expl))
    subtypes = [name for name, flag in zip(SUBTYPES, (emergent, deceptive, partial), strict=True) if flag]
    additive = not subtypes and expl == [config]
    if not additive and not subtypes:  # cannot happen: (a) or (b) or (c) failed, each sets a flag
        subtypes = ["partially_additive"]
    return Interaction("additive" if additive else "interacting", subtypes, subtypes[0] if subtypes else None,
                       seen, [list(e) for e in expl], notes)


# ----------------------------------------------------------------------------------------------- family
@dataclass
class Candidate:
    ids: Config
    admissible: bool
    reason: str  # "admissible" | "collapse" | "subsumed" | "unidentifiable" | "null" | "single"
    detail: dict[str, Any]
    interaction: Interaction | None = None

    @property
    def k(self) -> int:
        return len(self.ids)

    @property
    def kind(self) -> str | None:
        """``none`` (k = 0), ``single``, ``additive``, ``interacting``; None when not admissible."""
        if not self.admissible:
            return None
        if self.k == 0:
            return "none"
        if self.k == 1:
            return "single"
        assert self.interaction is not None
        return self.interaction.kind


@dataclass
class Family:
    max_k: int
    library: Library
    pi: PiRSA
    candidates: list[Candidate]
    observations: dict[Config, tuple[Observation, ...]]  # every candidate on the whole library
    stats: dict[str, Any]

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
                "collapse": sum(c.reason == "collapse" for c in group),
                "subsumed": sum(c.reason == "subsumed" for c in group),
                "unidentifiable": sum(c.reason == "unidentifiable" for c in group),
            }
            if k >= 2:
                row["subsumed_by_subset"] = sum(c.reason == "subsumed" and c.detail["by_subset"] for c in group)
                for sub in SUBTYPES:
                    row[sub] = sum(c.kind == "interacting" and c.interaction.subtype == sub for c in group)
                row["uniform_sigma"] = self.stats["uniform_sigma"].get(k, 0)
            out[f"k{k}"] = row
        return out

    def diverging(self, ids: Config) -> dict[str, str]:
        """Probe name -> the observation of K_S, on every library probe where K_S differs from K_ref."""
        obs, sound = self.observations[ids], self.observations[SOUND]
        return {p.name: str(o) for p, o, r in zip(self.library.probes, obs, sound, strict=True) if o != r}


def _compute_family(max_k: int, jobs: int | None) -> Family:
    lib = library()
    core, ext = list(lib.core), list(lib.extension)
    configs = candidates(max(max_k, MAX_K))  # Pi_RSA's tie-break always looks at pairs and triples
    table = observe(configs, core, jobs)
    sound = table[SOUND]
    out: dict[Config, Candidate] = {SOUND: Candidate(SOUND, True, "null", {})}
    for m in MUTATION_IDS:
        distinct = table[(m,)] != sound and all(table[(m,)] != table[(o,)] for o in MUTATION_IDS if o != m)
        out[(m,)] = Candidate((m,), True, "single", {"separated": distinct})
    ext_table: dict[Config, tuple[Observation, ...]] = {}
    uniform_sigma: dict[int, int] = {}
    for k in range(2, max(max_k, MAX_K) + 1):
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
    composites = [c for c in admissible if len(c) >= 2]
    pi = build_pi_rsa(lib, table, [c for c in composites if len(c) <= MAX_K])
    pi_index = [lib.index(p.name) for p in pi.probes]
    for c in composites:
        out[c].interaction = classify(c, [full[c][j] for j in pi_index], pi)
    stats = {"library_probes": len(lib), "core_probes": len(core), "extension_probes": len(ext),
             "uniform_sigma": uniform_sigma, "library_sha256": lib.sha256}
    kept = [out[c] for c in configs if len(c) <= max_k]
    return Family(max_k, lib, pi, kept, {c: v for c, v in full.items() if len(c) <= max_k}, stats)


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


_FAMILIES: dict[int, Family] = {}


def family(max_k: int = MAX_K, jobs: int | None = None) -> Family:
    """The configuration family up to ``max_k`` (cached per process; ``jobs`` only changes the speed)."""
    if not 1 <= max_k <= 4:
        raise ValueError("max_k must be between 1 and 4")
    if max_k not in _FAMILIES:
        _FAMILIES[max_k] = _compute_family(max_k, jobs)
    return _FAMILIES[max_k]


def clear_cache() -> None:
    """Forget the computed families (the benchmark times a cold computation)."""
    _FAMILIES.clear()


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
        "subtype": inter.subtype if inter else None,
        "subtypes": inter.subtypes if inter else [],
        "classes": classes_of(cand.ids),
        "seen_on_pi_rsa": inter.seen if inter else ([] if cand.k == 0 else list(cand.ids)),
        "explanations": inter.explanations if inter else ([] if cand.k == 0 else [list(cand.ids)]),
        "notes": inter.notes if inter else [],
        "diverging_probes": sorted(fam.diverging(cand.ids)) if cand.admissible else [],
    }
