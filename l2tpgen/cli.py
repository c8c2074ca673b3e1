"""The ``l2tpgen`` command line: a thin layer that parses options, calls the library and prints.

Exit codes: 0 success; 1 the input has errors (nothing was changed); 2 usage error.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from l2tpgen import __version__
from l2tpgen.errors import FleetValidationError, L2tpgenError, LintConfigError
from l2tpgen.lint import (
    BY_CODE,
    ConfigText,
    Finding,
    Selection,
    Severity,
    lint_configs,
    lint_sites,
    problems_as_findings,
    read_configs,
)
from l2tpgen.lint.formats import text_line, to_github, to_json, to_sarif
from l2tpgen.lint.rules import ALL_RULES
from l2tpgen.model import load_fleet, resolve_site
from l2tpgen.mtu import COOKIE_SIZES, Encapsulation, budget_matrix, overhead_budget
from l2tpgen.render import render_site

if TYPE_CHECKING:
    from l2tpgen.model import Fleet
    from l2tpgen.mtu import OverheadBudget

EXIT_FINDINGS = 1
EXIT_USAGE = 2

app = typer.Typer(
    name="l2tpgen",
    help="Build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class OutputFormat(str, Enum):
    """Output for people or for scripts."""

    text = "text"
    json = "json"


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


class PlatformChoice(str, Enum):
    """Platforms the renderer knows."""

    ios = "ios"


class EncapChoice(str, Enum):
    """L2TPv3 data encapsulation."""

    ip = "ip"
    udp = "udp"


SitesOption = Annotated[
    Path,
    typer.Option("--sites", help="Directory of site files.", show_default=True),
]


def _fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", markup=True)
    raise typer.Exit(EXIT_FINDINGS)


def _report_problems(exc: FleetValidationError, fmt: OutputFormat) -> NoReturn:
    if fmt is OutputFormat.json:
        out.print_json(
            json.dumps({"ok": False, "problems": [_problem_dict(p) for p in exc.problems]})
        )
        raise typer.Exit(EXIT_FINDINGS)
    for problem in exc.problems:
        err.print(f"[bold]{problem.where}:[/] [red]error:[/] {problem.message}", markup=True)
        if problem.hint:
            err.print(f"  [cyan]hint:[/] {problem.hint}", markup=True)
    err.print(str(exc), markup=False)
    raise typer.Exit(EXIT_FINDINGS)


def _problem_dict(problem: object) -> dict[str, object]:
    from l2tpgen.model import Problem  # noqa: PLC0415 - only for the isinstance narrowing

    assert isinstance(problem, Problem)  # noqa: S101 - narrowing, not validation
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


def _load(sites: Path, fmt: OutputFormat = OutputFormat.text) -> Fleet:
    try:
        return load_fleet(sites)
    except FleetValidationError as exc:
        _report_problems(exc, fmt)
    except L2tpgenError as exc:
        _fail(str(exc))


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


@app.command()
def validate(
    sites: SitesOption = Path("sites"),
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Load every site file and check the fleet as a whole.

    Every problem is reported at once, as file:line:column with a hint; exit 1 if there is any.
    """
    fleet = _load(sites, fmt)
    count = sum(len(site.vlans) for site in fleet.sites.values()) // 2
    if fmt is OutputFormat.json:
        summary = {"ok": True, "sites": list(fleet.sites), "pseudowires": count, "problems": []}
        out.print_json(json.dumps(summary))
        return
    out.print(f"ok: {len(fleet.sites)} sites, {count} pseudowires, no problems")


@app.command()
def render(
    site: Annotated[str, typer.Argument(help="Site name (site-a) or path to its site file.")],
    sites: SitesOption = Path("sites"),
    platform: Annotated[
        PlatformChoice, typer.Option("--platform", help="Target platform.")
    ] = PlatformChoice.ios,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE instead of stdout.")
    ] = None,
    reveal_secrets: Annotated[
        bool,
        typer.Option(
            "--reveal-secrets",
            help="Write secrets (type 7) from their environment variables instead of masking.",
        ),
    ] = False,
) -> None:
    """Print (or write) the router configuration of one site.

    The whole fleet is validated first: peer addresses come from the peers' own files.
    """
    try:
        directory, name = resolve_site(site, sites)
    except L2tpgenError as exc:
        _fail(str(exc))
    fleet = _load(directory)
    try:
        text = render_site(fleet, name, platform.value, reveal_secrets=reveal_secrets)
    except L2tpgenError as exc:
        _fail(str(exc))
    errors = [
        f
        for f in lint_configs([ConfigText(f"rendered:{name}", text)])
        if f.severity is Severity.ERROR
    ]
    if errors:
        for finding in errors:
            err.print(text_line(finding), markup=False, style="red")
        _fail(f"the rendered config of {name} has error-level findings; nothing was written")
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror}")
    err.print(f"wrote {output}")


def _codes(values: list[str] | None) -> tuple[str, ...]:
    return tuple(c.strip().upper() for v in values or [] for c in v.split(",") if c.strip())


_STYLE = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _print_findings(findings: list[Finding], fmt: LintFormat) -> None:
    if fmt is LintFormat.json:
        sys.stdout.write(to_json(findings) + "\n")
    elif fmt is LintFormat.sarif:
        sys.stdout.write(to_sarif(findings, __version__) + "\n")
    elif fmt is LintFormat.github:
        sys.stdout.write(to_github(findings))
    else:
        for finding in findings:
            out.print(text_line(finding), style=_STYLE[finding.severity], markup=False)
            if finding.fix:
                out.print(f"  fix: {finding.fix}", style="dim", markup=False)
        counts = {s: sum(f.severity is s for f in findings) for s in Severity}
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), reverse=True) if n)
        err.print(f"{len(findings)} findings" + (f" ({summary})" if summary else ""))


@app.command()
def lint(
    sites_args: Annotated[
        list[str] | None,
        typer.Argument(metavar="[SITE]...", help="Sites to lint (default: all), or site files."),
    ] = None,
    config: Annotated[
        list[Path] | None,
        typer.Option("--config", "-c", help="Lint raw IOS config files instead (repeatable)."),
    ] = None,
    sites: SitesOption = Path("sites"),
    fmt: Annotated[LintFormat, typer.Option("--format", help="Output format.")] = LintFormat.text,
    select: Annotated[
        list[str] | None,
        typer.Option("--select", help="Run only these codes or prefixes (comma-separated)."),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option("--ignore", help="Skip these codes or prefixes (comma-separated)."),
    ] = None,
    fail_on: Annotated[
        FailOn, typer.Option("--fail-on", help="Lowest severity that makes the exit code 1.")
    ] = FailOn.warning,
) -> None:
    """Lint sites (model and rendered configs) or raw IOS config files.

    Several configs are also checked against each other (both ends of every pseudowire).
    Exit 1 if any finding is at or above --fail-on.
    """
    try:
        selection = Selection(_codes(select), _codes(ignore))
    except LintConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="--select/--ignore") from None
    if config and sites_args:
        raise typer.BadParameter("give sites or --config files, not both", param_hint="SITE")
    try:
        if config:
            findings = lint_configs(read_configs(config), selection)
        else:
            directory, names = sites, list(sites_args or [])
            if names:
                resolved = [resolve_site(n, sites) for n in names]
                directory, names = resolved[0][0], [name for _, name in resolved]
            try:
                fleet = load_fleet(directory)
            except FleetValidationError as exc:
                findings = problems_as_findings(exc.problems)
            else:
                findings = lint_sites(fleet, names, selection)
    except L2tpgenError as exc:
        _fail(str(exc))
    _print_findings(findings, fmt)
    threshold = Severity.parse(fail_on.value)
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
                "scope": "cross-device" if r.cross_device else "device",
                "summary": r.summary(),
            }
            for r in ALL_RULES
        ]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    table = Table(
        title="l2tpgen lint rules (`l2tpgen rule CODE` explains one)", title_justify="left"
    )
    for column in ("code", "name", "severity", "scope", "what it catches"):
        table.add_column(column)
    for r in ALL_RULES:
        scope = "cross-device" if r.cross_device else "device"
        table.add_row(r.code, r.name, str(r.severity), scope, r.summary())
    out.print(table)


@app.command("rule")
def rule_command(
    code: Annotated[str, typer.Argument(help="A rule code (L2T001) or name.")],
) -> None:
    """Explain one lint rule: what it does, why it matters, an example and the fix."""
    wanted = code.strip()
    rule = BY_CODE.get(wanted.upper()) or next((r for r in ALL_RULES if r.name == wanted), None)
    if rule is None:
        raise typer.BadParameter(f"no rule {code}; `l2tpgen rules` lists them", param_hint="CODE")
    out.print(f"{rule.code} {rule.name} ({rule.severity})", style="bold", markup=False)
    out.print(rule.doc(), markup=False)


def _budget_table(budget: OverheadBudget) -> Table:
    table = Table(title=f"L2TPv3 overhead on a {budget.wan_mtu}-byte WAN", title_justify="left")
    table.add_column("part")
    table.add_column("bytes", justify="right")
    for name, size in budget.items:
        table.add_row(name, str(size))
    table.add_section()
    table.add_row("encapsulation overhead (encap size)", str(budget.encap_overhead))
    table.add_row("largest inner Ethernet frame (no FCS)", str(budget.max_frame))
    table.add_row("[bold]largest inner IP MTU (CE MTU)[/]", f"[bold]{budget.max_inner_mtu}[/]")
    table.add_row("TCP MSS to clamp to", str(budget.tcp_mss))
    return table


def _matrix_table(wan_mtu: int) -> Table:
    table = Table(title=f"Largest inner IP MTU on a {wan_mtu}-byte WAN", title_justify="left")
    for column in ("encapsulation", "cookie", "sublayer", "untagged", "dot1Q carried"):
        table.add_column(column, justify="right" if column != "encapsulation" else "left")
    rows = budget_matrix(wan_mtu)
    for untagged, tagged in zip(rows[::2], rows[1::2], strict=True):
        table.add_row(
            untagged.encapsulation.value.upper(),
            str(untagged.cookie),
            "yes" if untagged.sublayer else "no",
            str(untagged.max_inner_mtu),
            str(tagged.max_inner_mtu),
        )
    return table


def _budget_dict(budget: OverheadBudget) -> dict[str, object]:
    return {
        "wan_mtu": budget.wan_mtu,
        "encapsulation": budget.encapsulation.value,
        "cookie": budget.cookie,
        "sublayer": budget.sublayer,
        "dot1q": budget.dot1q,
        "items": [{"part": name, "bytes": size} for name, size in budget.items],
        "encap_overhead": budget.encap_overhead,
        "max_frame": budget.max_frame,
        "max_inner_mtu": budget.max_inner_mtu,
        "tcp_mss": budget.tcp_mss,
    }


@app.command()
def mtu(
    wan_mtu: Annotated[
        int, typer.Option("--wan-mtu", min=576, max=65535, help="IP MTU of the path between PEs.")
    ] = 1500,
    encap: Annotated[EncapChoice, typer.Option("--encap", help="Data encapsulation.")] = (
        EncapChoice.ip
    ),
    cookie: Annotated[int, typer.Option("--cookie", help="Cookie size: 0, 4 or 8 bytes.")] = 0,
    sublayer: Annotated[
        bool | None,
        typer.Option(
            "--sublayer/--no-sublayer",
            help="L2-specific sublayer (default: off for ip, on for udp).",
            show_default=False,
        ),
    ] = None,
    dot1q: Annotated[
        bool, typer.Option("--dot1q/--no-dot1q", help="The dot1Q tag travels in the pseudowire.")
    ] = False,
    show_all: Annotated[
        bool, typer.Option("--all", help="Compare every encapsulation, cookie and tagging.")
    ] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Show the L2TPv3 overhead budget: the largest CE MTU that crosses without fragmentation."""
    if cookie not in COOKIE_SIZES:
        raise typer.BadParameter("must be 0, 4 or 8", param_hint="--cookie")
    if show_all:
        rows = budget_matrix(wan_mtu)
        if fmt is OutputFormat.json:
            out.print_json(json.dumps([_budget_dict(b) for b in rows]))
        else:
            out.print(_matrix_table(wan_mtu))
        return
    budget = overhead_budget(
        wan_mtu, Encapsulation(encap.value), cookie, sublayer=sublayer, dot1q=dot1q
    )
    if fmt is OutputFormat.json:
        out.print_json(json.dumps(_budget_dict(budget)))
    else:
        out.print(_budget_table(budget))


def main() -> None:
    """Console-script entry point."""
    app()
