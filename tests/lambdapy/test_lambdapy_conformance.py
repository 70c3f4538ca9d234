"""Conformance with the Appendix E traces of the paper (spec digest section 11).

Each trace runs on a persistent pair (sound kernel, kernel with the trace's
ground-truth mutation set); the reported diff of every probe must be reproduced.
"""

from __future__ import annotations

import pytest

from lambdapy import Kernel, KernelConfig, diff, run_fresh
from lambdapy.probes import APPENDIX_E_PROBES

TRACES = ["gpt-5.4", "claude-haiku-4-5", "gemini-2.5-flash"]


@pytest.mark.parametrize("trace", TRACES)
def test_trace_diffs_reproduced_with_persistent_state(trace: str) -> None:
    rows = [row for row in APPENDIX_E_PROBES if row[0] == trace]
    mutated = Kernel(KernelConfig.from_ids(rows[0][1]))
    sound = Kernel()
    for _, _, probe, reported in rows:
        observed = diff(sound.probe(probe), mutated.probe(probe))
        assert observed == reported, probe


@pytest.mark.parametrize(("trace", "truth", "probe", "reported"), APPENDIX_E_PROBES)
def test_sound_kernel_verdict(trace: str, truth: set[str], probe: str, reported: str) -> None:
    # "identical" means both kernels accept; "both reject ..." means the reference rejects
    expected = "reject" if reported == "both reject with same error" else "accept"
    assert run_fresh(KernelConfig(), probe).sigma == expected


def test_selected_results() -> None:
    sound = KernelConfig()
    assert run_fresh(sound, "eval Zero : Nat\n").result == "Zero : Nat"
    assert run_fresh(sound, "eval Succ Zero : Nat\n").result == "Succ Zero : Nat"
    assert run_fresh(sound, "eval (\\x -> x) : Nat -> Nat\n").result == "\\x -> x : Nat -> Nat"
    assert run_fresh(sound, "eval (((\\x -> x) : Nat -> Nat) Zero)\n").result == "Zero : Nat"
    assert run_fresh(sound, "eval Nat -> Nat\n").result == "Nat -> Nat : Type"
    probe = "assume A : Type\nassume x : A\neval ((\\z -> z) : A -> A) x\n"
    assert run_fresh(sound, probe).result == "x : A"
    probe = "assume A : Type\nassume f : A -> A\nassume x : A\neval f x\n"
    assert run_fresh(sound, probe).result == "f x : A"


def test_typed_binder_lambda_is_a_parse_error() -> None:
    observation = run_fresh(KernelConfig(), "eval \\x : Nat -> x\n")
    assert observation.epsilon == ("parse_error", "unexpected ':'")


def test_type0_is_not_its_own_type() -> None:
    observation = run_fresh(KernelConfig(), "eval Type0 : Type0\n")
    assert observation.epsilon is not None
    assert observation.epsilon[0] == "type_error"
    assert "Type1" in observation.epsilon[1]
