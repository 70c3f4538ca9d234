"""Importing the release's ``steady_state_missing_emission`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import absent_slots, frac, frac_json
from generators.families import FAMILIES
from generators.families.steady_state_missing_emission import emission_slots, transition_slots
from verifiers.reference.mapping import Mapped, Spec, domain, frac_type, read_views, released
from verifiers.reference.release import Release


def map_steady_state(rec: Release) -> Mapped:
    conv = {"transition": frac_type("from_state", "to_state"), "emission": frac_type("state", "symbol")}
    a, b, hint = read_views(rec, conv, "emission")
    n, k, o = rec.meta_int("n_states"), rec.meta_int("n_symbols"), rec.meta_int("target_symbol")
    told = domain(f"A hidden Markov model has hidden states {', '.join(map(str, range(n)))} and observation symbols "
                  f"{', '.join(map(str, range(k)))}. P[i][j] is the probability that the hidden chain moves from state "
                  "i to state j in one step; E[s][o] is the probability of observing symbol o when the chain is in "
                  "state s. Every row of P and every row of E is a probability distribution. pi is the stationary "
                  "distribution of P.")
    return Mapped([told, *a], b, hint, f"E[{hint['state']}][{hint['symbol']}]", frac_json(frac(hint)),
                  {"type": "observation_probability", "symbol": o, "n_states": n, "n_symbols": k},
                  f"In the stationary regime, what is the probability of observing symbol {o}, P(observe {o}) = sum "
                  f"over states s of pi_s E[s][{o}]? Give it as a reduced fraction.", [f"P(observe {o})"],
                  released(rec))


def _hmm_candidates(m: Mapped) -> list[str]:
    """The entries of P (row by row), then of E, of the model A's statement declares, that A holds no value for;
    our family's own statement also lists them by name."""
    n, k = m.target["n_states"], m.target["n_symbols"]
    return absent_slots(FAMILIES["steady_state_missing_emission"], transition_slots(n) + emission_slots(n, k), m.a)


SPEC = Spec(map_steady_state, "rational", candidates=_hmm_candidates)
