"""Shared pieces of the command line: the app, consoles, common options, error reporting.

Exit codes: 0 success; 1 the input has errors or findings (nothing was changed); 2 usage error;
push adds 3 (refused and rolled back) and 4 (rollback failed: check the router by hand).

Start-up stays cheap: command modules import typer, rich and the standard library at the top, and
everything else (the model, the renderer, the linter, netmiko, Nornir, the simulator) inside the
commands that use it, so ``--version`` and ``--help`` import none of it.
"""

from __future__ import annotations

import json
import re
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from l2tpgen import __version__
from l2tpgen.errors import FleetValidationError, L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.model import Fleet, Problem

EXIT_FINDINGS = 1

app = typer.Typer(
    name="l2tpgen",
    help="Build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# No markup: user strings (paths, site names, config text) may hold `[/]` and such.
out = Console(highlight=False, soft_wrap=True, markup=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)

LATIN1 = 0xFF
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def safe(text: str) -> str:
    r"""Text from users and configs made safe for a terminal.

    Control characters (escape sequences among them) and bidirectional overrides are shown as
    ``\xNN`` / ``\uNNNN`` instead of acting on the terminal.
    """
    return _UNSAFE.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) <= LATIN1 else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


class OutputFormat(str, Enum):
    """Output for people or for scripts."""

    text = "text"
    json = "json"


def fail(message: str) -> NoReturn:
    """Print an error and exit 1."""
    err.print(Text.assemble(("error:", "bold red"), " ", safe(message)))
    raise typer.Exit(EXIT_FINDINGS)


def report_problems(exc: FleetValidationError, fmt: OutputFormat) -> NoReturn:
    """Print every site-file problem and exit 1."""
    if fmt is OutputFormat.json:
        out.print_json(
            json.dumps({"ok": False, "problems": [problem_dict(p) for p in exc.problems]})
        )
        raise typer.Exit(EXIT_FINDINGS)
    for problem in exc.problems:
        err.print(
            Text.assemble(
                (f"{safe(problem.where)}:", "bold"),
                " ",
                ("error:", "red"),
                " ",
                safe(problem.message),
            )
        )
        if problem.hint:
            err.print(Text.assemble("  ", ("hint:", "cyan"), " ", safe(problem.hint)))
    err.print(str(exc))
    raise typer.Exit(EXIT_FINDINGS)


def problem_dict(problem: Problem) -> dict[str, object]:
    """A problem as JSON."""
    loc = problem.location
    return {
        "file": loc.file if loc else None,
        "line": loc.line if loc else None,
        "column": loc.column if loc else None,
        "site": problem.site,
        "path": list(problem.path),
        "message": problem.message,
        "hint": problem.hint,
    }


def load(sites: Path, fmt: OutputFormat = OutputFormat.text, names: Sequence[str] = ()) -> Fleet:
    """Load the fleet (or only ``names`` and their peers) or exit 1 with every problem."""
    from l2tpgen.model import load_fleet, load_sites  # noqa: PLC0415 - start-up stays cheap

    try:
        return load_sites(sites, names) if names else load_fleet(sites)
    except FleetValidationError as exc:
        report_problems(exc, fmt)
    except L2tpgenError as exc:
        fail(str(exc))


def _version(value: bool) -> None:
    if value:
        out.print(f"l2tpgen {__version__}")
        raise typer.Exit


@app.callback()
def main_callback(
    _version_flag: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites."""


SitesOption = Annotated[
    Path,
    typer.Option("--sites", help="Directory of site files.", show_default=True),
]
