"""README.md of an export: ``dataset_card.md`` (repo root) + generated YAML (configs, dataset_info, sizes).

``dataset_card.md`` carries the static front matter (license, pretty_name, task_categories, tags, ...)
and the prose. The export adds ``size_categories``, ``configs`` and ``dataset_info`` to the front matter
and replaces the block between ``<!-- export:release -->`` and ``<!-- /export:release -->`` with the
release table (generator version, commit, parameters, counts, content hashes). The output depends on
the manifest and the card only, so ``verify`` can regenerate it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from builder.registry import get_spec

BEGIN, END = "<!-- export:release -->", "<!-- /export:release -->"
DEFAULT_CONFIG = "mira_zero_shot"
SIZE_CATEGORIES = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
]


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---\n", 4)
    if end < 0:
        raise ValueError("dataset card: front matter is not closed by a '---' line")
    meta = yaml.safe_load(text[4:end]) or {}
    if not isinstance(meta, dict):
        raise ValueError("dataset card: front matter is not a mapping")
    return meta, text[end + 5 :]


def size_category(n: int) -> str:
    for bound, label in SIZE_CATEGORIES:
        if n < bound:
            return label
    return "n>10M"


def data_glob(config: str, split: str) -> str:
    return f"{config}/{split}-*.parquet"


def configs_yaml(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, c in manifest["configs"].items():
        entry: dict[str, Any] = {
            "config_name": name,
            "data_files": [{"split": split, "path": data_glob(name, split)} for split in c["splits"]],
        }
        if name == DEFAULT_CONFIG:
            entry["default"] = True
        out.append(entry)
    return out


def dataset_info_yaml(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    from builder.mira_elenchos import row_features

    out = []
    for name, c in manifest["configs"].items():
        splits = c["splits"]
        out.append(
            {
                "config_name": name,
                "features": row_features(get_spec(name))._to_yaml_list(),
                "splits": [
                    {"name": split, "num_bytes": s["num_bytes"], "num_examples": s["num_examples"]}
                    for split, s in splits.items()
                ],
                "download_size": sum(f["bytes"] for s in splits.values() for f in s["files"]),
                "dataset_size": sum(s["num_bytes"] for s in splits.values()),
            }
        )
    return out


def release_markdown(manifest: Mapping[str, Any]) -> str:
    lines = [
        "| | |",
        "|---|---|",
        f"| Generator version | `{manifest['generator_version']}` |",
        f"| Code commit | `{manifest['code_commit']}`{' (with local changes)' if manifest.get('code_dirty') else ''} |",
        f"| Written with | pyarrow {manifest['writer']['pyarrow']}, datasets {manifest['writer']['datasets']} |",
        "",
        "| Config | Split | Rows | Parameters | sha256 of the split as canonical JSONL |",
        "|---|---|---:|---|---|",
    ]
    for name, c in manifest["configs"].items():
        params = ", ".join(f"{k}={_short(v)}" for k, v in c["params"].items() if k != "families")
        for split, s in c["splits"].items():
            lines.append(f"| `{name}` | {split} | {s['num_examples']:,} | {params} | `{s['jsonl_sha256']}` |")
    for name, reason in manifest.get("skipped", {}).items():
        why = "not selected" if reason == "not selected" else "its generator was not available at export time"
        lines.append(f"| `{name}` | - | - | not in this export ({why}) | - |")
    with_counts = [(n, c) for n, c in manifest["configs"].items() if _counts(c)]
    if with_counts:
        lines += ["", *_counts_table(*with_counts[0])]
    return "\n".join(lines)


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ",".join(str(v) for v in value) + "]"
    return str(value)


def _counts(c: Mapping[str, Any]) -> dict[str, int] | None:
    return next((s["counts"] for s in c["splits"].values() if s.get("counts")), None)


def _counts_table(name: str, c: Mapping[str, Any]) -> list[str]:
    """Rows per family and difficulty; ``counts`` keys are ``[type/]family/dN``."""
    counts = _counts(c) or {}
    diffs = sorted({key.rsplit("/d", 1)[1] for key in counts}, key=int)
    families: dict[str, dict[str, int]] = {}
    for key, n in counts.items():
        fam, d = key.rsplit("/d", 1)
        families.setdefault(fam, {})[d] = n
    out = [
        f"Instances per family and requested difficulty (`{name}`; `mira_few_shot` has the same instances):",
        "",
        "| Type | Family | " + " | ".join(f"d={d}" for d in diffs) + " | Total |",
        "|---|---|" + "---:|" * (len(diffs) + 1),
    ]
    for fam, per in families.items():
        kind, family = fam.split("/", 1) if "/" in fam else ("", fam)
        cells = " | ".join(str(per.get(d, 0)) for d in diffs)
        out.append(f"| {kind} | {family} | {cells} | {sum(per.values())} |")
    return out


def render_readme(manifest: Mapping[str, Any], card: str | Path | None = None) -> str:
    from builder.export import DEFAULT_CARD

    path = Path(card) if card else DEFAULT_CARD
    if not path.exists():
        raise FileNotFoundError(f"dataset card {path} not found (pass --card)")
    meta, body = split_front_matter(path.read_text(encoding="utf-8"))
    rows = [s["num_examples"] for c in manifest["configs"].values() for s in c["splits"].values()]
    meta = {
        **meta,
        "size_categories": [size_category(max(rows, default=0))],
        "configs": configs_yaml(manifest),
        "dataset_info": dataset_info_yaml(manifest),
    }
    if BEGIN in body and END in body:
        head, rest = body.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        body = f"{head}{BEGIN}\n{release_markdown(manifest)}\n{END}{tail}"
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    return f"---\n{front}---\n{body}"
