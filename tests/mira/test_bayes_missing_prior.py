"""bayes_missing_prior (A1): the default view (issue 24) and its candidate slots."""

from __future__ import annotations

from fractions import Fraction

from generators.base import frac_fields
from generators.families.bayes_missing_prior import FAMILY
from tests.mira.typea_views import default_view_candidates


def latent(prior: Fraction, pos: Fraction, neg: Fraction) -> dict:
    return {"prior": frac_fields(prior), "likelihood_pos": frac_fields(pos), "likelihood_neg": frac_fields(neg)}


def test_default_view_names_no_gap_and_one_candidate() -> None:
    assert set(default_view_candidates(FAMILY, seeds=60)) == {1}


def test_candidates_are_the_quantities_of_bayes_rule_a_holds_no_value_for() -> None:
    v = FAMILY.views(latent(Fraction(1, 3), Fraction(3, 4), Fraction(1, 5)))
    assert FAMILY.render(v.a[2]) == "P(H) is a probability strictly between 0 and 1."
    assert FAMILY.candidate_slots(v.a) == ["P(H)"]
    assert FAMILY.candidate_slots([v.a[0], v.hint]) == ["P(E|not H)"]
    assert FAMILY.solve([*v.a, v.hint], v.target) == Fraction(15, 23)  # (3/4)(1/3) / ((3/4)(1/3) + (1/5)(2/3))
