"""Command line: ``python -m lambdapy [repl|probe|diff] ...``.

* ``python -m lambdapy [repl] [--mutations ID_04,ID_06]``: interactive REPL.
* ``python -m lambdapy probe [--mutations ID_04,ID_06] FILE|-``: run one probe on a
  fresh kernel and print its observation as JSON.
* ``python -m lambdapy diff --a ID_04 --b none FILE|-``: run the probe on two fresh
  kernels and print both observations and the diff as JSON.

A mutation list is comma-separated IDs (``ID_04,ID_06``, ``4,6``) or ``none``.

Exit status of ``probe`` and ``diff``: 0 when the kernels observed the probe, accepted or rejected (a
``type_error`` is an observation); 2 when the source is not a probe at all (``parse_error``, ``probe_error``:
no kernel saw it), with the observation still printed and one line on stderr saying why.
"""

from __future__ import annotations

import argparse
import json
import sys

from .kernel import Kernel
from .mutations import parse_mutations
from .observation import Observation, diff
from .repl import run_repl


class SourceError(Exception):
    """A probe source that cannot be read as UTF-8 text."""


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(f"{path}: not UTF-8 text (invalid byte at offset {error.start})") from None


NOT_A_PROBE = ("parse_error", "probe_error")


def _not_a_probe(source: str, observation: Observation) -> int:
    """2 (and one line on stderr) when the source is not a probe; 0 when a kernel observed it."""
    if observation.epsilon is None or observation.epsilon[0] not in NOT_A_PROBE:
        return 0
    where = "standard input" if source == "-" else source
    print(f"{where}: not a probe ({observation.epsilon_text}); a probe is any number of assume/let lines "
          "followed by one final eval", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lambdapy", description=__doc__.splitlines()[0])
    parser.add_argument("--mutations", help="mutation IDs for the REPL kernel, e.g. ID_04,ID_06")
    commands = parser.add_subparsers(dest="command")
    repl = commands.add_parser("repl", help="interactive REPL (the default)")
    repl.add_argument("--mutations", dest="repl_mutations", help="e.g. ID_04,ID_06 (default: none)")
    probe = commands.add_parser("probe", help="run one probe and print its observation as JSON")
    probe.add_argument("--mutations", dest="probe_mutations", help="e.g. ID_04,ID_06 (default: none)")
    probe.add_argument("source", help="probe file, or - for standard input")
    compare = commands.add_parser("diff", help="run one probe on two kernels and diff the observations")
    compare.add_argument("--a", default="none", help="mutations of kernel A (default: none)")
    compare.add_argument("--b", default="none", help="mutations of kernel B (default: none)")
    compare.add_argument("source", help="probe file, or - for standard input")
    args = parser.parse_args(argv)

    try:
        if args.command == "probe":
            config = parse_mutations(args.probe_mutations or args.mutations)
            observation = Kernel(config).probe(_read(args.source))
            print(json.dumps(observation.to_json(), ensure_ascii=False))
            return _not_a_probe(args.source, observation)
        if args.command == "diff":
            source = _read(args.source)
            config_a, config_b = parse_mutations(args.a), parse_mutations(args.b)
            obs_a, obs_b = Kernel(config_a).probe(source), Kernel(config_b).probe(source)
            report = {
                "mutations_A": list(config_a.mutation_ids),
                "mutations_B": list(config_b.mutation_ids),
                "K_A": obs_a.to_json(),
                "K_B": obs_b.to_json(),
                "diff": diff(obs_a, obs_b),
            }
            print(json.dumps(report, ensure_ascii=False, indent=2))
            return _not_a_probe(args.source, obs_a)
        config = parse_mutations(getattr(args, "repl_mutations", None) or args.mutations)
    except KeyError as error:
        parser.error(str(error.args[0]) if error.args else "unknown mutation id")
    except OSError as error:
        parser.error(f"cannot read {error.filename}: {error.strerror}")
    except SourceError as error:
        parser.error(str(error))
    run_repl(Kernel(config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
