"""Property tests on generated well-typed terms.

* evaluation is deterministic (fresh kernels, sound and mutated, agree with themselves);
* normal forms are fixed points: quote(eval(quote(eval t))) == quote(eval t);
* printed results parse back to themselves (``eval (v) : (T)`` prints ``v : T`` again).
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lambdapy import MUTATION_IDS, Kernel, KernelConfig, Limits, run_fresh
from lambdapy.conversion import terms_equal
from lambdapy.elaborate import Eval
from lambdapy.evaluation import Evaluator
from lambdapy.frontend import parse_probe
from lambdapy.limits import Budget
from lambdapy.probes import PRELUDE
from lambdapy.quotation import quote0
from lambdapy.syntax import annotate_loose

CONTEXT = "\n".join(["assume n m : Nat", "assume g : Nat -> Nat", "assume h : Nat -> Nat -> Nat", PRELUDE["plus"]])
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _nat_terms() -> st.SearchStrategy[str]:
    """Closed, well-typed terms of type Nat (over the assumed names of CONTEXT)."""
    leaves = st.sampled_from(["Zero", "Succ Zero", "n", "m"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.builds(lambda a: f"Succ ({a})", inner),
            st.builds(lambda a: f"g ({a})", inner),
            st.builds(lambda a, b: f"h ({a}) ({b})", inner, inner),
            st.builds(lambda a, b: f"plus ({a}) ({b})", inner, inner),
            st.builds(lambda body, a: f"((\\v -> {body.replace('@', 'v')}) : Nat -> Nat) ({a})", _bodies(inner), inner),
            st.builds(
                lambda z, step, k: f"NatElim (\\_ -> Nat) ({z}) (\\k r -> {step}) ({k})",
                inner, st.sampled_from(["Succ r", "r", "Succ (Succ r)", "g r", "h k r", "plus k r"]), inner,
            ),
        )

    return st.recursive(leaves, extend, max_leaves=6)


def _bodies(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Bodies mentioning the placeholder ``@`` (replaced by a bound variable)."""
    return st.one_of(
        st.just("@"),
        st.builds(lambda a: f"Succ (plus @ ({a}))", inner),
        st.builds(lambda a: f"h @ ({a})", inner),
        st.just("NatElim (\\_ -> Nat) @ (\\k r -> Succ r) @"),
    )


NAT_TERMS = _nat_terms()
FUNCTIONS = st.builds(lambda body: f"(\\v -> {body.replace('@', 'v')}) : Nat -> Nat", _bodies(NAT_TERMS))
TERMS = st.one_of(NAT_TERMS, FUNCTIONS)


def probe(term: str) -> str:
    return f"{CONTEXT}\neval {term}"


@SETTINGS
@given(TERMS)
def test_sound_kernel_accepts_well_typed_terms(term: str) -> None:
    observation = run_fresh(KernelConfig(), probe(term))
    assume(observation.epsilon is None or observation.epsilon[0] != "resource_limit")
    assert observation.sigma == "accept", observation.epsilon
    assert observation.result is not None and observation.result.endswith((": Nat", ": Nat -> Nat"))


@SETTINGS
@given(TERMS, st.sampled_from(["sound", *MUTATION_IDS]))
def test_evaluation_is_deterministic(term: str, mutation: str) -> None:
    config = KernelConfig() if mutation == "sound" else KernelConfig.from_ids([mutation])
    first = run_fresh(config, probe(term))
    assert first.epsilon is None or first.epsilon[0] != "internal_error"
    kernel = Kernel(config)
    kernel.probe("assume unrelated : Type\neval unrelated")
    assert kernel.probe(probe(term)) == first
    assert run_fresh(config, probe(term)) == first


@SETTINGS
@given(TERMS)
def test_normal_forms_are_fixed_points(term: str) -> None:
    kernel = Kernel()
    setup = kernel.probe(f"{CONTEXT}\neval Zero")
    assert setup.sigma == "accept"
    statements = parse_probe(f"eval {term}", Limits().max_term_depth)
    statement = statements[-1]
    assert isinstance(statement, Eval)
    config = KernelConfig()
    ev = Evaluator(config, kernel.globals, Budget(Limits()))
    first = quote0(ev, ev.eval(statement.term, ()))
    second = quote0(ev, ev.eval(annotate_loose(first), ()))
    assert terms_equal(first, second, config, ev.budget)


@SETTINGS
@given(TERMS)
def test_printed_results_parse_back_to_themselves(term: str) -> None:
    kernel = Kernel()
    observation = kernel.probe(probe(term))
    assume(observation.result is not None)
    assert observation.result is not None
    value, type_ = observation.result.rsplit(" : ", 1)
    again = kernel.probe(f"eval ({value}) : ({type_})")
    assert again == observation
