"""Surface syntax: both syntaxes, comments, errors, and the LALR fast path versus Earley."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lambdapy import syntax
from lambdapy.elaborate import Assume, Check, Eval, Let, elaborate_statement
from lambdapy.errors import KernelError, LambdaParseError
from lambdapy.frontend import statement_lines
from lambdapy.names import Global
from lambdapy.parser import earley_parser, lalr_parser, parse_line, parse_line_earley
from lambdapy.probes import APPENDIX_E_PROBES, LIBRARY, PRELUDE

# --- helpers -----------------------------------------------------------------------------------


def shape(obj: object) -> object:
    """A structural, comparable view of statements and terms (binder names included)."""
    if isinstance(obj, (Assume, Let, Eval, Check, syntax.Star, syntax.Pi, syntax.Lam, syntax.Bound,
                        syntax.Free, syntax.App)) or type(obj) in syntax.SIMPLE_NODES or isinstance(
                            obj, (syntax.Nat, syntax.Zero)):
        fields = [f.name for f in dataclasses.fields(obj) if f.name != "loose"]  # type: ignore[arg-type]
        return (type(obj).__name__, *[shape(getattr(obj, f)) for f in fields])
    if isinstance(obj, tuple):
        return tuple(shape(x) for x in obj)
    return obj


def elaborate(line: str, earley: bool = False) -> object:
    """The elaborated statement of ``line`` or ``("error", category, message)``."""
    try:
        tree = parse_line_earley(line) if earley else parse_line(line)
        return shape(elaborate_statement(tree))
    except KernelError as error:
        return ("error", error.category, error.message)


def lalr_accepts(line: str) -> bool:
    try:
        lalr_parser().parse(line + "\n")
    except Exception:
        return False
    return True


CORPUS = sorted(
    {line for probe in [*LIBRARY.values(), *PRELUDE.values()] for line in statement_lines(probe)}
    | {line for row in APPENDIX_E_PROBES for line in statement_lines(row[2])}
    | {
        "evalZero", "assumex : Nat", "eval Type0x", "eval Type 1", "eval Type00", "eval Type0 1", "eval *1",
        "eval * 1 -> *", "eval \\x->x", "eval Zero:Nat", "eval Zero::Nat", "assume x y :: Nat", "eval f x : A -> B : C",
        "eval (x)(y)", "eval a -- c", "eval forall", "let eval = Zero", "assume Zero : Nat", "eval \\Zero -> Zero",
        "assume (a :: *) (b :: *)", "assume a :: *", "let x = (e :: T)", "check Zero", "eval natElim",
        "eval vecElim A", "eval finElim", "eval eqElim", "eval forall (x :: A) (y : B) . C",
        "eval \\x y z -> x z (y z)", "eval A -> B -> C", "eval (A -> B) -> C", "eval f (g x) (\\y -> y)",
        "eval Type1 -> Type", "eval x : (y : z)", "eval -- nothing", "eval", "assume : Nat", "let x : = y",
        "eval ()", "eval \\ -> x", "eval forall . x", "eval x y ->", "eval Succ(Zero)", "eval (Succ)Zero",
    }
)

# --- corpus -----------------------------------------------------------------------------------


def test_grammars_load() -> None:
    assert earley_parser().options.parser == "earley"
    assert lalr_parser().options.parser == "lalr"


@pytest.mark.parametrize("line", CORPUS)
def test_front_end_agrees_with_the_earley_reference(line: str) -> None:
    reference = elaborate(line, earley=True)
    assert elaborate(line) == reference
    if lalr_accepts(line):
        assert reference[0] != "error" or reference[1] != "parse_error"


def test_both_syntaxes_elaborate_alike() -> None:
    assert elaborate("assume x : Type") == elaborate("assume x :: *") == elaborate("assume (x :: Type0)")
    assert elaborate("let f = ((\\x -> x) :: Nat -> Nat)") == elaborate("let f = ((\\x -> x) : Nat -> Nat)")
    assert elaborate("eval forall (A :: *) . A") == elaborate("eval forall (A : Type) . A")
    assert elaborate("eval Type 1") == elaborate("eval Type1") == elaborate("eval *1")
    assert elaborate("eval natElim") == elaborate("eval NatElim")


def test_elaboration_to_de_bruijn_indices() -> None:
    statement = elaborate_statement(parse_line("eval \\x y -> x y z"))
    assert isinstance(statement, Eval)
    term = statement.term
    assert isinstance(term, syntax.Lam) and isinstance(term.body, syntax.Lam)
    body = term.body.body
    assert isinstance(body, syntax.App) and isinstance(body.fun, syntax.App)
    assert isinstance(body.fun.fun, syntax.Bound) and body.fun.fun.index == 1
    assert isinstance(body.fun.arg, syntax.Bound) and body.fun.arg.index == 0
    assert isinstance(body.arg, syntax.Free) and body.arg.name == Global("z")


def test_arrow_binder_is_anonymous() -> None:
    statement = elaborate_statement(parse_line("eval forall (x : Nat) . Nat -> x"))
    assert isinstance(statement, Eval)
    pi = statement.term
    assert isinstance(pi, syntax.Pi)
    inner = pi.codomain
    assert isinstance(inner, syntax.Pi) and isinstance(inner.codomain, syntax.Bound)
    assert inner.codomain.index == 1  # `x` skips the arrow's anonymous binder


def test_precedence() -> None:
    # annotation takes an application on the left and a whole term on the right
    assert elaborate("eval f x : A -> B") == elaborate("eval (f x) : (A -> B)")
    assert elaborate("eval A -> B : T") == elaborate("eval A -> (B : T)")
    # lambda bodies extend as far right as possible
    assert elaborate("eval \\x -> x : Nat") == elaborate("eval \\x -> (x : Nat)")
    # -> is right associative, application left associative
    assert elaborate("eval A -> B -> C") == elaborate("eval A -> (B -> C)")
    assert elaborate("eval f a b") == elaborate("eval (f a) b")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("eval \\x : Nat -> x", "unexpected ':'"),
        ("eval (Zero", "unexpected end of line"),
        ("eval Zero)", "unexpected ')'"),
        ("eval @", "unexpected '@'"),
        ("assume x y :: Nat", "unexpected ':'"),  # Earley reads the first ':' of '::'
        ("let = Zero", "unexpected '='"),
        ("eval", "unexpected end of line"),
    ],
)
def test_parse_error_messages(line: str, message: str) -> None:
    with pytest.raises(LambdaParseError) as caught:
        parse_line(line)
    assert caught.value.message == message


def test_long_lines_skip_the_earley_fallback() -> None:
    line = "eval " + "x " * 300 + "@"
    with pytest.raises(LambdaParseError) as caught:
        parse_line(line)
    assert caught.value.message == "unexpected '@'"


# --- generated lines ----------------------------------------------------------------------------

NAMES = st.sampled_from(["x", "y", "f", "A", "n", "xs", "_", "Zeros", "Type0x", "forall", "eval"])
ATOMS = st.sampled_from(
    ["Nat", "Zero", "Succ", "NatElim", "Vec", "Nil", "Cons", "Fin", "FZero", "Eq", "Refl", "EqElim",
     "Type", "Type1", "*", "* 2", "Type 3", "natElim"]
) | NAMES


def _terms() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.builds(lambda a: f"({a})", inner),
            st.builds(lambda a, b: f"{a} {b}", inner, inner),
            st.builds(lambda a, b: f"{a} -> {b}", inner, inner),
            st.builds(lambda a, b: f"{a} : {b}", inner, inner),
            st.builds(lambda a, b: f"{a} :: {b}", inner, inner),
            st.builds(lambda x, b: f"\\{x} -> {b}", NAMES, inner),
            st.builds(lambda x, a, b: f"forall ({x} : {a}) . {b}", NAMES, inner, inner),
        )

    return st.recursive(ATOMS, extend, max_leaves=8)


TERMS = _terms()
LINES = st.one_of(
    st.builds(lambda t: f"eval {t}", TERMS),
    st.builds(lambda t: f"check {t}", TERMS),
    st.builds(lambda x, t: f"assume {x} : {t}", NAMES, TERMS),
    st.builds(lambda x, y, t: f"assume {x} {y} : {t}", NAMES, NAMES, TERMS),
    st.builds(lambda x, t: f"assume ({x} :: {t})", NAMES, TERMS),
    st.builds(lambda x, t: f"let {x} = {t}", NAMES, TERMS),
    st.builds(lambda x, t, u: f"let {x} : {t} = {u}", NAMES, TERMS, TERMS),
)


def _squeeze(line: str, drop: list[bool]) -> str:
    """Remove some spaces, to exercise the lexers."""
    out = []
    for i, char in enumerate(line):
        if char == " " and drop[i % len(drop)]:
            continue
        out.append(char)
    return "".join(out)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES, st.lists(st.booleans(), min_size=1, max_size=7))
def test_generated_lines_agree_with_earley(line: str, drop: list[bool]) -> None:
    for candidate in (line, _squeeze(line, drop)):
        assert elaborate(candidate) == elaborate(candidate, earley=True), candidate
