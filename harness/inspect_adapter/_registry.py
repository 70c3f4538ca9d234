"""The ``inspect_ai`` entry point of this package: the ``scripted`` model provider and the two tasks
(``inspect eval mira_elenchos/mira_math``, ``inspect eval mira_elenchos/elenchos``).

inspect looks an entry-point task up as ``PACKAGE/NAME`` with PACKAGE the entry point's name (``mira_elenchos``),
while ``@task`` names a task after its module's top-level package (``harness``, or none for a source checkout);
so the two tasks of ``harness/inspect_tasks.py`` are registered here a second time under ``mira_elenchos/``.
"""

from inspect_ai import task
from inspect_ai.model import ModelAPI, modelapi

from harness import inspect_tasks

ENTRY_POINT = "mira_elenchos"  # [project.entry-points.inspect_ai] in pyproject.toml

mira_math = task(name=f"{ENTRY_POINT}/mira_math")(inspect_tasks.mira_math.__wrapped__)
elenchos = task(name=f"{ENTRY_POINT}/elenchos")(inspect_tasks.elenchos.__wrapped__)


@modelapi(name="scripted")
def scripted() -> type[ModelAPI]:
    from harness.inspect_adapter.provider import ScriptedModelAPI

    return ScriptedModelAPI


__all__ = ["elenchos", "mira_math", "scripted"]
