"""``python -m builder verify FOLDER``: does the folder hold exactly what its manifest says it was generated from?

Two stages, both reported as problems with the file (and, for Parquet, the first differing row):

1. integrity (no generation): manifest and CHECKSUMS present, every listed file present, no unlisted file,
   every registered config either exported or recorded as skipped, the rows of every Parquet file match
   the manifest's counts, each row's ``sha256`` matches its decoded record and the split's rows hash to the
   manifest's ``rows_sha256``;
2. regeneration (unless ``regenerate=False``): every config of the manifest's plan (configs, seeds and
   counts, recorded commit) is regenerated once, in worker processes started before stage 1 runs
   (``builder.regenerate``), and every row of every Parquet file is compared with its regenerated row by a
   sha256 of the row's canonical JSON (the same assumption as ``rows_sha256``), the manifest with the one
   the regenerated rows give; no Parquet file is rebuilt, but each stored file's rows are written again by
   this code's writer to tell whether its bytes are those of a fresh export.

Verification is about content, so that another Parquet writer does not fail it: a Parquet file whose
bytes differ (from ``CHECKSUMS`` or from the regenerated file) but whose rows are the same passes with the
note "content identical, bytes differ (pyarrow X vs Y)"; the manifest is compared without its
writer-dependent fields (file hashes and sizes, ``writer``); of ``README.md`` only the YAML front matter
and the generated blocks are compared (with the card rendered from the manifest), so prose edited on the
Hub does not fail verification either. Any changed row fails.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from builder import untrusted
from builder.export import (
    CHECKSUMS,
    DEFAULT_CARD,
    MANIFEST,
    NAMED_ONLY,
    README,
    ROWS_PER_FILE,
    SplitOutput,
    data_files,
    manifest_dict,
    plan_from_manifest,
)
from builder.regenerate import (
    RegeneratedSplit,
    Regeneration,
    StoredFile,
    first_mismatch,
    parquet_layout,
    read_stored_file,
    regenerated_row,
    stored_rows,
)
from builder.registry import all_specs, get_spec
from builder.shape import decode
from builder.untrusted import ExportError


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refused: str | None = None  # the folder could not be read safely (one line); also the first problem
    digests: dict[str, str] | None = None  # sha256 of every file as verified (``verify_stamped(record_digests)``)

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


def _not_an_export(path: Path) -> str:
    """Why ``path`` (not a folder) cannot be verified, and what to run instead."""
    if not os.path.lexists(path):
        return "no such folder"
    if path.suffix == ".jsonl":
        return f"a file, not an export folder; a generated JSONL is checked by: python -m verifiers validate {path}"
    return "a file, not an export folder (the --out folder of python -m builder export)"


def check_integrity(folder: Path, report: Report, card: str | Path | None = None) -> dict[str, Any] | None:
    """Stage 1; returns the manifest when it could be read."""
    if not folder.is_dir():
        report.refuse(_not_an_export(folder))
        return None
    if not os.path.lexists(folder / MANIFEST) and os.path.lexists(folder.parent / MANIFEST):
        report.refuse(f"{MANIFEST}: missing; this is a config folder of the export {folder.parent}: verify that folder")
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
        by_reason.setdefault(f"{NAMED_ONLY}: --configs NAME" if reason.startswith(NAMED_ONLY) else reason,
                             []).append(name)
    for reason, names in by_reason.items():
        report.notes.append(f"not in this export: {', '.join(names)} ({reason})")
    now = [n for n in skipped if n in known and skipped[n] != "not selected" and get_spec(n).default_export
           and get_spec(n).unavailable() is None]  # skipped then for want of its generator
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
    progress: bool | None = None,
) -> Report:
    """Stage 1, then (``regenerate``) stage 2. The regeneration starts first, in ``num_proc`` processes (default:
    the CPUs this process may use), and runs while this process checks integrity; ``progress``: a bar of
    regenerated rows on stderr (None: on for a terminal)."""
    folder = Path(folder)
    report = Report()
    regeneration = start_regeneration(folder, processes=num_proc, progress=progress) if regenerate else None
    with regeneration or contextlib.nullcontext():
        manifest = check_integrity(folder, report, card)
        if manifest is None or not regenerate or _version_problems(manifest):
            report.problems = list(dict.fromkeys(report.problems))
            return report
        plan = plan_from_manifest(manifest)
        for name in plan.configs:
            if name not in {s.name for s in all_specs()}:
                return report
            reason = get_spec(name).unavailable()
            if reason:
                report.problems.append(f"config {name}: cannot regenerate here: {reason}")
                return report
        if regeneration is None or regeneration.configs != plan.configs:
            report.problems.append(f"{MANIFEST}: changed while it was being verified")
        else:
            try:
                compare_regenerated(folder, manifest, report, regeneration)
            except ExportError as exc:
                report.refuse(str(exc))
    report.problems = list(dict.fromkeys(report.problems))
    report.notes = list(dict.fromkeys(report.notes))
    return report


# ------------------------------------------------------------------------------------ stage 2: regeneration
def start_regeneration(folder: Path, *, processes: int | None = None, progress: bool | None = None
                       ) -> Regeneration | None:
    """The regeneration of the configs that ``folder``'s manifest names (not yet entered), or None when the
    manifest cannot be read or names configs that cannot be regenerated here (stage 1 reports why)."""
    try:
        manifest = untrusted.read_manifest(folder)
        plan = plan_from_manifest(manifest)
        rows = {(name, split): _manifest_rows(c, split) for name, c in manifest["configs"].items()
                for split in c["splits"]}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):  # ExportError is a ValueError
        return None
    known = {s.name for s in all_specs()}
    if _version_problems(manifest) or any(n not in known or get_spec(n).unavailable() for n in plan.configs):
        return None
    present = set(data_files(folder))
    stored = [(path, folder, name) for (name, split), n in rows.items()
              for path, _, _ in parquet_layout(name, split, n, ROWS_PER_FILE) if path in present]
    return Regeneration(plan.configs, rows, stored, processes=processes, progress=progress)


def compare_regenerated(folder: Path, manifest: dict[str, Any], report: Report, regeneration: Regeneration) -> None:
    """Stage 2: the manifest's configs regenerated once (``builder.regenerate``), compared with every Parquet
    file row by row and with the manifest's content; a file whose rows are right but whose bytes are not those
    this code writes gets a note."""
    plan = plan_from_manifest(manifest)
    present = set(data_files(folder))
    regenerated, files = regeneration.results()
    expected = {MANIFEST, README, CHECKSUMS}
    writer = manifest.get("writer", {}).get("pyarrow", "?")
    for name, splits in regenerated.items():
        for split, regen in splits.items():
            claimed = regeneration.rows[(name, split)]
            layout = parquet_layout(name, split, regen.num_examples, ROWS_PER_FILE)
            expected.update(path for path, _, _ in layout)
            if regen.num_examples != claimed:
                report.problems.append(f"config {name}, split {split}: the manifest says {claimed} rows, "
                                       f"the regenerated split has {regen.num_examples}")
                continue
            for path, start, stop in layout:
                if path not in present:
                    if not any(p.startswith(f"{path}: ") and "missing" in p for p in report.problems):
                        report.problems.append(f"{path}: missing (the regenerated export has it)")
                    continue
                stored_file = files.get(path) or read_stored_file(folder, path, name)
                problem = _file_difference(folder, path, stored_file, regen.row_digests[start:stop],
                                           lambda i, name=name, split=split, start=start: regenerated_row(
                                               name, plan.configs[name], split, start + i))
                if problem:
                    report.problems.append(f"{path}: {problem}")
                elif not stored_file.same_bytes:
                    report.notes.append(
                        f"{path}: content identical, bytes differ (pyarrow {writer} vs {pa.__version__})")
    problem = _manifest_difference(manifest, manifest_dict(plan, _split_outputs(regenerated)))
    if problem:
        report.problems.append(f"{MANIFEST}: {problem}")
    owned = owned_paths(manifest)
    for path in sorted(p for p in present - expected if owned(p)):
        report.problems.append(f"{path}: not part of the regenerated export")


def _manifest_rows(config: Mapping[str, Any], split: str) -> int:
    rows = config["splits"][split].get("num_examples")
    return rows if isinstance(rows, int) and rows >= 0 else 0


def _file_difference(folder: Path, path: str, stored: StoredFile, expected: list[bytes],
                     regenerated_row: Callable[[int], dict[str, Any]]) -> str | None:
    """Where a Parquet file's rows first differ from the regenerated ones (None: they are the same)."""
    if stored.problem:
        return stored.problem
    i = first_mismatch(stored.row_digests, expected)
    if i is None:
        return None
    if i < min(len(stored.row_digests), len(expected)):
        actual = next(row for j, row in enumerate(stored_rows(folder, path)) if j == i)
        wanted = regenerated_row(i)
        cols = [k for k in wanted if actual.get(k) != wanted[k]] or [k for k in actual if k not in wanted]
        return f"row {i}{_row_id(wanted)} differs from the regenerated row in {', '.join(cols)}"
    return (f"{len(stored.row_digests)} rows, the regenerated file has {len(expected)} "
            f"(first extra or missing row: {i})")


def _split_outputs(regenerated: Mapping[str, Mapping[str, RegeneratedSplit]]) -> dict[str, dict[str, SplitOutput]]:
    """The regenerated splits in the form ``manifest_dict`` takes (writer-dependent fields left empty)."""
    return {
        name: {
            split: SplitOutput(split, r.num_examples, 0,
                               [{"path": path, "rows": stop - start, "bytes": None, "sha256": None}
                                for path, start, stop in parquet_layout(name, split, r.num_examples, ROWS_PER_FILE)],
                               r.rows_sha256, r.jsonl_sha256, r.counts)
            for split, r in splits.items()
        }
        for name, splits in regenerated.items()
    }


def _manifest_difference(published: Mapping[str, Any], regenerated: Mapping[str, Any]) -> str | None:
    """The first field where two manifests differ in content (not in writer-dependent fields), or None."""
    a, b = content_manifest(dict(published)), content_manifest(dict(regenerated))
    return _first_field(a, b, "")


def _first_field(a: Any, b: Any, where: str) -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(b) + [k for k in a if k not in b]:
            if key not in a:
                return f"{where}{key}: missing (the regenerated manifest has it)"
            if key not in b:
                return f"{where}{key}: not in the regenerated manifest"
            found = _first_field(a[key], b[key], f"{where}{key}.")
            if found:
                return found
        if list(a) != list(b):
            return f"{where.rstrip('.') or '(top level)'}: fields in another order than the regenerated manifest's"
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_field(x, y, f"{where}{i}.")
            if found:
                return found
        return None
    if a != b or type(a) is not type(b):
        return f"{where.rstrip('.')} is {json.dumps(a)[:100]}, the regenerated manifest has {json.dumps(b)[:100]}"
    return None


# ------------------------------------------------------------------------- verifications that publish reuses
def verify_stamped(
    folder: str | Path,
    *,
    reuse: bool = False,
    regenerate: bool = True,
    num_proc: int | None = None,
    card: str | Path | None = None,
    progress: bool | None = None,
    record_digests: bool = False,
) -> Report:
    """``verify`` that leaves a stamp (``builder.verified``) when a full verification passes; with ``reuse``, the
    stamp of a full verification of the same bytes by the same code, against the same card, stands for one.

    With ``record_digests`` the report carries the sha256 of every file as verified (read before and after
    verifying; a folder that changed meanwhile fails), so that ``publish`` uploads exactly those bytes."""
    from builder.verified import load_stamp, save_stamp, stamp_key

    folder = Path(folder)
    # the digests read every file of the folder: only when a stamp can be used or written, or they are asked for
    before = _digests_or_none(folder) if reuse or regenerate or record_digests else None
    key = _stamp_key_or_none(stamp_key, folder, card, before) if reuse or regenerate else None
    if reuse and key:
        stamp = load_stamp(key)
        if stamp is not None:
            return Report(notes=[*stamp["notes"], f"verified before, with regeneration (stamp {key[:12]}): "
                                                  "the same bytes, code and card; not regenerated again"],
                          digests=before if record_digests else None)
    report = verify(folder, regenerate=regenerate, num_proc=num_proc, card=card, progress=progress)
    after = _digests_or_none(folder) if before is not None and report.ok else None
    if report.ok and regenerate and key and _stamp_key_or_none(stamp_key, folder, card, after) == key:
        try:
            save_stamp(key, folder, report.notes)
        except OSError as exc:  # a read-only cache only costs the next publish a regeneration
            report.notes.append(f"could not record this verification for publish ({exc})")
    if record_digests and report.ok:
        if after is None or after != before:
            report.problems.append(f"{folder}: changed while it was verified; verify it again")
        else:
            report.digests = after
    return report


def _digests_or_none(folder: Path) -> dict[str, str] | None:
    from builder.verified import file_digests

    try:
        return file_digests(folder) if folder.is_dir() else None
    except (OSError, ExportError):  # an unsafe folder has no digests; verify itself says why
        return None


def _stamp_key_or_none(stamp_key: Callable[..., str], folder: Path, card: str | Path | None,
                       digests: dict[str, str] | None) -> str | None:
    if digests is None:
        return None
    try:
        return stamp_key(folder, card, digests)
    except (OSError, ExportError):  # an unsafe folder gets no stamp; verify itself says why
        return None
