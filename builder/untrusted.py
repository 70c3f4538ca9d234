"""Export folders from elsewhere (a download, a colleague's folder): read only inside them, check before use.

Every reader of an export folder (``verify``, ``to-jsonl``, ``publish``, ``run_eval.py --dataset FOLDER``) goes
through here, so one set of rules holds for all of them:

* **Names stay inside.** A path named by ``manifest.json``, ``CHECKSUMS`` or the card's ``data_files`` is a
  relative POSIX path without ``.``/``..`` parts; resolved, it must stay inside the folder (a link out is
  refused), and the file itself must be a regular file, not a link (``generators.safefs.open_regular``), of at
  most the size limit below. A FIFO, a device or a link to ``/dev/zero`` is refused before a byte is read.
* **Records are checked before use.** ``manifest.json`` is bounded JSON (``verifiers.safejson``: depth 64, no
  duplicate keys) whose every field has its type; config and split names are plain names; the generation
  parameters have their types and ask for at most ``MAX_ROWS`` rows per config (so a full ``verify`` never
  starts a generation it could not finish). The card's YAML front matter is parsed without aliases and its
  ``data_files`` checked as paths; a Parquet file must have the config's schema before its rows are read.
* **Data only.** A ``*.py`` file at the top of the folder (a ``datasets`` loading script) is refused.

Every refusal is an ``ExportError``: one line naming the file and the field.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from generators.limits import MAX_INSTANCES, repetitions_problem
from generators.safefs import UnsafePath, inside, open_or_refuse

MANIFEST, CHECKSUMS, README = "manifest.json", "CHECKSUMS", "README.md"

MAX_MANIFEST_BYTES = 16 << 20  # the default export's manifest is about 10 KB
MAX_CHECKSUMS_BYTES = 4 << 20
MAX_CARD_BYTES = 4 << 20  # the default card is about 35 KB
MAX_DATA_FILE_BYTES = 1 << 30  # one Parquet file (at most 50,000 rows; the default ones are under 1 MB)
MAX_FILES = 10_000  # files named by one manifest or CHECKSUMS
MAX_ROWS = MAX_INSTANCES  # rows of one config: what export makes and what a full verify regenerates

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")  # a config or split name: never a path
HEX64 = re.compile(r"^[0-9a-f]{64}$")
COUNT_KEY = re.compile(r"^([A-Za-z]/)?[A-Za-z0-9_]{1,100}/d[0-9]{1,3}$")  # a split's ``counts`` key


class ExportError(ValueError):
    """An export folder that cannot be read safely or is malformed (one line: file, field, what is wrong)."""


# ------------------------------------------------------------------------------------------------ paths
def checked_path(folder: Path, rel: Any, where: str) -> Path:
    """``folder / rel`` for a name read from the folder: relative, no ``..``, inside the folder once resolved."""
    if not isinstance(rel, str) or not rel:
        raise ExportError(f"{where}: a path must be a non-empty string, got {_kind(rel)}")
    parts = rel.split("/")
    if rel.startswith("/") or "\\" in rel or "\0" in rel or ":" in parts[0] or any(p in ("", ".", "..")
                                                                                   for p in parts):
        raise ExportError(f"{where}: {rel[:200]!r} is not a relative path inside the folder")
    try:
        inside(folder, rel)
    except UnsafePath:
        raise ExportError(f"{where}: {rel[:200]!r} leads outside the folder (a link?)") from None
    except (OSError, RuntimeError) as exc:  # a link loop
        raise ExportError(f"{where}: {rel[:200]!r} cannot be resolved ({exc})") from None
    return folder / rel


def open_data(folder: Path, rel: str, where: str, max_bytes: int = MAX_DATA_FILE_BYTES) -> IO[bytes]:
    """A regular file of the folder, opened for reading (refused: outside, a link, not regular, too large)."""
    path = checked_path(folder, rel, where)
    return open_or_refuse(path, max_bytes, ExportError, name=where if where == rel else f"{where}: {rel}")


def read_bytes(folder: Path, rel: str, max_bytes: int, where: str | None = None) -> bytes:
    with open_data(folder, rel, where or rel, max_bytes) as f:
        return f.read(max_bytes + 1)[:max_bytes]


def read_text(folder: Path, rel: str, max_bytes: int) -> str:
    return utf8(read_bytes(folder, rel, max_bytes), rel)


def utf8(data: bytes, rel: str) -> str:
    """``data`` (the bytes of ``rel``) as text, or an ``ExportError`` naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExportError(f"{rel}: not UTF-8 text (byte {exc.start})") from None


def sha256_of(folder: Path, rel: str, where: str | None = None) -> str:
    h = hashlib.sha256()
    with open_data(folder, rel, where or rel) as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def data_files(folder: Path) -> list[str]:
    """Every file of the folder as a relative POSIX path (hidden names skipped; links listed, never followed)."""
    out: list[str] = []
    stack = [Path(folder)]
    while stack:
        current = stack.pop()
        try:
            entries = sorted(current.iterdir())
        except OSError as exc:
            raise ExportError(f"{current}: cannot list ({exc.strerror or exc})") from None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir() and not entry.is_symlink():
                stack.append(entry)
            else:
                out.append(entry.relative_to(folder).as_posix())
            if len(out) > MAX_FILES:
                raise ExportError(f"{folder}: more than {MAX_FILES} files; not an export folder")
    return sorted(out)


def refuse_scripts(folder: Path) -> None:
    """A ``*.py`` at the top of the folder would be a ``datasets`` loading script: an export holds data only."""
    scripts = sorted(entry.name for entry in folder.glob("*.py"))
    if scripts:
        raise ExportError(f"{scripts[0]}: a loading script in the export folder (export folders hold data only; "
                          "remove it)")


# ------------------------------------------------------------------------------------------------ manifest
def read_manifest(folder: Path) -> dict[str, Any]:
    """``manifest.json`` read within its limits and validated (``ExportError`` naming the field)."""
    return parse_manifest(read_text(folder, MANIFEST, MAX_MANIFEST_BYTES))


def parse_manifest(text: str) -> dict[str, Any]:
    """``manifest.json``'s text parsed within its limits and validated (``ExportError`` naming the field)."""
    from verifiers.safejson import loads

    try:
        manifest = loads(text)
    except ValueError as exc:
        raise ExportError(f"{MANIFEST}: not valid JSON ({exc})") from None
    return validate_manifest(manifest)


def validate_manifest(manifest: Any, where: str = MANIFEST) -> dict[str, Any]:
    """Every field the builder reads, with its type; unknown configs keep their name checked only."""
    _want(manifest, dict, where, "(top level)")
    for key, kind in (("format", str), ("code_repository", str), ("code_commit", str), ("code_dirty", bool),
                      ("row_sha256", str), ("generator_version", str)):
        if key in manifest:
            _want(manifest[key], kind, where, key)
    for key in ("generator_versions", "skipped"):
        if key in manifest:
            _str_map(manifest[key], where, key)
    release = manifest.get("release")
    if release is not None:
        _want(release, dict, where, "release")
        for key in ("repo_id", "tag"):
            if release.get(key) is not None:
                _want(release[key], str, where, f"release.{key}")
    configs = manifest.get("configs")
    _want(configs, dict, where, "configs")
    for name in list(configs) + list(manifest.get("skipped", {})):
        if not NAME.match(name):
            raise ExportError(f"{where}: configs: {name[:100]!r} is not a config name")
    for name, config in configs.items():
        _validate_config(name, config, where)
    _want(manifest.get("writer"), dict, where, "writer")
    for key, value in manifest["writer"].items():
        _want(value, (str, int), where, f"writer.{key}")
    for key in ("pyarrow", "datasets"):  # the card names them
        _want(manifest["writer"].get(key), str, where, f"writer.{key}")
    return manifest


def _validate_config(name: str, config: Any, where: str) -> None:
    field = f"configs.{name}"
    if not (isinstance(config, dict) and isinstance(config.get("params"), dict)
            and isinstance(config.get("splits"), dict)):
        raise ExportError(f"{where}: {field}: config {name!r} must be an object with 'params' and 'splits' objects")
    for key in ("benchmark", "generator_version"):
        if key in config:
            _want(config[key], str, where, f"{field}.{key}")
    _validate_params(name, config["params"], where)
    for split, s in config["splits"].items():
        if not NAME.match(split):
            raise ExportError(f"{where}: {field}.splits: {split[:100]!r} is not a split name")
        _validate_split(s, where, f"{field}.splits.{split}")


def _validate_split(s: Any, where: str, field: str) -> None:
    _want(s, dict, where, field)
    for key in ("num_examples", "num_bytes"):
        _count(s.get(key), where, f"{field}.{key}", MAX_ROWS if key == "num_examples" else None)
    for key in ("rows_sha256", "jsonl_sha256"):
        if not (isinstance(s.get(key), str) and HEX64.match(s[key])):
            raise ExportError(f"{where}: {field}.{key}: must be a sha256 (64 hex digits)")
    if "counts" in s:
        _want(s["counts"], dict, where, f"{field}.counts")
        for key, value in s["counts"].items():
            if not COUNT_KEY.match(key):
                raise ExportError(f"{where}: {field}.counts: {key[:100]!r} is not 'family/dN' or 'type/family/dN'")
            _count(value, where, f"{field}.counts.{key}")
    files = s.get("files")
    _want(files, list, where, f"{field}.files")
    if len(files) > MAX_FILES:
        raise ExportError(f"{where}: {field}.files: more than {MAX_FILES} files")
    for i, f in enumerate(files):
        at = f"{field}.files[{i}]"
        _want(f, dict, where, at)
        _want(f.get("path"), str, where, f"{at}.path")
        _count(f.get("rows"), where, f"{at}.rows", MAX_ROWS)
        _count(f.get("bytes"), where, f"{at}.bytes")
        if f.get("sha256") is not None and not (isinstance(f["sha256"], str) and HEX64.match(f["sha256"])):
            raise ExportError(f"{where}: {at}.sha256: must be a sha256 (64 hex digits)")


PARAM_KINDS: dict[str, Any] = {"seed": int, "n_a": int, "n_b": int, "n_hard": int, "repetitions": int,
                               "few_shot": bool, "difficulties": list, "families": list}


def _validate_params(name: str, params: dict[str, Any], where: str) -> None:
    """The known config's parameters: the right keys and types, and at most ``MAX_ROWS`` rows per split."""
    from builder.registry import REGISTRY, get_spec

    get_spec("mira_zero_shot")  # load the registry
    spec = REGISTRY.get(name)
    if spec is None:
        return  # verify reports it as unknown to this code; nothing reads its parameters
    field = f"configs.{name}.params"
    allowed = set(spec.params) | set(spec.fixed)
    for key, value in params.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise ExportError(f"{where}: {field}.{key}: not a parameter of {name} (known: {known})")
        _want(value, PARAM_KINDS.get(key, (str, int, bool, list)), where, f"{field}.{key}")
    for key in spec.params:
        if key not in params and key != "families":
            raise ExportError(f"{where}: {field}.{key}: missing")
    if "seed" in params and not -(2**63) <= params["seed"] < 2**63:
        raise ExportError(f"{where}: {field}.seed: out of the 64-bit range")
    for key in ("n_a", "n_b", "n_hard"):
        if key in params:
            _count(params[key], where, f"{field}.{key}", MAX_ROWS)
    if "repetitions" in params:
        problem = repetitions_problem(params["repetitions"], f"{where}: {field}.repetitions")
        if problem is not None:
            raise ExportError(problem)
    if "difficulties" in params:
        d = params["difficulties"]
        if not d or len(d) > 3 or any(type(x) is not int or x not in (1, 2, 3) for x in d):
            raise ExportError(f"{where}: {field}.difficulties: must be a list of 1, 2, 3")
    if params.get("families") is not None:
        from generators.families import FAMILIES

        fams = params["families"]
        if len(fams) > len(FAMILIES) or any(not isinstance(f, str) or f not in FAMILIES for f in fams):
            raise ExportError(f"{where}: {field}.families: must be a list of known family names")
    rows = requested_rows(spec, params)
    if rows > MAX_ROWS:
        raise ExportError(f"{where}: {field}: asks for {rows:,} rows, more than the limit of {MAX_ROWS:,} per config")


def requested_rows(spec: Any, params: Mapping[str, Any]) -> int:
    """Rows the config's parameters ask for, computed without generating (or listing) anything."""
    if spec.benchmark == "mira" and "n_hard" in params:
        from generators.split import hard_slot_count

        return hard_slot_count(params["n_hard"], params.get("families") or None)
    if spec.benchmark == "mira":
        from generators.split import slot_count

        return slot_count(params.get("n_a", 0), params.get("n_b", 0), params.get("difficulties", (1, 2, 3)),
                          params.get("families"))
    if "repetitions" in params:
        return 100 * params["repetitions"]  # an upper bound: the Ladder has 69 sessions per repetition
    return 0


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _want(value: Any, kind: Any, where: str, field: str) -> None:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        wanted = " or ".join(_kind(k()) if k is not type(None) else "null" for k in kinds)
        raise ExportError(f"{where}: {field}: must be {wanted}, got {_kind(value)}")


def _count(value: Any, where: str, field: str, limit: int | None = None) -> None:
    _want(value, int, where, field)
    if value < 0 or (limit is not None and value > limit):
        bound = f"0 to {limit:,}" if limit is not None else "at least 0"
        raise ExportError(f"{where}: {field}: must be {bound}, got {value}")


def _str_map(value: Any, where: str, field: str) -> None:
    _want(value, dict, where, field)
    for key, item in value.items():
        _want(item, str, where, f"{field}.{key}")


# ------------------------------------------------------------------------------------------------ CHECKSUMS
def read_checksums(folder: Path) -> dict[str, str]:
    """``CHECKSUMS`` (``<sha256>  <path>`` lines) within its limits; every path checked to stay inside."""
    return parse_checksums(folder, read_text(folder, CHECKSUMS, MAX_CHECKSUMS_BYTES))


def parse_checksums(folder: Path, text: str) -> dict[str, str]:
    """``CHECKSUMS``'s text as {path: sha256}; every path checked to stay inside ``folder``."""
    out: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        digest, sep, path = line.partition("  ")
        if not sep or not HEX64.match(digest):
            raise ExportError(f"{CHECKSUMS}:{lineno}: expected '<sha256>  <path>'")
        checked_path(folder, path, f"{CHECKSUMS}:{lineno}")
        out[path] = digest
    return out


# ------------------------------------------------------------------------------------------------ the card
def card_metadata(folder: Path) -> dict[str, Any]:
    """The README's YAML front matter (``{}`` without a README), parsed without aliases, ``data_files`` checked."""
    if not (folder / README).exists() and not (folder / README).is_symlink():
        return {}
    text = read_text(folder, README, MAX_CARD_BYTES)
    if not text.startswith("---\n"):
        return {}
    end = text.find("\n---\n", 4)
    if end < 0:
        raise ExportError(f"{README}: front matter is not closed by a '---' line")
    meta = _safe_yaml(text[4:end])
    if meta is None:
        return {}
    _want(meta, dict, README, "front matter")
    check_data_files(folder, meta)
    return meta


MAX_YAML_DEPTH = 64


def _safe_yaml(text: str) -> Any:
    """YAML without aliases (no billion laughs) and with flow nesting of at most ``MAX_YAML_DEPTH`` levels, checked
    before the (recursive) composer sees it."""
    import yaml

    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_YAML_DEPTH:
        raise ExportError(f"{README}: front matter nested deeper than {MAX_YAML_DEPTH} levels")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent):
                raise ExportError(f"{README}: front matter: YAML aliases are not allowed")
        return yaml.load(text, Loader=loader)  # a safe loader (CSafeLoader or SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 2})" if mark is not None else ""
        raise ExportError(f"{README}: front matter is not valid YAML{line}: {getattr(exc, 'problem', exc)}") from None
    except RecursionError:
        raise ExportError(f"{README}: front matter nested too deeply") from None


def check_data_files(folder: Path, meta: Mapping[str, Any]) -> None:
    """Every ``configs[].data_files`` / ``data_dir`` path of the card: a relative pattern matching only inside."""
    configs = meta.get("configs", [])
    if configs is None:
        return
    _want(configs, list, README, "configs")
    for i, entry in enumerate(configs):
        at = f"configs[{i}]"
        _want(entry, dict, README, at)
        name = entry.get("config_name")
        if name is not None and not (isinstance(name, str) and NAME.match(name)):
            raise ExportError(f"{README}: {at}.config_name: {str(name)[:100]!r} is not a config name")
        base = folder
        if entry.get("data_dir") is not None:
            base = checked_path(folder, entry["data_dir"], f"{README}: {at}.data_dir")
        for field, pattern in _patterns(entry.get("data_files"), f"{at}.data_files"):
            _check_pattern(folder, base, pattern, f"{README}: {field}")


def card_matches(folder: Path, entry: Mapping[str, Any]) -> list[Path]:
    """The files one (already checked) ``configs`` entry of the card names, for every split."""
    out: list[Path] = []
    for _, pattern in _patterns(entry.get("data_files"), "data_files"):
        base = folder / entry["data_dir"] if entry.get("data_dir") else folder
        out += [p for p in base.glob(pattern) if p.is_file()]
    return sorted(set(out))


def _patterns(value: Any, field: str) -> Iterator[tuple[str, Any]]:
    if value is None:
        return
    if isinstance(value, str):
        yield field, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _patterns(item.get("path") if isinstance(item, dict) else item, f"{field}[{i}]")
            if isinstance(item, dict) and "split" in item and not isinstance(item["split"], str):
                raise ExportError(f"{README}: {field}[{i}].split: must be a string")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _patterns(item, f"{field}.{key}")
    else:
        raise ExportError(f"{README}: {field}: must be a path, a list or an object, got {_kind(value)}")


def _check_pattern(folder: Path, base: Path, pattern: Any, where: str) -> None:
    if not isinstance(pattern, str) or not pattern:
        raise ExportError(f"{where}: must be a non-empty string, got {_kind(pattern)}")
    parts = pattern.split("/")
    if (pattern.startswith("/") or "\\" in pattern or "://" in pattern or ":" in parts[0]
            or any(p in ("", ".", "..") or "**" in p for p in parts)):
        raise ExportError(f"{where}: {pattern[:200]!r} is not a relative path inside the folder (no '..', "
                          "no '**')")
    for match in base.glob(pattern):
        rel = match.relative_to(folder).as_posix()
        try:
            inside(folder, rel)
        except UnsafePath:
            raise ExportError(f"{where}: {rel} leads outside the folder (a link?)") from None
        if match.is_symlink():
            raise ExportError(f"{where}: {rel} is a symbolic link (export folders hold regular files only)")
        if not match.is_dir() and not match.is_file():
            raise ExportError(f"{where}: {rel} is not a regular file")


# ------------------------------------------------------------------------------------------------ Parquet
def parquet_file(folder: Path, rel: str, config: str, where: str | None = None):
    """A ``pyarrow.parquet.ParquetFile`` of the folder with the config's schema (checked before any row is read).

    The file is opened safely (``open_data``) and handed to pyarrow as a file object, so pyarrow never opens a
    path itself."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from builder.mira_elenchos import row_features
    from builder.registry import get_spec

    where = where or rel
    f = open_data(folder, rel, where)
    try:
        pf = pq.ParquetFile(f)
        got = pf.schema_arrow.remove_metadata()
    except (OSError, pa.ArrowException, ValueError) as exc:
        f.close()
        raise ExportError(f"{where}: not a readable Parquet file ({_short(exc)})") from None
    expected = row_features(get_spec(config)).arrow_schema.remove_metadata()
    if not got.equals(expected):
        f.close()
        names = [n for n in expected.names if n not in got.names or got.field(n).type != expected.field(n).type]
        extra = [n for n in got.names if n not in expected.names]
        what = f"columns {names[:5]} missing or of another type" if names else f"extra columns {extra[:5]}"
        if not names and not extra:
            what = "column order differs"
        raise ExportError(f"{where}: schema differs from config {config}'s ({what})")
    return pf


def _short(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
