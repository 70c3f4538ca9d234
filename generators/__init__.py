"""MIRA-Math instance generators (one module per family in ``generators.families``)."""

GENERATOR_VERSION = "2.0.0"
