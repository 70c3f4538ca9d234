"""Computation with the four eliminators and the built-in constructors."""

from __future__ import annotations

from lambdapy import Kernel, KernelConfig, run_fresh
from lambdapy.probes import LIBRARY, PRELUDE, with_prelude

SOUND = KernelConfig()


def nat(n: int) -> str:
    text = "Zero"
    for _ in range(n):
        text = f"Succ ({text})" if text != "Zero" else "Succ Zero"
    return text


def result(source: str) -> str:
    observation = run_fresh(SOUND, source)
    assert observation.sigma == "accept", observation.epsilon
    assert observation.result is not None
    return observation.result


def test_numeral_helper_prints_like_the_kernel() -> None:
    assert result(f"eval {nat(3)}") == f"{nat(3)} : Nat"


def test_prelude_type_checks() -> None:
    kernel = Kernel()
    for name, line in PRELUDE.items():
        (observation,) = kernel.execute(line)
        assert observation.sigma == "accept", (name, observation.epsilon)
    assert "let plus : Nat -> Nat -> Nat = \\m n -> NatElim" in kernel.list_context()


def test_addition_by_nat_elim() -> None:
    assert result(LIBRARY["plus_2_3"]) == f"{nat(5)} : Nat"
    for a, b in [(0, 0), (0, 4), (4, 0), (3, 7)]:
        assert result(with_prelude("plus", body=f"eval plus ({nat(a)}) ({nat(b)})")) == f"{nat(a + b)} : Nat"


def test_nat_elim_on_a_neutral_is_stuck() -> None:
    probe = with_prelude("plus", body="assume k : Nat\neval plus (Succ k) (Succ Zero)")
    assert result(probe) == "Succ (NatElim (\\x -> Nat) (Succ Zero) (\\k1 r -> Succ r) k) : Nat"


def test_large_elimination_into_type() -> None:
    probe = "eval NatElim (\\_ -> Type) Nat (\\_ r -> r -> Nat) (Succ (Succ Zero))"
    assert result(probe) == "(Nat -> Nat) -> Nat : Type"


def test_vector_append() -> None:
    cons = "Cons Nat"
    xs = f"{cons} (Succ Zero) Zero ({cons} Zero ({nat(1)}) (Nil Nat))"
    ys = f"{cons} Zero ({nat(2)}) (Nil Nat)"
    probe = with_prelude("append", body=f"eval append Nat ({nat(2)}) ({nat(1)}) ({xs}) ({ys})")
    expected_value = (
        f"Cons Nat ({nat(2)}) Zero (Cons Nat (Succ Zero) (Succ Zero) (Cons Nat Zero ({nat(2)}) (Nil Nat)))"
    )
    assert result(probe) == f"{expected_value} : Vec Nat ({nat(3)})"


def test_vector_append_type_computes_with_plus() -> None:
    probe = with_prelude("append", body="assume v : Vec Nat (Succ Zero)\neval append Nat (Succ Zero) Zero v (Nil Nat)")
    assert result(probe).endswith(": Vec Nat (Succ Zero)")


def test_vector_head() -> None:
    assert result(LIBRARY["head"]) == f"{nat(2)} : Nat"
    vector = "Cons Nat (Succ Zero) Zero (Cons Nat Zero Zero (Nil Nat))"
    probe = with_prelude("head", body=f"eval head Nat (Succ Zero) ({vector})")
    assert result(probe) == "Zero : Nat"


def test_head_of_empty_vector_is_rejected() -> None:
    probe = with_prelude("head", body="eval head Nat Zero (Nil Nat)")
    observation = run_fresh(SOUND, probe)
    assert observation.epsilon is not None and observation.epsilon[0] == "type_error"


def test_symmetry_of_equality_by_eq_elim() -> None:
    kernel = Kernel()
    (observation,) = kernel.execute(PRELUDE["sym"])
    assert observation.result == "sym : forall (A : Type) (x : A) (y : A) . Eq A x y -> Eq A y x"
    closed = kernel.probe(f"eval sym Nat ({nat(1)}) ({nat(1)}) (Refl Nat ({nat(1)}))")
    assert closed.result == f"Refl Nat ({nat(1)}) : Eq Nat ({nat(1)}) ({nat(1)})"
    assert result(LIBRARY["sym"]) == "EqElim A (\\a1 b1 x -> Eq A b1 a1) (\\z -> Refl A z) a b p : Eq A b a"


def test_eq_elim_transport() -> None:
    probe = (
        "assume P : Nat -> Type\nassume px : P Zero\n"
        "eval EqElim Nat (\\a b _ -> P a -> P b) (\\z pz -> pz) Zero Zero (Refl Nat Zero) px"
    )
    assert result(probe) == "px : P Zero"


def test_fin_elim() -> None:
    assert result(LIBRARY["fin_to_nat"]) == f"{nat(2)} : Nat"
    assert result(with_prelude("finToNat", body="eval finToNat (Succ Zero) (FZero Zero)")) == "Zero : Nat"


def test_fin_elim_threads_the_index_of_fsucc() -> None:
    # the tutorial's code rebuilds the stuck term with the outer index; we use the FSucc's own
    probe = (
        "assume g : Fin (Succ Zero)\n"
        "eval FinElim (\\_ _ -> Nat) (\\_ -> Zero) (\\_ _ r -> Succ r) (Succ (Succ Zero)) (FSucc (Succ Zero) g)"
    )
    assert result(probe) == (
        "Succ (FinElim (\\x x1 -> Nat) (\\x -> Zero) (\\x x1 r -> Succ r) (Succ Zero) g) : Nat"
    )


def test_fin_zero_has_no_element() -> None:
    observation = run_fresh(SOUND, "eval FZero Zero : Fin Zero")
    assert observation.epsilon is not None and observation.epsilon[0] == "type_error"


def test_vec_elim_on_neutral_uses_cons_length() -> None:
    probe = (
        "assume rest : Vec Nat Zero\n"
        "eval VecElim Nat (\\_ _ -> Nat) Zero (\\l x xs r -> Succ r) (Succ Zero) (Cons Nat Zero Zero rest)"
    )
    assert result(probe) == (
        "Succ (VecElim Nat (\\x x1 -> Nat) Zero (\\l x xs r -> Succ r) Zero rest) : Nat"
    )


def test_under_applied_builtins_are_eta_expanded() -> None:
    assert result("eval Succ") == "\\n -> Succ n : Nat -> Nat"
    assert result("eval Cons Nat") == (
        "\\n x xs -> Cons Nat n x xs : forall (n : Nat) . Nat -> Vec Nat n -> Vec Nat (Succ n)"
    )
    assert result("eval (Succ) Zero") == "Succ Zero : Nat"
    assert result("eval Refl Nat") == "\\x -> Refl Nat x : forall (x : Nat) . Eq Nat x x"
    assert result("eval NatElim (\\_ -> Nat) Zero").startswith("\\ms k -> NatElim (\\x -> Nat) Zero ms k : ")


def test_builtins_as_arguments() -> None:
    probe = "eval ((\\f -> f (f Zero)) : (Nat -> Nat) -> Nat) Succ"
    assert result(probe) == f"{nat(2)} : Nat"


def test_extra_arguments_after_a_builtin() -> None:
    probe = "eval NatElim (\\_ -> Nat -> Nat) ((\\x -> x) : Nat -> Nat) (\\k r y -> Succ (r y)) (Succ Zero) Zero"
    assert result(probe) == "Succ Zero : Nat"


def test_large_numerals_from_computation() -> None:
    double = "let double = (\\n -> NatElim (\\_ -> Nat) Zero (\\k r -> Succ (Succ r)) n) : Nat -> Nat"
    ten = f"let ten = {nat(10)}"
    body = "eval " + "double (" * 9 + "ten" + ")" * 9  # 10 * 2^9 = 5120
    text = result("\n".join([double, ten, body]))
    assert text.count("Succ") == 5120
    assert text.endswith("Zero" + ")" * 5119 + " : Nat")
