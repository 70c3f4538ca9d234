"""MIRA-Math: the solver/responder protocol, deterministic agents, runs, scoring and reports."""

PROTOCOL_VERSION = "mira-protocol/1"
