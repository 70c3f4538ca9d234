"""Hostile probes end quickly, with a clean rejection, and leave the state unchanged."""

from __future__ import annotations

import time

import pytest

from lambdapy import Kernel, KernelConfig, Limits, run_fresh

DOUBLE = "let double = (\\n -> NatElim (\\_ -> Nat) Zero (\\k r -> Succ (Succ r)) n) : Nat -> Nat"
TEN = "let ten = " + "Succ (" * 9 + "Succ Zero" + ")" * 9
# a probe without the size limit in the way, to reach the deeper limits
UNSIZED = Limits(max_probe_chars=2_000_000)

# Hostile probes under the default limits: each must end within a second.
HOSTILE = {
    "one megabyte": "eval " + "x" * 1_000_000,
    "nesting 10000": "eval " + "(" * 10_000 + "Zero" + ")" * 10_000,
    "succ chain 5000": "eval " + "Succ (" * 5_000 + "Zero" + ")" * 5_000,
    "nesting 2000 within the size limit": "eval " + "Succ (" * 2_000 + "Zero" + ")" * 2_000,
    "arrow chain within the size limit": "eval " + "Nat -> " * 2_800 + "Nat",
    "lambda chain within the size limit": "eval " + "\\x -> " * 3_000 + "x",
    "application spine within the size limit": "assume f : Nat -> Nat\neval f" + " Zero" * 3_500,
    "runaway NatElim": "\n".join([DOUBLE, TEN, "eval " + "double (" * 40 + "ten" + ")" * 40]),
    "many lines": "assume A : Type\n" * 1_200 + "eval A",
}

# The same shapes with the size limit lifted, to reach the depth limits behind it.
DEEP = {
    "nesting 10000": "eval " + "(" * 10_000 + "Zero" + ")" * 10_000,
    "succ chain 5000": "eval " + "Succ (" * 5_000 + "Zero" + ")" * 5_000,
    "arrow chain 10000": "eval " + "Nat -> " * 10_000 + "Nat",
    "lambda chain 10000": "eval " + "\\x -> " * 10_000 + "x",
    "application spine 10000": "assume f : Nat -> Nat\neval f" + " Zero" * 10_000,
    "one megabyte of blanks": "eval Zero" + " " * 1_000_000,
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_probe_ends_within_a_second(name: str) -> None:
    # CPU seconds of this process: the kernel's work is bounded, whatever else the machine runs (parallel tests)
    start = time.process_time()
    observation = Kernel().probe(HOSTILE[name])
    elapsed = time.process_time() - start
    assert elapsed < 1.0, f"{name}: {elapsed:.2f} s"
    assert observation.sigma in ("accept", "reject")
    if observation.epsilon is not None:
        assert observation.epsilon[0] in ("resource_limit", "scope_error")


@pytest.mark.parametrize("name", list(DEEP))
def test_deep_terms_are_rejected_cleanly_without_the_size_limit(name: str) -> None:
    start = time.process_time()  # CPU seconds, as above
    observation = Kernel(limits=UNSIZED).probe(DEEP[name])
    assert time.process_time() - start < 2.0
    if name == "one megabyte of blanks":
        assert observation.result == "Zero : Nat"
    else:
        assert observation.epsilon == ("resource_limit", "term nesting too deep (limit 1000 levels)")


def test_size_limit() -> None:
    observation = run_fresh(KernelConfig(), "eval " + "x" * 1_000_000)
    assert observation.epsilon == ("resource_limit", "probe too large (1000005 characters, limit 20000)")


def test_long_literal_succ_chain_is_rejected_by_a_limit_but_a_computed_one_works() -> None:
    literal = run_fresh(KernelConfig(), HOSTILE["succ chain 5000"])
    assert literal.epsilon is not None and literal.epsilon[0] == "resource_limit"
    computed = run_fresh(KernelConfig(), "\n".join([DOUBLE, TEN, "eval " + "double (" * 9 + "ten" + ")" * 9]))
    assert computed.result is not None and computed.result.count("Succ") == 5120


def test_moderate_nesting_works() -> None:
    observation = run_fresh(KernelConfig(), "eval " + "Succ (" * 500 + "Zero" + ")" * 500)
    assert observation.result is not None and observation.result.count("Succ") == 500


def test_step_limit_is_deterministic_and_rolls_back() -> None:
    kernel = Kernel(limits=Limits(time_limit_s=60))  # the wall-clock backstop must not win on a slow machine
    kernel.probe("assume A : Type\neval A")
    runaway = "\n".join([DOUBLE, TEN, "assume B : Type", "eval " + "double (" * 40 + "ten" + ")" * 40])
    first = kernel.probe(runaway)
    assert first.epsilon == ("resource_limit", "step limit exceeded (100000 steps)")
    assert kernel.list_context() == "assume A : Type"  # DOUBLE, TEN and B rolled back
    assert kernel.probe(runaway) == first


def test_non_termination_in_a_mutated_kernel_hits_the_depth_limit() -> None:
    # ID_07 accepts every type comparison, so self-application type-checks
    omega = "let w = (\\x -> (x : Nat -> Nat) x) : Nat -> Nat\neval w (w : Nat)"
    assert run_fresh(KernelConfig(), omega).epsilon is not None
    start = time.process_time()  # CPU seconds, as above
    observation = run_fresh(KernelConfig.from_ids(["ID_07"]), omega)
    assert time.process_time() - start < 1.0
    assert observation.epsilon == ("resource_limit", "nesting depth limit exceeded (2000 levels)")


def test_huge_shared_values_are_bounded() -> None:
    # the type r -> r shares r twice, so its normal form doubles at every step
    probe = "eval NatElim (\\_ -> Type) Nat (\\k r -> r -> r) ({n})"
    small = run_fresh(KernelConfig(), probe.format(n="Succ (Succ Zero)"))
    assert small.result == "(Nat -> Nat) -> Nat -> Nat : Type"
    source = "\n".join([DOUBLE, TEN, probe.format(n="double ten")])
    start = time.process_time()  # CPU seconds: wall time measures the other processes on a busy machine
    bounded = run_fresh(KernelConfig(), source)
    assert time.process_time() - start < 1.0 and bounded.epsilon[0] == "resource_limit"
    # which limit fires first must not depend on the machine's speed: without the wall-clock backstop it is steps
    huge = run_fresh(KernelConfig(), source, Limits(time_limit_s=60))
    assert huge.epsilon == ("resource_limit", "step limit exceeded (100000 steps)")


def test_small_limits_are_honoured() -> None:
    limits = Limits(max_steps=50)
    observation = Kernel(limits=limits).probe("\n".join([DOUBLE, TEN, "eval double ten"]))
    assert observation.epsilon == ("resource_limit", "step limit exceeded (50 steps)")
    observation = Kernel(limits=Limits(max_result_chars=10)).probe("eval Succ (Succ (Succ Zero))")
    assert observation.epsilon == ("resource_limit", "result too large (10 characters)")
