"""Importing the release's ``birth_death_missing_rate`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from generators.families import birth_death_missing_rate as _bir
from verifiers.reference.mapping import Mapped, Spec, int_fields, read_views, released
from verifiers.reference.release import Release


def _rate(rec: Release, c: Constraint, where: str) -> Constraint:
    return int_fields("from_state", "to_state", "value")(rec, c, where)


def map_birth_death(rec: Release) -> Mapped:
    conv = {"birth_rate": _rate, "death_rate": _rate}
    a, b, hint = read_views(rec, conv)
    n, s = rec.meta_int("n_states"), rec.meta_int("target_state")
    # our solver checks rates against a stated range; the release's generator range (never binding here: pi_s is
    # strictly monotone in every rate, so no range can pin it) widened to every released value
    top = max([3 + 2 * rec.difficulty] + [c["value"] for c in [*a, *b]])
    return Mapped([_bir.chain_domain(n, 1, top), *a], b, hint, _bir.rate_slot(hint), hint["value"],
                  {"type": "stationary_probability", "state": s},
                  f"What is pi_{s}, the stationary (long-run) probability that the chain is in state {s}? "
                  "Give it as a reduced fraction.", [f"pi_{s}"], released(rec))


SPEC = Spec(map_birth_death, "rational")
