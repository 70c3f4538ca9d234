"""Tables in three renderings (terminal text, Markdown, CSV), shared by every benchmark's reports.

Text in a cell may come from a record of a run folder from elsewhere (a label, an id, a family name), so it is
escaped where it lands: in Markdown a ``|`` is ``\\|`` and a line break is a space (``md_text``); in CSV the
``csv`` module quotes it and a cell that a spreadsheet would run as a formula (starting ``=``, ``+``, ``-``,
``@``, a tab or a carriage return, and not a number) gets a leading ``'`` (``csv_text``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Column:
    header: str
    key: str
    fmt: str = ".3f"  # format spec for numbers; "d" for integers, "s" for text


@dataclass
class Table:
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]

    def cells(self) -> list[list[str]]:
        return [[format_cell(row.get(c.key), c.fmt) for c in self.columns] for row in self.rows]

    def text(self) -> str:
        headers = [c.header for c in self.columns]
        body = self.cells()
        widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h) for i, h in enumerate(headers)]

        text_columns = [c.fmt == "s" for c in self.columns]

        def line(cells: Sequence[str]) -> str:
            parts = (cell.ljust(w) if left else cell.rjust(w) for cell, w, left in zip(cells, widths, text_columns,
                                                                                      strict=True))
            return "  ".join(parts).rstrip()

        rule = "-" * len(line(headers))
        return "\n".join([self.title, rule, line(headers), rule, *(line(r) for r in body), rule])

    def markdown(self) -> str:
        headers = [c.header for c in self.columns]
        align = ["---" if c.fmt == "s" else "---:" for c in self.columns]
        rows = ["| " + " | ".join(md_text(cell) for cell in r) + " |" for r in self.cells()]
        return "\n".join([f"**{md_text(self.title)}**", "", "| " + " | ".join(headers) + " |",
                          "| " + " | ".join(align) + " |", *rows])

    def csv(self) -> str:
        """Unrounded values (``None`` as an empty cell)."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow([c.key for c in self.columns])
        for row in self.rows:
            writer.writerow(["" if row.get(c.key) is None else csv_text(row.get(c.key)) for c in self.columns])
        return buf.getvalue()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def md_text(text: str) -> str:
    """``text`` safe inside one Markdown table cell or heading line: no line break, ``|`` escaped."""
    return " ".join(str(text).replace("\\", "\\\\").replace("|", "\\|").splitlines()) if text else text


def csv_text(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs as a formula: text starting like one (and not a number) gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def format_cell(value: Any, fmt: str) -> str:
    if value is None:
        return "n/a"
    if fmt == "s" or isinstance(value, str):
        return str(value)
    if fmt == "d":
        return str(int(value))
    return format(value, fmt)
