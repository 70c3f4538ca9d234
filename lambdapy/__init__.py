"""LambdaPy: a dependently typed lambda calculus kernel with the 13 Elenchos mutations.

Public API (used by the Elenchos sessions and the configuration family):

``KernelConfig``
    Frozen dataclass, one boolean flag per mutation; ``KernelConfig()`` is the
    sound kernel.  ``KernelConfig.from_ids(["ID_04", "ID_06"])`` builds a
    configuration, ``.mutation_ids`` is the sorted tuple of active IDs and
    ``.has("ID_04")`` tests one.  Hashable, so usable as a dict key.
``MUTATIONS``
    Ordered ``dict`` ``"ID_01"`` ... ``"ID_13"`` -> ``MutationInfo`` with ``name``
    (Table 3), ``title`` and ``symptom`` (the prompt catalogue text),
    ``mutation_class``, ``label`` and ``flag`` (the ``KernelConfig`` field).
``Limits``
    Frozen resource limits (probe size, term depth, fuel, evaluation depth,
    time, result size); the defaults keep every probe under about half a second.
``Kernel(config=KernelConfig(), limits=Limits())``
    A kernel with a persistent context.  ``.probe(source) -> Observation`` runs a
    probe (any number of ``assume``/``let`` lines, then exactly one ``eval``
    line), ``.list_context() -> str`` shows the context, ``.reset()`` empties it.
    Creating a kernel is cheap (a few microseconds); parsed lines are cached
    process-wide, so one probe sent to many fresh kernels is parsed once.
``Observation``
    Frozen dataclass: ``sigma`` (``"accept"``/``"reject"``), ``result``
    (``"Zero : Nat"`` or ``None``), ``epsilon`` (``(category, message)`` or
    ``None``); ``.to_json()`` gives ``{"sigma", "result", "epsilon"}`` with epsilon
    rendered as ``"category: message"``.
``diff(obs_a, obs_b) -> str``
    ``identical`` | ``both reject with same error`` |
    ``result divergence: A=..., B=...`` | ``sigma divergence: A=..., B=...`` |
    ``error divergence: A=..., B=...``.
``run_fresh(config, source) -> Observation``
    ``Kernel(config).probe(source)``.
``ERROR_CATEGORIES``
    The epsilon categories (see ``lambdapy.errors``).

Example::

    >>> from lambdapy import Kernel, KernelConfig, diff, run_fresh
    >>> probe = "assume A : Type\\nassume x y : A\\neval (((\\\\u -> \\\\v -> u) : A -> A -> A) x) y"
    >>> run_fresh(KernelConfig(), probe).result
    'x : A'
    >>> diff(run_fresh(KernelConfig(), probe), run_fresh(KernelConfig.from_ids(["ID_08"]), probe))
    'result divergence: A=x : A, B=_ : A'

See ``docs/lambdapy.md`` for the language, and ``lambdapy.mutations`` for how
each mutation is implemented.
"""

from .errors import ERROR_CATEGORIES
from .kernel import Kernel, run_fresh
from .limits import Limits
from .mutations import MUTATION_IDS, MUTATIONS, KernelConfig, MutationInfo
from .observation import Observation, diff

__all__ = [
    "ERROR_CATEGORIES",
    "MUTATIONS",
    "MUTATION_IDS",
    "Kernel",
    "KernelConfig",
    "Limits",
    "MutationInfo",
    "Observation",
    "diff",
    "run_fresh",
]
