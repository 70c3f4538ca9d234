"""Conformance with the Appendix E traces of the paper (spec digest section 11).

Each trace runs on a persistent pair (sound kernel, kernel with the trace's
ground-truth mutation set); the reported diff of every probe must be reproduced.
"""

from __future__ import annotations

import pytest

from lambdapy import Kernel, KernelConfig, diff, run_fresh

GPT = ("gpt-5.4", {"ID_01", "ID_03"})
HAIKU = ("claude-haiku-4-5", {"ID_02", "ID_06"})
GEMINI = ("gemini-2.5-flash", {"ID_02", "ID_08"})
SAME_ERROR = "both reject with same error"

# (trace, ground-truth set, probe, reported diff), in trace order (spec digest section 11)
APPENDIX_E_PROBES = [
    (*GPT, "eval Type0 : Type0\n", SAME_ERROR),
    (
        *GPT,
        "assume A : Type\n"
        "assume x y : A\n"
        "eval (\\z -> z) x : A\n",
        SAME_ERROR,
    ),
    (
        *GPT,
        "assume A : Type\n"
        "assume x : A\n"
        "eval ((\\z -> z) : A -> A) x\n",
        "identical",
    ),
    (
        *GPT,
        "assume A : Type\n"
        "assume x y : A\n"
        "eval (((\\u -> \\v -> u) : A -> A -> A) x) y\n",
        "identical",
    ),
    (
        *GPT,
        "assume A : Type\n"
        "assume x y : A\n"
        "eval (((\\u -> \\v -> v) : A -> A -> A) x) y\n",
        "identical",
    ),
    (
        *GPT,
        "assume A : Type\n"
        "assume x y : A\n"
        "eval (((\\u -> \\v -> u v) : (A -> A) -> A -> A) (\\w -> w : A -> A)) x\n",
        SAME_ERROR,
    ),
    (
        *GPT,
        "assume A : Type\n"
        "assume f : A -> A\n"
        "assume x : A\n"
        "eval f x\n",
        "identical",
    ),
    (
        *GPT,
        "assume A : Type\n"
        "assume x y : A\n"
        "eval (((\\u -> \\v -> u) : A -> A -> A) y) x : A\n",
        "identical",
    ),
    (*HAIKU, "eval Zero : Nat\n", "identical"),
    (*HAIKU, "eval Succ Zero : Nat\n", "identical"),
    (
        *HAIKU,
        "assume f : Nat -> Nat\n"
        "assume x : Nat\n"
        "eval f x\n",
        "identical",
    ),
    (
        *HAIKU,
        "assume f : Nat -> Nat -> Nat\n"
        "assume x y : Nat\n"
        "eval f x y\n",
        "identical",
    ),
    (*HAIKU, "eval \\x -> x : Nat -> Nat\n", SAME_ERROR),
    (*HAIKU, "eval (\\x -> x) : Nat -> Nat\n", "identical"),
    (*HAIKU, "eval ((\\x -> x) Zero) : Nat\n", SAME_ERROR),
    (*HAIKU, "eval (((\\x -> x) : Nat -> Nat) Zero)\n", "identical"),
    (*GEMINI, "eval Nat\n", "identical"),
    (*GEMINI, "eval Zero : Nat\n", "identical"),
    (*GEMINI, "eval \\x : Nat -> x : Nat -> Nat\n", SAME_ERROR),
    (*GEMINI, "eval \\x : Nat -> x\n", SAME_ERROR),
    (*GEMINI, "eval Nat -> Nat\n", "identical"),
    (*GEMINI, "eval \\x -> x : Nat -> Nat\n", SAME_ERROR),
    (*GEMINI, "eval (\\x -> x) : Nat -> Nat\n", "identical"),
    (*GEMINI, "eval Type0 : Type0\n", SAME_ERROR),
]

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
