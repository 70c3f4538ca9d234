"""Versioned prompts for model agents. Every text change bumps the version, which run.json records.

* ``harness.prompts.mira``     solver (zero-shot / four-shot) and responder prompts for MIRA-Math;
* ``harness.prompts.elenchos`` system prompts Levels 0-3 of the Elenchos audit (paper Appendix D).
"""

from harness.prompts.elenchos import ELENCHOS_PROMPT_VERSION, elenchos_system_prompt
from harness.prompts.mira import RESPONDER_PROMPT_VERSION, SOLVER_PROMPT_VERSION

__all__ = ["ELENCHOS_PROMPT_VERSION", "RESPONDER_PROMPT_VERSION", "SOLVER_PROMPT_VERSION", "elenchos_system_prompt"]
