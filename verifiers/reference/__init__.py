"""Import the authors' published MIRA-Math release into our instance format, and re-verify every instance.

``python -m verifiers import-reference FILE.jsonl [--out OURS.jsonl] [--exclude-degenerate] [--slot-notice]
[--report R.jsonl]``

The release (``datasets/family_types_20_50_few_shot.jsonl`` of the authors' repository, one JSON object per line;
format in ``../shared/reference-release/README.md``) stores each fact twice: as text and as a typed machine dict
(``lin_eq``, ``congruence``, ``entry``, ...). Each family's mapping (``families/<family>.py``, named as in
``generators/families/``) reads the machine dicts by what their numbers *are* and rebuilds them as our family's
constraint types, so that our family's renderer, solver and witness search work on them. A's imported view holds
what the release's A was told: its machine constraints, the facts the release's prompt states for the family (e.g.
"a rank-1 matrix", the target cell, the number of states) and facts that follow from what the numbers mean
(probabilities lie in [0, 1], a distribution's rows sum to 1), never the generator's ranges, and never what B
holds: by default (``view_variant: default``) it names every quantity and the gap is the one without a value; the
release's sentences saying what the partner knows are slot notices of the ``--slot-notice`` ablation only.
Per-family notes: ``docs/import-reference.md``.

Every imported instance is then re-verified:

* the answer is recomputed with our family solver from the released constraints and compared with the released
  ``global_solution`` (read in the release's shape: ``int`` ``{value}``, ``rational`` ``{numerator, denominator}``,
  ``dict_int`` including the bayes/markov fractions and crt's ``{x}``);
* our three checks run on the imported views (global uniqueness, local underdetermination with a witness for A
  and for B, hint sufficiency), then localizability (A's candidate slots, recorded only where the hint's slot is
  among them);
* an instance is *degenerate* when a check fails, when the release's own generation domain (ranges, positivity,
  the construction, all never told to A) leaves one value of the target, or when it breaks a rule our family
  enforces on every instance; each reason has a code (``REASONS``) and a detail.

Imported records carry ``verifier.source = "reference-import"``, ``verifier.checks`` lists only the checks they
pass, ``verifier.degenerate`` the reasons, and ``global_metadata.reference`` the released record itself (without
its few-shot examples), from which ``imported_instance_problems`` re-derives and checks the whole record.

Modules: ``release`` (the line format), ``mapping`` (what a mapping returns, shared converters), ``families/`` (one
mapping per family), ``checks`` (re-verification, degeneracy), ``importer`` (records, files, validation), ``cli``.
"""

from __future__ import annotations

from verifiers.reference.checks import REASONS, THREE_CHECKS, Verdict, verify
from verifiers.reference.families import MAPPINGS
from verifiers.reference.importer import (
    IMPORTER_VERSION,
    SOURCE,
    LineResult,
    convert_release,
    import_file,
    import_line,
    imported_instance_problems,
    summarise,
)
from verifiers.reference.mapping import GenLevel, Mapped, Spec
from verifiers.reference.release import ReferenceFormatError, Release

__all__ = [
    "IMPORTER_VERSION", "MAPPINGS", "REASONS", "SOURCE", "THREE_CHECKS", "GenLevel", "LineResult", "Mapped",
    "ReferenceFormatError", "Release", "Spec", "Verdict", "convert_release", "import_file", "import_line",
    "imported_instance_problems", "summarise", "verify",
]
