"""The ``inspect_ai`` entry point of this package: the ``scripted`` model provider and the two tasks
(``inspect eval mira_elenchos/mira_math``, ``inspect eval mira_elenchos/elenchos``)."""

from inspect_ai.model import ModelAPI, modelapi

from harness.inspect_tasks import elenchos, mira_math


@modelapi(name="scripted")
def scripted() -> type[ModelAPI]:
    from harness.inspect_adapter.provider import ScriptedModelAPI

    return ScriptedModelAPI


__all__ = ["elenchos", "mira_math", "scripted"]
