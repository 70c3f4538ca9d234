"""Export: a Hub-ready folder (Parquet per config and split, README.md, manifest.json, CHECKSUMS).

Layout::

    MIRA-MATH/
      README.md                                   dataset card + YAML (configs:, dataset_info, license, ...)
      manifest.json                               generator version, seeds, params, counts, code commit, file hashes
      CHECKSUMS                                   sha256sum format, every other file
      mira_zero_shot/test-00000-of-00001.parquet
      mira_few_shot/test-00000-of-00001.parquet
      elenchos_.../test-00000-of-00001.parquet    (once the elenchos package provides the records)

The bytes depend only on the plan (configs, their parameters, the recorded code commit) and on the
writer library versions recorded in the manifest: the Parquet files are written by ``pyarrow`` with
fixed row groups, compression and schema metadata (no timestamps), from one combined table, so the
number of generation processes never shows in the output.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from builder import untrusted
from builder.registry import ConfigSpec, all_specs, get_spec
from builder.shape import decode
from builder.untrusted import sha256_of
from generators.jsonl import dumps
from generators.limits import repetitions_problem
from generators.safefs import FolderBusy, FolderLock, UnsafePath, atomic_write, atomic_writer

FORMAT = "mira-elenchos-hf-export/2"
ROW_GROUP_ROWS = 1000
ROWS_PER_FILE = 50_000
COMPRESSION = "zstd"
MANIFEST = "manifest.json"
CHECKSUMS = "CHECKSUMS"
README = "README.md"
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CARD = REPO_ROOT / "dataset_card.md"
# Paths whose state the recorded code commit is about (``code_dirty`` is true when any has local changes).
# Why a config with ``default_export=False`` (an ablation, the hard tier) is not in an export that did not name it.
NAMED_ONLY = "exported only when named"
CODE_PATHS = ("builder", "generators", "verifiers", "schemas", "elenchos", "lambdapy", "dataset_card.md")


class ExportBusy(RuntimeError):
    """Another ``builder export`` holds the lock of the same output folder."""


def check_counts(overrides: Mapping[str, Any]) -> None:
    """Counts an export may ask for, checked before any work (``ValueError``, one line)."""
    problem = repetitions_problem(overrides["repetitions"]) if overrides.get("repetitions") is not None else None
    if problem is not None:
        raise ValueError(problem)
    for key, low, high in (("n_a", 0, untrusted.MAX_ROWS), ("n_b", 0, untrusted.MAX_ROWS),
                           ("n_hard", 1, untrusted.MAX_ROWS)):
        value = overrides.get(key)
        if value is not None and not low <= value <= high:
            raise ValueError(f"--{key.replace('_', '-')} {value}: must be {low} to {high:,}")


class GenerationFailed(RuntimeError):
    """A config's records could not be generated (the message carries the underlying error)."""


@dataclass
class Plan:
    """What an export contains: per config its generation parameters; the rest is recorded as skipped."""

    configs: dict[str, dict[str, Any]]  # config name -> params (``ConfigSpec.params_of``), in export order
    skipped: dict[str, str] = field(default_factory=dict)  # config name -> reason
    code_commit: str = "unknown"
    code_dirty: bool = False
    # config name -> the version of its benchmark's generator (MIRA-Math or Elenchos) the plan was made with
    versions: dict[str, str] = field(default_factory=dict)
    code_repository: str = ""

    def version_problems(self) -> list[str]:
        """Configs whose generator here differs from the plan's (an export must come from the same code)."""
        out = []
        for name in self.configs:
            here = get_spec(name).generator_version()
            if self.versions.get(name) != here:
                out.append(f"{name}: made with generator {self.versions.get(name)}, this code is {here}")
        return out


def code_repository() -> str:
    from builder.mira_elenchos import CODE_REPOSITORY

    return os.environ.get("MIRA_ELENCHOS_CODE_REPO") or CODE_REPOSITORY


def generator_versions(manifest: Mapping[str, Any]) -> dict[str, str]:
    """benchmark -> generator version of the configs in a manifest (``{"mira": "1.0.0", "elenchos": "0.1.0"}``);
    an export with two tiers of one benchmark gives both, in config order (``"2.0.0, 2.0.0+hard.1"``)."""
    out: dict[str, list[str]] = {}
    for bench, version in release_groups(manifest):
        out.setdefault(bench, []).append(version)
    return {bench: ", ".join(versions) for bench, versions in out.items()}


def release_groups(manifest: Mapping[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """(benchmark, generator version) -> the parameters of its configs together (the first config's value where
    two give one), in config order: one entry per tier an export holds (MIRA-Math's paper split and its hard tier
    are two). Together, because a tier's configs take different parameters: Elenchos' configurations take only
    the seed, its ladder and benchmark the repetitions too."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for c in manifest["configs"].values():
        version = c.get("generator_version", manifest.get("generator_version", "?"))
        params = out.setdefault((c.get("benchmark", "mira"), version), {})
        for key, value in c["params"].items():
            params.setdefault(key, value)
    return out


def writer_info() -> dict[str, Any]:
    import datasets

    return {
        "pyarrow": pa.__version__,
        "datasets": datasets.__version__,
        "compression": COMPRESSION,
        "row_group_rows": ROW_GROUP_ROWS,
        "rows_per_file": ROWS_PER_FILE,
    }


def git_state(root: Path = REPO_ROOT) -> tuple[str, bool]:
    """(HEAD commit, whether the generation code has uncommitted changes); ("unknown", False) outside git."""
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=30
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", *CODE_PATHS],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown", False
    return head, bool(status.strip())


def make_plan(
    configs: Iterable[str] | None = None,
    code_commit: str | None = None,
    code_repo: str | None = None,
    **overrides: Any,
) -> Plan:
    """The plan for ``export``: every default config (or ``configs``) with ``overrides`` (seed, n_a, ...).

    Configs with ``default_export=False`` (the slot-notice ablation, the hard tier) are recorded as skipped unless
    named."""
    from builder.mira_elenchos import BenchConfig

    wanted = list(configs) if configs else None
    for name in wanted or []:
        get_spec(name)  # unknown names fail here
    base = BenchConfig(name="plan", **{k: v for k, v in overrides.items() if v is not None})
    plan = Plan(configs={}, code_repository=code_repo or code_repository())
    for spec in all_specs():
        if wanted is not None and spec.name not in wanted:
            plan.skipped[spec.name] = "not selected"
            continue
        if wanted is None and not spec.default_export:
            plan.skipped[spec.name] = f"{NAMED_ONLY} (--configs {spec.name})"
            continue
        reason = spec.unavailable()
        if reason:
            plan.skipped[spec.name] = reason
            continue
        plan.configs[spec.name] = spec.params_of(base)
        plan.versions[spec.name] = spec.generator_version() or "unknown"
    if code_commit is None:
        plan.code_commit, plan.code_dirty = git_state()
    else:
        plan.code_commit = code_commit
    return plan


def plan_from_manifest(manifest: Mapping[str, Any]) -> Plan:
    return Plan(
        configs={name: dict(c["params"]) for name, c in manifest["configs"].items()},
        skipped=dict(manifest.get("skipped", {})),
        code_commit=manifest.get("code_commit", "unknown"),
        code_dirty=bool(manifest.get("code_dirty", False)),
        versions={
            name: c.get("generator_version", manifest.get("generator_version", "unknown"))
            for name, c in manifest["configs"].items()
        },
        code_repository=manifest.get("code_repository") or code_repository(),
    )


@dataclass
class SplitOutput:
    name: str
    num_examples: int
    num_bytes: int
    files: list[dict[str, Any]]  # {"path", "rows", "bytes", "sha256"}
    rows_sha256: str  # sha256 over the rows' sha256 values, one per line
    jsonl_sha256: str  # sha256 of the split as canonical JSONL (= ``python -m generators ...`` output)
    counts: dict[str, int]  # rows per "family/dN" (when the config has those columns)


def _builder_params(params: Mapping[str, Any], spec: ConfigSpec) -> dict[str, Any]:
    """Config-field overrides for ``make_builder`` from recorded params (lists back to tuples, fixed ones dropped)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in params.items() if k not in spec.fixed}


def generate_tables(
    name: str, params: Mapping[str, Any], cache_dir: str | Path, num_proc: int | None = None
) -> dict[str, pa.Table]:
    """The config's splits as Arrow tables, through the ``datasets`` builder (split sizes checked there)."""
    import datasets

    from builder.mira_elenchos import make_builder

    spec = get_spec(name)
    builder = make_builder(name, cache_dir=str(cache_dir), **_builder_params(params, spec))
    if builder.params != dict(params):
        raise ValueError(f"{name}: parameters {dict(params)} do not round-trip through the builder config")
    try:
        builder.download_and_prepare(num_proc=num_proc, verification_mode=datasets.VerificationMode.BASIC_CHECKS)
    except datasets.exceptions.DatasetGenerationError as exc:
        raise GenerationFailed(f"{name}: {exc.__cause__ or exc}") from exc
    out = {}
    for split in spec.splits:
        table = builder.as_dataset(split=split).data.table
        out[split] = table.combine_chunks()
    return out


def _schema_metadata(spec: ConfigSpec) -> dict[bytes, bytes]:
    from builder.mira_elenchos import row_features

    info = {"info": {"features": row_features(spec).to_dict()}}
    return {b"huggingface": json.dumps(info, separators=(",", ":")).encode()}


def write_parquet(table: pa.Table, path: Path, spec: ConfigSpec) -> None:
    table = table.replace_schema_metadata(_schema_metadata(spec))
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_writer(path, "wb") as f:
        _write_table(table, f)


def _write_table(table: pa.Table, sink: Any) -> None:
    pq.write_table(
        table,
        sink,
        row_group_size=ROW_GROUP_ROWS,
        compression=COMPRESSION,
        use_dictionary=True,
        write_statistics=True,
        version="2.6",
        data_page_version="1.0",
        store_schema=True,
    )


def _split_summary(spec: ConfigSpec, table: pa.Table) -> tuple[str, str, dict[str, int]]:
    rows_h, jsonl_h = hashlib.sha256(), hashlib.sha256()
    counts: dict[str, int] = {}
    has_counts = {"family", "difficulty"} <= set(spec.shape)
    has_type = "type" in spec.shape
    for batch in table.to_batches(max_chunksize=1000):
        for row in batch.to_pylist():
            rows_h.update((row["sha256"] + "\n").encode())
            jsonl_h.update((dumps(decode(spec.shape, row)) + "\n").encode())
            if has_counts:
                key = f"{row['family']}/d{row.get('requested_difficulty', row['difficulty'])}"
                if has_type:
                    key = f"{row['type']}/{key}"
                counts[key] = counts.get(key, 0) + 1
    return rows_h.hexdigest(), jsonl_h.hexdigest(), counts


def write_config(
    folder: Path, name: str, params: Mapping[str, Any], cache_dir: Path, num_proc: int | None
) -> dict[str, SplitOutput]:
    spec = get_spec(name)
    tables = generate_tables(name, params, cache_dir, num_proc)
    outputs = {}
    for split, table in tables.items():
        n = table.num_rows
        n_files = max(1, -(-n // ROWS_PER_FILE))
        files = []
        for i in range(n_files):
            part = table.slice(i * ROWS_PER_FILE, ROWS_PER_FILE).combine_chunks()
            rel = f"{name}/{split}-{i:05d}-of-{n_files:05d}.parquet"
            write_parquet(part, folder / rel, spec)
            files.append(
                {
                    "path": rel,
                    "rows": part.num_rows,
                    "bytes": (folder / rel).stat().st_size,
                    "sha256": sha256_of(folder, rel),
                }
            )
        rows_sha, jsonl_sha, counts = _split_summary(spec, table)
        outputs[split] = SplitOutput(split, n, table.nbytes, files, rows_sha, jsonl_sha, counts)
    return outputs


def manifest_dict(plan: Plan, results: Mapping[str, Mapping[str, SplitOutput]]) -> dict[str, Any]:
    configs = {}
    for name, params in plan.configs.items():
        spec = get_spec(name)
        configs[name] = {
            "benchmark": spec.benchmark,
            "generator_version": plan.versions[name],
            "params": params,
            "splits": {
                split: {
                    "num_examples": out.num_examples,
                    "num_bytes": out.num_bytes,
                    "rows_sha256": out.rows_sha256,
                    "jsonl_sha256": out.jsonl_sha256,
                    "files": out.files,
                    **({"counts": out.counts} if out.counts else {}),
                }
                for split, out in results[name].items()
            },
        }
    manifest = {
        "format": FORMAT,
        "generator_versions": {},
        "code_repository": plan.code_repository,
        "code_commit": plan.code_commit,
        "code_dirty": plan.code_dirty,
        "writer": writer_info(),
        "row_sha256": "sha256 of the record's canonical JSON line (generators.jsonl.dumps, UTF-8, no newline)",
        "configs": configs,
        "skipped": plan.skipped,
    }
    manifest["generator_versions"] = generator_versions(manifest)
    return manifest


def write_checksums(folder: Path) -> None:
    lines = []
    for path in sorted(p for p in data_files(folder) if p != CHECKSUMS):
        lines.append(f"{sha256_of(folder, path)}  {path}\n")
    atomic_write(folder / CHECKSUMS, "".join(lines))


def data_files(folder: Path) -> list[str]:
    """Every file of an export folder as a POSIX relative path (hidden files and folders excluded; a link is
    listed, never followed)."""
    return untrusted.data_files(Path(folder))


def build(
    plan: Plan,
    out: str | Path,
    *,
    num_proc: int | None = None,
    card: str | Path | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Write the export of ``plan`` into the new folder ``out``; return the manifest."""
    import datasets

    from builder.card import render_readme

    out = Path(out)
    if out.exists():
        raise FileExistsError(f"{out} exists")
    problems = plan.version_problems()
    if problems:
        raise ValueError("the plan was made with other generator code: " + "; ".join(problems))
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent if out.parent.exists() else None))
    try:
        folder, cache = tmp / "export", tmp / "cache"
        folder.mkdir()
        results = {}
        for name, params in plan.configs.items():
            log(f"generating {name} {json.dumps(params)}")
            results[name] = write_config(folder, name, params, cache, num_proc)
        for name, reason in plan.skipped.items():
            log(f"skipping {name}: {reason}")
        manifest = manifest_dict(plan, results)
        atomic_write(folder / MANIFEST, json.dumps(manifest, indent=2) + "\n")
        atomic_write(folder / README, render_readme(manifest, card))
        write_checksums(folder)
        out.parent.mkdir(parents=True, exist_ok=True)
        os.replace(folder, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return manifest


def export(
    out: str | Path,
    *,
    configs: Iterable[str] | None = None,
    num_proc: int | None = None,
    code_commit: str | None = None,
    code_repo: str | None = None,
    force: bool = False,
    card: str | Path | None = None,
    log: Callable[[str], None] = print,
    **overrides: Any,
) -> dict[str, Any]:
    """``python -m builder export``: plan from the arguments, then ``build``; ``force`` replaces ``out``.

    One writer per export folder: the folder is built in a staging folder and renamed into place, so the lock
    cannot live inside it; it is ``PARENT/.NAME.lock`` beside it (``generators.safefs.FolderLock``), held from
    before the existence check to after the rename. A second export to the same folder gets ``ExportBusy``
    naming the holder's pid; the kernel drops the lock when the holder dies (``kill -9`` included)."""
    out = Path(out)
    check_counts(overrides)
    out.parent.mkdir(parents=True, exist_ok=True)
    lock = FolderLock(out.parent, f".{out.name}.lock")
    try:
        lock.acquire()
    except FolderBusy as exc:
        holder = f"process {exc.pid}" if exc.pid else "another process"
        raise ExportBusy(f"{out}: another export is writing it ({holder}); wait for it or use another --out") \
            from None
    except (OSError, UnsafePath) as exc:  # the lock file is a link or not a regular file
        raise ExportBusy(f"{out}: cannot take the export lock {lock.folder / lock.name} "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    try:
        return _export_locked(out, configs, num_proc, code_commit, code_repo, force, card, log, overrides)
    finally:
        lock.release()


def _export_locked(out: Path, configs: Iterable[str] | None, num_proc: int | None, code_commit: str | None,
                   code_repo: str | None, force: bool, card: str | Path | None, log: Callable[[str], None],
                   overrides: dict[str, Any]) -> dict[str, Any]:
    replace = out.exists() or out.is_symlink()
    if replace:
        if out.is_symlink() or not out.is_dir():
            raise FileExistsError(f"{out} exists and is not an export folder (a link or a file); refusing to touch it")
        if not force:
            raise FileExistsError(f"{out} exists (use --force to replace it)")
        if not (out / MANIFEST).exists() and any(out.iterdir()):
            raise FileExistsError(f"{out} is not an export folder (no {MANIFEST}); refusing to replace it")
    plan = make_plan(configs, code_commit=code_commit, code_repo=code_repo, **overrides)
    if not plan.configs:
        raise ValueError("nothing to export: " + "; ".join(f"{k}: {v}" for k, v in plan.skipped.items()))
    if not replace:
        return build(plan, out, num_proc=num_proc, card=card, log=log)
    # Build next to the old export and swap only when the new one is complete.
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new.", dir=out.parent)) / out.name
    try:
        manifest = build(plan, staging, num_proc=num_proc, card=card, log=log)
        shutil.rmtree(out)
        os.replace(staging, out)
    finally:
        shutil.rmtree(staging.parent, ignore_errors=True)
    return manifest
