"""``python -m builder {export,verify,publish,to-jsonl,configs}``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _difficulties(text: str) -> tuple[int, ...]:
    values = tuple(int(x) for x in text.split(",") if x.strip())
    if not values or any(v not in (1, 2, 3) for v in values):
        raise argparse.ArgumentTypeError("difficulties are a comma-separated subset of 1,2,3")
    return values


def _csv(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _config(name: str) -> str:
    from builder.registry import canonical_config

    return canonical_config(name)


def _configs(text: str) -> list[str]:
    return [_config(name) for name in _csv(text)]


def _message(exc: BaseException) -> str:
    """The error's text, not its repr (``str(KeyError("x"))`` is ``"'x'"``)."""
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m builder", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    e = sub.add_parser("export", help="write a Hub-ready folder (Parquet, README.md, manifest.json, CHECKSUMS)")
    e.add_argument("--out", required=True, help="output folder (its name is the dataset name for load_dataset)")
    e.add_argument("--seed", type=int, help="dataset seed (default 1234, the paper's)")
    e.add_argument("--n-a", type=int, help="MIRA-Math instances per Type-A family and difficulty (default 20)")
    e.add_argument("--n-b", type=int, help="MIRA-Math instances per Type-B family and difficulty (default 50)")
    e.add_argument("--difficulties", type=_difficulties, help="MIRA-Math difficulties (default 1,2,3)")
    e.add_argument("--n-hard", type=int, help="MIRA-Math hard tier (mira_hard, mira_hard_four_shot): instances per "
                                              "family, difficulty and k (default 10)")
    e.add_argument("--families", type=_csv, help="MIRA-Math families, comma-separated (default: all registered)")
    e.add_argument("--repetitions", type=int, help="Elenchos sessions per (level, mutation set) (default 5)")
    e.add_argument("--configs", type=_configs, help="configs to export, comma-separated (default: all available)")
    e.add_argument("--num-proc", type=int, help="generation processes (the output is the same for any value)")
    e.add_argument("--code-commit", help="record this commit instead of asking git")
    e.add_argument("--code-repo", help="code repository URL for the card's links (default: builder.mira_elenchos."
                                       "CODE_REPOSITORY or $MIRA_ELENCHOS_CODE_REPO)")
    e.add_argument("--card", help="dataset card template (default: dataset_card.md at the repo root)")
    e.add_argument("--force", action="store_true", help="replace an existing export folder")

    v = sub.add_parser("verify", help="regenerate from the manifest and compare every file")
    v.add_argument("folder")
    v.add_argument("--no-regenerate", action="store_true", help="integrity checks only (checksums, row hashes)")
    v.add_argument("--num-proc", type=int, help="regeneration processes (default: the CPUs this process may use)")
    v.add_argument("--card", help="dataset card template used for the export")

    u = sub.add_parser("publish", help="verify, then publish to a Hub dataset repo as a tagged release")
    u.add_argument("folder")
    u.add_argument("--repo-id", required=True, help="ORG/NAME")
    u.add_argument("--revision", help="branch to commit to (created from main if missing; default main)")
    u.add_argument("--tag", help="release tag (default from the manifest, e.g. "
                                 "mira-2.0.0-seed1234-20x50_elenchos-0.2.0-seed1234-r5)")
    u.add_argument("--replace", action="store_true",
                   help="replace a different seed set on the branch (it stays loadable by its tag)")
    u.add_argument("--allow-dirty", action="store_true", help="publish an export made from uncommitted code")
    u.add_argument("--private", action="store_true", help="create the repo as private (an existing repo is unchanged)")
    u.add_argument("--dry-run", action="store_true",
                   help="read the remote and print every add, change, delete and tag; write nothing")
    u.add_argument("--commit-message", help="commit title (default: 'Release TAG (...)')")
    u.add_argument("--no-regenerate", action="store_true", help="verify integrity only before uploading")
    u.add_argument("--reverify", action="store_true",
                   help="regenerate even if `builder verify` just verified these bytes with this code")

    j = sub.add_parser("to-jsonl", help="write one config's split of an export folder back as canonical JSONL")
    j.add_argument("folder", help="an export folder (python -m builder export, or a downloaded Hub release)")
    j.add_argument("--config", default="mira_zero_shot", type=_config,
                   help="the config to write (mira_zero_shot, mira_four_shot, elenchos_ladder, ...)")
    j.add_argument("--split", default="test")
    j.add_argument("--out", required=True)

    sub.add_parser("configs", help="list the registered configs and whether they can be generated here")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "export":
        from builder.export import export
        from generators.limits import cap_jobs

        t0 = time.perf_counter()
        try:
            manifest = export(
                args.out,
                configs=args.configs,
                num_proc=cap_jobs(args.num_proc, "--num-proc"),
                code_commit=args.code_commit,
                code_repo=args.code_repo,
                force=args.force,
                card=args.card,
                log=lambda m: print(m, file=sys.stderr),
                seed=args.seed,
                n_a=args.n_a,
                n_b=args.n_b,
                difficulties=args.difficulties,
                families=args.families,
                n_hard=args.n_hard,
                repetitions=args.repetitions,
            )
        except (FileExistsError, FileNotFoundError, ValueError, KeyError, RuntimeError) as exc:
            print(f"export: {_message(exc)}", file=sys.stderr)
            return 2
        rows = {n: sum(s["num_examples"] for s in c["splits"].values()) for n, c in manifest["configs"].items()}
        size = sum(p.stat().st_size for p in Path(args.out).rglob("*") if p.is_file())
        summary = {"out": args.out, "rows": rows, "bytes": size, "seconds": round(time.perf_counter() - t0, 2)}
        print(json.dumps({**summary, "skipped": list(manifest["skipped"])}))
        return 0

    if args.command == "verify":
        from builder.verify import verify_stamped
        from generators.limits import cap_jobs

        report = verify_stamped(args.folder, regenerate=not args.no_regenerate,
                                num_proc=cap_jobs(args.num_proc, "--num-proc"), card=args.card)
        if report.refused:  # the folder cannot be read safely: one line, nothing else
            print(f"verify: {args.folder}: {report.refused}", file=sys.stderr)
            return 2
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr)
        if report.ok:
            print(f"verify: OK {args.folder}")
            return 0
        print(f"verify: FAILED {args.folder}: {report.problems[0]}", file=sys.stderr)
        for problem in report.problems[1:]:
            print(f"  also: {problem}", file=sys.stderr)
        return 1

    if args.command == "publish":
        from builder.hub import unreachable_errors, unreachable_message
        from builder.publish import PublishError, publish

        try:
            publish(
                args.folder,
                args.repo_id,
                revision=args.revision,
                tag=args.tag,
                replace=args.replace,
                allow_dirty=args.allow_dirty,
                private=args.private,
                dry_run=args.dry_run,
                commit_message=args.commit_message,
                regenerate=not args.no_regenerate,
                reuse_verification=not args.reverify,
            )
        except PublishError as exc:
            print(f"publish: {exc}", file=sys.stderr)
            return 1
        except unreachable_errors() as exc:
            print(f"publish: {unreachable_message(exc)}", file=sys.stderr)
            return 2
        return 0

    if args.command == "to-jsonl":
        from builder.rows import RowsError, export_to_jsonl

        try:
            summary = export_to_jsonl(args.folder, args.config, args.split, args.out)
        except RowsError as exc:
            print(f"to-jsonl: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(summary))
        return 0

    from builder.registry import all_specs

    for spec in all_specs():
        reason = spec.unavailable()
        print(f"{spec.name:26} {'available' if reason is None else 'unavailable'}  {spec.description}")
        if reason:
            print(f"{'':26} {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
