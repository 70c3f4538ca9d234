"""What ``verify`` compares an export with: its rows regenerated once, in worker processes, never written.

Each config's splits are cut into contiguous chunks of rows (``records(params, split, start, stop)`` of the
registry), and a pool of processes regenerates the chunks; each row comes back as the sha256 of its canonical
form (the Parquet row of ``record_to_row`` as one canonical JSON line, its ``sha256`` column included) and as
its record's canonical JSON line. The chunks are put back in order, so the result does not depend on the number
of processes. The same pool reads the export's Parquet files and hashes their rows the same way, and writes
each file's rows again with this code's writer, to tell whether the file's bytes are the ones an export made
here would have.

Two rows with the same digest are the same row (the same assumption as the manifest's ``rows_sha256``), so
comparing digests is comparing the regenerated Parquet files row by row, without the cost of building them.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

# Imported here, before any worker is forked, so that the workers inherit them (``datasets`` takes a second).
from builder import untrusted
from builder.export import write_parquet
from builder.mira_elenchos import record_to_row, row_features
from builder.registry import get_spec
from builder.shape import encode
from generators.jsonl import dumps, sha256_file
from generators.limits import available_cpus

MIN_CHUNK_ROWS = 64  # a chunk smaller than this costs more in process traffic than it saves
SMALL_SPLIT_ROWS = 1000  # splits smaller than this are regenerated together, in the first task
CHUNKS_PER_PROCESS = 8  # enough chunks that the processes finish together


def row_digest(row: Mapping[str, Any]) -> bytes:
    """sha256 of a Parquet row (as ``pyarrow``'s ``to_pylist`` gives it) as one canonical JSON line."""
    return hashlib.sha256(dumps(row).encode("utf-8")).digest()


def parquet_path(config: str, split: str, index: int, n_files: int) -> str:
    """The path of one Parquet file of an export (``mira_zero_shot/test-00000-of-00001.parquet``)."""
    return f"{config}/{split}-{index:05d}-of-{n_files:05d}.parquet"


def parquet_layout(config: str, split: str, rows: int, rows_per_file: int) -> list[tuple[str, int, int]]:
    """(path, first row, end row) of each Parquet file of a split, as ``builder.export`` writes them."""
    n_files = max(1, -(-rows // rows_per_file))
    return [(parquet_path(config, split, i, n_files), i * rows_per_file, min(rows, (i + 1) * rows_per_file))
            for i in range(n_files)]


@dataclass
class RegeneratedSplit:
    """One split regenerated: a digest per row and the manifest's summaries of it."""

    num_examples: int
    row_digests: list[bytes]
    rows_sha256: str  # sha256 over the rows' sha256 values, one per line (the manifest's rows_sha256)
    jsonl_sha256: str  # sha256 of the split as canonical JSONL
    counts: dict[str, int]  # rows per "family/dN" (per "type/family/dN"), when the config has those columns


@dataclass
class StoredFile:
    """One Parquet file of the export: its rows' digests, or why they could not be read."""

    problem: str | None = None
    row_digests: list[bytes] = field(default_factory=list)
    same_bytes: bool = False  # this code's writer gives the file's bytes for its rows


@dataclass(frozen=True)
class _Chunk:
    config: str
    params: Mapping[str, Any]
    split: str
    start: int
    stop: int


@dataclass
class _ChunkRows:
    """One chunk regenerated: the split's true row count, and per row its digest, record sha256 and JSONL line."""

    count: int
    digests: list[bytes]
    shas: list[str]
    jsonl: bytes
    counts: dict[str, int]


def _regenerate_chunks(chunks: list[_Chunk]) -> list[_ChunkRows]:
    return [_regenerate_chunk(chunk) for chunk in chunks]


def _regenerate_chunk(chunk: _Chunk) -> _ChunkRows:
    """The chunk's rows (those of ``start .. stop-1`` that the split really has)."""
    spec = get_spec(chunk.config)
    count = spec.resolve("count")(chunk.params, chunk.split)
    stop = min(chunk.stop, count)
    has_counts, has_type = {"family", "difficulty"} <= set(spec.shape), "type" in spec.shape
    out = _ChunkRows(count, [], [], b"", {})
    lines = []
    for record in spec.resolve("records")(chunk.params, chunk.split, chunk.start, stop):
        line = dumps(record)
        row = encode(spec.shape, record)
        row["sha256"] = hashlib.sha256(line.encode("utf-8")).hexdigest()  # = record_sha256(record)
        out.digests.append(row_digest(row))
        out.shas.append(row["sha256"])
        lines.append(line + "\n")
        if has_counts:
            key = f"{record['family']}/d{record.get('requested_difficulty', record['difficulty'])}"
            key = f"{record['type']}/{key}" if has_type else key
            out.counts[key] = out.counts.get(key, 0) + 1
    if len(out.digests) != max(0, stop - chunk.start):
        raise RuntimeError(f"{chunk.config}: records({chunk.start}, {stop}) yielded {len(out.digests)} rows, "
                           f"not {stop - chunk.start}")
    out.jsonl = "".join(lines).encode("utf-8")
    return out


def read_stored_file(folder: Path, rel: str, config: str) -> StoredFile:
    """The digests of a Parquet file's rows (same form as the regenerated ones) and whether its bytes are ours.

    The file is opened inside ``folder`` only (``builder.untrusted.open_data``: no link out, regular, bounded)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = get_spec(config)
    try:
        with untrusted.open_data(folder, rel, rel) as f:
            table = pq.read_table(f)
    except untrusted.ExportError as exc:
        return StoredFile(problem=str(exc).removeprefix(f"{rel}: "))
    except (OSError, pa.ArrowException) as exc:
        return StoredFile(problem=f"not a readable Parquet file ({exc})")
    expected = row_features(spec).arrow_schema
    if table.schema.remove_metadata() != expected:
        return StoredFile(problem="schema differs from the regenerated file")
    digests = [row_digest(row) for batch in table.to_batches(max_chunksize=1000) for row in batch.to_pylist()]
    # Parquet names a list's items "element", ``datasets`` "item": cast back before writing as an export does.
    with tempfile.TemporaryDirectory(prefix=".verify-") as tmp:
        ours = Path(tmp) / "ours.parquet"
        write_parquet(table.cast(expected).combine_chunks(), ours, spec)
        same = sha256_file(ours) == untrusted.sha256_of(folder, rel)
    return StoredFile(row_digests=digests, same_bytes=same)


def _tasks(configs: Mapping[str, Mapping[str, Any]], rows: Mapping[tuple[str, str], int], processes: int
           ) -> list[list[_Chunk]]:
    """The first task: every split of fewer than ``SMALL_SPLIT_ROWS`` rows (they are quick, and what they share,
    such as the Elenchos family, is then computed by one process); then the larger splits, in chunks of about
    ``rows / (processes * CHUNKS_PER_PROCESS)`` rows, one task each."""
    large = sum(n for n in rows.values() if n >= SMALL_SPLIT_ROWS)
    step = max(MIN_CHUNK_ROWS, -(-large // (processes * CHUNKS_PER_PROCESS)))
    small = [_Chunk(name, configs[name], split, 0, n) for (name, split), n in rows.items() if n < SMALL_SPLIT_ROWS]
    tasks = [[_Chunk(name, configs[name], split, a, min(a + step, n))]
             for (name, split), n in rows.items() if n >= SMALL_SPLIT_ROWS for a in range(0, n, step)]
    return ([small] if small else []) + tasks


class Regeneration:
    """Started at once in a pool of processes (``with Regeneration(...) as r``), collected by ``results()``.

    ``configs``: {name: params}; ``rows``: {(name, split): row count} as the manifest says (the true counts come
    back with the rows, and only the rows that exist are generated); ``stored``: (path inside the folder, folder,
    config) of the Parquet files to read. ``processes`` (default: the CPUs this process may use) never changes the
    result; ``progress``: a bar of rows on stderr (None: on for a terminal)."""

    def __init__(self, configs: Mapping[str, Mapping[str, Any]], rows: Mapping[tuple[str, str], int],
                 stored: Iterable[tuple[str, Path, str]] = (), *, processes: int | None = None,
                 progress: bool | None = None, desc: str = "verify") -> None:
        self.configs, self.rows, self.stored = dict(configs), dict(rows), list(stored)
        self.processes = available_cpus() if processes is None else max(1, processes)
        self.progress, self.desc = progress, desc

    def __enter__(self) -> Regeneration:
        tasks = _tasks(self.configs, self.rows, self.processes)
        self._pool = _executor(self.processes, len(tasks) + len(self.stored))
        disable = True if self.progress is False else (None if self.progress is None else False)
        self._bar = tqdm(total=sum(self.rows.values()), unit="row", desc=self.desc, disable=disable,
                         file=sys.stderr, mininterval=0.5)
        # The longest work first and small chunks last, so that the processes finish together: the first task
        # (the small configs and what they share), then the files to read, then the chunks.
        self._tasks = [(tasks[0], self._pool.submit(_regenerate_chunks, tasks[0]))] if tasks else []
        self._files = {key: self._pool.submit(read_stored_file, folder, key, config)
                       for key, folder, config in self.stored}
        self._tasks += [(task, self._pool.submit(_regenerate_chunks, task)) for task in tasks[1:]]
        for task, future in self._tasks:
            rows = sum(c.stop - c.start for c in task)
            future.add_done_callback(lambda _f, n=rows: self._bar.update(n))
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._bar.close()

    def results(self) -> tuple[dict[str, dict[str, RegeneratedSplit]], dict[str, StoredFile]]:
        """The regenerated splits (with their true row counts) and the stored files, by key."""
        done = [(chunk, rows) for task, future in self._tasks for chunk, rows in zip(task, future.result(),
                                                                                        strict=True)]
        return _assemble(done, self.rows), {key: f.result() for key, f in self._files.items()}


def _assemble(done: list[tuple[_Chunk, _ChunkRows]], rows: Mapping[tuple[str, str], int]
              ) -> dict[str, dict[str, RegeneratedSplit]]:
    out: dict[str, dict[str, RegeneratedSplit]] = {}
    for name, split in rows:
        parts = sorted(((c, r) for c, r in done if (c.config, c.split) == (name, split)), key=lambda p: p[0].start)
        rows_h, jsonl_h = hashlib.sha256(), hashlib.sha256()
        digests: list[bytes] = []
        counts: dict[str, int] = {}
        for _, part in parts:
            digests += part.digests
            rows_h.update("".join(s + "\n" for s in part.shas).encode())
            jsonl_h.update(part.jsonl)
            for key, n in part.counts.items():
                counts[key] = counts.get(key, 0) + n
        true_count = parts[0][1].count if parts else 0
        out.setdefault(name, {})[split] = RegeneratedSplit(true_count, digests, rows_h.hexdigest(),
                                                           jsonl_h.hexdigest(), counts)
    return out


class _InProcess(Executor):
    """The executor for one process: each call runs at once, here."""

    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller by result(), as a pool would
            future.set_exception(exc)
        return future


def _executor(processes: int, tasks: int) -> Executor:
    if processes <= 1 or tasks <= 1:
        return _InProcess()
    from elenchos.observations import worker_pool

    return worker_pool(min(processes, tasks))


def first_mismatch(a: list[bytes], b: list[bytes]) -> int | None:
    """The first index where two digest lists differ (the shorter one's length if one is a prefix), or None."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def regenerated_row(config: str, params: Mapping[str, Any], split: str, index: int) -> dict[str, Any]:
    """One regenerated Parquet row (to name the columns that differ)."""
    spec = get_spec(config)
    record = next(iter(spec.resolve("records")(params, split, index, index + 1)))
    return record_to_row(spec, record)


def stored_rows(folder: Path, rel: str) -> Iterator[dict[str, Any]]:
    import pyarrow.parquet as pq

    with untrusted.open_data(folder, rel, rel) as f:
        table = pq.read_table(f)
    for batch in table.to_batches(max_chunksize=1000):
        yield from batch.to_pylist()
