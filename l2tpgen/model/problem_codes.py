"""The validation problems' codes (``V001``...): one table, ``problem_codes.yaml``, and its page.

As ruff keeps one table of rule codes, every kind of site-file problem has a stable code there,
with the module that reports it, what it says and how to fix it. ``validate`` shows a problem's
code; ``docs/problems.md`` is ``problems_markdown()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

import yaml

if TYPE_CHECKING:
    from l2tpgen.model.problems import Level

TABLE = Path(__file__).with_name("problem_codes.yaml")


@dataclass(frozen=True)
class ProblemCode:
    """One kind of validation problem: its code, the module that reports it, its words, its fix."""

    code: str
    module: str  # in l2tpgen.model
    message: str
    fix: str
    level: Level = "error"


@cache
def problem_codes() -> tuple[ProblemCode, ...]:
    """Every problem code, in the table's order."""
    entries = cast("list[dict[str, str]]", yaml.safe_load(TABLE.read_text(encoding="utf-8")))
    return tuple(ProblemCode(**entry) for entry in entries)  # type: ignore[arg-type]


def problems_markdown() -> str:
    """The problem reference (docs/problems.md), generated from the table."""
    parts = [
        "# Validation problems\n",
        (
            "Generated from `l2tpgen/model/problem_codes.yaml` (`pytest --update-golden` "
            "rewrites this file). Every problem `l2tpgen validate` reports (and render, push "
            "and the other commands that load the site files; lint reports them as findings of "
            "rule L2T000) has a stable code: at the end of its line in text "
            "(`[V013]`), as `code` in `--format json`, and in the annotation's title in "
            "`--format github`. A code never changes meaning and is never reused. Words in "
            "`<angle brackets>` stand for the values of the site files; a warning leaves the exit "
            "status alone.\n"
        ),
        "| code | level | message | how to fix it |",
        "|---|---|---|---|",
    ]
    parts += [
        f"| {c.code} | {c.level} | {_cell(c.message)} | {_cell(c.fix)} |" for c in problem_codes()
    ]
    return "\n".join(parts) + "\n"


def _cell(text: str) -> str:
    """``text`` in a GFM table cell: ``|`` escaped; ``<`` shown as written outside code spans."""
    parts = text.replace("|", "\\|").split("`")
    return "`".join(
        part if n % 2 else part.replace("<", "&lt;").replace(">", "&gt;")
        for n, part in enumerate(parts)
    )
