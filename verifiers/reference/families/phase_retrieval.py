"""Importing the release's ``phase_retrieval`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from generators.families import phase_retrieval as _pha
from verifiers.reference.mapping import (
    GenLevel,
    Mapped,
    Spec,
    convert_all,
    domain,
    expect_hint,
    fam,
    hint_of,
    int_fields,
    release_answer,
)
from verifiers.reference.release import Release


def _magnitudes(rec: Release, c: Constraint, where: str) -> Constraint:
    values = rec.int_list(c, "values", where)
    if len(values) != 4:
        rec.fail(f"{where}.values", f"expected four squared magnitudes, got {len(values)}")
    return {"type": "fft_mag_sq", "values": values}


def map_phase(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"fft_mag_sq": _magnitudes})
    b = convert_all(rec, "B", {"sign": int_fields("index", "sign")})
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "sign")
    convention = domain("X_k = x0 + x1·(-i)^k + x2·(-i)^(2k) + x3·(-i)^(3k) (k = 0, 1, 2, 3) is the length-4 discrete "
                        "Fourier transform of the signal x = (x0, x1, x2, x3), and |X_k|^2 is its squared magnitude.")
    told = domain(f"x0, x1, x2, x3 are integers. Your partner knows the sign of x{hint['index']}.", integer=True)
    d = rec.difficulty
    bound = rec.meta_int("value_range") if "value_range" in rec.meta else 2 + min(d, 2)
    m = Mapped([*a, convention, told], b, hint, f"sign(x{hint['index']})", hint["sign"],
               {"type": "signal", "variables": list(_pha.KEYS)},
               "What is the signal x = (x0, x1, x2, x3)? Give all four integer entries.", list(_pha.KEYS),
               release_answer(rec, fam(rec), _pha.KEYS), keys=_pha.KEYS)
    m.generation = [GenLevel("pinned_by_range", f"range (integers with |x_i| <= {bound} and x0 != 0)",
                             [{"type": "domain", "integer": True, "bound": bound, "nonzero": ["x0"]}])]
    return m


SPEC = Spec(map_phase, "dict_int")
