"""A1 bayes_missing_prior: A knows P(E|H) and P(E|not H); B holds the prior P(H); target P(H|E)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    absent_slots,
    frac,
    frac_fields,
    frac_json,
    one,
)
from generators.describe import SlotDescription
from generators.errors import Inconsistent

MAX_POSTERIOR_DENOMINATOR = 200
LIKELIHOODS = ("likelihood_pos", "likelihood_neg")


def posterior(prior: Fraction, pos: Fraction, neg: Fraction) -> Fraction:
    return pos * prior / (pos * prior + neg * (1 - prior))


PRIOR_ONLY = "P(H) is a probability strictly between 0 and 1."
ALL_PROBABILITIES = "P(H), P(E|H) and P(E|not H) are probabilities strictly between 0 and 1."


class BayesMissingPrior(Family):
    name = "bayes_missing_prior"
    prefix = "bay"
    type = "A"
    answer_type = "rational"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        def draw() -> Fraction:
            den = rng.randint(2, 3 + 2 * difficulty)
            return Fraction(rng.randint(1, den - 1), den)

        prior, pos, neg = draw(), draw(), draw()
        if pos == neg:
            raise Reject("P(E|H) = P(E|not H) makes E uninformative")
        if posterior(prior, pos, neg).denominator > MAX_POSTERIOR_DENOMINATOR:
            raise Reject("posterior denominator above 200")
        hard = {"difficulty": difficulty} if difficulty >= 4 else {}  # the paper split's latent state is unchanged
        return {"prior": frac_fields(prior), "likelihood_pos": frac_fields(pos), "likelihood_neg": frac_fields(neg),
                **hard}

    def views(self, z: dict[str, Any]) -> Views:
        pos = {"type": "likelihood_pos", **z["likelihood_pos"]}
        neg = {"type": "likelihood_neg", **z["likelihood_neg"]}
        prior = {"type": "prior", **z["prior"]}
        # the hard tier states every probability's range at k = 1 as at k = 2, so the view never tells k
        statement = ALL_PROBABILITIES if z.get("difficulty", 1) >= 4 else PRIOR_ONLY
        domain = {"type": "domain", "statement": statement}
        return Views(
            a=[pos, neg, domain],
            b=[prior],
            hint=prior,
            slot="P(H)",
            value=frac_json(frac(prior)),
            target={"type": "posterior", "hypothesis": "H", "evidence": "E"},
            question="What is P(H|E), the probability of H given that E was observed? "
            "Give it as a reduced fraction.",
            unknowns=["P(H|E)"],
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        pos, neg = frac(one(constraints, "likelihood_pos")), frac(one(constraints, "likelihood_neg"))
        prior = frac(one(constraints, "prior"))
        if not 0 < prior < 1:
            raise Inconsistent(f"P(H) = {prior} is not strictly between 0 and 1")
        return posterior(prior, pos, neg)

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The three quantities of Bayes' rule that A holds no value for (a stated range is not a value)."""
        return absent_slots(self, ("P(H)", "P(E|H)", "P(E|not H)"), view_a)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: one of the two likelihoods as well as the prior (a fact of another kind)."""
        return [HintSlot(c, self.slot_name(c), frac_json(frac(c))) for c in views.a if c["type"] in LIKELIHOODS]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """A's range statement covers every probability, naming neither withheld one."""
        views = super().withhold(views, second)
        a = [{"type": "domain", "statement": ALL_PROBABILITIES} if c["type"] == "domain" else c for c in views.a]
        return replace(views, a=a)

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """Other probabilities for the withheld fact's slot (A is told each lies strictly between 0 and 1)."""
        for p in (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(1, 4)):
            yield {"type": hint["type"], **frac_fields(p)}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "likelihood_pos":
                return f"P(E|H) = {frac(c)}"
            case "likelihood_neg":
                return f"P(E|not H) = {frac(c)}"
            case "prior":
                return f"P(H) = {frac(c)}"
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        return {
            "P(H)": ["the prior P(H)", "P(H)", "the prior probability of H", "the prior", "the base rate of H"],
            "P(E|H)": ["the likelihood P(E|H)", "P(E|H)", "the likelihood"],
            "P(E|not H)": ["the false-positive rate P(E|not H)", "P(E|not H)", "P(E|~H)", "the false-positive rate"],
        }[slot]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        meanings = {
            "prior": ("the prior", "the base rate", "the base rate of h", "the probability of h before any evidence",
                      "how probable h is before any evidence", "how likely h is before any evidence",
                      "how likely h is a priori", "the a priori probability of h", "the probability of h a priori",
                      "the initial probability of h", "the chance that h is true before", "the prior chance of h",
                      "the probability of h before seeing e", "the probability of h before observing e",
                      "h before any evidence", "h before seeing any evidence", "h before the evidence", "h a priori",
                      "h prior to any evidence", "h before observing anything", "h before we see e",
                      "the prevalence of h", "how common h is", "how common h is to begin with",
                      "how likely h is to begin with", "how likely h is in the first place",
                      "the unconditional probability of h", "the marginal probability of h",
                      "the probability of h on its own", "the probability of h without any evidence",
                      "the probability of h before updating", "the starting probability of h",
                      "the baseline probability of h", "the background rate of h", "the prior belief in h",
                      "the initial belief in h", "the prior on h", "the prior for h", "the prior of h",
                      "the pre-evidence probability of h", "the probability of h unconditionally",
                      "the unconditional chance of h", "the chance of h before the evidence",
                      "the chance of h before e is observed", "the probability of h before conditioning",
                      "the probability of h without conditioning on e", "the probability of h ignoring e",
                      "the fraction of cases where h holds",
                      "the proportion of cases with h", "the belief in h before e"),
            "likelihood_pos": ("the probability of e given h", "the true positive rate",
                               "the chance of e when h is true", "how likely e is if h is true",
                               "how likely e is when h is true", "the sensitivity", "the hit rate",
                               "the detection rate", "the likelihood of e given h", "the likelihood of e under h",
                               "the conditional probability of e given h", "the probability of e conditional on h",
                               "the probability of observing e when h is true",
                               "the probability of seeing e if h holds",
                               "the probability of e when h holds", "the probability of e if h is true",
                               "the probability of e under h", "the chance of observing e under h",
                               "the chance of e if h holds", "how often e occurs when h is true",
                               "how often e happens when h holds", "how often e shows up when h is true",
                               "the probability of the evidence given h", "the probability of the evidence under h",
                               "the probability of the evidence when h is true", "how likely the evidence is under h",
                               "the rate of e among cases with h", "the fraction of h cases showing e",
                               "e conditional on h", "e given h is true", "e given that h is true",
                               "e given that h holds", "e when h holds", "e under hypothesis h",
                               "the probability of e assuming h", "e assuming h is true"),
            "likelihood_neg": ("the probability of e given not h", "the false positive rate",
                               "the chance of e when h is false", "how likely e is if h is false",
                               "how likely e is when h is false", "the false alarm rate",
                               "the likelihood of e given not h", "the likelihood of e under not h",
                               "the conditional probability of e given not h", "the probability of e given h is false",
                               "the probability of e when h is false", "the probability of e if h is false",
                               "the probability of observing e when h is false", "the probability of e without h",
                               "the probability of e in the absence of h", "the probability of e if h does not hold",
                               "the probability of e when h fails", "the probability of e under not h",
                               "the probability of e given the complement of h",
                               "the probability of e given the negation of h",
                               "the chance of e without h", "the chance of observing e when h is false",
                               "how often e occurs when h is false", "how often e shows up without h",
                               "how often e happens when h does not hold", "how likely e is without h",
                               "the probability of the evidence given not h",
                               "the probability of the evidence when h is false",
                               "how likely the evidence is when h is false", "the rate of e among cases without h",
                               "e given not h", "e given that h is false", "e conditional on not h", "e under not h",
                               "e when h is false", "e when h does not hold", "e in the absence of h",
                               "one minus the specificity", "1 - specificity", "the complement of the specificity"),
        }.get(c["type"])
        if meanings is None:
            return None
        entity = "prior probability" if c["type"] == "prior" else "likelihood"
        return SlotDescription(entity, attribute="probability", meanings=meanings, kind="probability")

    def slot_name(self, c: Constraint) -> str | None:
        return {"prior": "P(H)", "likelihood_pos": "P(E|H)", "likelihood_neg": "P(E|not H)"}.get(c["type"])

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        return posterior(frac(z["prior"]), frac(z["likelihood_pos"]), frac(z["likelihood_neg"]))


FAMILY = BayesMissingPrior()
