"""Bidirectional typing: accepted terms, rejected terms and their error categories."""

from __future__ import annotations

import re

import pytest

from lambdapy import KernelConfig, run_fresh

SOUND = KernelConfig()


def epsilon(source: str) -> tuple[str, str]:
    observation = run_fresh(SOUND, source)
    assert observation.sigma == "reject", observation.result
    assert observation.epsilon is not None
    return observation.epsilon


@pytest.mark.parametrize(
    ("source", "category", "fragment"),
    [
        ("eval Zero : Nat -> Nat", "type_error", "type mismatch: expected Nat -> Nat, but `Zero` has type Nat"),
        ("eval Succ Nat", "type_error", "expected Nat, but `Nat` has type Type"),
        ("eval Zero Zero", "type_error", "`Zero` is applied to an argument but has the non-function type Nat"),
        ("eval \\x -> x", "type_error", "cannot infer the type of the lambda `\\x -> x`"),
        ("eval (\\x -> x) : Nat", "type_error", "checked against the non-function type Nat"),
        ("assume x : Zero\neval x", "type_error", "`Zero` is not a type (it has type Nat)"),
        ("eval Vec Type Zero", "type_error", "expected Type, but `Type` has type Type1"),
        ("eval Refl Nat Zero : Eq Nat Zero (Succ Zero)", "type_error", "type mismatch"),
        ("eval Nil Nat : Vec Nat (Succ Zero)", "type_error", "expected Vec Nat (Succ Zero)"),
        ("eval FSucc Zero (FZero Zero)", "type_error", "expected Fin Zero, but `FZero Zero` has type Fin (Succ Zero)"),
        ("eval NatElim Nat Zero Zero Zero", "type_error", "expected Nat -> Type1, but `Nat` has type Type"),
        ("eval y", "scope_error", "unknown name 'y'"),
        ("eval (\\x -> y) : Nat -> Nat", "scope_error", "unknown name 'y'"),
        ("assume Zero : Nat\neval Zero", "scope_error", "the keyword 'Zero' cannot be used as a name"),
        ("eval (\\Type1 -> Zero) : Nat -> Nat", "scope_error", "the keyword 'Type1' cannot be used"),
        ("eval (\\x -> x", "parse_error", "unexpected end of line"),
        ("eval \\x : Nat -> x", "parse_error", "unexpected ':'"),
        ("eval x => y", "parse_error", "unexpected '='"),
    ],
)
def test_rejections(source: str, category: str, fragment: str) -> None:
    got_category, message = epsilon(source)
    assert got_category == category
    assert fragment in message


def test_error_messages_have_no_positions_or_paths() -> None:
    for source in ["eval (\\x -> x", "eval Zero :", "eval @", "eval Succ Nat", "eval foo"]:
        _, message = epsilon(source)
        assert not re.search(r"line \d|col|/|0x|\.py", message), message


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("eval Type", "Type : Type1"),
        ("eval Type1", "Type1 : Type2"),
        ("eval *", "Type : Type1"),
        ("eval * 2", "Type2 : Type3"),
        ("eval Nat : Type1", "Nat : Type1"),  # cumulativity
        ("eval (forall (A : Type) . A -> A) : Type1", "forall (A : Type) . A -> A : Type1"),
        ("eval forall (A : Type) . A -> A", "forall (A : Type) . A -> A : Type1"),
        ("eval (Type -> Type) : Type2", "Type -> Type : Type2"),
        ("eval Vec Nat (Succ Zero)", "Vec Nat (Succ Zero) : Type"),
        ("eval Eq Nat Zero Zero", "Eq Nat Zero Zero : Type"),
        ("eval Fin (Succ Zero)", "Fin (Succ Zero) : Type"),
    ],
)
def test_universes(source: str, expected: str) -> None:
    assert run_fresh(SOUND, source).result == expected


def test_universe_levels_are_stratified() -> None:
    assert epsilon("eval Type1 : Type1")[0] == "type_error"
    assert epsilon("eval (forall (A : Type) . A) : Type")[0] == "type_error"


def test_dependent_application_instantiates_the_codomain() -> None:
    probe = "assume f : forall (n : Nat) . Vec Nat n\neval f (Succ Zero)"
    assert run_fresh(SOUND, probe).result == "f (Succ Zero) : Vec Nat (Succ Zero)"


def test_polymorphic_identity() -> None:
    probe = "let id = (\\A x -> x) : forall (A : Type) . A -> A\neval id Nat (Succ Zero)"
    assert run_fresh(SOUND, probe).result == "Succ Zero : Nat"
    probe = "let id = (\\A x -> x) : forall (A : Type) . A -> A\neval id"
    assert run_fresh(SOUND, probe).result == "\\A x -> x : forall (A : Type) . A -> A"


def test_conversion_uses_normal_forms() -> None:
    probe = (
        "let two = Succ (Succ Zero)\n"
        "let plus = (\\m n -> NatElim (\\_ -> Nat) n (\\k r -> Succ r) m) : Nat -> Nat -> Nat\n"
        "assume v : Vec Nat (plus two two)\n"
        "eval v : Vec Nat (Succ (Succ (Succ (Succ Zero))))"
    )
    assert run_fresh(SOUND, probe).result == "v : Vec Nat (Succ (Succ (Succ (Succ Zero))))"


def test_no_eta_in_conversion() -> None:
    probe = (
        "assume f : Nat -> Nat\nassume P : (Nat -> Nat) -> Type\nassume p : P f\n"
        "eval p : P ((\\x -> f x) : Nat -> Nat)"
    )
    assert epsilon(probe)[0] == "type_error"


def test_names_are_printed_readably_and_freshened() -> None:
    probe = "assume x : Nat\neval ((\\y x -> y) : Nat -> Nat -> Nat) x"
    assert run_fresh(SOUND, probe).result == "\\x1 -> x : Nat -> Nat"
    probe = "eval ((\\x x -> x) : Nat -> Nat -> Nat)"
    assert run_fresh(SOUND, probe).result == "\\x x1 -> x1 : Nat -> Nat -> Nat"
