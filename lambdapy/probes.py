"""Reference probes: a small library for tests, benchmarks and the Elenchos sessions.

* ``PRELUDE``: ``let`` lines defining ``plus``, ``append``, ``head``, ``sym`` and
  ``finToNat`` (prepend them to a probe; every line type-checks in the sound
  kernel).
* ``SIGNATURE_PROBES``: for every mutation, one probe on which the singleton
  kernel diverges from the sound kernel (the kind of "unique probe" the paper's
  Level-0 prompt lists; the paper's own probes are not published).
* ``LIBRARY``: named probes covering every mutation class and every
  eliminator.  On ``LIBRARY`` the sound kernel and the 13 singleton kernels are
  pairwise distinguishable (tests/lambdapy/test_lambdapy_mutations.py).
* ``APPENDIX_E_PROBES``: the 24 probes of the paper's Appendix E traces (spec digest
  section 11) as ``(trace, ground-truth set, probe, reported diff)``; LambdaPy
  reproduces every reported diff (tests/lambdapy/test_lambdapy_conformance.py).
"""

from __future__ import annotations

NUMERALS = {
    1: "Succ Zero",
    2: "Succ (Succ Zero)",
    3: "Succ (Succ (Succ Zero))",
}

PRELUDE: dict[str, str] = {
    "plus": "let plus = (\\m n -> NatElim (\\_ -> Nat) n (\\k r -> Succ r) m) : Nat -> Nat -> Nat",
    "append": (
        "let append = (\\A m n xs ys -> VecElim A (\\k _ -> Vec A (plus k n)) ys "
        "(\\l x rest r -> Cons A (plus l n) x r) m xs) : "
        "forall (A : Type) (m : Nat) (n : Nat) . Vec A m -> Vec A n -> Vec A (plus m n)"
    ),
    "head": (
        "let head = (\\A n xs -> VecElim A (\\k _ -> NatElim (\\_ -> Type) (Eq Nat Zero Zero) "
        "(\\_ _ -> A) k) (Refl Nat Zero) (\\l x rest r -> x) (Succ n) xs) : "
        "forall (A : Type) (n : Nat) . Vec A (Succ n) -> A"
    ),
    "sym": (
        "let sym = (\\A x y p -> EqElim A (\\a b _ -> Eq A b a) (\\z -> Refl A z) x y p) : "
        "forall (A : Type) (x : A) (y : A) . Eq A x y -> Eq A y x"
    ),
    "finToNat": (
        "let finToNat = (\\n f -> FinElim (\\_ _ -> Nat) (\\_ -> Zero) (\\_ _ r -> Succ r) n f) : "
        "forall (n : Nat) . Fin n -> Nat"
    ),
}


def with_prelude(*names: str, body: str) -> str:
    """A probe: the named prelude definitions (with their dependencies), then ``body``."""
    needed: list[str] = []
    for name in names:
        for dependency in (*_DEPENDENCIES.get(name, ()), name):
            if dependency not in needed:
                needed.append(dependency)
    return "\n".join([PRELUDE[n] for n in needed] + [body])


_DEPENDENCIES: dict[str, tuple[str, ...]] = {"append": ("plus",)}

SIGNATURE_PROBES: dict[str, str] = {
    "ID_01": "assume P : Nat -> Type\nassume p : P Zero\neval p : P (Succ Zero)",
    "ID_02": "eval ((\\a -> \\b -> a) : Nat -> Nat -> Nat)",
    "ID_03": (
        "assume A : Type\nassume h : forall (x : A) . forall (y : A) . Eq A x y\n"
        "eval h : forall (x : A) . forall (y : A) . Eq A y x"
    ),
    "ID_04": "assume A : Type\nassume x y z : A\neval (((\\a -> \\b -> \\c -> b) : A -> A -> A -> A) x y z)",
    "ID_05": "assume f : Nat -> Nat\neval f Zero",
    "ID_06": "assume A : Type\nassume x y : A\neval (((\\u -> \\v -> u) : A -> A -> A) x) y",
    "ID_07": "eval Zero : Nat -> Nat",
    "ID_08": "assume A : Type\nassume x y : A\neval (((\\u -> \\v -> u) : A -> A -> A) x) y",
    "ID_09": "assume A : Type\nassume x y : A\neval (((\\u -> \\v -> u) : A -> A -> A) x) y",
    "ID_10": "assume x y : Nat\nassume v : Vec Nat x\neval v : Vec Nat y",
    "ID_11": "assume f : Nat -> Nat\neval f Zero",
    "ID_12": "eval Type",
    "ID_13": "eval (((\\x -> x) : Nat -> Nat) Zero)",
}

LIBRARY: dict[str, str] = {
    "zero": "eval Zero : Nat",
    "nat_type": "eval Nat",
    "universe": "eval Type",
    "universe_annotation": "eval Type0 : Type0",
    "universe_pi": "eval (forall (A : Type) . A -> A) : Type",
    "nat_as_function": "eval Zero : Nat -> Nat",
    "identity_annotated": "eval (\\x -> x) : Nat -> Nat",
    "identity_applied": "eval (((\\x -> x) : Nat -> Nat) Zero)",
    "unannotated_head": "eval ((\\x -> x) Zero) : Nat",
    "neutral_application": "assume f : Nat -> Nat\neval f Zero",
    "const_two_binders": SIGNATURE_PROBES["ID_06"],
    "second_of_two_binders": "assume A : Type\nassume x y : A\neval (((\\u -> \\v -> v) : A -> A -> A) x) y",
    "three_binders": SIGNATURE_PROBES["ID_04"],
    "last_of_three_binders": (
        "assume A : Type\nassume x y z : A\neval (((\\a -> \\b -> \\c -> c) : A -> A -> A -> A) x y z)"
    ),
    "nested_lambda_quoted": SIGNATURE_PROBES["ID_02"],
    "application_arguments": SIGNATURE_PROBES["ID_01"],
    "application_arguments_local": (
        "eval ((\\P p -> (p : P (Succ Zero))) : forall (P : Nat -> Type) . P Zero -> P (Succ Zero))"
    ),
    "bound_indices": SIGNATURE_PROBES["ID_03"],
    "bound_indices_lambda": (
        "assume P : (Nat -> Nat -> Nat) -> Type\nassume p : P ((\\x y -> x) : Nat -> Nat -> Nat)\n"
        "eval p : P ((\\x y -> y) : Nat -> Nat -> Nat)"
    ),
    "free_heads": SIGNATURE_PROBES["ID_10"],
    "free_heads_local": (
        "eval ((\\x y v -> (v : Vec Nat y)) : forall (x : Nat) (y : Nat) . Vec Nat x -> Vec Nat y)"
    ),
    "plus_2_3": with_prelude("plus", body=f"eval plus ({NUMERALS[2]}) ({NUMERALS[3]})"),
    "append": with_prelude(
        "append",
        body="eval append Nat (Succ Zero) (Succ Zero) (Cons Nat Zero Zero (Nil Nat)) "
        "(Cons Nat Zero (Succ Zero) (Nil Nat))",
    ),
    "head": with_prelude("head", body=f"eval head Nat Zero (Cons Nat Zero ({NUMERALS[2]}) (Nil Nat))"),
    "sym": with_prelude("sym", body="assume A : Type\nassume a b : A\nassume p : Eq A a b\neval sym A a b p"),
    "fin_to_nat": with_prelude(
        "finToNat",
        body=f"eval finToNat ({NUMERALS[3]}) (FSucc ({NUMERALS[2]}) (FSucc ({NUMERALS[1]}) (FZero Zero)))",
    ),
    "eq_refl": "eval Refl Nat Zero : Eq Nat Zero Zero",
    "under_applied_cons": "eval Cons Nat",
}

GPT = ("gpt-5.4", {"ID_01", "ID_03"})
HAIKU = ("claude-haiku-4-5", {"ID_02", "ID_06"})
GEMINI = ("gemini-2.5-flash", {"ID_02", "ID_08"})
SAME_ERROR = "both reject with same error"

# (trace, ground-truth set, probe, reported diff), in trace order (spec digest section 11)
APPENDIX_E_PROBES: list[tuple[str, set[str], str, str]] = [
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
