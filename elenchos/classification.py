"""The Simple Reflex Agent's probe set Pi_RSA (``level0`` or ``cover``), additive explanations of an
observation on it, and the additive / interacting classification of a set under both rules.

See ``elenchos.family`` for the definitions as implemented; the family applies these to every admissible set.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from elenchos.library import Library, Probe
from elenchos.observations import SOUND, Config
from lambdapy import MUTATION_IDS, Observation

SUBTYPES = ("emergent", "deceptive", "partially_additive")


# ----------------------------------------------------------------------------------------------- Pi_RSA
@dataclass(frozen=True)
class PiRSA:
    """The SRA's probe set and its expected observation table."""

    probes: tuple[Probe, ...]  # in library order
    expected: dict[str, tuple[Observation, ...]]  # "sound" and every mutation id -> one observation per probe
    level0: dict[str, str]  # mutation id -> probe name (its Level-0 "unique probe")
    level0_unique: dict[str, bool]  # does that probe's output pair single the mutation out among all 13?
    search: dict[str, Any]  # how the set was built (for the docs and the record)
    kind: str = "cover"  # "level0" | "cover" (PI_RSA_CHOICES)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.probes)

    @property
    def sound(self) -> tuple[Observation, ...]:
        return self.expected["sound"]

    def record(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
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


def _level0(table: dict[Config, tuple[Observation, ...]], lib: Library) -> tuple[dict[str, str], dict[str, bool]]:
    """Per mutation, its Level-0 probe (``-- level0:`` in the library) and whether that probe's output pair
    singles the mutation out among all 13 (its output differs from the sound kernel's and every other
    singleton's)."""
    index = {p.name: j for j, p in enumerate(lib.core)}
    level0: dict[str, str] = {}
    unique: dict[str, bool] = {}
    for m, probe in lib.level0().items():
        j = index[probe.name]
        own = table[(m,)][j]
        level0[m] = probe.name
        unique[m] = own != table[SOUND][j] and all(own != table[(o,)][j] for o in MUTATION_IDS if o != m)
    return level0, unique


def _expected(table: dict[Config, tuple[Observation, ...]], chosen: Sequence[int]
              ) -> dict[str, tuple[Observation, ...]]:
    expected = {"sound": tuple(table[SOUND][j] for j in chosen)}
    expected.update({m: tuple(table[(m,)][j] for j in chosen) for m in MUTATION_IDS})
    return expected


def build_level0_pi_rsa(lib: Library, table: dict[Config, tuple[Observation, ...]]) -> PiRSA:
    """Pi_RSA as the paper builds it: the Level-0 probes in mutation order, then the fewest further core
    probes (an exact minimum cover of what they leave uncovered; ties: shortest source, library order) that
    complete equation (4)."""
    core = list(lib.core)
    index = {p.name: j for j, p in enumerate(core)}
    chosen = [index[p.name] for p in lib.level0().values()]
    masks = separating_elements(table, len(core))
    n_pairs = len(MUTATION_IDS) * (len(MUTATION_IDS) - 1)
    missing = ((1 << n_pairs) - 1) & ~_union(masks[j] for j in chosen)
    extra: list[int] = []
    if missing:
        rest = [j for j in range(len(core)) if j not in chosen]
        _, covers = minimum_covers([masks[j] & missing for j in rest], missing)
        best = min(covers, key=lambda c: (sum(len(core[rest[i]].source) for i in c), sorted(c)))
        extra = sorted(rest[i] for i in best)
    chosen += extra
    level0, unique = _level0(table, lib)
    search = {"elements": n_pairs, "library_probes": len(core), "level0_probes": len(lib.level0()),
              "extra_for_equation_4": [core[j].name for j in extra], "library_sha256": lib.sha256}
    return PiRSA(tuple(core[j] for j in chosen), _expected(table, chosen), level0, unique, search, "level0")


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
        return PiRSA(tuple(core[j] for j in chosen), _expected(table, chosen), {}, {}, {})

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
    level0, unique = _level0(table, lib)
    search = {"elements": n_pairs, "library_probes": len(core), "minimum_size": size,
              "minimum_covers": len(covers),
              "tie_break": "most additive admissible pairs, then triples; then total source length; then "
                           "library order",
              "tied_after_reach": len(ranked), "additive_range": reach_range, "library_sha256": lib.sha256}
    return PiRSA(pi.probes, pi.expected, level0, unique, search, "cover")


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


def paper_additive(config: Config, probe_index: Sequence[int], table: dict[Config, tuple[Observation, ...]],
                   additive: dict[Config, bool]) -> bool:
    """The paper's formula (B.4) on the probes ``probe_index``: on every probe the composite's observation is
    that of a proper subset which is a singleton or (by this rule, ``additive``) an additive set."""
    subsets = [s for r in range(1, len(config)) for s in itertools.combinations(config, r)
               if r == 1 or additive.get(s, False)]
    return all(any(table[s][j] == table[config][j] for s in subsets) for j in probe_index)
