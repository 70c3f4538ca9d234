"""MIRA-Math instance generators (one module per family in ``generators.families``)."""

GENERATOR_VERSION = "2.0.0"
# The hard tier (difficulties 4-5, k = 2; docs/hard-tier.md) has its own version, so that changing it never
# changes the bytes of the paper's split (records at d1-3 with k = 1 carry GENERATOR_VERSION).
HARD_TIER_VERSION = f"{GENERATOR_VERSION}+hard.1"
