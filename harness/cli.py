"""``run_eval.py``: run benchmarks, score run directories, and the README's main job.

    python run_eval.py mira --dataset FILE --solver oracle --responder rule --out runs/NAME
    python run_eval.py elenchos ...                       (once the Elenchos harness exists)
    python run_eval.py score RUN_DIR [RUN_DIR ...] [--compare-out DIR]
    python run_eval.py rejudge RUN_DIR --responder SPEC --out DIR   (re-judge a MIRA run's requests)
    python run_eval.py main --out runs/default
    python run_eval.py agents                              (the registered agent names)
    python run_eval.py import-inspect LOG --out RUN        (an inspect_ai log becomes a run directory)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from harness import registry, untrusted
from harness.errors import HarnessError
from harness.inspect_adapter import importer as inspect_importer
from harness.plugins import Benchmark, benchmarks
from harness.redact import redact
from harness.rundir import MAIN_JSON, RUN_JSON, RunDir, is_run_folder, write_json_atomic


def build_parser(plugins: dict[str, Benchmark]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="run_eval.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for plugin in plugins.values():
        p = sub.add_parser(plugin.name, help=plugin.help)
        plugin.add_arguments(p)
    p = sub.add_parser("score", help="recompute metrics and reports from run directories (no model calls)")
    p.add_argument("runs", nargs="+", help="run directories, or a folder of them (e.g. runs/default: each run in it)")
    p.add_argument("--compare-out", help="directory for the comparison of several runs (tables, figures)")
    p.add_argument("--no-figures", action="store_true")
    p = sub.add_parser("main", help="the README's main job: regenerate data, run the deterministic defaults")
    p.add_argument("--out", required=True, help="output directory (data, runs, reports)")
    p.add_argument("--fresh", action="store_true",
                   help="replace earlier data and runs under --out (needed to change --seed, --n-a, ... there)")
    p.add_argument("--no-figures", action="store_true")
    for plugin in plugins.values():
        if plugin.add_main_arguments:
            plugin.add_main_arguments(p)
    from harness.mira import rejudge

    p = sub.add_parser("rejudge", help="judge every request of a MIRA-Math run with another responder "
                                       "(no solver calls); agreement matrix and disagreements")
    rejudge.add_arguments(p)
    sub.add_parser("agents", help="list the agent spec names per role")
    p = sub.add_parser("import-inspect", help="turn an inspect_ai log of harness/inspect_tasks.py into a run directory")
    inspect_importer.add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    plugins = benchmarks()
    parser = build_parser(plugins)
    args, extra = parser.parse_known_args(argv)
    plugin = plugins.get(args.command)
    if extra and (plugin is None or plugin.available):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "quiet", False):
        quiet_libraries()
    try:
        if args.command == "score":
            return score(args, plugins)
        if args.command == "main":
            return main_job(args, plugins)
        if args.command == "rejudge":
            from harness.mira import rejudge

            return rejudge.run(args)
        if args.command == "import-inspect":
            return inspect_importer.run(args)
        if args.command == "agents":
            roles = ("mira.solver", "mira.responder", "elenchos.agent")
            print(json.dumps({role: registry.known(role) for role in roles}, indent=2))
            return 0
        return plugin.run(args)
    except HarnessError as exc:
        print(f"error: {redact(str(exc), keys_too=True)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted: finished instances are saved; run the same command again to resume", file=sys.stderr)
        return 130


def quiet_libraries() -> None:
    """``--quiet``: no loading bars or advisory logs from transformers / huggingface_hub / vLLM either.

    Set before those libraries are imported (backends import them lazily), and applied to them if they
    already are.
    """
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    os.environ["TRANSFORMERS_VERBOSITY"] = "error"
    os.environ["TRANSFORMERS_NO_ADVISORY_WARNINGS"] = "1"
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    if "transformers" in sys.modules:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
    if "huggingface_hub" in sys.modules:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()


def runs_inside(path: str) -> list[str]:
    """The run directories directly inside ``path`` (e.g. ``runs/default`` of the main job), stale ones left out."""
    folder = Path(path)
    if not folder.is_dir() or (folder / "run.json").exists() or (folder / "transcripts.jsonl").exists():
        return []
    return [str(child) for child in sorted(folder.iterdir()) if is_run_folder(child) and ".stale-" not in child.name]


def expand_runs(paths: list[str]) -> list[str]:
    """``paths`` with each folder of runs replaced by the runs inside it (said on stderr); of those, a rejudge
    folder and a run that finished no instance are set aside with a note, not scored."""
    expanded: list[str] = []
    for path in paths:
        inside = runs_inside(path)
        if inside:
            aside = {p: why for p in inside if (why := _not_scored(p)) is not None}
            for p, why in aside.items():
                print(f"{p}: {why}; not scored", file=sys.stderr)
            inside = [p for p in inside if p not in aside]
            if not inside:
                raise HarnessError(f"{path}: none of its runs can be scored (see the notes above)")
            names = ", ".join(Path(p).name for p in inside)
            print(f"{path} is a folder of {len(inside)} run(s); scoring each: {names}", file=sys.stderr)
        elif Path(path).is_file():
            raise HarnessError(f"{path} is a file; score takes run directories (the --out folder of a run)")
        elif not Path(path).is_dir():
            raise HarnessError(f"{path}: no such run directory")
        elif not ((Path(path) / "run.json").exists() or (Path(path) / "transcripts.jsonl").exists()):
            raise HarnessError(f"{path} is not a run directory (no run.json) and holds none; pass the --out folder "
                               "of run_eval.py mira|elenchos|rejudge|import-inspect, or a folder of them")
        expanded.extend(inside or [path])
    return expanded


def _not_scored(path: str) -> str | None:
    """Why a run found inside a folder of runs is not scored with the others, or None."""
    try:
        info = RunDir(path).load_info()
    except HarnessError as exc:
        return str(exc)
    if info and info.get("benchmark") == "mira-rejudge":
        return "a rejudge folder (its agreement is in agreement.json)"
    transcripts = Path(path) / "transcripts.jsonl"
    if not transcripts.is_file() or transcripts.stat().st_size == 0:
        return "no finished instance yet"
    return None


def score(args: argparse.Namespace, plugins: dict[str, Benchmark]) -> int:
    by_benchmark: dict[str, list[str]] = {}
    for path in expand_runs(args.runs):
        info = RunDir(path).load_info()
        name = info.get("benchmark", "mira") if info else "mira"
        by_benchmark.setdefault(name, []).append(path)
    code = 0
    for name, paths in by_benchmark.items():
        plugin = plugins.get(name)
        if plugin is None or plugin.score is None:
            raise HarnessError(f"no scorer for benchmark {name!r} (run directories {', '.join(paths)})")
        code = max(code, plugin.score(paths, args))
    return code


MAIN_SETTINGS = ("seed", "n_a", "n_b", "elenchos_seed", "elenchos_repetitions")


def main_job(args: argparse.Namespace, plugins: dict[str, Benchmark]) -> int:
    out = Path(args.out)
    check_main_settings(out, args)
    code = 0
    for plugin in plugins.values():
        if plugin.main_step is None:
            print(f"== {plugin.name}: not available yet; skipped", file=sys.stderr)
            continue
        code = max(code, plugin.main_step(out, args))
    return code


def check_main_settings(out: Path, args: argparse.Namespace) -> None:
    """The main job's data settings are fixed per output folder: another --seed never overwrites DIR/data."""
    settings = {k: getattr(args, k) for k in MAIN_SETTINGS if hasattr(args, k)}
    path = out / MAIN_JSON
    if path.exists() and not getattr(args, "fresh", False):
        try:
            before = untrusted.read_json(path)
        except HarnessError as exc:
            raise HarnessError(f"{exc}; use a new --out or --fresh") from None
        changed = {k: (before.get(k), v) for k, v in settings.items() if k in before and before[k] != v}
        if changed:
            said = ", ".join(f"--{k.replace('_', '-')} {old} (now {new})" for k, (old, new) in changed.items())
            raise HarnessError(f"{out} holds the main job for {said}; use a new --out directory, "
                               "or --fresh to replace its data and runs")
    if out.exists() and not out.is_dir():
        raise HarnessError(f"{out} is a file; use a new --out directory")
    if os.path.lexists(out / RUN_JSON):
        raise HarnessError(f"{out} is a run directory (it has {RUN_JSON}); the main job writes a folder of runs: "
                           "use a new --out directory")
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, settings)
