"""scripts/check_slot_descriptions.py: passes a family whose phrases each name one slot, and finds a phrase two
slots give (the steady state's E and P share their row and column phrases, which the responder reads as neither)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from generators.families import get_family
from generators.split import generate, typed_slots

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_slot_descriptions.py"
spec = importlib.util.spec_from_file_location("check_slot_descriptions", SCRIPT)
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)


def test_a_family_whose_phrases_name_one_slot_each_passes(capsys) -> None:
    assert check.main(["laplace_grid", "--instances", "2"]) == 0
    out = capsys.readouterr().out
    assert "phrases naming two slots: 0" in out and "declines" in out


def test_a_phrase_two_slots_give_is_found() -> None:
    family = get_family("steady_state_missing_emission")
    slot = next(s for s in typed_slots(1, 1) if s.family == family.name)
    instance = next(iter(generate([slot], 1234)))
    found = check.problems(family, instance)
    assert found and all("names both" in line or "alias" in line for line in found)
    assert any("E[" in line and "P[" in line for line in found)
