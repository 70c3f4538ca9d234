"""MIRA-Math instance generators (one module per family in ``generators.families``)."""

GENERATOR_VERSION = "1.1.0"
