"""MIRA-Math metrics, recomputed from a transcript line alone, and their aggregates.

Per instance (from the events, never from the live counters):

* ``requests``    A's requests that reached the responder; ``offers``/``declines`` B's replies (a
                  responder parse failure is a decline), so ``requests = offers + declines``;
* ``hints``       accepted offers (= ``offers``);
* ``hit_rate``    offers / (offers + declines), ``None`` without responder messages;
* ``first_request_success``  1 if the reply to the first request was an offer (0 without requests);
* ``requests_before_first_offer``  requests before the one that got the first offer, ``None`` without;
* ``tokens``      1.3 x the whitespace words of every solver and responder message (prompts excluded);
* ``O``, ``C``, ``F``  an offer was received; a canonical hint was acquired (audited by
                  ``harness.mira.audit``; always 1 under the oracle-hint condition); the verifier accepts
                  the final answer.

Lines of instances that withhold k > 1 facts (``docs/hard-tier.md``) add, each offer being matched to the hint
it is canonical for (never trusting the event's own ``hint_id``):

* ``k``; ``hints_acquired`` the ids of the distinct hints canonically offered, in order of acquisition;
* ``all_hints`` 1 when every hint was acquired (and ``C = all_hints``); ``some_hints`` 1 when some but not all;
* ``requests_per_acquired_hint`` requests / hints acquired (``None`` without one);
* ``first_request_success_per_hint`` the mean, over the acquired hints, of 1 when the request that got the
  hint was the first one after the previous acquisition (no wasted request in between), ``None`` without one.

Under the oracle-hint condition every hint counts as acquired and the two request ratios are ``None``. Lines
of k = 1 instances keep exactly the keys above (the same values as before the hard tier); ``hint_metrics``
gives their hint keys where a run mixes both.

Aggregates (means over the instances of a group): the paper's names ``accuracy``, ``hit_rate`` (mean of
the per-instance ratios over the instances that have one), ``first_request_success``, ``avg_requests``,
``avg_declines``, ``avg_hints``, ``avg_tokens`` and the trace decomposition with the precedence
F > C: ``p_success = mean F``, ``p_integration_fail = mean C(1-F)``, ``p_no_canonical = mean (1-C)(1-F)``,
which are disjoint and sum to 1; ``acc_given_canonical`` is the accuracy over the instances with C = 1, and
``acc_given_canonical_paper = p_success / (1 - p_no_canonical)`` the formula that reproduces the paper's
Table 3 column (the two differ only when some answers are correct without the canonical hint).

In a run with k > 1 instances every group also has ``p_some_hints = mean some_hints(1-F)`` (then
``p_no_canonical = mean (no hint)(1-F)``, and the four terms sum to 1), ``acquired_all_hints`` (mean
``all_hints``), ``acquired_some_hints`` (mean ``some_hints``), ``avg_hints_acquired``,
``requests_per_acquired_hint`` and ``first_request_success_per_hint`` (means of the per-instance values over the
instances that have one), and the run is also grouped by ``k``. Runs of k = 1 instances only are summarized
exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from harness.mira.audit import grade_answer, offer_is_canonical
from harness.text import token_estimate, word_count

REQUEST_METRICS = ("hit_rate", "hit_rate_zero_filled", "first_request_success", "avg_requests", "avg_declines",
                   "avg_hints", "avg_requests_before_first_offer", "p_offer")
HINT_REQUEST_METRICS = ("requests_per_acquired_hint", "first_request_success_per_hint")
PAPER_METRICS = ("accuracy", "hit_rate", "first_request_success", "avg_requests", "avg_declines", "avg_hints",
                 "avg_tokens", "p_no_canonical", "p_integration_fail", "p_success")
HINT_KEYS = ("k", "hints_acquired", "all_hints", "some_hints", "requests_per_acquired_hint",
             "first_request_success_per_hint")


# ------------------------------------------------------------------------------ the hints of a line
def record_k(record: dict[str, Any]) -> int:
    """How many facts the line's instance withholds (``k``; 1 on lines without it)."""
    return int(record.get("k", 1))


def canonical_hints(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The withheld facts in order (``canonical_hints``, else the one ``canonical_hint``), each with a ``hint_id``."""
    hints = record.get("canonical_hints") or [record["canonical_hint"]]
    return [{**h, "hint_id": h.get("hint_id") or f"h{i}"} for i, h in enumerate(hints, start=1)]


def hint_problem(record: dict[str, Any]) -> str | None:
    """Why a (schema-valid) line's ``k`` and ``canonical_hints`` do not go together, or None."""
    k = record.get("k", 1)
    hints = record.get("canonical_hints")
    if hints is None:
        return None if k == 1 else f"k: {k} facts withheld but no canonical_hints"
    if len(hints) != k:
        return f"canonical_hints: {len(hints)} hint(s) for k = {k}"
    ids = [h["hint_id"] for h in canonical_hints(record)]
    if len(set(ids)) != len(ids):
        return "canonical_hints: a hint_id is repeated"
    return None


def offered_hint(event: dict[str, Any], hints: list[dict[str, Any]], b_constraints: list[str]) -> str | None:
    """The id of the first hint an offer event is canonical for (B's other facts as ``others``), or None."""
    for hint in hints:
        others = [t for t in b_constraints if t != hint["text"]]
        if offer_is_canonical(event.get("constraint_quoted"), event.get("hint"), hint["text"], others):
            return hint["hint_id"]
    return None


# ------------------------------------------------------------------------------ per instance
def instance_metrics(record: dict[str, Any]) -> dict[str, Any]:
    """Every per-instance metric, from the record's events, expected answer and hint spec."""
    events = record["events"]
    hints = canonical_hints(record)
    b_constraints = record.get("b_constraints", [])
    requests = offers = declines = canonical = noncanonical = solver_errors = responder_errors = words = 0
    first_offer_at: int | None = None
    first_reply: str | None = None
    final: dict[str, Any] | None = None
    for event in events:
        agent, kind = event.get("agent"), event.get("type")
        if agent in ("A", "B"):
            words += event["message_words"] if isinstance(event.get("message_words"), int) else word_count(
                event.get("message"))
        if agent == "A" and kind == "request":
            requests += 1
        elif agent == "A" and kind == "parse_error":
            solver_errors += 1
        elif agent == "A" and kind == "final" and final is None:
            final = event
        elif agent == "B" and kind in ("offer", "decline"):
            first_reply = first_reply or kind
            if kind == "decline":
                declines += 1
                responder_errors += event.get("parse_error") is not None
                continue
            offers += 1
            if first_offer_at is None:
                first_offer_at = requests
            if offered_hint(event, hints, b_constraints) is not None:
                canonical += 1
            else:
                noncanonical += 1
    grade = {"correct": False}
    if final is not None:
        grade = grade_answer(final.get("answer"), record["answer_type"], record["answer_keys"], record["expected"])
    oracle_hint = record.get("condition") == "oracle_hint"
    messages = offers + declines
    row = {
        "correct": int(grade["correct"]),
        "answered": int(final is not None),
        "requests": requests,
        "offers": offers,
        "declines": declines,
        "hints": offers,
        "canonical_offers": canonical,
        "noncanonical_offers": noncanonical,
        "hit_rate": offers / messages if messages else None,
        "first_request_success": int(first_reply == "offer"),
        "requests_before_first_offer": None if first_offer_at is None else first_offer_at - 1,
        "solver_parse_errors": solver_errors,
        "responder_parse_errors": responder_errors,
        "words": words,
        "tokens": token_estimate(words),
        "O": int(offers > 0 or oracle_hint),
        "C": int(canonical > 0 or oracle_hint),
        "F": int(grade["correct"]),
    }
    if record_k(record) > 1:
        row.update(hint_metrics(record))
        row["C"] = row["all_hints"]
    return row


def hint_metrics(record: dict[str, Any]) -> dict[str, Any]:
    """The per-hint metrics (``HINT_KEYS``) of a line at any k."""
    hints = canonical_hints(record)
    ids = [h["hint_id"] for h in hints]
    if record.get("condition") == "oracle_hint":
        return {"k": record_k(record), "hints_acquired": ids, "all_hints": 1, "some_hints": 0,
                "requests_per_acquired_hint": None, "first_request_success_per_hint": None}
    acquired: list[str] = []
    first_try: list[int] = []
    requests = requests_at_last = 0
    for event in record["events"]:
        agent, kind = event.get("agent"), event.get("type")
        if agent == "A" and kind == "request":
            requests += 1
        elif agent == "B" and kind == "offer":
            hint_id = offered_hint(event, hints, record.get("b_constraints", []))
            if hint_id is not None and hint_id not in acquired:
                acquired.append(hint_id)
                first_try.append(int(requests == requests_at_last + 1))
                requests_at_last = requests
    n = len(acquired)
    return {
        "k": record_k(record),
        "hints_acquired": acquired,
        "all_hints": int(n == len(ids)),
        "some_hints": int(0 < n < len(ids)),
        "requests_per_acquired_hint": requests / n if n else None,
        "first_request_success_per_hint": sum(first_try) / n if n else None,
    }


def with_hint_metrics(records: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with the hint keys on every row (k = 1 rows get theirs from ``hint_metrics``)."""
    return [row if "all_hints" in row else {**row, **hint_metrics(record)}
            for record, row in zip(records, rows, strict=True)]


def has_multi_hint(records: Iterable[dict[str, Any]]) -> bool:
    return any(record_k(r) > 1 for r in records)


# ------------------------------------------------------------------------------ aggregation
def _mean(values: Iterable[float | int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def aggregate(rows: list[dict[str, Any]], request_metrics: bool = True, hint_keys: bool | None = None
              ) -> dict[str, Any]:
    """Group metrics from per-instance metric rows (``request_metrics=False`` under oracle-hint); ``hint_keys``
    (default: when a row is of a k > 1 instance) adds the hint aggregates and ``p_some_hints``."""
    n = len(rows)
    if n == 0:
        return {"n": 0}
    if hint_keys is None:
        hint_keys = any(r.get("k", 1) > 1 for r in rows)

    def col(name: str) -> list[Any]:
        return [r[name] for r in rows]

    success = _mean(col("F")) or 0.0
    integration_fail = _mean([r["C"] * (1 - r["F"]) for r in rows]) or 0.0
    some_hints = _mean([r.get("some_hints", 0) * (1 - r["F"]) for r in rows]) or 0.0
    no_canonical = _mean([(1 - r["C"] - r.get("some_hints", 0)) * (1 - r["F"]) for r in rows]) or 0.0
    with_canonical = [r["F"] for r in rows if r["C"]]
    out: dict[str, Any] = {
        "n": n,
        "accuracy": _mean(col("correct")),
        "hit_rate": _mean(col("hit_rate")),
        "hit_rate_zero_filled": _mean([0.0 if v is None else v for v in col("hit_rate")]),
        "n_hit_rate": sum(v is not None for v in col("hit_rate")),
        "first_request_success": _mean(col("first_request_success")),
        "avg_requests": _mean(col("requests")),
        "avg_declines": _mean(col("declines")),
        "avg_hints": _mean(col("hints")),
        "avg_tokens": _mean(col("tokens")),
        "avg_requests_before_first_offer": _mean(col("requests_before_first_offer")),
        "p_offer": _mean(col("O")),
        "p_no_canonical": no_canonical,
        **({"p_some_hints": some_hints} if hint_keys else {}),
        "p_integration_fail": integration_fail,
        "p_success": success,
        "acc_given_canonical": _mean(with_canonical),
        "acc_given_canonical_paper": success / (success + integration_fail) if success + integration_fail else None,
        "p_correct_without_canonical": _mean([r["F"] * (1 - r["C"]) for r in rows]),
        "p_answered": _mean(col("answered")),
        "noncanonical_offers": sum(col("noncanonical_offers")),
        "p_noncanonical_offer": _mean([int(v > 0) for v in col("noncanonical_offers")]),
        "solver_parse_errors": sum(col("solver_parse_errors")),
        "responder_parse_errors": sum(col("responder_parse_errors")),
    }
    if hint_keys:
        out.update(_hint_aggregates(rows))
    if not request_metrics:
        out.update(dict.fromkeys(REQUEST_METRICS + (HINT_REQUEST_METRICS if hint_keys else ())))
    return out


def _hint_aggregates(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "acquired_all_hints": _mean([r.get("all_hints", r["C"]) for r in rows]),
        "acquired_some_hints": _mean([r.get("some_hints", 0) for r in rows]),
        "avg_hints_acquired": _mean([len(r.get("hints_acquired", ())) for r in rows]),
        "requests_per_acquired_hint": _mean([r.get("requests_per_acquired_hint") for r in rows]),
        "first_request_success_per_hint": _mean([r.get("first_request_success_per_hint") for r in rows]),
    }


GROUPINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "by_family": lambda r: r["family"],
    "by_type": lambda r: r["type"],
    "by_difficulty": lambda r: f"d{r['difficulty']}",
    "by_difficulty_type": lambda r: f"{r['type']}_d{r['difficulty']}",
    "by_family_difficulty": lambda r: f"{r['family']}/d{r['difficulty']}",
}
K_GROUPINGS: dict[str, Callable[[dict[str, Any]], str]] = {  # only in runs with k > 1 instances
    "by_k": lambda r: f"k{record_k(r)}",
    "by_difficulty_k": lambda r: f"d{r['difficulty']}_k{record_k(r)}",
    "by_family_k": lambda r: f"{r['family']}/k{record_k(r)}",
}
TYPE_FIRST = ("by_family", "by_family_difficulty", "by_family_k")  # Type A families first, as in the release


def summarize(records: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall and grouped aggregates; ``records[i]`` and ``rows[i]`` describe the same instance."""
    request_metrics = not all(r.get("condition") == "oracle_hint" for r in records)
    multi = has_multi_hint(records)
    groupings = {**GROUPINGS, **K_GROUPINGS} if multi else GROUPINGS
    if multi:
        rows = with_hint_metrics(records, rows)
    out: dict[str, Any] = {"overall": aggregate(rows, request_metrics, multi)}
    out["family_types"] = {r["family"]: r["type"] for r in records}
    for name, key in groupings.items():
        groups: dict[str, list[dict[str, Any]]] = {}
        types: dict[str, str] = {}
        for record, row in zip(records, rows, strict=True):
            g = key(record)
            groups.setdefault(g, []).append(row)
            types.setdefault(g, record["type"])
        order = sorted(groups, key=lambda g: (types[g], g) if name in TYPE_FIRST else g)
        out[name] = {g: aggregate(groups[g], request_metrics, multi) for g in order}
    return out
