"""Statements, persistent state, probe format, observations and diff."""

from __future__ import annotations

import json

import pytest

from lambdapy import ERROR_CATEGORIES, Kernel, KernelConfig, Observation, diff, run_fresh


def test_assume_forms_both_syntaxes() -> None:
    kernel = Kernel()
    probe = "\n".join(
        [
            "assume A : Type",
            "assume (B :: *) (C :: *)",
            "assume D :: *",
            "assume x y : A",
            "assume (f : A -> B)",
            "eval f x",
        ]
    )
    assert kernel.probe(probe).result == "f x : B"
    assert kernel.list_context().splitlines() == [
        "assume A : Type",
        "assume B : Type",
        "assume C : Type",
        "assume D : Type",
        "assume x : A",
        "assume y : A",
        "assume f : A -> B",
    ]


def test_let_forms_both_syntaxes() -> None:
    kernel = Kernel()
    probe = "\n".join(
        [
            "let one = Succ Zero",
            "let two : Nat = Succ one",
            "let id = ((\\x -> x) :: Nat -> Nat)",
            "eval id two",
        ]
    )
    assert kernel.probe(probe).result == "Succ (Succ Zero) : Nat"
    assert "let id : Nat -> Nat = \\x -> x" in kernel.list_context()


def test_state_persists_across_probes() -> None:
    kernel = Kernel()
    assert kernel.probe("assume A : Type\nassume a : A\neval a").result == "a : A"
    assert kernel.probe("eval a").result == "a : A"
    assert kernel.probe("let b = a\neval b").result == "a : A"
    kernel.reset()
    assert kernel.list_context() == ""
    assert kernel.probe("eval a").epsilon == ("scope_error", "unknown name 'a'")


def test_failed_statement_is_not_retained_but_earlier_ones_are() -> None:
    kernel = Kernel()
    observation = kernel.probe("assume A : Type\nlet bad : A = Zero\neval A")
    assert observation.sigma == "reject"
    assert observation.epsilon is not None and observation.epsilon[0] == "type_error"
    assert kernel.list_context() == "assume A : Type"


def test_assume_with_several_bindings_is_atomic() -> None:
    kernel = Kernel()
    observation = kernel.probe("assume (a : Nat) (b : Zero)\neval a")
    assert observation.sigma == "reject"
    assert kernel.list_context() == ""


def test_later_bindings_may_use_earlier_ones() -> None:
    assert run_fresh(KernelConfig(), "assume (A : Type) (x : A)\neval x").result == "x : A"


def test_redeclaration_is_allowed_and_newest_wins() -> None:
    kernel = Kernel()
    kernel.probe("assume A : Type\nassume x : A\neval x")
    assert kernel.probe("assume x : Nat\neval x").result == "x : Nat"
    assert kernel.list_context().splitlines() == ["assume A : Type", "assume x : Nat"]


def test_let_values_are_unfolded_assumptions_stay_neutral() -> None:
    probe = "assume n : Nat\nlet m = Succ n\neval m"
    assert run_fresh(KernelConfig(), probe).result == "Succ n : Nat"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("eval Zero; eval Zero", "';' is not allowed; write one statement per line"),
        ("assume A : Type", "a probe must end with exactly one eval statement"),
        ("eval Zero\neval Zero", "only assume and let statements may precede the final eval statement"),
        ("", "empty probe; a probe ends with one eval statement"),
        ("-- only a comment\n\n", "empty probe; a probe ends with one eval statement"),
    ],
)
def test_probe_format(source: str, message: str) -> None:
    kernel = Kernel()
    assert kernel.probe(source).epsilon == ("probe_error", message)
    assert kernel.list_context() == ""


def test_format_errors_run_nothing() -> None:
    kernel = Kernel()
    kernel.probe("assume A : Type\neval A\neval A")
    kernel.probe("assume B : Type\neval (")
    assert kernel.list_context() == ""


def test_comments_blank_lines_and_crlf() -> None:
    probe = "-- a comment\r\n\r\nassume A : Type -- trailing\r\n  \r\neval A -- why not"
    assert run_fresh(KernelConfig(), probe).result == "A : Type"
    assert run_fresh(KernelConfig(), "-- x; y\neval Zero").result == "Zero : Nat"


def test_check_statement_as_final_line() -> None:
    assert run_fresh(KernelConfig(), "check Succ Zero").result == "Succ Zero : Nat"
    probe = "let plus = (\\m n -> NatElim (\\_ -> Nat) n (\\k r -> Succ r) m) : Nat -> Nat -> Nat\ncheck plus Zero"
    assert run_fresh(KernelConfig(), probe).result == "plus Zero : Nat -> Nat"


def test_execute_runs_statements_of_any_kind() -> None:
    kernel = Kernel()
    observations = kernel.execute("assume A : Type\nlet f = (\\x -> x) : A -> A\neval f")
    assert [o.result for o in observations] == ["A : Type", "f : A -> A", "\\x -> x : A -> A"]


def test_observation_json_and_text() -> None:
    accepted = run_fresh(KernelConfig(), "eval Zero")
    assert accepted == Observation("accept", "Zero : Nat", None)
    assert accepted.to_json() == {"sigma": "accept", "result": "Zero : Nat", "epsilon": None}
    rejected = run_fresh(KernelConfig(), "eval y")
    assert rejected.to_json() == {"sigma": "reject", "result": None, "epsilon": "scope_error: unknown name 'y'"}
    json.dumps(rejected.to_json())
    assert rejected.epsilon is not None and rejected.epsilon[0] in ERROR_CATEGORIES


def test_diff_categories() -> None:
    zero = Observation.accepted("Zero : Nat")
    one = Observation.accepted("Succ Zero : Nat")
    type_error = Observation.rejected("type_error", "type mismatch")
    scope_error = Observation.rejected("scope_error", "unknown name 'y'")
    assert diff(zero, zero) == "identical"
    assert diff(type_error, type_error) == "both reject with same error"
    assert diff(zero, one) == "result divergence: A=Zero : Nat, B=Succ Zero : Nat"
    assert diff(zero, type_error) == "sigma divergence: A=accept, B=reject"
    assert diff(type_error, zero) == "sigma divergence: A=reject, B=accept"
    assert diff(type_error, scope_error) == (
        "error divergence: A=type_error: type mismatch, B=scope_error: unknown name 'y'"
    )


def test_kernels_are_isolated() -> None:
    sound, mutated = Kernel(), Kernel(KernelConfig.from_ids(["ID_06"]))
    sound.probe("assume A : Type\nassume x y : A\neval x")
    assert mutated.list_context() == ""
    probe = "eval (((\\u -> \\v -> u) : A -> A -> A) x) y"
    mutated.probe("assume A : Type\nassume x y : A\neval x")
    assert sound.probe(probe).result == "x : A"
    assert mutated.probe(probe).result == "y : A"
    assert sound.probe(probe).result == "x : A"


def test_fresh_kernels_do_not_share_state() -> None:
    run_fresh(KernelConfig(), "assume A : Type\neval A")
    assert run_fresh(KernelConfig(), "eval A").epsilon == ("scope_error", "unknown name 'A'")
