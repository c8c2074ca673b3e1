"""``l2tpgen validate``: every site file loaded and the fleet checked as a whole."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from l2tpgen.api import validate as validated
from l2tpgen.cli.app import (
    OutputFormat,
    SitesOption,
    app,
    err,
    fail,
    out,
    print_lines,
    print_plain,
    problem_lines,
    safe,
)
from l2tpgen.cli.loading import report_problems
from l2tpgen.errors import FleetValidationError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.api import Validation
    from l2tpgen.model import Fleet, Problem
    from l2tpgen.model.needs import SecretNeed
    from l2tpgen.model.pair_keys import KeyComparison


class ValidateFormat(str, Enum):
    """validate's output: for people, for scripts, or GitHub Actions annotations."""

    text = "text"
    json = "json"
    github = "github"


@app.command()
def validate(
    sites: SitesOption = Path("sites"),
    fmt: Annotated[ValidateFormat, typer.Option("--format", help="Output format.")] = (
        ValidateFormat.text
    ),
) -> None:
    """Load every site file and check the fleet as a whole.

    Every problem is reported at once, as file:line:column with a hint; exit 1 if there is any.
    A file with schema errors is still checked where it can be (its other VLANs, its pairs); one
    that does not load is not checked against its peers, and says so.
    Warnings (a peer's tunnel source the site files do not show reachable) leave the exit at 0.
    --format github prints GitHub Actions annotations (::error file=...,line=...::).
    """
    found = validated(sites)
    if found.error is not None:
        code = 2 if found.usage else 1  # a sites directory that is none: a usage error
        if fmt is ValidateFormat.json:
            out.print_json(json.dumps(found.as_dict()))
            raise typer.Exit(code) from None
        fail(found.error, code)
    if not found.ok:
        _invalid(found, fmt)
    assert found.fleet is not None  # noqa: S101 - ok means loaded
    warnings = list(found.warnings)
    comparisons = list(found.pair_keys)
    if fmt is ValidateFormat.json:
        out.print_json(json.dumps(found.as_dict()))
        return
    if fmt is ValidateFormat.github:
        sys.stdout.write(_annotations(warnings, "warning"))
        for need in found.secrets:
            state = "is not set" if need.state == "missing" else "is refused"
            sys.stdout.write(
                f"::warning title=l2tpgen validate::environment variable {need.variable} {state} "
                f"(needed by {', '.join(need.sites)})\n"
            )
        sys.stdout.write(uncompared_annotations(comparisons))
        return
    _print_warnings(warnings)
    warn_unset(list(found.secrets))
    warn_uncompared(comparisons)
    noted = f" ({plural(len(warnings), 'warning')})" if warnings else ""
    count = found.pseudowires or 0
    print_plain(
        f"ok: {plural(len(found.sites), 'site')}, {plural(count, 'pseudowire')}, no problems{noted}"
    )
    for pair in found.pairs:
        a, b = pair.sites
        print_plain(
            f"{a} <-> {b}: {plural(pair.pseudowires, 'pseudowire')}, {pair.protection.describe()}"
        )
        for note in pair.notes:
            print_plain(f"  note: {note}")
    _print_kept_ports(found.fleet)


def _print_kept_ports(fleet: Fleet) -> None:
    """Each pair that keeps a port-mode xconnect (``lan.port_xconnect``), once."""
    for name, site in fleet.sites.items():
        port = site.kept_port
        if port is not None and name < port.peer:
            print_plain(
                f"{name} <-> {port.peer}: a port-mode pseudowire kept as it stands (VC ID "
                f"{port.vc_id}, every VLAN of {site.lan.interface})"
            )


def plural(count: int, noun: str) -> str:
    """``1 pseudowire``, ``2 pseudowires``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _invalid(found: Validation, fmt: ValidateFormat) -> NoReturn:
    """Every problem of a fleet that does not load, in ``fmt``; exit 1."""
    if fmt is ValidateFormat.json:
        out.print_json(json.dumps(found.as_dict()))
        raise typer.Exit(1)
    if fmt is ValidateFormat.github:
        errors, warnings = found.problems, found.warnings
        sys.stdout.write(_annotations(errors, "error") + _annotations(warnings, "warning"))
        raise typer.Exit(1)
    report_problems(FleetValidationError(found.found), OutputFormat.text)


def _annotations(problems: Sequence[Problem], level: str) -> str:
    """GitHub Actions workflow commands, one per problem, the hint on a second line.

    Their escaping is the linter's (``l2tpgen.lint.formats``), imported here only: the linter is
    a tenth of a cold validate's modules, loaded for ``--format github`` alone
    (``tests/test_validate_cost.py``).
    """
    from l2tpgen.lint.formats import escape_annotation  # noqa: PLC0415 - the linter: --format github only

    lines = []
    for problem in problems:
        loc = problem.location
        where = ""
        if loc is not None:
            file = escape_annotation(loc.file, property_value=True)
            where = f" file={file},line={loc.line},col={loc.column},"
        else:
            where = " "
        text = problem.message + (f"\nhint: {problem.hint}" if problem.hint else "")
        title = escape_annotation(f"l2tpgen validate {problem.code}".strip(), property_value=True)
        lines.append(f"::{level}{where}title={title}::{escape_annotation(text)}")
    return "".join(f"{line}\n" for line in lines)


def _print_warnings(warnings: list[Problem]) -> None:
    """``file:line:column: warning: ...`` and its hint on stderr, as errors are printed."""
    print_lines(err, (line for warning in warnings for line in problem_lines(warning)))


def warn_unset(unset: list[SecretNeed]) -> None:
    """One warning per missing or refused variable, on stderr (``validate``)."""
    for need in unset:
        state = "is not set" if need.state == "missing" else "is refused"
        err.print(
            f"warning: environment variable {need.variable} {state} (needed by "
            f"{', '.join(need.sites)}); `l2tpgen secrets` says what each variable is for",
            style="yellow",
            markup=False,
        )


def warn_uncompared(comparisons: list[KeyComparison]) -> None:
    """One warning per pair whose keys could not be compared (``validate``)."""
    for comparison in comparisons:
        if comparison.outcome == "unknown":
            err.print(safe(f"warning: {comparison.describe()}"), style="yellow", markup=False)


def uncompared_annotations(comparisons: list[KeyComparison]) -> str:
    """A GitHub warning per pair whose keys could not be compared (``validate --format github``)."""
    from l2tpgen.lint.formats import escape_annotation  # noqa: PLC0415 - the linter: --format github only

    return "".join(
        f"::warning title=l2tpgen validate::{escape_annotation(c.describe())}\n"
        for c in comparisons
        if c.outcome == "unknown"
    )
