"""README.md of an export: ``dataset_card.md`` (repo root) + generated YAML and blocks, from the manifest.

``dataset_card.md`` carries the static front matter (license, pretty_name, task_categories, tags, ...)
and the prose. The export adds ``size_categories``, ``configs`` and ``dataset_info`` to the front matter
and fills every generated block ``<!-- export:NAME -->`` ... ``<!-- /export:NAME -->``:

* ``release``: generator versions per benchmark, code repository and commit (links), parameters, counts,
  content hashes;
* ``links``: the code, the commit, both papers (arXiv URLs), the deviations document (absolute links);
* ``usage``: ``load_dataset`` snippets with the real repo id, the default config and the release tag;
* ``reproduce``: how to reproduce and verify this release (install at the commit, ``builder verify``,
  ``sha256sum -c CHECKSUMS``) and the prompt-protocol versions.

The card stands alone on the Hub: every link is absolute. The output depends on the manifest (including
its ``release`` entry, ``{"repo_id", "tag"}``, which ``publish`` sets) and the card only, so ``verify``
can re-render it; it compares the YAML and the generated blocks, not the prose.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from builder.registry import get_spec

BEGIN, END = "<!-- export:release -->", "<!-- /export:release -->"
BLOCK = re.compile(r"<!-- export:(\w+) -->\n?(.*?)<!-- /export:\1 -->", re.S)
DEFAULT_CONFIG = "mira_zero_shot"
# The Hub's allowed ``size_categories`` values (its dataset card metadata specification), by upper bound.
SIZE_CATEGORIES = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
    (1_000_000_000, "100M<n<1B"),
    (10_000_000_000, "1B<n<10B"),
    (100_000_000_000, "10B<n<100B"),
    (1_000_000_000_000, "100B<n<1T"),
]
PLACEHOLDER_REPO = "ORG/NAME"


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
    return "n>1T"


def default_config(manifest: Mapping[str, Any]) -> str:
    """The config ``load_dataset(REPO)`` gives: ``mira_zero_shot`` when exported, else the first one exported."""
    names = list(manifest["configs"])
    return DEFAULT_CONFIG if DEFAULT_CONFIG in names else names[0]


def generated_blocks(text: str) -> list[str]:
    """The generated blocks of a card, markers included, in order."""
    return [m.group(0) for m in BLOCK.finditer(text)]


def data_glob(config: str, split: str) -> str:
    return f"{config}/{split}-*.parquet"


def configs_yaml(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, c in manifest["configs"].items():
        entry: dict[str, Any] = {
            "config_name": name,
            "data_files": [{"split": split, "path": data_glob(name, split)} for split in c["splits"]],
        }
        if name == default_config(manifest):
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
    from builder.export import NAMED_ONLY

    release = manifest.get("release") or {}
    lines = ["| | |", "|---|---|"]
    if release.get("repo_id"):
        lines.append(f"| Hub repository | [{release['repo_id']}]({hub_url(release['repo_id'])}) |")
    if release.get("tag"):
        lines.append(f"| Release tag | `{release['tag']}` |")
    for bench, version in generator_versions_of(manifest).items():
        shown = ", ".join(f"`{v}`" for v in version.split(", "))  # two tiers: "`2.0.0`, `2.0.0+hard.1`"
        lines.append(f"| {BENCHMARK_NAMES.get(bench, bench)} generator version | {shown} |")
    dirty = " (with local changes)" if manifest.get("code_dirty") else ""
    lines += [
        f"| Code | {_code_link(manifest)} |",
        f"| Code commit | {_commit_link(manifest)}{dirty} |",
        f"| Written with | pyarrow {manifest['writer']['pyarrow']}, datasets {manifest['writer']['datasets']} |",
        "",
        "| Config | Split | Rows | Generator version | Parameters | sha256 of the split as canonical JSONL |",
        "|---|---|---:|---|---|---|",
    ]
    for name, c in manifest["configs"].items():
        params = ", ".join(f"{k}={_short(v)}" for k, v in c["params"].items() if k != "families")
        version = c.get("generator_version", "?")
        for split, s in c["splits"].items():
            lines.append(
                f"| `{name}` | {split} | {s['num_examples']:,} | `{version}` | {params} | `{s['jsonl_sha256']}` |"
            )
    for name, reason in manifest.get("skipped", {}).items():
        why = reason if reason == "not selected" else NAMED_ONLY if reason.startswith(NAMED_ONLY) \
            else "its generator was not available at export time"  # (manifests before NAMED_ONLY render so too)
        lines.append(f"| `{name}` | - | - | - | not in this export ({why}) | - |")
    with_counts = [(n, c) for n, c in manifest["configs"].items() if _counts(c)]
    if with_counts:
        lines += ["", *_counts_table(*with_counts[0], also_few_shot="mira_few_shot" in manifest["configs"])]
    return "\n".join(lines)


BENCHMARK_NAMES = {"mira": "MIRA-Math", "elenchos": "Elenchos"}
HUB = "https://huggingface.co/datasets"


def hub_url(repo_id: str) -> str:
    return f"{HUB}/{repo_id}"


def generator_versions_of(manifest: Mapping[str, Any]) -> dict[str, str]:
    from builder.export import generator_versions

    return generator_versions(manifest)


def _code_repo(manifest: Mapping[str, Any]) -> str:
    from builder.export import code_repository

    return (manifest.get("code_repository") or code_repository()).rstrip("/")


def _code_link(manifest: Mapping[str, Any]) -> str:
    return f"[{_code_repo(manifest)}]({_code_repo(manifest)})"


def _commit_link(manifest: Mapping[str, Any]) -> str:
    commit = manifest.get("code_commit", "unknown")
    if len(commit) == 40 and all(ch in "0123456789abcdef" for ch in commit):
        return f"[`{commit}`]({_code_repo(manifest)}/tree/{commit})"
    return f"`{commit}`"


def _repo_id(manifest: Mapping[str, Any]) -> str:
    return (manifest.get("release") or {}).get("repo_id") or PLACEHOLDER_REPO


def links_markdown(manifest: Mapping[str, Any]) -> str:
    from builder.mira_elenchos import PAPERS

    repo = _code_repo(manifest)
    commit = manifest.get("code_commit", "unknown")
    lines = [
        f"* Code (generators, verifiers, builder, evaluation harness): {repo}",
        f"* The code this release was generated with: {_commit_link(manifest)}",
    ]
    lines += [f"* {name} paper: {url}" for name, url in PAPERS.items()]
    ref = commit if _commit_link(manifest).startswith("[") else "main"
    lines.append(f"* Deviations from the papers: {repo}/blob/{ref}/docs/deviations.md")
    if (manifest.get("release") or {}).get("repo_id"):
        lines.append(f"* This dataset on the Hub: {hub_url(manifest['release']['repo_id'])}")
    return "\n".join(lines)


def usage_markdown(manifest: Mapping[str, Any]) -> str:
    repo_id, default = _repo_id(manifest), default_config(manifest)
    tag = (manifest.get("release") or {}).get("tag")
    names = list(manifest["configs"])
    lines = ["```python", "import datasets, json", ""]
    lines.append(f'ds = datasets.load_dataset("{repo_id}", "{default}", split="test")')
    for name in names:
        if name != default:
            lines.append(f'{name} = datasets.load_dataset("{repo_id}", "{name}", split="test")')
    if tag:
        lines.append(f'ds = datasets.load_dataset("{repo_id}", "{default}", split="test", revision="{tag}")'
                     "  # exactly this release")
    if manifest["configs"][default].get("benchmark") == "mira":
        lines += ['type_b_hard = ds.filter(lambda r: r["type"] == "B" and r["difficulty"] == 3)',
                  'answer = json.loads(ds[0]["global_solution"])   # JSON-text columns: json.loads them']
    lines += [
        "```",
        "",
        f"Configs in this release: {', '.join(f'`{n}`' for n in names)}; "
        f'`load_dataset("{repo_id}")` without a config name gives `{default}` (the default).',
    ]
    if tag:
        lines += [
            "",
            f"Every published seed set is a tag of this repository (this one: `{tag}`); `main` holds the latest. "
            f'List them with `huggingface_hub.list_repo_refs("{repo_id}", repo_type="dataset").tags`.',
        ]
    return "\n".join(lines)


def reproduce_markdown(manifest: Mapping[str, Any]) -> str:
    repo, commit = _code_repo(manifest), manifest.get("code_commit", "unknown")
    repo_id, tag = _repo_id(manifest), (manifest.get("release") or {}).get("tag")
    rev = f" --revision {tag}" if tag else ""
    protocols = _protocol_versions()
    lines = [
        "Everything in this release is regenerated bit for bit from the seeds in `manifest.json` by the code at the "
        "recorded commit:",
        "",
        "```sh",
        f"git clone {repo} mira-elenchos && cd mira-elenchos && git checkout {commit}",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e \".[hf]\"",
        f"hf download {repo_id} --repo-type dataset{rev} --local-dir release",
        "python -m builder verify release          # regenerate from manifest.json and compare the content",
        "python -m builder verify release --no-regenerate   # checksums and per-row hashes only, no generation",
        "(cd release && sha256sum -c CHECKSUMS)    # without the toolkit",
        "```",
        "",
        "`verify` compares content: rows (each row's `sha256` and each split's `rows_sha256`), the manifest, and of "
        "this card only its YAML and generated blocks, so edits of the prose do not fail it; Parquet files written "
        "by another pyarrow version pass with a note (content identical, bytes differ). `sha256sum -c` checks the "
        "exact bytes. Regeneration needs the generator versions above "
        f"({', '.join(f'{BENCHMARK_NAMES.get(b, b)} {v}' for b, v in generator_versions_of(manifest).items())}).",
        "",
        "To evaluate this release with the toolkit's harness: "
        f"`python run_eval.py mira --dataset {repo_id} --config {default_config(manifest)}"
        f"{rev} --solver ... --out runs/NAME`.",
        "",
        "Prompt protocols of the harness at this commit: "
        + ", ".join(f"{BENCHMARK_NAMES.get(b, b)} `{v}`" for b, v in protocols.items())
        + ".",
    ]
    return "\n".join(lines)


def _protocol_versions() -> dict[str, str]:
    from schemas import ELENCHOS_PROTOCOL_VERSION, MIRA_PROTOCOL_VERSION

    return {"mira": MIRA_PROTOCOL_VERSION, "elenchos": ELENCHOS_PROTOCOL_VERSION}


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ",".join(str(v) for v in value) + "]"
    return str(value)


def _counts(c: Mapping[str, Any]) -> dict[str, int] | None:
    return next((s["counts"] for s in c["splits"].values() if s.get("counts")), None)


def _counts_table(name: str, c: Mapping[str, Any], also_few_shot: bool = False) -> list[str]:
    """Rows per family and difficulty; ``counts`` keys are ``[type/]family/dN``."""
    counts = _counts(c) or {}
    diffs = sorted({key.rsplit("/d", 1)[1] for key in counts}, key=int)
    families: dict[str, dict[str, int]] = {}
    for key, n in counts.items():
        fam, d = key.rsplit("/d", 1)
        families.setdefault(fam, {})[d] = n
    out = [
        f"Instances per family and requested difficulty (`{name}`"
        + ("; `mira_few_shot` has the same instances" if name == "mira_zero_shot" and also_few_shot else "")
        + "):",
        "",
        "| Type | Family | " + " | ".join(f"d={d}" for d in diffs) + " | Total |",
        "|---|---|" + "---:|" * (len(diffs) + 1),
    ]
    for fam, per in families.items():
        kind, family = fam.split("/", 1) if "/" in fam else ("", fam)
        cells = " | ".join(str(per.get(d, 0)) for d in diffs)
        out.append(f"| {kind} | {family} | {cells} | {sum(per.values())} |")
    return out


def _fill(name: str, manifest: Mapping[str, Any], original: str) -> str:
    blocks = {"release": release_markdown, "links": links_markdown, "usage": usage_markdown,
              "reproduce": reproduce_markdown}
    if name not in blocks:
        return original
    return f"<!-- export:{name} -->\n{blocks[name](manifest)}\n<!-- /export:{name} -->"


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
    body = BLOCK.sub(lambda m: _fill(m.group(1), manifest, m.group(0)), body)
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    return f"---\n{front}---\n{body}"
