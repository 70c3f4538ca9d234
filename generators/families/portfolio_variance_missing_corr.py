"""B10 portfolio_variance_missing_corr: A knows weights, volatilities and all correlations but rho(a,b); B holds it.

Paper (Appendix C, B10): n = d + 1 assets with weights w_i, standard deviations sigma_i ~ Unif[1, 5] and pairwise
correlations rho_ij in (-1, 1) drawn as multiples of 1/D, D in {2, 3, 4}; one pair (a, b), a < b, chosen uniformly,
is withheld; instances whose variance has denominator above 500 are rejected. Target
sigma_p^2 = sum_i sum_j w_i w_j sigma_i sigma_j rho_ij (rho_ii = 1) as a reduced fraction.

Our decisions (see docs/deviations):

* weights (unspecified in the paper): w_i = k_i / sum(k) with k_i ~ Unif[1, 5], so they are positive and sum to 1
  (the release's example, 2/5 and 3/5, fits this); positive weights make the target depend on rho(a,b) through
  2 w_a w_b sigma_a sigma_b != 0;
* each correlation draws its own D ~ Unif{2, 3, 4} and numerator ~ Unif[-(D-1), D-1];
* the full correlation matrix must be positive semidefinite (a valid correlation matrix, so sigma_p^2 >= 0):
  draws that are not are rejected. A is told this, and that every correlation lies strictly between -1 and 1;
  it is not told the 1/D grid. The underdetermination witness is another value of rho(a,b) that keeps the matrix
  positive semidefinite.

Hard tier (docs/hard-tier.md): d4 and d5 continue n = d + 1 (5 / 6 assets, 10 / 15 correlations); the variance's
denominator cap grows with them (500 at d <= 3, 2000 at d4, 5000 at d5). Positive semidefiniteness rejects most
draws at n = 6 (about 98%), but a draw costs microseconds. At k = 2 B also holds a second correlation rho(c,d)
(any other pair, uniform); A's statement already covers every correlation, so nothing is restated.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from math import gcd
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    absent_slots,
    frac,
    frac_json,
    missing_slot_note,
    stated_size,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique

MAX_DENOMINATOR = 500
HARD_MAX_DENOMINATOR = {4: 2000, 5: 5000}
SIGMA_RANGE = (1, 5)
WEIGHT_PARTS = (1, 5)
CORR_DENOMINATORS = (2, 3, 4)
GRID = 12  # lcm of CORR_DENOMINATORS: correlations are k/12 in the hot paths
_SLOT = re.compile(r"^(?:rho\((\d+),(\d+)\)|w_(\d+)|sigma_(\d+))$")


def is_psd(matrix: list[list[int]]) -> bool:
    """Exact test of positive semidefiniteness of a symmetric integer matrix.

    Symmetric elimination without pivoting, fraction-free: the Schur complement of a positive pivot p is kept
    scaled by p (which does not change its semidefiniteness). A zero pivot is allowed only when the rest of its
    row is zero as well.
    """
    m = [row[:] for row in matrix]
    n = len(m)
    for k in range(n):
        p = m[k][k]
        if p < 0:
            return False
        if p == 0:
            if any(m[k][j] for j in range(k + 1, n)):
                return False
            continue
        row_k = m[k]
        for i in range(k + 1, n):
            f = m[i][k]
            row_i = m[i]
            for j in range(k + 1, n):
                row_i[j] = p * row_i[j] - f * row_k[j]
    return True


def _lcm(values) -> int:
    out = 1
    for v in values:
        out = out * v // gcd(out, v)
    return out


def _reduced(num: int, den: int) -> dict[str, int]:
    g = gcd(num, den)
    return {"num": num // g, "denom": den // g}


def scaled_variance(u: list[int], w_den: int, sigmas: list[int], r: dict[tuple[int, int], int], r_den: int) -> Fraction:
    """sigma_p^2 with w_i = u_i / w_den and rho_ij = r_ij / r_den, in integers until the final division:

    sigma_p^2 = (r_den sum_i u_i^2 s_i^2 + 2 sum_{i<j} u_i u_j s_i s_j r_ij) / (w_den^2 r_den).
    """
    diag = sum((ui * si) ** 2 for ui, si in zip(u, sigmas, strict=True))
    cross = sum(u[i] * u[j] * sigmas[i] * sigmas[j] * rij for (i, j), rij in r.items())
    return Fraction(r_den * diag + 2 * cross, w_den * w_den * r_den)


def max_denominator(difficulty: int) -> int:
    return HARD_MAX_DENOMINATOR.get(difficulty, MAX_DENOMINATOR)


def correlation_slots(n: int) -> list[str]:
    """rho(i,j) for i < j, in row order."""
    return [f"rho({i},{j})" for i in range(n) for j in range(i + 1, n)]


def portfolio_statement(n: int) -> str:
    assets = ", ".join(str(i) for i in range(n))
    return (
        f"A portfolio holds {n} assets, numbered {assets}. w_i is the fraction of the portfolio in asset i (the "
        "weights sum to 1), sigma_i is the standard deviation of asset i's return, and rho(i,j) is the correlation "
        "between the returns of assets i and j, with rho(i,i) = 1 and rho(j,i) = rho(i,j); the correlations between "
        f"different assets are {', '.join(correlation_slots(n))}. Every correlation rho(i,j) with i != j lies "
        f"strictly between -1 and 1, and the {n}x{n} correlation matrix is positive semidefinite (a valid "
        "correlation matrix)."
    )


class PortfolioVarianceMissingCorr(Family):
    name = "portfolio_variance_missing_corr"
    prefix = "por"
    type = "B"
    answer_type = "rational"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n = difficulty + 1
        parts = [rng.randint(*WEIGHT_PARTS) for _ in range(n)]
        total = sum(parts)
        sigmas = [rng.randint(*SIGMA_RANGE) for _ in range(n)]
        corrs: dict[tuple[int, int], tuple[int, int]] = {}
        for i in range(n):
            for j in range(i + 1, n):
                den = rng.choice(CORR_DENOMINATORS)
                corrs[(i, j)] = (rng.randint(-(den - 1), den - 1), den)
        a, b = rng.choice(list(corrs))
        r = {key: num * (GRID // den) for key, (num, den) in corrs.items()}
        matrix = [[GRID if i == j else r[(min(i, j), max(i, j))] for j in range(n)] for i in range(n)]
        if not is_psd(matrix):
            raise Reject("the correlation matrix is not positive semidefinite")
        cap = max_denominator(difficulty)
        if scaled_variance(parts, total, sigmas, r, GRID).denominator > cap:
            raise Reject(f"variance denominator above {cap}")
        return {
            "n_assets": n,
            "weights": [_reduced(k, total) for k in parts],
            "sigmas": sigmas,
            "corrs": [{"asset_i": i, "asset_j": j, **_reduced(num, den)} for (i, j), (num, den) in corrs.items()],
            "missing_pair": [a, b],
        }

    # ------------------------------------------------------------------ views
    def views(self, z: dict[str, Any]) -> Views:
        n = z["n_assets"]
        a, b = z["missing_pair"]
        weights = [{"type": "weight", "asset": i, **w} for i, w in enumerate(z["weights"])]
        stds = [{"type": "std", "asset": i, "value": s} for i, s in enumerate(z["sigmas"])]
        corrs = [{"type": "corr", **c} for c in z["corrs"]]
        hint = next(c for c in corrs if (c["asset_i"], c["asset_j"]) == (a, b))
        slot = f"rho({a},{b})"
        definition = {"type": "domain", "statement": portfolio_statement(n), "n_assets": n}
        others = "" if n == 2 else " All the other correlations are listed."
        missing = missing_slot_note(
            slot,
            f"The correlation {slot} between assets {a} and {b} is not given; your partner knows it."
            + others,
        )
        a_view = [definition, *weights, *stds, *[c for c in corrs if c is not hint], missing]
        return Views(
            a=a_view,
            b=[hint],
            hint=hint,
            slot=slot,
            value=frac_json(frac(hint)),
            target={"type": "portfolio_variance", "n_assets": n},
            question="What is the portfolio variance sigma_p^2 = sum over i and j of w_i w_j sigma_i sigma_j "
            "rho(i,j)? Give it as a reduced fraction.",
            unknowns=["sigma_p^2"],
        )

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: any other correlation rho(c,d) (the same list as the hint)."""
        return [HintSlot(c, self.slot_name(c), frac_json(frac(c))) for c in views.a if c["type"] == "corr"]

    # ------------------------------------------------------------------ solving
    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The weights, volatilities and correlations rho(i,j), i < j, of the stated assets that A has no value for."""
        n = stated_size(view_a, "n_assets", portfolio_statement, "portfolio", minimum=2)
        declared = [f"w_{i}" for i in range(n)] + [f"sigma_{i}" for i in range(n)] + correlation_slots(n)
        return absent_slots(self, declared, view_a)

    @staticmethod
    def _collect(constraints: list[Constraint], n: int):
        """Weights, volatilities and correlations as exact (num, den) pairs; conflicts are Inconsistent."""
        weights: dict[int, tuple[int, int]] = {}
        sigmas: dict[int, int] = {}
        corr: dict[tuple[int, int], tuple[int, int]] = {}
        for c in constraints:
            kind = c["type"]
            if kind == "weight":
                key, store, val = (c["asset"],), weights, (c["num"], c["denom"])
            elif kind == "std":
                key, store, val = (c["asset"],), sigmas, c["value"]
            elif kind == "corr":
                i, j = c["asset_i"], c["asset_j"]
                if i == j:
                    raise Inconsistent("a correlation of an asset with itself")
                key, store, val = (min(i, j), max(i, j)), corr, (c["num"], c["denom"])
                if not -val[1] < val[0] < val[1]:
                    raise Inconsistent(f"rho{key} = {val[0]}/{val[1]} is not strictly between -1 and 1")
            else:
                continue
            if isinstance(val, tuple) and val[1] <= 0:
                raise Inconsistent(f"non-positive denominator in {c}")
            if any(not 0 <= k < n for k in key):
                raise Inconsistent(f"asset index out of range in {c}")
            slot = key if len(key) == 2 else key[0]
            old = store.setdefault(slot, val)
            if old != val and (kind == "std" or old[0] * val[1] != val[0] * old[1]):
                raise Inconsistent(f"two different values for {kind} {key}")
        return weights, sigmas, corr

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        n = target["n_assets"]
        weights, sigmas, corr = self._collect(constraints, n)
        if any(s <= 0 for s in sigmas.values()):
            raise Inconsistent("a standard deviation is not positive")
        w_den = _lcm(den for _, den in weights.values())
        u = {i: num * (w_den // den) for i, (num, den) in weights.items()}
        missing_w = [i for i in range(n) if i not in u]
        if len(missing_w) == 1:  # the weights sum to 1
            u[missing_w[0]] = w_den - sum(u.values())
        elif missing_w:
            raise NotUnique(f"weights of assets {missing_w} not given")
        if sum(u.values()) != w_den:
            raise Inconsistent("the weights do not sum to 1")
        if len(sigmas) < n:
            raise NotUnique("a standard deviation is not given")
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        unknown = [p for p in pairs if p not in corr and u[p[0]] * u[p[1]] != 0]
        if unknown:
            raise NotUnique(f"correlations {unknown} not given")
        r_den = _lcm(den for _, den in corr.values())
        r = {key: num * (r_den // den) for key, (num, den) in corr.items()}
        if len(r) == len(pairs):
            matrix = [[r_den if i == j else r[(min(i, j), max(i, j))] for j in range(n)] for i in range(n)]
            if not is_psd(matrix):
                raise Inconsistent("the correlation matrix is not positive semidefinite")
        # a correlation whose coefficient w_i w_j is zero does not enter the variance
        return scaled_variance([u[i] for i in range(n)], w_den, [sigmas[i] for i in range(n)], r, r_den)

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """Other values of rho(a,b) in (-1, 1): the multiples of 1/12 nearest to it, then small perturbations.

        ``solve`` rejects those that break positive semidefiniteness; the first that survives is the witness.
        """
        num, den = hint["num"], hint["denom"]
        grid = sorted(range(-GRID + 1, GRID), key=lambda k: (abs(k * den - GRID * num), k))
        candidates = [(k, GRID) for k in grid if k * den != GRID * num][:6]
        candidates += [(num * step + s * den, den * step) for step in (120, 1200) for s in (1, -1)]
        for cn, cd in candidates:
            if -cd < cn < cd:
                yield {**hint, **_reduced(cn, cd)}

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        """w^T (S R S) w as a full double sum over the symmetric matrix (matrix-vector product, then dot product).

        Integers throughout: weights over their common denominator, correlations over theirs.
        """
        n = z["n_assets"]
        w_den = _lcm(w["denom"] for w in z["weights"])
        u = [w["num"] * (w_den // w["denom"]) for w in z["weights"]]
        r_den = _lcm([c["denom"] for c in z["corrs"]])
        r = [[r_den] * n for _ in range(n)]
        for c in z["corrs"]:
            r[c["asset_i"]][c["asset_j"]] = r[c["asset_j"]][c["asset_i"]] = c["num"] * (r_den // c["denom"])
        s = z["sigmas"]
        cov_u = [sum(s[i] * r[i][j] * s[j] * u[j] for j in range(n)) for i in range(n)]
        return Fraction(sum(u[i] * cov_u[i] for i in range(n)), w_den * w_den * r_den)

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "weight":
                return f"w_{c['asset']} = {frac(c)}"
            case "std":
                return f"sigma_{c['asset']} = {c['value']}"
            case "corr":
                return f"rho({c['asset_i']},{c['asset_j']}) = {frac(c)}"
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "weight":
                return f"w_{c['asset']}"
            case "std":
                return f"sigma_{c['asset']}"
            case "corr":
                return f"rho({c['asset_i']},{c['asset_j']})"
        return None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        m = _SLOT.match(slot)
        if m is None:
            return [slot]
        if m.group(1) is not None:
            i, j = m.group(1), m.group(2)
            return [
                f"the correlation rho({i},{j}) between assets {i} and {j}",
                f"rho({i},{j})",
                f"ρ({i},{j})",
                f"rho_{i}{j}",
                f"ρ{i}{j}",
                f"rho({j},{i})",
                f"corr({i},{j})",
                f"the correlation between assets {i} and {j}",
                f"the correlation between asset {i} and asset {j}",
                f"the correlation coefficient of assets {i} and {j}",
            ]
        if m.group(3) is not None:
            i = m.group(3)
            return [f"the weight w_{i} of asset {i}", f"w_{i}", f"the portfolio weight of asset {i}"]
        i = m.group(4)
        return [
            f"the standard deviation sigma_{i} of asset {i}",
            f"sigma_{i}",
            f"σ_{i}",
            f"the volatility of asset {i}",
            f"the standard deviation of asset {i}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        match c["type"]:
            case "corr":
                i, j = c["asset_i"], c["asset_j"]
                return SlotDescription("correlation", kind="correlation", meanings=(
                    f"the correlation between asset {i} and asset {j}", f"the correlation of assets {i} and {j}",
                    f"how asset {i} and asset {j} move together", f"how assets {i} and {j} move together",
                    f"the correlation between the returns of asset {i} and asset {j}",
                    f"the correlation coefficient between assets {i} and {j}",
                    *(f"{prep} the {a} and {the}{b} asset{s}" for prep in ("between", "of")
                      for a, b in zip(ordinal_words(i + 1), ordinal_words(j + 1), strict=True)
                      for the, s in (("", "s"), ("the ", ""))),
                    *_pair_meanings(i, j), *_pair_meanings(j, i)))
            case "weight":
                k = c["asset"]
                return SlotDescription("weight", (k,), base=0, synonyms=("portfolio weight",), meanings=(
                    f"the fraction of the portfolio in asset {k}", f"the share of the portfolio in asset {k}",
                    f"how much of the portfolio is in asset {k}", f"the allocation to asset {k}",
                    f"the amount invested in asset {k}", f"asset {k}'s share of the portfolio"))
            case "std":
                k = c["asset"]
                return SlotDescription("standard deviation", (k,), base=0, synonyms=("volatility",), meanings=(
                    f"the standard deviation of asset {k}'s return", f"the volatility of asset {k}'s return",
                    f"how volatile asset {k} is", f"the return volatility of asset {k}", f"the sigma of asset {k}",
                    f"the spread of asset {k}'s returns"))
        return None

    def relation_meanings(self, constraints: list[Constraint]) -> dict[str, tuple[str, ...]]:
        """A correlation by its place in the correlation matrix, whose size is the number of assets: "the
        top-right entry of the 3x3 correlation matrix", "the off-diagonal entry" of a 2x2."""
        assets = {c[key] for c in constraints for key in ("asset", "asset_i", "asset_j") if key in c}
        n = max(assets) + 1 if assets else 0
        return {self.slot_name(c): _matrix_meanings(c["asset_i"], c["asset_j"], n)
                for c in constraints if c.get("type") == "corr"}


def _matrix_meanings(i: int, j: int, n: int) -> tuple[str, ...]:
    """rho(i,j) as an entry of the n-by-n correlation matrix: its two cells, the corner it fills when it is
    rho(0,n-1) (the top-right and, by symmetry, the bottom-left), and "the off-diagonal entry" of a 2-by-2."""
    out = [f"{where} of the correlation matrix" for r, c in ((i, j), (j, i))
           for where in (f"the entry in row {r}, column {c}", f"the ({r}, {c}) entry", f"row {r}, column {c}")]
    nouns = ("entry", "element", "cell", "corner", "correlation", "value", "number")
    if (i, j) == (0, n - 1):
        out += [f"the {v}{sep}{h} {noun}" for v, h in (("top", "right"), ("upper", "right"), ("bottom", "left"),
                                                       ("lower", "left"))
                for sep in ("-", " ") for noun in nouns]
    if n == 2:
        out += [f"the off{sep}diagonal {noun}" for sep in ("-", " ") for noun in (*nouns[:2], *nouns[4:], "term")]
    return tuple(out)


def _pair_meanings(a: int, b: int) -> tuple[str, ...]:
    """Domain phrases for rho(a,b) with the assets in the order given (``describe_slot`` asks for both orders)."""
    return (f"the correlation of asset {a} with asset {b}", f"asset {a}'s correlation with asset {b}",
            f"how correlated assets {a} and {b} are", f"how correlated asset {a} and asset {b} are",
            f"how closely assets {a} and {b} move together", f"the co-movement of assets {a} and {b}",
            f"the return correlation of assets {a} and {b}", f"the correlation coefficient of asset {a} and asset {b}",
            f"the pairwise correlation of assets {a} and {b}", f"the correlation for the pair {a} and {b}",
            f"the dependence between the returns of assets {a} and {b}",
            f"how the returns of assets {a} and {b} co-move", f"how asset {a} moves with asset {b}",
            f"the correlation entry for assets {a} and {b}", f"the rho between assets {a} and {b}")


FAMILY = PortfolioVarianceMissingCorr()
