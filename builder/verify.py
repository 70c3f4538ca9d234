"""``python -m builder verify FOLDER``: does the folder hold exactly what its manifest says it was generated from?

Two stages, both reported as problems with the file (and, for Parquet, the first differing row):

1. integrity (no generation): manifest and CHECKSUMS present, every listed file present, no unlisted file,
   every registered config either exported or recorded as skipped, the rows of every Parquet file match
   the manifest's counts, each row's ``sha256`` matches its decoded record and the split's rows hash to the
   manifest's ``rows_sha256``;
2. regeneration (unless ``regenerate=False``): the export is rebuilt from the manifest's plan (configs,
   seeds and counts, recorded commit) in a temporary folder and compared.

Verification is about content, so that another Parquet writer does not fail it: a Parquet file whose
bytes differ (from ``CHECKSUMS`` or from the regenerated file) but whose rows are the same passes with the
note "content identical, bytes differ (pyarrow X vs Y)"; the manifest is compared without its
writer-dependent fields (file hashes and sizes, ``writer``); of ``README.md`` only the YAML front matter
and the generated blocks are compared (with the card rendered from the manifest), so prose edited on the
Hub does not fail verification either. Any changed row fails.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from builder import untrusted
from builder.export import CHECKSUMS, DEFAULT_CARD, MANIFEST, README, build, data_files, plan_from_manifest
from builder.registry import all_specs, get_spec
from builder.shape import decode
from builder.untrusted import ExportError
from generators.jsonl import sha256_file


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refused: str | None = None  # the folder could not be read safely (one line); also the first problem

    def refuse(self, message: str) -> None:
        self.refused = self.refused or message
        self.problems.append(message)

    @property
    def ok(self) -> bool:
        return not self.problems


def read_checksums(folder: Path) -> dict[str, str]:
    """``CHECKSUMS`` read inside the folder (``ValueError`` naming the line)."""
    return untrusted.read_checksums(folder)


def _row_id(row: dict[str, Any]) -> str:
    return f" (id {row['id']})" if "id" in row else ""


def check_integrity(folder: Path, report: Report, card: str | Path | None = None) -> dict[str, Any] | None:
    """Stage 1; returns the manifest when it could be read."""
    if not folder.is_dir():
        report.refuse(f"{folder}: not a folder")
        return None
    try:
        untrusted.refuse_scripts(folder)
        manifest = untrusted.read_manifest(folder)
    except ExportError as exc:
        report.refuse(str(exc))
        return None
    try:
        sums = read_checksums(folder)
    except ExportError as exc:
        if str(exc).endswith(f"{CHECKSUMS}: missing"):
            report.problems.append(f"{CHECKSUMS}: missing")
            sums = {}
        else:
            report.refuse(str(exc))
            return None
    try:
        _check_files(folder, manifest, sums, report, card)
    except ExportError as exc:
        report.refuse(str(exc))
        return None
    return manifest


def _check_files(folder: Path, manifest: dict[str, Any], sums: dict[str, str], report: Report,
                 card: str | Path | None) -> None:
    present = set(data_files(folder))
    bad_sum = set()
    for path, digest in sums.items():
        if path not in present:
            report.problems.append(f"{path}: listed in {CHECKSUMS} but missing")
        elif untrusted.sha256_of(folder, path, CHECKSUMS) != digest:
            bad_sum.add(path)
            if path != README and not path.endswith(".parquet"):
                report.problems.append(f"{path}: sha256 differs from {CHECKSUMS}")
    owned = owned_paths(manifest)
    foreign = sorted(p for p in present - set(sums) - {CHECKSUMS} if not owned(p))
    if foreign:  # e.g. docs/figure.png added to the Hub repo by hand: publish never touches those either
        report.notes.append(f"not part of the release (ignored): {', '.join(foreign)}")
    for path in sorted(present - set(sums) - {CHECKSUMS} - set(foreign)):
        report.problems.append(f"{path}: not listed in {CHECKSUMS}")
    if README in present:
        _check_card(folder, manifest, card, report, edited=README in bad_sum)

    for problem in _version_problems(manifest):
        report.problems.append(f"{MANIFEST}: {problem}; verify with the matching code version")
    known = {spec.name for spec in all_specs()}
    skipped = manifest.get("skipped", {})
    for name in known:
        if name not in manifest["configs"] and name not in skipped:
            report.problems.append(f"config {name}: missing from the export (neither exported nor recorded as skipped)")
    for name in manifest["configs"]:
        if name not in known:
            report.problems.append(f"config {name}: unknown to this code")
    by_reason: dict[str, list[str]] = {}
    for name, reason in skipped.items():
        by_reason.setdefault(reason, []).append(name)
    for reason, names in by_reason.items():
        report.notes.append(f"not in this export: {', '.join(names)} ({reason})")
    now = [n for n in skipped if n in known and skipped[n] != "not selected" and get_spec(n).unavailable() is None]
    if now:
        report.notes.append(f"available here now, so a new export would include them: {', '.join(now)}")

    for name, c in manifest["configs"].items():
        if name not in known:
            continue
        spec = get_spec(name)
        for split, s in c["splits"].items():
            split_hash = hashlib.sha256()
            complete = True
            for i, f in enumerate(s["files"]):
                path = f["path"]
                untrusted.checked_path(folder, path, f"{MANIFEST}: configs.{name}.splits.{split}.files[{i}].path")
                if path not in present:
                    report.problems.append(f"{path}: missing (config {name}, split {split})")
                    complete = False
                    continue
                row_problem = _check_rows(folder, path, spec, f["rows"], split_hash)
                if row_problem:
                    complete = False
                    detail = f"sha256 differs from {CHECKSUMS}; " if path in bad_sum else ""
                    report.problems.append(f"{path}: {detail}{row_problem}")
                elif path in bad_sum:
                    bad_sum.discard(path)
                    report.notes.append(f"{path}: content identical, bytes differ from {CHECKSUMS} "
                                        f"(rewritten by another Parquet writer?)")
            if complete and s.get("rows_sha256") and split_hash.hexdigest() != s["rows_sha256"]:
                report.problems.append(
                    f"config {name}, split {split}: the rows differ from the manifest's rows_sha256 "
                    "(a row was changed, added, removed or reordered)"
                )


def owned_paths(*manifests: Mapping[str, Any]) -> Callable[[str], bool]:
    """Whether a path belongs to an export: its card, manifest, CHECKSUMS or a config folder (of this code's
    configs or those the manifests name); anything else (``docs/figure.png``) is never checked or deleted."""
    configs = {s.name for s in all_specs()}
    for manifest in manifests:
        configs |= set(manifest.get("configs", {})) | set(manifest.get("skipped", {}))
    return lambda path: path in (README, MANIFEST, CHECKSUMS) or path.split("/", 1)[0] in configs


def _version_problems(manifest: dict[str, Any]) -> list[str]:
    out = []
    for name, c in manifest["configs"].items():
        try:
            here = get_spec(name).generator_version()
        except KeyError:
            continue
        made = c.get("generator_version", manifest.get("generator_version"))
        if here is not None and made != here:
            out.append(f"config {name} was generated by {c.get('benchmark', '')} generator {made}, this code is {here}")
    return out


def card_parts(text: str) -> list[str]:
    """What ``verify`` compares of a README: its YAML front matter and the generated blocks (not the prose)."""
    from builder.card import generated_blocks

    front = ""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        front = text[: end + 5] if end >= 0 else text
    return [front, *generated_blocks(text)]


def _check_card(folder: Path, manifest: dict[str, Any], card: str | Path | None, report: Report, edited: bool) -> None:
    """README.md's YAML and generated blocks must be those of the manifest; its prose may differ (a note)."""
    from builder.card import render_readme

    card_path = Path(card) if card else DEFAULT_CARD
    if not card_path.exists():
        if edited:
            report.problems.append(f"{README}: sha256 differs from {CHECKSUMS} ({card_path} not found to compare)")
        else:
            report.notes.append(f"{card_path} not found: {README} is checked against {CHECKSUMS} only")
        return
    untrusted.card_metadata(folder)  # bad YAML, aliases or data_files that leave the folder: refused
    actual = untrusted.read_bytes(folder, README, untrusted.MAX_CARD_BYTES).decode("utf-8", errors="replace")
    expected = render_readme(manifest, card_path)
    for part_a, part_b in zip(card_parts(actual), card_parts(expected), strict=False):
        if part_a != part_b:
            a, b = part_a.splitlines(), part_b.splitlines()
            line = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            got = a[line] if line < len(a) else "(end)"
            report.problems.append(f"{README}: its YAML or a generated block differs from the manifest's "
                                   f"(block line {line + 1}: {got[:100]!r})")
            return
    if len(card_parts(actual)) != len(card_parts(expected)):
        report.problems.append(f"{README}: a generated block is missing")
        return
    if edited:
        report.notes.append(f"{README}: prose differs from the export (edited on the Hub?); "
                            "its YAML and generated blocks match the manifest")


def _check_rows(folder: Path, rel: str, spec, rows: int, split_hash: Any = None) -> str | None:
    """The first problem with the rows of one Parquet file (count, row hash), or None; ``ExportError`` when the
    file cannot be read safely or is not a Parquet file of the config's schema.

    ``split_hash`` (a hashlib object) is fed the rows' ``sha256`` values, one per line, as ``rows_sha256``."""
    from builder.mira_elenchos import record_sha256

    pf = untrusted.parquet_file(folder, rel, spec.name)  # unsafe, unreadable or another schema: refused
    offset = 0
    try:
        for batch in pf.iter_batches(batch_size=1000):
            for i, row in enumerate(batch.to_pylist(), start=offset):
                try:
                    ok = record_sha256(decode(spec.shape, row)) == row.get("sha256")
                except (KeyError, TypeError, ValueError, RecursionError) as exc:
                    return f"row {i}{_row_id(row)} does not decode ({str(exc)[:100] or type(exc).__name__})"
                if not ok:
                    return f"row {i}{_row_id(row)}: its sha256 does not match its content"
                if split_hash is not None:
                    split_hash.update((row["sha256"] + "\n").encode())
            offset += batch.num_rows
    except (OSError, pa.ArrowException) as exc:
        return f"not a readable Parquet file ({str(exc)[:200]})"
    if offset != rows:
        return f"{offset} rows, the manifest says {rows}"
    return None


def first_difference(actual: Path, expected: Path, path: str) -> str:
    """A one-line description of where two versions of an export file first differ."""
    if path.endswith(".parquet"):
        return _parquet_difference(actual, expected, path)
    a = untrusted.read_bytes(actual.parent, actual.name, untrusted.MAX_MANIFEST_BYTES).decode(
        "utf-8", errors="replace").splitlines()
    b = expected.read_text(encoding="utf-8", errors="replace").splitlines()
    for i, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return f"{path}: line {i} differs from the regenerated file: {x[:100]!r} != {y[:100]!r}"
    n = min(len(a), len(b)) + 1
    return f"{path}: line {n}: this file has {len(a)} lines, the regenerated file has {len(b)}"


def _parquet_difference(actual: Path, expected: Path, path: str) -> str:
    try:
        with untrusted.open_data(actual.parent, actual.name, path) as f:
            ta = pq.read_table(f)
    except (OSError, pa.ArrowException, ExportError) as exc:
        return f"{path}: not a readable Parquet file ({str(exc)[:200]})"
    tb = pq.read_table(expected)
    if ta.schema.remove_metadata() != tb.schema.remove_metadata():
        return f"{path}: schema differs from the regenerated file"
    ra, rb = ta.to_pylist(), tb.to_pylist()
    for i, (x, y) in enumerate(zip(ra, rb, strict=False)):
        if x != y:
            cols = [k for k in y if x.get(k) != y[k]]
            return f"{path}: row {i}{_row_id(y)} differs from the regenerated row in {', '.join(cols)}"
    if len(ra) != len(rb):
        first = min(len(ra), len(rb))
        return f"{path}: {len(ra)} rows, the regenerated file has {len(rb)} (first extra or missing row: {first})"
    return f"{path}: {SAME_ROWS}"


SAME_ROWS = "same rows as the regenerated file but different bytes (Parquet metadata or writer differs)"


WRITER_FIELDS = ("sha256", "bytes")  # per-file manifest fields that depend on the Parquet writer


def content_manifest(manifest: dict[str, Any]) -> dict[str, Any]:
    """The manifest without what another Parquet writer changes (writer versions, file hashes and sizes)."""
    out = json.loads(json.dumps(manifest))
    out.pop("writer", None)
    for c in out.get("configs", {}).values():
        for s in c.get("splits", {}).values():
            s.pop("num_bytes", None)
            for f in s.get("files", []):
                for key in WRITER_FIELDS:
                    f.pop(key, None)
    return out


def verify(
    folder: str | Path,
    *,
    regenerate: bool = True,
    num_proc: int | None = None,
    card: str | Path | None = None,
    log: Callable[[str], None] = lambda _: None,
) -> Report:
    folder = Path(folder)
    report = Report()
    manifest = check_integrity(folder, report, card)
    if manifest is None or not regenerate or _version_problems(manifest):
        report.problems = list(dict.fromkeys(report.problems))
        return report
    card_path = Path(card) if card else DEFAULT_CARD
    plan = plan_from_manifest(manifest)
    for name in plan.configs:
        if name not in {s.name for s in all_specs()}:
            return report
        reason = get_spec(name).unavailable()
        if reason:
            report.problems.append(f"config {name}: cannot regenerate here: {reason}")
            return report
    writer = manifest.get("writer", {}).get("pyarrow", "?")
    tmp = Path(tempfile.mkdtemp(prefix=".verify-"))
    try:
        fresh = tmp / "export"
        build(plan, fresh, num_proc=num_proc, card=card_path if card_path.exists() else _placeholder_card(tmp), log=log)
        _compare(folder, fresh, manifest, report, writer)
    except ExportError as exc:
        report.refuse(str(exc))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report.problems = list(dict.fromkeys(report.problems))
    report.notes = list(dict.fromkeys(report.notes))
    return report


def _compare(folder: Path, fresh: Path, manifest: dict[str, Any], report: Report, writer: str) -> None:
    """Stage 2: every file of the regenerated export ``fresh`` against the folder's."""
    expected, present = data_files(fresh), set(data_files(folder))
    rank = {MANIFEST: 1, README: 2, CHECKSUMS: 3}
    for path in sorted(expected, key=lambda p: (rank.get(p, 0), p)):
        if path not in present:
            if not any(p.startswith(f"{path}: ") and "missing" in p for p in report.problems):
                report.problems.append(f"{path}: missing (the regenerated export has it)")
            continue
        if path in (README, CHECKSUMS):
            continue  # README: YAML and generated blocks checked against the manifest; CHECKSUMS: in stage 1
        if untrusted.sha256_of(folder, path) == sha256_file(fresh / path):
            continue
        if path == MANIFEST:
            published = manifest
            regenerated = json.loads((fresh / path).read_text(encoding="utf-8"))
            if content_manifest(published) != content_manifest(regenerated):
                report.problems.append(first_difference(folder / path, fresh / path, path))
            continue
        problem = first_difference(folder / path, fresh / path, path)
        if problem.endswith(SAME_ROWS):
            report.notes.append(f"{path}: content identical, bytes differ (pyarrow {writer} vs {pa.__version__})")
        else:
            report.problems.append(problem)
    owned = owned_paths(manifest)
    for path in sorted(p for p in present - set(expected) if owned(p)):
        report.problems.append(f"{path}: not part of the regenerated export")


def _placeholder_card(tmp: Path) -> Path:
    path = tmp / "card.md"
    path.write_text("---\n---\n", encoding="utf-8")
    return path
