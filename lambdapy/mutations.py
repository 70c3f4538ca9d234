"""The 13 Elenchos mutations (paper Table 3) and the kernel configuration.

A mutation is a boolean flag of the frozen ``KernelConfig``; the default
configuration is the sound kernel.  Any subset of flags composes; the kernel
source is never edited and every kernel owns its configuration, so kernels with
different configurations share no mutable state.

Each flag is read at exactly one place in the kernel (its *hook point*):

======  =========================================  ====================================
ID      flag                                       hook point
======  =========================================  ====================================
ID_01   ``app_equality_ignores_args``              ``conversion``: ``App`` vs ``App``
ID_02   ``subst_no_increment_under_lambda``        ``substitution``: ``Lam`` case
ID_03   ``bound_0_equals_bound_1``                 ``conversion``: ``Bound`` vs ``Bound``
ID_04   ``bound_lookup_shift``                     ``env.lookup``
ID_05   ``unknown_globals_to_zero``                ``evaluation.unknown_global``
ID_06   ``lambda_env_reversed``                    ``env.bind_lambda_argument``
ID_07   ``type_equality_collapse``                 ``typecheck``: mode switch (check an
                                                   inferable term)
ID_08   ``lambda_env_padding``                     ``evaluation``: lambda closure creation
ID_09   ``double_application``                     ``evaluation.vapp``
ID_10   ``free_heads_equal``                       ``conversion``: ``Free`` vs ``Free``
ID_11   ``unknown_globals_to_identity``            ``evaluation.unknown_global``
ID_12   ``universe_collapse``                      ``typecheck``: typing of ``Star``
ID_13   ``argument_dropping``                      ``evaluation.vapp``
======  =========================================  ====================================

Behaviour of each mutation as implemented (catalogue wording in ``MUTATIONS``):

* **ID_01** Table 3 describes the *correct* rule ("strictly enforces equality on
  both the function and the argument").  The prompt catalogue, which is what
  agents are scored against, describes the fault: *neutral applications ignore
  their arguments in definitional equality*.  We implement the catalogue: two
  applications in normal form (every application in a normal form has a neutral
  head) are equal when their functions are equal, whatever the arguments.
* **ID_02** When the checker opens a binder it substitutes a fresh free variable
  for ``Bound(0)``; the mutated substitution does not increment the target index
  when it passes under a ``Lam`` (``Pi`` is still handled correctly).  Evaluation
  never substitutes, so only type checking of nested lambdas is affected: an
  inner variable is mistaken for the outer one, and a reference to the outer
  one escapes (``eval_error``/``type_error``).
* **ID_03** ``Bound(0)`` and ``Bound(1)`` are definitionally equal (only these
  two indices, as in Table 3).  Bound indices occur in compared normal forms
  only under binders of the compared values (Pi types, lambdas).
* **ID_04** ``Bound(i)`` is looked up as ``env[min(i + 1, len(env) - 1)]``.  This
  applies to every environment lookup (lambda bodies and Pi codomains).
* **ID_05** / **ID_11** an *unknown global* is a name with a type but no value,
  i.e. an ``assume``-d name.  Its value becomes ``Zero`` (ID_05) or the identity
  function ``\\x -> x`` (ID_11) instead of a neutral variable.  Local variables of
  the checker and of quotation stay neutral.  If both flags are set, ID_05 wins.
* **ID_06** applying a lambda puts the argument at the wrong end of the closure
  environment (``env + (v,)`` instead of ``(v,) + env``).  Only lambda closures
  are affected; Pi codomains are instantiated soundly.
* **ID_07** the mode switch of bidirectional checking (an inferable term checked
  against an expected type) accepts whatever type was inferred.  Checks that a
  term *is a type* or *is a function* are shape checks and still apply.
* **ID_08** every lambda closure is created with one extra neutral value ``_`` in
  front of its environment, so inside the body the parameter is still
  ``Bound(0)`` but every outer variable is shifted by one.  The identity
  ``\\x -> x`` is therefore unaffected (consistent with Appendix E).
* **ID_09** Table 3 says "applied a second time to the result of itself" (``f (f
  x)``); the catalogue says "as if the first result were applied again to the
  original argument" (``(f x) x``).  We implement the catalogue: when beta
  reduction of ``f x`` yields another lambda, that lambda is applied to ``x`` as
  well (once, not repeatedly).
* **ID_10** two free variables (any names: assumed globals, locals of the
  checker) are definitionally equal.
* **ID_12** ``Star(n)`` is typed ``Type n`` instead of ``Type (n+1)``.
* **ID_13** beta reduction ignores the argument and instantiates the lambda with
  ``Type`` (``VStar(0)``).  Neutral applications keep their argument.
* Composition of ID_09 and ID_13: the second application of ID_09 also receives
  ``Type``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class MutationInfo:
    """One entry of the mutation catalogue."""

    id: str
    flag: str  # field of ``KernelConfig``
    name: str  # Table 3 name
    mutation_class: str  # Table 3 canonical class
    label: str  # Table 6 analysis-time label
    title: str  # catalogue title shown to agents (Levels 0-2)
    symptom: str  # catalogue symptom shown to agents


_CATALOGUE = (
    MutationInfo(
        "ID_01", "app_equality_ignores_args", "Equality of Applications Argument",
        "Type Equality", "def_equality",
        "Neutral applications ignore their arguments in definitional equality",
        "Types indexed by `f a` and `f b` may compare equal whenever the head is the same, "
        "even though the arguments differ.",
    ),
    MutationInfo(
        "ID_02", "subst_no_increment_under_lambda", "Fail to Increment Under Lambda",
        "Binding Discipline", "binding",
        "Fail to increment the target index under lambda",
        "Substitution crosses a binder incorrectly. Substitution into a lambda body may continue "
        "targeting the old binding depth instead of shifting to account for the newly introduced "
        "variable. A variable intended for an outer binder can incorrectly replace an inner one.",
    ),
    MutationInfo(
        "ID_03", "bound_0_equals_bound_1", "Equality of Bound Indices",
        "Type Equality", "def_equality",
        "Definitional equality ignores which binder a variable refers to",
        "Terms or types that differ only by which nearby binder is referenced can be treated as "
        "equal.",
    ),
    MutationInfo(
        "ID_04", "bound_lookup_shift", "Index Shift",
        "Binding Discipline", "binding",
        "Index drift in bound lookup",
        "Bound-variable lookup uses the wrong selection under nested binding. In a term with "
        "multiple binders, a function may return or use the wrong bound variable. Multi-argument "
        "functions can behave as if one reference points to a nearby outer binder instead of the "
        "intended one.",
    ),
    MutationInfo(
        "ID_05", "unknown_globals_to_zero", "Globals to Zero",
        "Semantic Environment", "free_name",
        "Unknown names behave like a fixed canonical constant",
        "A free name that should remain with no definition instead collapses computations toward "
        "a constant value. Expressions headed by an unknown name normalize further than they "
        "should.",
    ),
    MutationInfo(
        "ID_06", "lambda_env_reversed", "Lambda Environment Reversion",
        "Semantic Environment", "binding",
        "Nested functions mix up inner and outer arguments",
        "Single-argument functions may look fine, but functions returning functions can swap the "
        "roles of inner and outer bound values.",
    ),
    MutationInfo(
        "ID_07", "type_equality_collapse", "Equality of Inference Terms",
        "Type Equality", "def_equality",
        "Definitional equality in the context where types are being compared",
        "Type checking accepts terms because structurally different expressions which the type "
        "can be read off are treated as definitionally equal even when they should not be.",
    ),
    MutationInfo(
        "ID_08", "lambda_env_padding", "Lambda Environment Padding",
        "Semantic Environment", "binding",
        "Function bodies can see a spurious extra value",
        "Under lambda application, some bound references behave as if an extra unrelated value "
        "has appeared in scope. Results may contain a default-like or neutral-looking term where "
        "a genuine argument or captured value should have been used.",
    ),
    MutationInfo(
        "ID_09", "double_application", "Double Application",
        "Computational Rule", "application",
        "Function application repeats self-feeding",
        "A single application can continue by feeding the same argument in again. Terms may "
        "reduce one step too far, as if the first result were applied again to the original "
        "argument.",
    ),
    MutationInfo(
        "ID_10", "free_heads_equal", "Equality of Free Terms",
        "Type Equality", "def_equality",
        "Distinct free heads compare definitionally equal",
        "Two dependent types indexed by different free variables may be treated as "
        "interchangeable merely because both heads are unresolved names.",
    ),
    MutationInfo(
        "ID_11", "unknown_globals_to_identity", "Globals to Identity",
        "Semantic Environment", "free_name",
        "Unknown names behave like identity",
        "Applying an unknown name to an argument returns that argument, as if the missing head "
        "were an identity function. Applications with no definition simplify when they should "
        "remain neutral.",
    ),
    MutationInfo(
        "ID_12", "universe_collapse", "Universe Collapse",
        "Universe Leveling", "universe",
        "Universe stratification collapses",
        "Universe typing is too permissive. Universes become self-typed instead of stratified. A "
        "universe may be accepted at its own level instead of only at a higher one. The system "
        "behaves as though `Type n : Type n` instead of `Type n+1`.",
    ),
    MutationInfo(
        "ID_13", "argument_dropping", "Argument Dropping",
        "Computational Rule", "application",
        "Function application ignores its argument",
        "Applying a function can produce a result that does not depend on the supplied argument "
        "even when it obviously should.",
    ),
)

#: Catalogue in ID order: ``MUTATIONS["ID_04"].title`` etc.
MUTATIONS: dict[str, MutationInfo] = {m.id: m for m in _CATALOGUE}

MUTATION_IDS: tuple[str, ...] = tuple(MUTATIONS)


@dataclass(frozen=True, slots=True)
class KernelConfig:
    """Runtime configuration of a kernel: one flag per mutation, all off = sound."""

    app_equality_ignores_args: bool = False  # ID_01
    subst_no_increment_under_lambda: bool = False  # ID_02
    bound_0_equals_bound_1: bool = False  # ID_03
    bound_lookup_shift: bool = False  # ID_04
    unknown_globals_to_zero: bool = False  # ID_05
    lambda_env_reversed: bool = False  # ID_06
    type_equality_collapse: bool = False  # ID_07
    lambda_env_padding: bool = False  # ID_08
    double_application: bool = False  # ID_09
    free_heads_equal: bool = False  # ID_10
    unknown_globals_to_identity: bool = False  # ID_11
    universe_collapse: bool = False  # ID_12
    argument_dropping: bool = False  # ID_13

    @classmethod
    def from_ids(cls, ids: Iterable[str]) -> KernelConfig:
        """Configuration with exactly the given mutations (``"ID_04"`` or ``"id_4"``)."""
        flags = {}
        for raw in ids:
            mutation_id = normalize_id(raw)
            flags[MUTATIONS[mutation_id].flag] = True
        return cls(**flags)

    @property
    def mutation_ids(self) -> tuple[str, ...]:
        """The active mutation IDs, sorted."""
        return tuple(m.id for m in _CATALOGUE if getattr(self, m.flag))

    @property
    def is_sound(self) -> bool:
        return not self.mutation_ids

    def has(self, mutation_id: str) -> bool:
        return bool(getattr(self, MUTATIONS[normalize_id(mutation_id)].flag))

    def __str__(self) -> str:
        return "{" + ", ".join(self.mutation_ids) + "}"


def normalize_id(raw: str) -> str:
    """``"id_4"``, ``"ID_04"``, ``"4"`` -> ``"ID_04"``; ``KeyError`` for unknown IDs."""
    text = raw.strip().upper()
    if text.startswith("ID_"):
        text = text[3:]
    elif text.startswith("ID"):
        text = text[2:]
    if not (text.isascii() and text.isdigit() and len(text) <= 6):  # "²" and "٤" pass isdigit() but not int()
        raise KeyError(f"unknown mutation id {raw!r}")
    mutation_id = f"ID_{int(text):02d}"
    if mutation_id not in MUTATIONS:
        raise KeyError(f"unknown mutation id {raw!r}")
    return mutation_id


def parse_mutations(text: str | None) -> KernelConfig:
    """``"ID_04,ID_06"`` (command line and REPL) -> its configuration; ``None``, ``""``, ``none`` and ``sound``
    are the sound kernel; ``KeyError`` for unknown IDs."""
    if text is None or text.strip().lower() in ("", "none", "sound"):
        return KernelConfig()
    return KernelConfig.from_ids(part for part in text.split(",") if part.strip())


def _check_catalogue() -> None:
    names = {f.name for f in fields(KernelConfig)}
    assert names == {m.flag for m in _CATALOGUE}, "KernelConfig fields and MUTATIONS disagree"


_check_catalogue()
