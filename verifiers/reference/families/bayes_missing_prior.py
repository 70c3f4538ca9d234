"""Importing the release's ``bayes_missing_prior`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import frac, frac_json
from verifiers.reference.mapping import Mapped, Spec, domain, frac_type, read_views, released
from verifiers.reference.release import Release


def map_bayes(rec: Release) -> Mapped:
    conv = {"likelihood_pos": frac_type(), "likelihood_neg": frac_type(), "prior": frac_type()}
    a, b, hint = read_views(rec, conv, "prior")
    a.append(domain("P(H) is a probability strictly between 0 and 1."))
    return Mapped(a, b, hint, "P(H)", frac_json(frac(hint)), {"type": "posterior", "hypothesis": "H", "evidence": "E"},
                  "What is P(H|E), the probability of H given that E was observed? Give it as a reduced fraction.",
                  ["P(H|E)"], released(rec))


SPEC = Spec(map_bayes, "dict_int")
