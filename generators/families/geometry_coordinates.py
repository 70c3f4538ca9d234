"""A3 geometry_coordinates: P = (x, y) is the intersection of two lines L1, L2 with integer coefficients.

A knows L1 and a reference point Q; B knows L2 (and Q); target the integer distance |PQ|.

As in the paper, Q = P + (dx, dy) with (|dx|, |dy|) in {(3,4), (4,3), (5,12), (12,5)} (signs drawn at random),
so |PQ| is 5 or 13. A is told that P has integer coordinates in the paper's box, the range of L2's
coefficients, and that |PQ| is a whole number. A solver who also knows the construction could test the 16
candidates Q - (dx, dy) against a uniformly drawn L1 and usually find only P on it (the release's geo-000136
is such a case). So L1 is drawn uniformly among the in-range lines through P that also pass through a
candidate at the *other* distance (``decoy_normals``): then even the published construction leaves both 5
and 13 open without L2. P, the offset and L2 are drawn as in the paper.

Hard tier (docs/hard-tier.md): the box and the coefficient range keep growing with d (bound 4 + d, coefficients up
to 3 + d: d4 8 and 7, d5 9 and 8), and so does the construction's set of offsets (``HARD_PAIRS``: d4 adds (8, 15),
so |PQ| is 5, 13 or 17; d5 also (7, 24), so 25 as well); L1 keeps a decoy at another of those lengths. At k = 2,
B also holds the point Q (a fact of another kind than the line L2); A is then told that Q has integer coordinates
(``Q_DOMAIN``), as every other quantity's domain is stated.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd, isqrt
from typing import Any

from generators.base import Constraint, Family, HintSlot, Reject, Views, absent_slots, by_type, lin_text, one
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import with_statement

PAIRS = ((3, 4), (4, 3), (5, 12), (12, 5))
HARD_PAIRS = {4: (*PAIRS, (8, 15), (15, 8)), 5: (*PAIRS, (8, 15), (15, 8), (7, 24), (24, 7))}


def signed(pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    return tuple((sx * dx, sy * dy) for dx, dy in pairs for sx in (1, -1) for sy in (1, -1))


OFFSETS = signed(PAIRS)
ALL_OFFSETS = signed(HARD_PAIRS[5])
Q_DOMAIN = {"type": "domain", "statement": "Q = (qx, qy) is a point with integer coordinates."}


def line(name: str, a: int, b: int, x: int, y: int) -> Constraint:
    return {"type": "lin_eq", "name": name, "coeffs": {"x": a, "y": b}, "rhs": a * x + b * y}


def _abc(c: Constraint) -> tuple[int, int, int]:
    return int(c["coeffs"].get("x", 0)), int(c["coeffs"].get("y", 0)), int(c["rhs"])


def _same_line(p: tuple[int, int, int], q: tuple[int, int, int]) -> bool:
    a1, b1, c1 = p
    a2, b2, c2 = q
    return a1 * b2 == a2 * b1 and a1 * c2 == a2 * c1 and b1 * c2 == b2 * c1


def integer_points_on(a: int, b: int, c: int, bound: int) -> list[tuple[int, int]]:
    """Integer points of a*x + b*y = c with |x|, |y| <= bound, ordered by x then y."""
    found = []
    if b != 0:
        for x in range(-bound, bound + 1):
            if (c - a * x) % b == 0 and -bound <= (y := (c - a * x) // b) <= bound:
                found.append((x, y))
    elif a != 0 and c % a == 0 and -bound <= c // a <= bound:
        found = [(c // a, y) for y in range(-bound, bound + 1)]
    return found


def whole_distance(p: tuple[int, int], q: tuple[int, int]) -> int | None:
    d2 = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
    r = isqrt(d2)
    return r if r * r == d2 else None


def decoy_normals(p: tuple[int, int], q: tuple[int, int], bound: int, coeff: int,
                  offsets: tuple[tuple[int, int], ...] = OFFSETS) -> list[tuple[int, int]]:
    """Coefficient pairs (a1, b1) within the paper's range for a line L1 through P that also passes through a
    point Q - (dx, dy) of the box with (|dx|, |dy|) one of the paper's offsets of the *other* length.

    Only such an L1 keeps |PQ| open for a solver who knows the construction (P integer in the box, Q - P one
    of the 16 signed offsets): it then has candidates at distance 5 and at distance 13.
    """
    length = whole_distance(p, q)
    normals: set[tuple[int, int]] = set()
    for ox, oy in offsets:
        cx, cy = q[0] - ox, q[1] - oy
        if max(abs(cx), abs(cy)) > bound or whole_distance((cx, cy), q) == length:
            continue
        ux, uy = cx - p[0], cy - p[1]
        g = gcd(ux, uy)
        a, b = uy // g, -ux // g
        for k in range(1, coeff + 1):
            if max(abs(k * a), abs(k * b)) > coeff:
                break
            normals.update(((k * a, k * b), (-k * a, -k * b)))
    return sorted(normals)


class GeometryCoordinates(Family):
    name = "geometry_coordinates"
    prefix = "geo"
    type = "A"
    answer_type = "int"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        bound, coeff = 4 + difficulty, 3 + difficulty
        p = (rng.randint(-bound, bound), rng.randint(-bound, bound))
        pairs = HARD_PAIRS.get(difficulty, PAIRS)
        dx, dy = rng.choice(pairs)
        q = (p[0] + rng.choice((1, -1)) * dx, p[1] + rng.choice((1, -1)) * dy)
        l1_choices = decoy_normals(p, q, bound, coeff, signed(pairs))
        if not l1_choices:
            raise Reject("no line L1 through P keeps the distance open (see decoy_normals)")
        l1 = rng.choice(l1_choices)
        l2 = (rng.randint(-coeff, coeff), rng.randint(-coeff, coeff))
        if l2 == (0, 0):
            raise Reject("a line needs a non-zero coefficient")
        if l1[0] * l2[1] - l1[1] * l2[0] == 0:
            raise Reject("parallel lines")
        return {"P": list(p), "Q": list(q), "L1": list(l1), "L2": list(l2), "coord_bound": bound, "coeff_bound": coeff}

    def views(self, z: dict[str, Any]) -> Views:
        (x, y), (qx, qy) = z["P"], z["Q"]
        bound, coeff = z["coord_bound"], z["coeff_bound"]
        l1, l2 = line("L1", *z["L1"], x, y), line("L2", *z["L2"], x, y)
        q = {"type": "point", "name": "Q", "x": qx, "y": qy}
        domain = with_statement({"type": "domain", "coord_bound": bound, "coeff_bound": coeff}, self.domain_text)
        return Views(
            # the hard tier (coord_bound >= 8) states Q's domain at k = 1 as at k = 2, so the view never tells k
            a=[l1, q, domain, *([{**Q_DOMAIN}] if bound >= 8 else [])],
            b=[l2, q],
            hint=l2,
            slot="L2",
            value={"coeffs": dict(l2["coeffs"]), "rhs": l2["rhs"]},
            target={"type": "distance", "from": "P", "to": "Q"},
            question="What is d(P, Q), the distance from P to Q? It is a whole number; give the integer.",
            unknowns=["d(P, Q)"],
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int | Fraction:
        q = one(constraints, "point")
        qxy = (int(q["x"]), int(q["y"]))
        domain = next((c for c in by_type(constraints, "domain") if "coord_bound" in c), None)
        named: dict[str, tuple[int, int, int]] = {}
        lines: list[tuple[int, int, int]] = []
        for c in by_type(constraints, "lin_eq"):
            abc = _abc(c)
            if abc[:2] == (0, 0):
                raise Inconsistent("an equation without x and y")
            name = c.get("name")
            if name is not None:
                if name in named and not _same_line(named[name], abc):
                    raise Inconsistent(f"two different equations for {name}")
                named[name] = abc
            if not any(_same_line(abc, other) for other in lines):
                lines.append(abc)
        if domain is not None and "L2" in named:
            a2, b2, _ = named["L2"]
            if max(abs(a2), abs(b2)) > domain["coeff_bound"]:
                raise Inconsistent("L2's coefficients are outside the stated range")
            if "L1" in named and named["L1"][0] * b2 - named["L1"][1] * a2 == 0:
                raise Inconsistent("L2 is parallel to L1")
        if not lines:
            raise NotUnique("no line through P is known")
        if len(lines) == 1:
            if domain is None:
                raise NotUnique("one line leaves P free")
            distances = []
            for point in integer_points_on(*lines[0], domain["coord_bound"]):
                r = whole_distance(point, qxy)
                if r is not None and r not in distances:
                    distances.append(r)
            if not distances:
                raise Inconsistent("no integer point of the line lies at a whole-number distance from Q")
            if len(distances) > 1:
                raise NotUnique(f"points of the line lie at distances {sorted(distances)} from Q")
            return distances[0]
        (a1, b1, c1), (a2, b2, c2) = lines[0], next(
            (ln for ln in lines[1:] if lines[0][0] * ln[1] - lines[0][1] * ln[0] != 0), (None, None, None)
        )
        if a2 is None:
            raise Inconsistent("parallel distinct lines do not meet")
        det = a1 * b2 - a2 * b1
        x, y = Fraction(c1 * b2 - c2 * b1, det), Fraction(a1 * c2 - a2 * c1, det)
        if any(a * x + b * y != c for a, b, c in lines):
            raise Inconsistent("the lines do not meet in one point")
        if domain is not None:
            bound = domain["coord_bound"]
            if x.denominator != 1 or y.denominator != 1 or max(abs(x), abs(y)) > bound:
                raise Inconsistent(f"P = ({x}, {y}) is not an integer point in the stated box")
        d2 = (x - qxy[0]) ** 2 + (y - qxy[1]) ** 2
        num, den = isqrt(d2.numerator), isqrt(d2.denominator)
        if num * num != d2.numerator or den * den != d2.denominator:
            raise Inconsistent(f"|PQ|^2 = {d2} is not a square: the distance is not a whole number")
        dist = Fraction(num, den)
        if domain is not None and dist.denominator != 1:
            raise Inconsistent(f"|PQ| = {dist} is not a whole number")
        return dist.numerator if dist.denominator == 1 else dist

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The facts of the construction that A holds no value for: the two lines through P and the point Q."""
        return absent_slots(self, ("L1", "L2", "Q"), view_a)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: the point Q as well as the line L2 (a fact of another kind)."""
        return [HintSlot(c, "Q", {"x": c["x"], "y": c["y"]}) for c in views.a if c["type"] == "point"]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """L2 moved parallel to itself (``line_alternatives``), or, for Q, Q placed at each of the construction's
        offsets from the P that A's two lines give."""
        if hint["type"] == "point":
            yield from self.point_alternatives(hint, view_a)
            return
        yield from self.line_alternatives(hint, view_a)

    @staticmethod
    def point_alternatives(hint: Constraint, view_a: list[Constraint]):
        lines = [_abc(c) for c in by_type(view_a, "lin_eq")]
        if len(lines) != 2:
            return
        (a1, b1, c1), (a2, b2, c2) = lines
        det = a1 * b2 - a2 * b1
        if det == 0 or (c1 * b2 - c2 * b1) % det or (a1 * c2 - a2 * c1) % det:
            return
        x, y = (c1 * b2 - c2 * b1) // det, (a1 * c2 - a2 * c1) // det
        for ox, oy in ALL_OFFSETS:
            yield {**hint, "x": x + ox, "y": y + oy}

    def line_alternatives(self, hint: Constraint, view_a: list[Constraint]):
        """L2 moved parallel to itself through every integer point of L1 that the stated domain allows."""
        domain = next((c for c in by_type(view_a, "domain") if "coord_bound" in c), None)
        lines = by_type(view_a, "lin_eq")
        if domain is None or len(lines) != 1:
            return
        q = one(view_a, "point")
        a2, b2, _ = _abc(hint)
        qxy = (q["x"], q["y"])
        points = [pt for pt in integer_points_on(*_abc(lines[0]), domain["coord_bound"]) if whole_distance(pt, qxy)]
        # the paper's own offsets first: such a witness also satisfies the construction A is not told about
        points.sort(key=lambda pt: (qxy[0] - pt[0], qxy[1] - pt[1]) not in OFFSETS)
        for x, y in points:
            yield {**hint, "rhs": a2 * x + b2 * y}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                return f"{c['name']}: {lin_text(c['coeffs'], c['rhs'])}"
            case "point":
                return f"{c['name']} = ({c['x']}, {c['y']})"
            case "domain":
                return self.domain_text(c) if "coord_bound" in c else c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        bound, coeff = c["coord_bound"], c["coeff_bound"]
        return (
            "P = (x, y) is the intersection point of line L1 with a second line L2: a2*x + b2*y = c2 that is not "
            f"parallel to L1, where a2 and b2 are integers between {-coeff} and {coeff} and c2 is an integer. P has "
            f"integer coordinates with {-bound} <= x <= {bound} and {-bound} <= y <= {bound}, and its distance to Q "
            "is a whole number."
        )

    def slot_name(self, c: Constraint) -> str | None:
        return c.get("name") if c["type"] in ("lin_eq", "point") else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if slot == "Q":
            return ["the point Q", "Q", "the coordinates of Q", "the reference point Q"]
        k = slot[1:]
        ordinal = {"1": "first", "2": "second"}[k]
        return [
            f"the equation of the {ordinal} line {slot}",
            slot,
            f"line {slot}",
            f"the line {slot}",
            f"the equation of {slot}",
            f"the {ordinal} line",
            f"the {ordinal} line's equation",
            f"the {ordinal} line equation",
            f"line {k}",
            f"the equation of line {k}",
            *(["the other line", "the other line through P"] if slot == "L2" else []),
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "point":  # Q, B's second fact at k = 2
            return SlotDescription("point", (), base=None, synonyms=("reference point",), attribute="coordinates",
                                   meanings=POINT_MEANINGS)
        if c["type"] != "lin_eq":
            return None
        k = int(c["name"][1:])
        # A always holds L1 and B L2 (a Type-A family), so "the line through P I do not have" means L2
        theirs = ("line through p that i do not have", "line through p i do not have", "line through p i dont have",
                  "line through p that i dont have", "line through p i am missing", "other line through p",
                  "line through p that i am missing", "line through p that you have") if k == 2 else ()
        return SlotDescription("line", (k,), synonyms=("line equation", "straight line"), attribute="equation",
                               meanings=(f"the equation of line {k}", f"the coefficients of line {k}", *theirs,
                                         *line_meanings(k)))

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        dist = whole_distance(tuple(z["P"]), tuple(z["Q"]))
        assert dist is not None
        return dist


POINT_MEANINGS = ("the coordinates of the reference point", "the reference point's coordinates", "where q is located",
                  "where point q lies", "the location of point q", "the position of point q", "q's coordinates",
                  "q's x and y coordinates", "the x and y coordinates of q", "the x-coordinate and y-coordinate of q",
                  "qx and qy", "the values of qx and qy", "where the reference point sits",
                  "the location of the reference point", "the position of the reference point",
                  "the coordinates of point q", "where q sits in the plane", "the location of q in the plane",
                  "q's position", "q's location", "the position of the reference point q", "the coordinates (qx, qy)",
                  "the pair (qx, qy)", "q as an ordered pair", "the ordered pair for q",
                  "the x and y values of point q",
                  "the coordinate pair of q", "the coordinate pair of the reference point", "where exactly q is")


def line_meanings(k: int) -> tuple[str, ...]:
    """Domain phrases for line Lk (a_k x + b_k y = c_k through P): its coefficients, its slope and intercept, its
    place as the first / second line through P; L2 is also "the other line" that crosses L1 at P."""
    word = ordinal_words(k)[0]
    out = [
        f"the {word} line through p", f"the {word} line's coefficients", f"the coefficients of the {word} line",
        f"the {word} line's equation in x and y", f"the {word} linear equation", f"the {word} equation in x and y",
        f"the formula of the {word} line", f"the formula for line {k}", f"the equation for line {k}",
        f"a{k}, b{k} and c{k}", f"a{k}, b{k}, c{k}", f"the values of a{k}, b{k} and c{k}",
        f"the numbers a{k}, b{k}, c{k}",
        f"the coefficients a{k}, b{k} and c{k}", f"what a{k}, b{k} and c{k} are", f"a{k}*x + b{k}*y = c{k}",
        f"a{k}x + b{k}y = c{k}", f"the equation a{k} x + b{k} y = c{k}",
        f"the slope and intercept of line {k}", f"line {k}'s slope and intercept", f"the slope of line {k}",
        f"the slope of the {word} line", f"the {word} line's slope", f"the intercept of line {k}",
        f"the direction of line {k}", f"the normal vector of line {k}", f"the coefficients of x and y in line {k}",
        f"the {word} line p lies on", f"the {word} line that p sits on", f"the {word} line passing through p",
    ]
    if k == 2:
        out += ["the line that crosses l1 at p", "the line intersecting l1 at p", "the other line that meets l1 at p",
                "the line whose intersection with l1 is p", "the line through p other than l1",
                "the other line p lies on", "the other line p sits on", "the line l1 crosses at p",
                "the line that meets l1 at p", "the other equation in x and y", "the other linear equation",
                "the equation of the other line", "the other line's coefficients", "the other line's slope",
                "the line that together with l1 pins down p", "the line that fixes p along l1"]
    return tuple(out)


FAMILY = GeometryCoordinates()
