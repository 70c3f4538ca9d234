"""Elenchos system prompts, Levels 0-3 (paper Appendix D; restated in spec-elenchos.md §9).

Level 1 (``k = 1``) is the base text; Level 0 adds one *unique probe* per catalogue entry (the paper's are
not published: ours come from a hook, see ``level0_probes``); Level 2 (``ladder_mix``) tells the agent
"1 or 2" mutations; Level 3 (``stress_test``, the Benchmark) allows 0-3 mutations and ``neither``, drops the
workflow and operating rules, and has a budget of 65. The catalogue (titles and symptoms of the 13
mutations) is read from ``lambdapy.MUTATIONS``, so the prompt and the kernels cannot drift apart.

Level 0/1 with ``k = 2`` (``*_double_split*``) is not printed in the paper ("differs only in count and
budget wording"): here it says "exactly two mutations" and asks for two IDs.

``tool_format="json"`` appends one section (ours, not the paper's) that tells a model without native tool
calling how to call the tools: one JSON object per turn, ``schemas/elenchos_tool_call.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

ELENCHOS_PROMPT_VERSION = "elenchos-system/2"  # 2: 13 distinct Level-0 probes; the JSON tool section explains results
LEVEL_IDS = {0: "ladder_single_split_probe", 1: "ladder_single_split", 2: "ladder_mix", 3: "stress_test"}
LEVEL_IDS_K2 = {0: "ladder_double_split_probe", 1: "ladder_double_split"}
LEVEL3_ID07_TITLE = "Definitional equality bypass during type comparison"

_probe_provider: Callable[[], dict[str, str]] | None = None


def set_level0_probes(provider: Callable[[], dict[str, str]] | None) -> None:
    """Hook for the Elenchos package: ``provider()`` returns {mutation ID: probe source} (Pi_RSA)."""
    global _probe_provider
    _probe_provider = provider


def level0_probes() -> dict[str, str]:
    """The Level-0 unique probes: the registered provider, else ``elenchos.probes.PI_RSA`` once that package
    exists, else the signature probes of ``lambdapy.probes`` (one diverging probe per mutation)."""
    if _probe_provider is not None:
        return dict(_probe_provider())
    try:
        from elenchos.probes import PI_RSA  # type: ignore[import-not-found]

        return dict(PI_RSA)
    except ImportError:
        pass
    try:
        from lambdapy.probes import SIGNATURE_PROBES

        return dict(SIGNATURE_PROBES)
    except ImportError:
        return {}


def budget_for(level: int) -> int:
    return 65 if level == 3 else 50


def prompt_id(level: int, k: int = 1) -> str:
    if level in (0, 1) and k == 2:
        return LEVEL_IDS_K2[level]
    return LEVEL_IDS[level]


def elenchos_system_prompt(level: int, k: int = 1, budget: int | None = None,
                           probes: dict[str, str] | None = None, tool_format: str | None = "json",
                           reasoning: bool = True) -> str:
    """The system prompt of ``level`` (0-3); ``k`` (1 or 2) only matters at Levels 0 and 1.

    ``reasoning``: whether the JSON tool calls carry a ``reasoning`` field (as the engine schema requires
    when the agent's ``reasoning`` setting is on).
    """
    if level not in LEVEL_IDS:
        raise ValueError(f"Elenchos prompt level must be 0-3, not {level!r}")
    if level in (0, 1) and k not in (1, 2):
        raise ValueError("Levels 0 and 1 exist for k = 1 and k = 2")
    budget = budget_for(level) if budget is None else budget
    if level == 0 and probes is None:
        probes = level0_probes()
    sections = [
        _role(level, k),
        _score(level, k, budget),
        _tools(budget),
        *(_workflow(level, k) if level < 3 else ["Identify the corrupted kernel and active mutations. Submit your "
                                                  "answer."]),
        _language(level),
        _catalogue(level, k, probes or {}),
        _submission(level, k),
    ]
    if tool_format == "json":
        sections.append(_json_tools(level, reasoning))
    return "\n\n".join(s.strip("\n") for s in sections) + "\n"


# ---------------------------------------------------------------------------------------------- sections
def _count_words(level: int, k: int) -> tuple[str, str]:
    """(what the corrupted kernel carries, the 'which catalog ID...' phrase)."""
    if level == 2:
        return ("1 or 2 active mutations drawn from the catalog below. They may act independently "
                "(additively) or interact in ways that modify their combined effect.", "catalog ID(s)")
    if k == 2:
        return "exactly two mutations drawn from the catalog below.", "catalog IDs"
    return "exactly one mutation drawn from the catalog below.", "catalog ID"


def _role(level: int, k: int) -> str:
    head = ("# Role\nYou are a precise, parsimonious diagnostician of a dependently typed lambda\ncalculus "
            "(LambdaPi).\nYou are given access to two black-box kernels, `K_A` and `K_B`, implementing\n")
    if level == 3:
        body = ("the same surface language. At most one kernel is corrupted. A kernel is corrupted if its output "
                "deviates from correct LambdaPi semantics. In case of an existing corrupted kernel, the corrupted "
                "kernel carries 1, 2, or 3 active mutations drawn from the catalog below.\n"
                "Your job is to identify whether any kernel is corrupted, which one it is, and which catalog ID(s) "
                "best explain the observed behavior.")
    else:
        carries, which = _count_words(level, k)
        body = (f"the same surface language. Exactly one kernel is corrupted. The corrupted\nkernel carries {carries}"
                f"\nYour job is to identify which kernel is damaged and which {which} best\nexplain the observed "
                "behavior.")
    tail = ("\nWork only from behavior. Do not assume any implementation details beyond what\nis observable "
            "through the interface.")
    return head + body + tail


def _score(level: int, k: int, budget: int) -> str:
    formula = "# Score - maximise E_ELX\nE_ELX = V × (1 + 0.5 × (1 - (P/P_max)^3)),\n"
    if level == 3:
        return formula + (
            "with `V=1` if the kernel label AND the full mutation_id set are correct (empty list [] when no kernel "
            f"is corrupted) else `V=0`, P = total probes issued, `P_max={budget}` maximum available probe budget.\n"
            "Complete and exact correctness is mandatory. Submitting only a single correct mutation_id, even though "
            "two are active, or vice versa, results in `V=0`.\nEach redundant probe strictly reduces score; but "
            "finding the correct solution is much more important.")
    if level == 2:
        v_line = "with `V=1` if the corrupted kernel AND the full mutation_id set are correct else `V=0`,\n"
        rest = ("Complete and exact correctness is mandatory. Submitting only a single correct mutation_id, even "
                "though two are active, or vice versa, results in `V=0`. Two-mutation cases are as likely as "
                "one-mutation cases. Each redundant probe strictly reduces score; but finding the corrupted kernel "
                "and correct mutation(s) or excluding mutation candidates is much more important.")
    else:
        what = "mutation_id set" if k == 2 else "mutation_id"
        v_line = f"with `V=1` if the corrupted kernel AND the {what} are correct else `V=0`,\n"
        rest = ("Complete and exact correctness is mandatory. Each redundant probe strictly\nreduces score; but "
                f"finding the corrupted kernel and correct mutation{'s' if k == 2 else ''} or\nexcluding mutation "
                "candidates is much more important.")
    return formula + v_line + f"P = total probes issued, `P_max={budget}` maximum available probe budget.\n" + rest


def _tools(budget: int) -> str:
    return ("# Tools\n- `probe`\n  Sends one LambdaPi source string to both kernels and returns both outputs plus a "
            "divergence summary.\n- `list_context`\n  Shows the current persistent context if you need to inspect "
            "prior assumptions/definitions.\n- `budget_left`\n  Returns remaining probe budget. You start with "
            f"{budget} probes and must submit when the budget drops to 0.\n- `submit_answer`\n  Final submission.")


def _workflow(level: int, k: int) -> list[str]:
    multi = level == 2 or k == 2
    step3 = "narrow candidate set by ruling out mutations that would affect the probe's" if multi else (
        "narrow candidates by ruling out mutations that would affect the probe's")
    step5 = ("exact mutation(s) by designing hypothesis/mutation candidate specific probes, not just finding the "
             "most likely mutation(s).") if multi else (
        "exact mutation by designing hypothesis/mutation candidate specific\n   probes, not just finding the most "
        "likely mutation.")
    step6 = ("kernel and mutation set are determined while all other hypotheses have been" if multi else
             "kernel and mutation ID are determined while all other hypotheses have been")
    workflow = (
        "# Mandatory workflow and operational diagnoses strategy\n"
        "1. Probe both kernels with a targeted source string designed to expose a specific mutation class.\n"
        "2. Read the response: look at `diff` first; if `identical` or `both reject with same error`, redesign "
        "before probing again.\n"
        f"3. If consecutive probes return no informative `diff` use this information to\n   {step3}\n"
        "   mutation class. Do not submit without observed divergence---absence of\n   divergence based on your "
        "current probes can either mean your probes are\n   wrong, not that no mutation exists.\n"
        "4. Once you see divergence, confirm which kernel is corrupted. The kernel whose\n   output deviates from "
        "correct LambdaPi semantics is the corrupted one.\n"
        "5. Narrow it down to mutation candidates, rule out alternatives, and identify\n   " + step5 + "\n"
        "6. Submit only after the solution has been uniquely determined (i.e. corrupted\n   " + step6 + "\n"
        "   excluded).")
    if multi:
        first_rules = ("- Every claimed mutation must be supported by at least one discriminating probe.\n"
                       "- When claiming two mutations, each must be independently evidenced by a probe designed for "
                       "its specific mutation class where the other mutation is not the primary cause. Do not "
                       "assume one anomaly explains everything.\n")
    else:
        first_rules = "- A claimed mutation must be supported by at least one discriminating probe.\n"
    rules = ("# Operating rules\n" + first_rules +
             "- Never repeat an uninformative probe.\n- Distinguish rejection from wrong evaluation. Both matter.\n"
             "- If budget drops to zero, while two hypotheses continue to be equally supported, submit the "
             "better-evidenced one and document the unresolved ambiguity and the separating probe that would "
             "resolve it.")
    if level == 2:
        rules += ("\n- Do not assume more mutations than the evidence requires, but actively test for a second "
                  "mutation before submitting.")
    return [workflow, rules]


_LANGUAGE = """\
# Benchmark language
State persists across probes. You start with a fresh state when diagnosis
begins. Only valid `assume` and `let` statements without error are retained.
Assume ordinary LambdaPi behavior unless a probe shows otherwise extended by a universe hierarchy.
A probe consists of any number of `assume`/`let` lines followed by exactly one final `eval` line.
Each statement has to be in a single line separated by "\\n". ";" is not allowed.

## Statements
assume x : T               declare a free variable
assume x y : T             declare multiple variables of the same type
let name = expr            define variable
let name : Type = expr     define variable with explicit type annotation
eval term                  evaluate and type-check
eval term : type           evaluate with explicit type annotation

## Terms
\\x -> body                 lambda abstraction (backslash)
forall (x : A) . B         dependent product (Pi type)
A -> B                     non-dependent function type
f a b                      application by juxtaposition
term : TypeExpr            annotation
Type, Type0, Type1, ...    universes hierarchy

## Built-ins
Nat                        natural number type
Zero                       zero (Zero : Nat)
Succ n                     successor (Succ Zero : Nat)
NatElim motive base step n recursor over Nat
Vec A n                    length-indexed vector type
Nil A / Cons A n h t       empty/cons vectors
VecElim                    vector eliminator
Eq A x y                   propositional equality type
Refl A x                   reflexivity proof (Refl Nat Zero : Eq Nat Zero Zero)
EqElim A m rc x y p        J eliminator

## Reading probe output
Each probe returns a JSON object with fields for each kernel K_A and K_B:
sigma     "accept" - kernel accepted the term; output is in `result`
          "reject" - kernel rejected it; error message is in `epsilon`
result    The pretty-printed value/normal form and type, e.g. "Zero : Nat"
epsilon   Normalised error string (paths/line numbers stripped)
diff      Summary of divergence:
          "identical" - no divergence, probe uninformative
          "result divergence: A=..., B=..." - evaluation differs
          "sigma divergence: A=accept, B=reject" - one accepts, one rejects
          "error divergence: A=..., B=..." - both reject but with different errors"""


def _language(level: int) -> str:
    if level != 3:
        return _LANGUAGE
    return _LANGUAGE + ("\nNote: sigma divergence (one accepts, one rejects) is as diagnostically meaningful as "
                        "result divergence. A probe where both kernels produce identical output or both reject "
                        "with same error provides no evidence for or against any mutation---it neither confirms "
                        "nor rules out a corrupted kernel.")


def _catalogue(level: int, k: int, probes: dict[str, str]) -> str:
    from lambdapy import MUTATIONS

    shallow = ("Symptoms of mutations, even across categories, may appear\nidentical on shallow probes; IDs with "
               "similar symptoms often require a targeted\ndeeper probe to distinguish.")
    models = ("Each mutation candidate suggests a different probing\nstrategy. Treat the descriptions below as "
              "semantic mutation models, not as\nimplementation hints.")
    if level == 3:
        intro = f"0, 1, 2, or 3 mutations are active. {models}"
    elif level == 2:
        intro = (f"1 or 2 mutations are active. {models} {shallow}\nSymptoms may be misleading---what appears to be "
                 "one mutation could actually be the result of two mutations interacting with each other, and vice "
                 "versa.")
    else:
        count = "Two mutations are active." if k == 2 else "One mutation is active."
        intro = f"{count} {models} {shallow}"
    if level == 0:
        intro += ("\nFor each mutation, there is a probe provided, that is guaranteed to produce divergence if that "
                  "mutation is active, and whose specific output pair (corrupted kernel result vs. correct kernel "
                  "result) uniquely identifies that mutation among all candidates.")
    entries = []
    for mid, info in MUTATIONS.items():
        title = LEVEL3_ID07_TITLE if (level == 3 and mid == "ID_07") else info.title
        entry = f"{mid} --- {title}\nSymptom: {info.symptom}"
        if level == 0:
            probe = probes.get(mid)
            entry += "\nUnique probe: " + (json.dumps(probe, ensure_ascii=False) if probe else "(not available)")
        entries.append(entry)
    return "## Candidate mutations\n" + intro + "\n\n" + "\n\n".join(entries)


def _submission(level: int, k: int) -> str:
    if level == 3:
        kernel = ('corrupted_kernel   "A" or "B" --- the kernel whose output deviates from correct LambdaPi '
                  'semantics, or "neither"')
        ids = ('mutation_ids       list of one, two, or three IDs, e.g. ["ID_02"], ["ID_01","ID_03"], or '
               '["ID_01","ID_03","ID_12"], that best explain the observed behavior. If no kernel is corrupted, '
               'submit an empty list.')
        after = "\n                   Provide evidence for every claimed mutation."
        minimal = ("minimal_probe      The SHORTEST source string in which you observed divergence. If no "
                   "divergence was observed, submit the shortest probe.")
    else:
        kernel = ('corrupted_kernel   "A" or "B" --- the kernel whose output deviates from correct LambdaPi '
                  'semantics.')
        if level == 2:
            ids = ('mutation_ids       list of one or two IDs, e.g. ["ID_02"] or ["ID_01","ID_03"], that best '
                   'explain the observed behavior.')
            after = ("\n                   If a combined mutation effect produces a symptom that is not individually "
                     "described by either ID, note this in justification.")
        elif k == 2:
            ids = 'mutation_ids       list of two IDs, e.g. ["ID_01","ID_03"], that best explain the observed behavior.'
            after = ""
        else:
            ids = 'mutation_ids       list of one ID, e.g. ["ID_03"], that best explains the observed behavior.'
            after = ""
        minimal = "minimal_probe      The SHORTEST source string in which you observed divergence."
    return ("## Submission format\nCall `submit_answer` with:\n" + kernel + "\n" + ids + "\n"
            "justification      concise probe-based argument naming which kernel produced which behavior." + after +
            "\n" + minimal + "\n"
            "explanatory_probe  Cite a second probe you already ran that confirms the\n                   semantic "
            "consequence - e.g. a computation that gives a\n                   provably wrong answer on the corrupted "
            "kernel.")


def _json_tools(level: int, reasoning: bool = True) -> str:
    """Our section (not the paper's): the JSON tool-call format, and how to read the results and status line."""
    labels = '"A", "B" or "neither"' if level == 3 else '"A" or "B"'
    head = '{"reasoning": "<one or two sentences: why this call>", ' if reasoning else "{"
    why = ('"reasoning" comes first: a short note of why you make this call (it is not scored).\n'
           if reasoning else "")
    return (
        "## How to call a tool\n"
        "Reply on every turn with exactly one JSON object and nothing else:\n"
        + head + '"tool": "probe", "arguments": {"source": "<statements separated by \\n>"}}\n'
        + head + '"tool": "list_context", "arguments": {}}\n'
        + head + '"tool": "budget_left", "arguments": {}}\n'
        + head + '"tool": "submit_answer", "arguments": {"corrupted_kernel": ' + labels + ', '
        '"mutation_ids": ["ID_.."], "justification": "...", "minimal_probe": "...", "explanatory_probe": "..."}}\n'
        + why
        + "The tool's result comes back as the next user message, as JSON:\n"
        '- "ok": true when the call was accepted; false with an "error" message when it was not (a call that is '
        "not accepted spends no probe).\n"
        '- a probe result has "A" and "B" (each kernel\'s observation: "sigma" accept or reject, "result" as '
        '`normal form : type`, "epsilon" the error), "diff" (how the two observations compare) and "budget_left" '
        "(probes left after this one).\n"
        "- `_` in a result is a placeholder that a kernel prints where it has no name to show (an unused binder, "
        "or a value without a printable form); it is part of that kernel's output.\n"
        'Each user message ends with "Probes left: P of P_max. Turn N of at most T.": T counts all your replies, '
        "free and invalid calls included; when the probes are spent or the last turns are reached, only "
        "submit_answer is accepted.")
