"""Lint commands: lint, rules, rule."""

from __future__ import annotations

import difflib
import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from l2tpgen import __version__
from l2tpgen.api import lint as linted
from l2tpgen.cli.app import (
    EXIT_FINDINGS,
    OutputFormat,
    SitesOption,
    app,
    err,
    exit_code,
    fail,
    out,
    safe,
)
from l2tpgen.errors import L2tpgenError, LintConfigError
from l2tpgen.lint import Selection, Severity, lint_configs, read_configs
from l2tpgen.lint.formats import rule_help, text_line, to_github, to_json, to_sarif
from l2tpgen.lint.rules import ALL_RULES, BY_CODE
from l2tpgen.lint.settings import load_settings

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.lint import Finding
    from l2tpgen.lint.settings import LintSettings


class LintFormat(str, Enum):
    """Lint output formats."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class FailOn(str, Enum):
    """The lowest severity that makes lint exit 1."""

    error = "error"
    warning = "warning"
    info = "info"


def _codes(values: list[str] | None) -> tuple[str, ...]:
    return tuple(c.strip().upper() for v in values or [] for c in v.split(",") if c.strip())


_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}  # by str(Severity)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _print_findings(
    findings: list[Finding], fmt: LintFormat, quiet: Sequence[Finding] = ()
) -> None:
    if fmt is LintFormat.json:
        sys.stdout.write(to_json(findings, quiet) + "\n")
    elif fmt is LintFormat.sarif:
        sys.stdout.write(to_sarif(findings, __version__, quiet) + "\n")
    elif fmt is LintFormat.github:
        sys.stdout.write(to_github(findings, quiet))
    else:
        for finding in findings:
            out.print(safe(text_line(finding)), style=_STYLE[str(finding.severity)])
            if finding.fix:
                out.print(f"  fix: {safe(finding.fix)}", style="dim")
        counts = {s: sum(f.severity is s for f in findings) for s in Severity}
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), reverse=True) if n)
        silenced = f", {len(quiet)} silenced (lint.ignore in site files)" if quiet else ""
        err.print(
            _plural(len(findings), "finding") + (f" ({summary})" if summary else "") + silenced
        )


def _selection(
    select: list[str] | None, ignore: list[str] | None, settings: LintSettings
) -> Selection:
    """The rules to run: --select and --ignore, else the settings' (a bad code is a usage error)."""
    try:
        return Selection(_codes(select) or settings.select, _codes(ignore) or settings.ignore)
    except LintConfigError as exc:
        where = f" (from {settings.source})" if settings.source and not (select or ignore) else ""
        raise typer.BadParameter(f"{exc}{where}", param_hint="--select/--ignore") from None


def _site_findings(
    sites_args: list[str], sites: Path, selection: Selection
) -> tuple[list[Finding], list[Finding]]:
    """Lint the sites named (all when none), or list why the fleet does not load.

    Also the findings the site files' ``lint.ignore`` silenced.
    """
    report = linted(sites, sites_args, selection)
    return list(report.findings), list(report.quiet)


@app.command()
def lint(
    sites_args: Annotated[
        list[str] | None,
        typer.Argument(metavar="[SITE]...", help="Sites to lint (default: all), or site files."),
    ] = None,
    config: Annotated[
        list[Path] | None,
        typer.Option(
            "--config",
            "-c",
            metavar="FILE",
            help="Lint raw IOS config files instead (repeatable; - reads standard input).",
        ),
    ] = None,
    sites: SitesOption = Path("sites"),
    fmt: Annotated[LintFormat, typer.Option("--format", help="Output format.")] = LintFormat.text,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select",
            metavar="CODES",
            help="Run only these rule codes, prefixes or names (comma-separated).",
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore",
            metavar="CODES",
            help="Skip these rule codes, prefixes or names (comma-separated).",
        ),
    ] = None,
    fail_on: Annotated[
        FailOn | None,
        typer.Option(
            "--fail-on",
            help="Lowest severity that makes the exit code 1 [default: warning].",
            show_default=False,
        ),
    ] = None,
) -> None:
    r"""Lint sites (model and rendered configs) or raw IOS config files.

    Several configs are also checked against each other (both ends of every pseudowire).
    Defaults for --select, --ignore and --fail-on come from [tool.l2tpgen.lint] in the nearest
    pyproject.toml; options given here win. Exit 1 if any finding is at or above --fail-on.
    """
    try:
        settings = load_settings()
    except LintConfigError as exc:
        fail(str(exc))
    selection = _selection(select, ignore, settings)
    if config and sites_args:
        raise typer.BadParameter("give sites or --config files, not both", param_hint="SITE")
    quiet: list[Finding] = []
    try:
        if config:
            findings = lint_configs(read_configs(config), selection)
        else:
            findings, quiet = _site_findings(sites_args or [], sites, selection)
    except L2tpgenError as exc:
        fail(str(exc), exit_code(exc))
    _print_findings(findings, fmt, quiet)
    threshold = Severity.parse(fail_on.value if fail_on else settings.fail_on or "warning")
    if any(f.severity >= threshold for f in findings):
        raise typer.Exit(EXIT_FINDINGS)


@app.command("rules")
def rules_command(
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """List every lint rule: code, name, severity, scope."""
    if fmt is OutputFormat.json:
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "severity": str(r.severity),
                "scope": r.scope,
                "summary": r.summary(),
            }
            for r in ALL_RULES
        ]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    if not out.is_terminal:
        # A pipe gets one whole line per rule (grep, cut): a table would cut names to fit 80 columns
        width = max(len(r.name) for r in ALL_RULES)
        for r in ALL_RULES:
            scope = r.scope
            sys.stdout.write(
                f"{r.code}  {r.name:<{width}}  {r.severity!s:<7}  {scope:<12}  {r.summary()}\n"
            )
        return

    table = Table(
        title="l2tpgen lint rules (`l2tpgen rule CODE` explains one)", title_justify="left"
    )
    widths = {"code": 6, "name": max(len(r.name) for r in ALL_RULES), "severity": 7, "scope": 12}
    for column in ("code", "name", "severity", "scope", "what it catches"):
        # codes and names are what people type: never cut, never wrapped
        table.add_column(column, no_wrap=column in widths, min_width=widths.get(column))
    for r in ALL_RULES:
        table.add_row(r.code, r.name, str(r.severity), r.scope, r.summary())
    out.print(table)


def _closest_rule(word: str, names: list[str], codes: list[str]) -> str | None:
    """The rule name ``word`` begins (``single-trunk``), else the closest name or code."""
    lowered = word.lower()
    begun = [name for name in names if name.startswith(lowered)]
    if len(begun) == 1:
        return begun[0]
    close = difflib.get_close_matches(lowered, names, n=1) or difflib.get_close_matches(
        word.upper(), codes, n=1
    )
    return close[0] if close else None


def complete_rule(incomplete: str) -> list[tuple[str, str]]:
    """Lint rule codes (and names, for a word that is not a code's start), each with its name."""
    upper = incomplete.upper()
    codes = [(r.code, r.name) for r in ALL_RULES if r.code.startswith(upper)]
    if codes:
        return codes
    return [(r.name, r.code) for r in ALL_RULES if r.name.startswith(incomplete.lower())]


@app.command("rule")
def rule_command(
    code: Annotated[
        str, typer.Argument(help="A rule code (L2T001) or name.", autocompletion=complete_rule)
    ],
) -> None:
    """Explain one lint rule: what it does, why it matters, an example and the fix."""
    wanted = code.strip()
    rule = BY_CODE.get(wanted.upper()) or next((r for r in ALL_RULES if r.name == wanted), None)
    if rule is None:
        close = _closest_rule(wanted, [r.name for r in ALL_RULES], list(BY_CODE))
        hint = f"did you mean {close}? " if close else ""
        raise typer.BadParameter(
            f"no rule {code}; {hint}`l2tpgen rules` lists them", param_hint="CODE"
        )
    out.print(f"{rule.code} {rule.name} ({rule.severity})", style="bold", markup=False)

    out.print(rule_help(rule), markup=False)
