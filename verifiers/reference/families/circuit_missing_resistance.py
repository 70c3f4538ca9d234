"""Importing the release's ``circuit_missing_resistance`` lines into our family's constraint types."""

from __future__ import annotations

import re

from generators.base import Constraint
from generators.families import circuit_missing_resistance as _cir
from verifiers.reference.mapping import Mapped, Spec, read_views, released
from verifiers.reference.release import Release

_JOIN = re.compile(r"\s*(R\d+|G\d+) and (R\d+|G\d+) are connected in (series|parallel), forming "
                   r"(?:group (G\d+)|the total equivalent resistance)\.?\s*")


def map_circuit(rec: Release) -> Mapped:
    groups: list[Constraint] = []
    pending_total: list[tuple[str, list[str]]] = []

    def topology(r: Release, c: Constraint, where: str) -> Constraint:
        for k, sentence in enumerate(r.get(c, "description", where, list)):
            m = _JOIN.fullmatch(sentence) if isinstance(sentence, str) else None
            if m is None:
                r.fail(f"{where}.description[{k}]",
                       f"cannot read {sentence!r} as 'X and Y are connected in series|parallel, forming group Gk' "
                       "or '..., forming the total equivalent resistance'")
            if m.group(4):
                groups.append({"type": "topology", "group": m.group(4), "connection": m.group(3),
                               "parts": [m.group(1), m.group(2)]})
            else:
                pending_total.append((m.group(3), [m.group(1), m.group(2)]))
        return {"type": "topology"}  # placeholder, replaced below

    def resistance(r: Release, c: Constraint, where: str) -> Constraint:
        k = r.integer(c, "resistor", where)  # 0-based in the release's machine form, 1-based in its text
        return {"type": "resistance", "resistor": k + 1, "value": r.integer(c, "value", where)}

    conv = {"topology": topology, "resistance": resistance}
    a, b, hint = read_views(rec, conv, b_converters={"resistance": resistance})
    n = rec.meta_int("n_resistors")
    if len(pending_total) != 1:
        rec.fail("agent_views[0].private_data.constraints_machine", "the topology must name the total resistance once")
    used = [int(g["group"][1:]) for g in groups]
    network = f"G{max(used, default=0) + 1}"
    groups.append({"type": "topology", "group": network, "connection": pending_total[0][0],
                   "parts": pending_total[0][1]})
    for g in groups:
        for part in g["parts"]:
            if part.startswith("R") and not 1 <= int(part[1:]) <= n:
                rec.fail("agent_views[0].private_data.constraints_machine", f"{part} is not one of R1..R{n}")
    values = [c for c in a if c["type"] == "resistance"]
    top = max([5 + 3 * (rec.difficulty - 1)] + [c["value"] for c in [*values, hint]])
    a = [_cir.network_domain(n, 1, top, network), *groups, *values]
    return Mapped(a, b, hint, f"R{hint['resistor']}", hint["value"],
                  {"type": "equivalent_resistance", "network": network},
                  f"What is R_eq, the equivalent resistance in ohms of the whole network {network} between its two "
                  "terminals? Give it as a reduced fraction.", ["R_eq"], released(rec))


SPEC = Spec(map_circuit, "rational")
