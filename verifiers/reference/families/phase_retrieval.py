"""Importing the release's ``phase_retrieval`` lines into our family's constraint types."""

from __future__ import annotations

from generators.families import phase_retrieval as _pha
from verifiers.reference.mapping import (
    GenLevel,
    Mapped,
    Spec,
    domain,
    int_fields,
    int_list_field,
    partner_notice,
    read_views,
    released,
)
from verifiers.reference.release import Release

_magnitudes = int_list_field("values", 4, lambda v: f"expected four squared magnitudes, got {len(v)}")


def map_phase(rec: Release) -> Mapped:
    a, b, hint = read_views(rec, {"fft_mag_sq": _magnitudes}, "sign",
                            b_converters={"sign": int_fields("index", "sign")})
    convention = domain("X_k = x0 + x1·(-i)^k + x2·(-i)^(2k) + x3·(-i)^(3k) (k = 0, 1, 2, 3) is the length-4 discrete "
                        "Fourier transform of the signal x = (x0, x1, x2, x3), and |X_k|^2 is its squared magnitude.")
    told = domain("x0, x1, x2, x3 are integers.", integer=True)
    slot = f"sign(x{hint['index']})"
    d = rec.difficulty
    bound = rec.meta_int("value_range") if "value_range" in rec.meta else 2 + min(d, 2)
    m = Mapped([*a, convention, told], b, hint, slot, hint["sign"], {"type": "signal", "variables": list(_pha.KEYS)},
               "What is the signal x = (x0, x1, x2, x3)? Give all four integer entries.", list(_pha.KEYS),
               released(rec, _pha.KEYS), keys=_pha.KEYS,
               notice=partner_notice(slot, f"Your partner knows the sign of x{hint['index']}."))
    m.generation = [GenLevel("pinned_by_range", f"range (integers with |x_i| <= {bound} and x0 != 0)",
                             [{"type": "domain", "integer": True, "bound": bound, "nonzero": ["x0"]}])]
    return m


SPEC = Spec(map_phase, "dict_int")
