"""Read a MIRA-Math dataset for a run: checksum, light structural checks, clear errors.

The dataset is a JSONL file, or a config of an export folder (``python -m builder export``) or of a Hub
release (``ORG/NAME`` with ``--config`` and ``--revision``), read through ``datasets`` (cached) and turned
back into the exact JSONL records by ``builder.rows``; such a dataset's ``sha256`` is that of its canonical
JSONL, the same as the generator's file, and ``source`` records the resolved revision and checksums.

Full validation (schema, exact answers, the three well-posedness checks) is ``python -m verifiers
validate``; here we check only what the loop and the scorer rely on, fast enough to run on every start,
and report every problem as ``FILE:LINE [id]: message``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.answers import ANSWER_TYPES, decode_answer
from generators.families import FAMILIES
from generators.instances import MAX_K
from generators.sources import MIRA, wrong_kind
from harness.errors import HarnessError, InputError, InputErrors
from verifiers.jsonl import parse_json_line


@dataclass
class Dataset:
    path: str
    sha256: str
    instances: list[dict[str, Any]]
    line_of: dict[str, int]
    total_lines: int
    source: dict[str, Any] | None = None  # export folder / Hub release: config, resolved revision, checksums

    @property
    def has_few_shot(self) -> bool:
        return bool(self.instances) and all(inst.get("few_shot_examples") for inst in self.instances)

    def generator_versions(self) -> list[str]:
        return sorted({str(inst.get("generator_version", "unknown")) for inst in self.instances})

    def view_variants(self) -> list[str]:
        """The view variants of the instances (``default``, ``slot_notice``); empty for records made before them."""
        return sorted({inst["view_variant"] for inst in self.instances if isinstance(inst.get("view_variant"), str)})

    def dataset_seeds(self) -> list[int]:
        """The split seeds recorded in the instances (one for a generated split)."""
        return sorted({inst["dataset_seed"] for inst in self.instances if isinstance(inst.get("dataset_seed"), int)})

    def seed_digest(self) -> str:
        """sha256 over the per-instance seeds, in file order (the run's seed set)."""
        seeds = ",".join(str(inst.get("seed")) for inst in self.instances)
        return hashlib.sha256(seeds.encode()).hexdigest()


DEFAULT_CONFIG = "mira_zero_shot"


def load_dataset(path: str | Path, limit: int | None = None, config: str | None = None,
                 revision: str | None = None) -> Dataset:
    """The first ``limit`` instances of ``path`` (all by default); ``InputErrors`` lists every bad line."""
    source = None
    problem = wrong_kind(path, MIRA, "--dataset")
    if problem:
        raise HarnessError(problem)
    if _is_release(str(path)):
        source, data, label = _release_jsonl(str(path), config or DEFAULT_CONFIG, revision)
        path = Path(label)
    else:
        if config or revision:
            raise HarnessError(f"{path}: --config and --revision need an export folder or a Hub repo id, "
                               "not a JSONL file")
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise HarnessError(f"{path}: cannot read dataset: {exc.strerror or exc}") from None
    dataset = _parse_dataset(path, data, limit)
    dataset.source = source
    return dataset


def _is_release(path: str) -> bool:
    if Path(path).is_file():
        return False
    try:
        from builder.rows import is_release_source
    except ImportError:  # no hf extra: a folder still gets a clear message from _release_jsonl
        return Path(path).is_dir()
    return is_release_source(path)


def _release_jsonl(path: str, config: str, revision: str | None) -> tuple[dict[str, Any], bytes, str]:
    """(provenance, canonical JSONL bytes, a label for messages) of an export folder's or Hub release's config."""
    try:
        from builder.registry import canonical_config
        from builder.rows import RowsError, load_records
        from generators.jsonl import dumps
    except ImportError as exc:  # the hf extra (datasets, pyarrow) is not installed
        raise HarnessError(f"{path}: reading an export folder or Hub repo needs the hf extra ({exc})") from None
    config = canonical_config(config)
    if config.startswith("elenchos_"):
        raise HarnessError(f"--config {config} is an Elenchos config; MIRA-Math's are mira_zero_shot and "
                           f"mira_four_shot (run it with run_eval.py elenchos --sessions {path} --config {config})")
    try:
        loaded = load_records(path, config, revision=revision)
    except (RowsError, KeyError) as exc:
        raise HarnessError(str(exc.args[0] if exc.args else exc)) from None
    data = "".join(dumps(r) + "\n" for r in loaded.records).encode("utf-8")
    label = f"{path}:{config}" + (f"@{revision}" if revision else "")
    return loaded.provenance, data, label


def _parse_dataset(path: Path, data: bytes, limit: int | None) -> Dataset:
    errors: list[InputError] = []
    instances: list[dict[str, Any]] = []
    line_of: dict[str, int] = {}
    lines = data.split(b"\n")
    for lineno, raw in enumerate(lines, start=1):
        if limit is not None and len(instances) >= limit:
            break
        if not raw.strip():
            continue
        record = _parse_line(str(path), lineno, raw, errors)
        if record is None:
            continue
        problem = instance_problem(record)
        if problem is not None:
            errors.append(InputError(str(path), lineno, problem, _rid(record)))
            continue
        if record["id"] in line_of:
            errors.append(InputError(str(path), lineno, f"duplicate id (first on line {line_of[record['id']]})",
                                     record["id"]))
            continue
        line_of[record["id"]] = lineno
        instances.append(record)
    if errors:
        raise InputErrors(errors)
    if not instances:
        raise HarnessError(f"{path}: no instances")
    return Dataset(str(path), hashlib.sha256(data).hexdigest(), instances, line_of, len(lines))


def _parse_line(path: str, lineno: int, raw: bytes, errors: list[InputError]) -> dict[str, Any] | None:
    record, problem = parse_json_line(raw)
    if problem is not None:
        errors.append(InputError(path, lineno, problem))
        return None
    if not isinstance(record, dict):
        errors.append(InputError(path, lineno, "a line must be a JSON object (one instance)"))
        return None
    return record


def _rid(record: dict[str, Any]) -> str | None:
    rid = record.get("id")
    return rid if isinstance(rid, str) else None


def instance_problem(inst: dict[str, Any]) -> str | None:
    """The first structural problem the harness cannot work around, or None."""
    for key, kind in (("id", str), ("family", str), ("type", str), ("difficulty", int), ("answer_type", str),
                      ("answer_keys", list), ("global_solution", dict), ("question", str),
                      ("request_budget", int), ("agent_views", list), ("minimal_hint_spec", dict)):
        if not isinstance(inst.get(key), kind):
            return f"field {key!r} is missing or not a {kind.__name__}"
    if inst["family"] not in FAMILIES:
        return f"unknown family {inst['family']!r} (known: {', '.join(FAMILIES)})"
    if inst["answer_type"] not in ANSWER_TYPES:
        return f"unknown answer_type {inst['answer_type']!r}"
    try:
        decode_answer(inst["answer_type"], inst["global_solution"], inst["answer_keys"])
    except (ValueError, KeyError, TypeError) as exc:
        return f"global_solution does not match answer_type {inst['answer_type']!r}: {exc}"
    return _views_problem(inst) or _hint_problem(inst) or _few_shot_problem(inst)


def _views_problem(inst: dict[str, Any]) -> str | None:
    agents = {v.get("agent_id"): v for v in inst["agent_views"] if isinstance(v, dict)}
    for agent in ("A", "B"):
        data = agents.get(agent, {}).get("private_data")
        if not isinstance(data, dict):
            return f"agent_views: no private_data for agent {agent}"
        for key in ("constraints_text", "constraints_machine", "unknowns"):
            if not isinstance(data.get(key), list):
                return f"agent_views[{agent}].private_data.{key} is missing or not a list"
    return None


def _hint_problem(inst: dict[str, Any]) -> str | None:
    """Every withheld fact (one, or two in the hard tier) has what the responder and the scorer read."""
    hints = inst["minimal_hint_spec"].get("atomic_hints")
    if not isinstance(hints, list) or not hints or not all(isinstance(h, dict) for h in hints):
        return "minimal_hint_spec.atomic_hints must hold one hint, or one per withheld fact"
    k = inst["minimal_hint_spec"].get("k_min", 1)
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        return f"minimal_hint_spec.k_min is {k!r}: an instance withholds 1 to {MAX_K} facts"
    if k != len(hints):
        return f"minimal_hint_spec.k_min is {k!r}, but there are {len(hints)} atomic hints"
    for i, hint in enumerate(hints):
        if k > 1 and hint.get("hint_id") != f"h{i + 1}":
            return f"minimal_hint_spec.atomic_hints[{i}].hint_id is {hint.get('hint_id')!r}, not h{i + 1}"
        for key, kind in (("slot", str), ("text", str), ("constraint", dict), ("request_aliases", list)):
            if not isinstance(hint.get(key), kind):
                return f"minimal_hint_spec.atomic_hints[{i}].{key} is missing or not a {kind.__name__}"
        if not hint["request_aliases"]:
            return f"minimal_hint_spec.atomic_hints[{i}].request_aliases is empty"
    return None


def _few_shot_problem(inst: dict[str, Any]) -> str | None:
    examples = inst.get("few_shot_examples")
    if examples is not None and not (isinstance(examples, list) and all(isinstance(e, dict) for e in examples)):
        return "few_shot_examples must be a list of objects"
    for i, ex in enumerate(examples or ()):
        requests, hints = ex.get("requests"), ex.get("hints")
        if (requests is not None or hints is not None) and not (
                isinstance(requests, list) and isinstance(hints, list) and len(requests) == len(hints) > 0):
            return f"few_shot_examples[{i}]: requests and hints must be lists of the same length (one per fact)"
    return None
