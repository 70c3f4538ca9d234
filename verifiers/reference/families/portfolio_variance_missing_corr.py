"""Importing the release's ``portfolio_variance_missing_corr`` lines into our family's constraint types."""

from __future__ import annotations

from fractions import Fraction

from generators.base import frac, frac_json
from generators.errors import NotUnique
from generators.families.portfolio_variance_missing_corr import correlation_slots
from verifiers.reference.mapping import Mapped, Spec, domain, frac_type, int_fields, read_views, released
from verifiers.reference.release import Release


def map_portfolio(rec: Release) -> Mapped:
    conv = {"weight": frac_type("asset"), "std": int_fields("asset", "value"), "corr": frac_type("asset_i", "asset_j")}
    a, b, hint = read_views(rec, conv, "corr")
    n = rec.meta_int("n_assets")
    told = domain(f"A portfolio holds {n} assets, numbered {', '.join(map(str, range(n)))}. w_i is the fraction of the "
                  "portfolio in asset i (the weights sum to 1), sigma_i is the standard deviation of asset i's return "
                  "and rho(i,j) = rho(j,i) is the correlation between the returns of assets i and j (rho(i,i) = 1); "
                  "the correlations form a valid (positive semidefinite) correlation matrix.")
    i, j = sorted((hint["asset_i"], hint["asset_j"]))
    return Mapped([told, *a], b, hint, f"rho({i},{j})", frac_json(frac(hint)),
                  {"type": "portfolio_variance", "n_assets": n},
                  "What is the portfolio variance sigma_p^2 = sum over i and j of w_i w_j sigma_i sigma_j rho(i,j)? "
                  "Give it as a reduced fraction.", ["sigma_p^2"], released(rec))


def _portfolio_formula(m: Mapped) -> Fraction:
    cs = [*m.a, *m.b]
    w = {c["asset"]: frac(c) for c in cs if c["type"] == "weight"}
    s = {c["asset"]: c["value"] for c in cs if c["type"] == "std"}
    rho = {}
    for c in cs:
        if c["type"] == "corr":
            rho[c["asset_i"], c["asset_j"]] = rho[c["asset_j"], c["asset_i"]] = frac(c)
    n = m.target["n_assets"]
    try:
        return sum((w[i] * w[j] * s[i] * s[j] * (1 if i == j else rho[i, j]) for i in range(n) for j in range(n)),
                   Fraction(0))
    except KeyError as exc:
        raise NotUnique(f"missing value {exc}") from None


def _portfolio_candidates(m: Mapped) -> list[str]:
    """The weights, volatilities and correlations rho(i,j), i < j, of A's n assets (the imported statement declares
    them) that A holds no value for; our family's own statement also lists the correlations by name."""
    n = m.target["n_assets"]
    held = set()
    for c in m.a:
        if c["type"] in ("weight", "std"):
            held.add(f"{'w' if c['type'] == 'weight' else 'sigma'}_{c['asset']}")
        elif c["type"] == "corr":
            held.add("rho({},{})".format(*sorted((c["asset_i"], c["asset_j"]))))
    declared = [f"w_{i}" for i in range(n)] + [f"sigma_{i}" for i in range(n)] + correlation_slots(n)
    return [slot for slot in declared if slot not in held]


SPEC = Spec(map_portfolio, "rational", recompute=_portfolio_formula, candidates=_portfolio_candidates)
