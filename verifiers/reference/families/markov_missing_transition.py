"""Importing the release's ``markov_missing_transition`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import frac, frac_json
from generators.families import markov_missing_transition as _mar
from verifiers.reference.mapping import Mapped, Spec, domain, frac_type, read_views, released
from verifiers.reference.release import Release


def map_markov(rec: Release) -> Mapped:
    conv = {"transition": frac_type("from_state", "to_state")}
    a, b, hint = read_views(rec, conv)
    n, s = rec.meta_int("n_states"), rec.meta_int("target_state")
    return Mapped([domain(_mar.chain_statement(n), n_states=n), *a], b, hint,
                  _mar.slot_of(hint["from_state"], hint["to_state"]), frac_json(frac(hint)),
                  {"type": "stationary_probability", "state": s},
                  f"What is pi_{s}, the stationary probability of state {s}? Give it as a reduced fraction.",
                  [f"pi_{s}"], released(rec))


SPEC = Spec(map_markov, "dict_int")
