"""Commands on site files: validate and render (mtu: cli/mtu.py)."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from l2tpgen.cli.app import (
    OutputFormat,
    SitesOption,
    app,
    check_output_path,
    err,
    fail,
    load,
    out,
    print_lines,
    problem_lines,
    report_problems,
)
from l2tpgen.cli.complete import complete_platform, complete_site
from l2tpgen.cli.secrets_cmd import uncompared_annotations, warn_uncompared, warn_unset
from l2tpgen.errors import FleetValidationError, L2tpgenError, SecretError
from l2tpgen.files import is_stdout, write_files
from l2tpgen.traits import DRIVERS, NAMES, driver

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.api import Validation
    from l2tpgen.lint import Finding
    from l2tpgen.model import Fleet, Problem


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
    from l2tpgen.api import validate as validated  # noqa: PLC0415 - start-up stays cheap

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
    out.print(
        f"ok: {plural(len(found.sites), 'site')}, {plural(count, 'pseudowire')}, no problems{noted}"
    )
    for pair in found.pairs:
        a, b = pair.sites
        out.print(
            f"{a} <-> {b}: {plural(pair.pseudowires, 'pseudowire')}, {pair.protection.describe()}",
            markup=False,
        )
        for note in pair.notes:
            out.print(f"  note: {note}", markup=False)
    _print_kept_ports(found.fleet)


def _print_kept_ports(fleet: Fleet) -> None:
    """Each pair that keeps a port-mode xconnect (``lan.port_xconnect``), once."""
    for name, site in fleet.sites.items():
        port = site.kept_port
        if port is not None and name < port.peer:
            out.print(
                f"{name} <-> {port.peer}: a port-mode pseudowire kept as it stands (VC ID "
                f"{port.vc_id}, every VLAN of {site.lan.interface})",
                markup=False,
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
    """GitHub Actions workflow commands, one per problem, the hint on a second line."""
    from l2tpgen.lint.formats import escape_annotation  # noqa: PLC0415

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


@app.command()
def render(
    site: Annotated[
        str,
        typer.Argument(
            help="Site name (site-a) or path to its site file.", autocompletion=complete_site
        ),
    ],
    sites: SitesOption = Path("sites"),
    platform: Annotated[
        str | None,
        typer.Option(
            "--platform",
            metavar="|".join(NAMES),
            autocompletion=complete_platform,
            help="Render for another platform than the site's.",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="The platform's format, its first the default: "
            + "; ".join(
                f"{d.short_title or d.title} {' or '.join(d.formats)}" for d in DRIVERS.values()
            )
            + " (networkd: .netdev/.network files).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write to FILE instead of stdout (- is stdout). A config of several files "
            "(networkd, a Linux PE with IPsec) goes into a directory: name one (made if missing); "
            "a file name is refused. A device or FIFO is written into; a symbolic link is refused.",
        ),
    ] = None,
    reveal_secrets: Annotated[
        bool,
        typer.Option(
            "--reveal-secrets",
            help="Write secrets (type 7) from their environment variables instead of masking.",
        ),
    ] = False,
) -> None:
    """Print (or write) the configuration of one site, for its platform (or --platform).

    The site and its peers are validated first (peer addresses come from the peers' own files);
    `validate` checks the whole fleet. A Cisco config is linted; an error-level finding stops it.
    Files written with --reveal-secrets are readable by their owner only (mode 0600).
    """
    from l2tpgen.model import resolve_site  # noqa: PLC0415 - start-up stays cheap

    if platform is not None and platform not in NAMES:
        raise typer.BadParameter(f"choose one of: {', '.join(NAMES)}", param_hint="--platform")
    try:
        directory, name = resolve_site(site, sites)
    except L2tpgenError as exc:
        fail(str(exc))
    from l2tpgen.api import render as rendered  # noqa: PLC0415 - start-up stays cheap

    fleet = load(directory, names=[name])
    try:
        rendering = rendered(fleet, name, platform=platform, fmt=fmt, reveal_secrets=reveal_secrets)
    except SecretError as exc:
        fail(f"{exc}; or leave out --reveal-secrets")
    except L2tpgenError as exc:
        fail(str(exc))
    if rendering.errors:
        _refuse_lint_errors(name, rendering.errors)
    if output is None or is_stdout(output):
        sys.stdout.write(rendering.text)
        return
    chosen = driver(platform or fleet.site(name).effective_platform)
    what = f"{name}'s {chosen.short_title or chosen.title} config"
    check_output_path(output, what, list(rendering.files), example=f"{name}.cfg")
    try:
        written = rendering.write(output)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {', '.join(map(str, written))}")


def emit_text(output: Path | None, text: str, what: str, example: str) -> None:
    """One generated text (``what``) to stdout (no ``-o``, or ``-o -``) or the file ``-o`` names.

    A directory is refused, suggesting ``example`` in it (``check_output_path``).
    """
    check_output_path(output, what, [example], example=example)
    if output is None or is_stdout(output):
        sys.stdout.write(text)
        return
    try:
        write_files(output, {"": text}, private=False)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {output}")


def _refuse_lint_errors(name: str, errors: Sequence[Finding]) -> NoReturn:
    """The rendered config's error-level findings (the site linted alone); exit 1."""
    from l2tpgen.lint.formats import text_line  # noqa: PLC0415 - start-up stays cheap

    for finding in errors:
        err.print(text_line(finding), markup=False, style="red")
    fail(f"the rendered config of {name} has error-level findings; nothing was written")
