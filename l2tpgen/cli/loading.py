"""The fleet a command works on, loaded, or every problem of its site files printed (exit 1).

Apart from ``app.py`` (which ``--help`` and ``--version`` import) because it imports the model.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NoReturn

import typer

from l2tpgen.api import load as load_fleet
from l2tpgen.api import problem_dict
from l2tpgen.cli.app import (
    EXIT_FINDINGS,
    OutputFormat,
    err,
    exit_code,
    fail,
    out,
    print_lines,
    problem_lines,
)
from l2tpgen.errors import FleetValidationError, L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from l2tpgen.model import Fleet


def report_problems(exc: FleetValidationError, fmt: OutputFormat) -> NoReturn:
    """Print every site-file problem and exit 1."""
    if fmt is OutputFormat.json:
        out.print_json(
            json.dumps({"ok": False, "problems": [problem_dict(p) for p in exc.problems]})
        )
        raise typer.Exit(EXIT_FINDINGS)
    print_lines(err, (line for problem in exc.problems for line in problem_lines(problem)))
    errors = [p for p in exc.problems if p.level == "error"]
    warned = len(exc.problems) - len(errors)
    noted = f" ({warned} warning{'s' if warned != 1 else ''})" if warned else ""
    err.print(f"{FleetValidationError(errors)}{noted}")
    raise typer.Exit(EXIT_FINDINGS)


def load(sites: Path, fmt: OutputFormat = OutputFormat.text, names: Sequence[str] = ()) -> Fleet:
    """Load the fleet (or only ``names`` and their peers) or exit 1 with every problem."""
    try:
        return load_fleet(sites, names)
    except FleetValidationError as exc:
        report_problems(exc, fmt)
    except L2tpgenError as exc:
        fail(str(exc), exit_code(exc))
