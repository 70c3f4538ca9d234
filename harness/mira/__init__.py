"""MIRA-Math: the solver/responder protocol, deterministic agents, runs, scoring and reports."""

from schemas import MIRA_PROTOCOL_VERSION as PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
