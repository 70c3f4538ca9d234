"""The probe library: LambdaPy probes stored as data files in ``elenchos/probes/*.lp``.

File format (plain LambdaPy, so every file can be pasted into ``python -m lambdapy``)::

    -- free text before the first probe: what the file covers
    -- @probe free_name.assumed_nat
    -- targets: ID_05 ID_11
    -- An assumed natural number, evaluated on its own.      <- the description (required)
    assume n : Nat
    eval n

* ``-- @probe NAME`` starts a probe; names are unique across the library.
* The comment lines that follow are its metadata: ``-- targets: ID ...`` lists the mutations the probe is
  designed to expose (the tests check that each target's singleton kernel really diverges from the sound
  kernel on it); ``-- level0: ID`` makes it that mutation's Level-0 *unique probe* (the one the Level-0
  prompt shows and the Simple Reflex Agent's Pi_RSA is built from: exactly one per mutation, never two
  mutations on one probe); every other comment line is part of its description.
* The remaining lines are the probe, in order: any number of ``assume``/``let`` lines, then one ``eval``.
* The file name gives the probe's *class*: one of the five Table 6 labels (``binding``, ``free_name``,
  ``application``, ``def_equality``, ``universe``), or ``extension`` for the probes that the configuration
  family adds only to separate confusable sets (paper Appendix B.3, step 3).

Every probe is *closed*: it declares every name it uses. Moreover the names the library declares (``assume``,
``let``) and the names it binds (lambda and ``forall`` binders) are disjoint: the checker renames a local
variable that clashes with a name in the kernel's context (``x`` becomes ``x1`` in error messages), so a
binder named like another probe's global would print differently once that probe has run. With both rules a
probe observes the same thing on a fresh kernel and in a session that has run other library probes (checked
when the library is read, and tested). The library is read once per process (``library()``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from lambdapy import MUTATION_IDS, MUTATIONS

CLASSES: tuple[str, ...] = ("binding", "free_name", "application", "def_equality", "universe")
EXTENSION = "extension"
FILES: tuple[str, ...] = (*CLASSES, EXTENSION)

_NAME = re.compile(r"^[a-z][a-z0-9_]*\.[a-z0-9_]+$")


class LibraryError(ValueError):
    """A malformed library file; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Probe:
    name: str  # "binding.flip"
    probe_class: str  # file stem: a Table 6 label or "extension"
    targets: tuple[str, ...]  # mutations the probe is designed to expose
    description: str
    source: str  # the probe text, statements joined by "\n" (no trailing newline)
    file: str
    line: int
    level0: str | None = None  # the mutation whose Level-0 unique probe this is

    @property
    def core(self) -> bool:
        """Part of the base library (``False`` for the identifiability extension probes)."""
        return self.probe_class != EXTENSION


@dataclass(frozen=True)
class Library:
    probes: tuple[Probe, ...]
    sha256: str  # of the library files' bytes, in FILES order

    def __len__(self) -> int:
        return len(self.probes)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.probes)

    @property
    def core(self) -> tuple[Probe, ...]:
        return tuple(p for p in self.probes if p.core)

    @property
    def extension(self) -> tuple[Probe, ...]:
        return tuple(p for p in self.probes if not p.core)

    def by_name(self, name: str) -> Probe:
        for p in self.probes:
            if p.name == name:
                return p
        raise KeyError(f"no probe named {name!r} in the library")

    def index(self, name: str) -> int:
        return self.names.index(name)

    def level0(self) -> dict[str, Probe]:
        """Mutation id -> its Level-0 probe (``-- level0:``), in mutation order."""
        by_id = {p.level0: p for p in self.probes if p.level0}
        return {m: by_id[m] for m in MUTATION_IDS}


def parse_file(text: str, probe_class: str, file: str) -> list[Probe]:
    """The probes of one library file, in file order."""
    probes: list[Probe] = []
    current: dict | None = None

    def close() -> None:
        if current is None:
            return
        where = f"{file}:{current['line']}"
        if not current["body"]:
            raise LibraryError(f"{where}: probe {current['name']} has no statements")
        if not current["description"]:
            raise LibraryError(f"{where}: probe {current['name']} has no description comment")
        if not current["body"][-1].startswith("eval "):
            raise LibraryError(f"{where}: probe {current['name']} must end with one eval line")
        probes.append(Probe(current["name"], probe_class, tuple(current["targets"]),
                            " ".join(current["description"]), "\n".join(current["body"]), file, current["line"],
                            current["level0"]))

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("-- @probe"):
            close()
            name = line[len("-- @probe"):].strip()
            if not _NAME.match(name) or not name.startswith(probe_class + "."):
                raise LibraryError(f"{file}:{lineno}: probe name {name!r} must look like {probe_class}.some_name")
            current = {"name": name, "line": lineno, "targets": [], "description": [], "body": [], "level0": None}
            continue
        if current is None or not line.strip():
            continue
        if line.startswith("--"):
            comment = line[2:].strip()
            if current["body"]:
                raise LibraryError(f"{file}:{lineno}: comment inside the statements of {current['name']}")
            if comment.startswith("targets:"):
                for mid in comment[len("targets:"):].split():
                    if mid not in MUTATIONS:
                        raise LibraryError(f"{file}:{lineno}: unknown mutation {mid!r} in targets")
                    current["targets"].append(mid)
            elif comment.startswith("level0:"):
                mid = comment[len("level0:"):].strip()
                if mid not in MUTATIONS:
                    raise LibraryError(f"{file}:{lineno}: unknown mutation {mid!r} in level0")
                if current["level0"] is not None:
                    raise LibraryError(f"{file}:{lineno}: probe {current['name']} is already the Level-0 probe "
                                       f"of {current['level0']}")
                current["level0"] = mid
            elif comment:
                current["description"].append(comment)
            continue
        current["body"].append(line.strip())
    close()
    return probes


@cache
def library() -> Library:
    """The whole library (class files in ``CLASSES`` order, then the extension file)."""
    digest = hashlib.sha256()
    probes: list[Probe] = []
    root = resources.files("elenchos.probes")
    for stem in FILES:
        data = root.joinpath(f"{stem}.lp").read_bytes()
        digest.update(stem.encode() + b"\0" + data + b"\0")
        probes.extend(parse_file(data.decode("utf-8"), stem, f"elenchos/probes/{stem}.lp"))
    check_names(probes)
    check_level0(probes)
    names = [p.name for p in probes]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise LibraryError(f"duplicate probe names: {', '.join(duplicates)}")
    return Library(tuple(probes), digest.hexdigest())


_ASSUME = re.compile(r"^assume\s+(.*?)\s*(?:::|:)")
_ASSUME_PAREN = re.compile(r"\(\s*([A-Za-z_][A-Za-z0-9_']*)\s*(?:::|:)")
_LET = re.compile(r"^let\s+([A-Za-z_][A-Za-z0-9_']*)")
_LAMBDA = re.compile(r"\\([A-Za-z0-9_' ]+?)->")


def declared_names(source: str) -> set[str]:
    """Names a probe declares with ``assume`` or ``let``."""
    out: set[str] = set()
    for line in source.split("\n"):
        if line.startswith("assume ("):
            out.update(_ASSUME_PAREN.findall(line))
        elif (m := _ASSUME.match(line)) is not None:
            out.update(m.group(1).split())
        elif (m := _LET.match(line)) is not None:
            out.add(m.group(1))
    return out


def bound_names(source: str) -> set[str]:
    """Names a probe binds with lambdas or ``forall`` binders (``_`` excluded)."""
    out: set[str] = set()
    for m in _LAMBDA.finditer(source):
        out.update(m.group(1).split())
    for line in source.split("\n"):
        if not line.startswith("assume ("):
            out.update(_ASSUME_PAREN.findall(line))
    out.discard("_")
    return out


def check_names(probes: list[Probe]) -> None:
    """Raise ``LibraryError`` if a name bound in one probe is declared by another (see the module doc)."""
    declared: dict[str, str] = {}
    for p in probes:
        for name in declared_names(p.source):
            declared.setdefault(name, p.name)
    for p in probes:
        clash = sorted(bound_names(p.source) & set(declared))
        if clash:
            where = ", ".join(f"{n} (declared by {declared[n]})" for n in clash)
            raise LibraryError(f"{p.file}:{p.line}: probe {p.name} binds names the library declares: {where}")


def check_level0(probes: list[Probe]) -> None:
    """Raise ``LibraryError`` unless every mutation has exactly one Level-0 probe in the core library."""
    seen: dict[str, Probe] = {}
    for p in probes:
        if p.level0 is None:
            continue
        if not p.core:
            raise LibraryError(f"{p.file}:{p.line}: extension probe {p.name} cannot be a Level-0 probe")
        if p.level0 not in p.targets:
            raise LibraryError(f"{p.file}:{p.line}: probe {p.name} is the Level-0 probe of {p.level0} but does not "
                               "list it in targets")
        if p.level0 in seen:
            raise LibraryError(f"{p.file}:{p.line}: {p.level0} already has a Level-0 probe "
                               f"({seen[p.level0].name}, {seen[p.level0].file}:{seen[p.level0].line})")
        seen[p.level0] = p
    missing = [m for m in MUTATION_IDS if m not in seen]
    if missing:
        raise LibraryError(f"no Level-0 probe (-- level0: ID) for {', '.join(missing)} in elenchos/probes/*.lp")


def class_counts(lib: Library | None = None) -> dict[str, int]:
    """Core probes per class (the ontology balance)."""
    lib = lib or library()
    return {c: sum(p.probe_class == c for p in lib.core) for c in CLASSES}


def target_counts(lib: Library | None = None) -> dict[str, int]:
    """Core probes designed for each mutation (``targets``)."""
    lib = lib or library()
    return {m: sum(m in p.targets for p in lib.core) for m in MUTATION_IDS}
