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

Aggregates (means over the instances of a group): the paper's names ``accuracy``, ``hit_rate`` (mean of
the per-instance ratios over the instances that have one), ``first_request_success``, ``avg_requests``,
``avg_declines``, ``avg_hints``, ``avg_tokens`` and the trace decomposition with the precedence
F > C: ``p_success = mean F``, ``p_integration_fail = mean C(1-F)``, ``p_no_canonical = mean (1-C)(1-F)``,
which are disjoint and sum to 1; ``acc_given_canonical`` is the accuracy over the instances with C = 1, and
``acc_given_canonical_paper = p_success / (1 - p_no_canonical)`` the formula that reproduces the paper's
Table 3 column (the two differ only when some answers are correct without the canonical hint).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from harness.mira.audit import grade_answer, offer_is_canonical
from harness.text import token_estimate, word_count

REQUEST_METRICS = ("hit_rate", "hit_rate_zero_filled", "first_request_success", "avg_requests", "avg_declines",
                   "avg_hints", "avg_requests_before_first_offer", "p_offer")
PAPER_METRICS = ("accuracy", "hit_rate", "first_request_success", "avg_requests", "avg_declines", "avg_hints",
                 "avg_tokens", "p_no_canonical", "p_integration_fail", "p_success")


def instance_metrics(record: dict[str, Any]) -> dict[str, Any]:
    """Every per-instance metric, from the record's events, expected answer and hint spec."""
    events = record["events"]
    hint_text = record["canonical_hint"]["text"]
    others = [t for t in record.get("b_constraints", []) if t != hint_text]
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
            if offer_is_canonical(event.get("constraint_quoted"), event.get("hint"), hint_text, others):
                canonical += 1
            else:
                noncanonical += 1
    grade = {"correct": False}
    if final is not None:
        grade = grade_answer(final.get("answer"), record["answer_type"], record["answer_keys"], record["expected"])
    oracle_hint = record.get("condition") == "oracle_hint"
    messages = offers + declines
    return {
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


# ------------------------------------------------------------------------------ aggregation
def _mean(values: Iterable[float | int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def aggregate(rows: list[dict[str, Any]], request_metrics: bool = True) -> dict[str, Any]:
    """Group metrics from per-instance metric rows (``request_metrics=False`` under oracle-hint)."""
    n = len(rows)
    if n == 0:
        return {"n": 0}

    def col(name: str) -> list[Any]:
        return [r[name] for r in rows]

    success = _mean(col("F")) or 0.0
    integration_fail = _mean([r["C"] * (1 - r["F"]) for r in rows]) or 0.0
    no_canonical = _mean([(1 - r["C"]) * (1 - r["F"]) for r in rows]) or 0.0
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
    if not request_metrics:
        out.update(dict.fromkeys(REQUEST_METRICS))
    return out


GROUPINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "by_family": lambda r: r["family"],
    "by_type": lambda r: r["type"],
    "by_difficulty": lambda r: f"d{r['difficulty']}",
    "by_difficulty_type": lambda r: f"{r['type']}_d{r['difficulty']}",
    "by_family_difficulty": lambda r: f"{r['family']}/d{r['difficulty']}",
}
TYPE_FIRST = ("by_family", "by_family_difficulty")  # Type A families first, as in the release


def summarize(records: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall and grouped aggregates; ``records[i]`` and ``rows[i]`` describe the same instance."""
    request_metrics = not all(r.get("condition") == "oracle_hint" for r in records)
    out: dict[str, Any] = {"overall": aggregate(rows, request_metrics)}
    out["family_types"] = {r["family"]: r["type"] for r in records}
    for name, key in GROUPINGS.items():
        groups: dict[str, list[dict[str, Any]]] = {}
        types: dict[str, str] = {}
        for record, row in zip(records, rows, strict=True):
            g = key(record)
            groups.setdefault(g, []).append(row)
            types.setdefault(g, record["type"])
        order = sorted(groups, key=lambda g: (types[g], g) if name in TYPE_FIRST else g)
        out[name] = {g: aggregate(groups[g], request_metrics) for g in order}
    return out
