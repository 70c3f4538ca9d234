"""Registers the deterministic Elenchos agents for the ``elenchos.agent`` role (imported by the registry)."""

from harness import registry

registry.register_lazy("elenchos.agent", "sra", "elenchos.agents:make_sra")
registry.register_lazy("elenchos.agent", "simple_reflex_agent", "elenchos.agents:make_sra")
registry.register_lazy("elenchos.agent", "optimal", "elenchos.agents:make_optimal")
registry.register_lazy("elenchos.agent", "random", "elenchos.agents:make_random")
