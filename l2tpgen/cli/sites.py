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
    err,
    exit_code,
    fail,
    load,
    out,
    print_lines,
    problem_dict,
    problem_lines,
    report_problems,
)
from l2tpgen.cli.secrets_cmd import (
    pair_keys,
    uncompared_annotations,
    unset_secrets,
    warn_uncompared,
    warn_unset,
)
from l2tpgen.errors import FleetValidationError, L2tpgenError, SecretError
from l2tpgen.files import UserFileError, is_stdout, write_output
from l2tpgen.traits import DRIVERS, NAMES, driver

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.model import Fleet, Problem
    from l2tpgen.model.pair_keys import KeyComparison
    from l2tpgen.model.protection import PathProtection


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
    from l2tpgen.model.protection import unconfirmed  # noqa: PLC0415
    from l2tpgen.model.underlay import reaches  # noqa: PLC0415

    fleet = _load_every_problem(sites, fmt)
    unknown = _unknown_ignores(fleet)  # the linter knows the rules, not the model
    if unknown:
        _invalid(unknown, fmt, sites)
    comparisons = _compared_keys(fleet, fmt, sites)
    # Each pair's VLAN pseudowires, and its kept port-mode pseudowire (every VLAN of a trunk).
    count = sum(len(site.vlans) for site in fleet.sites.values()) // 2 + len(fleet.kept_ports())
    pairs = fleet.pairs()
    warnings = _warnings(fleet)
    unset = unset_secrets(fleet)
    if fmt is ValidateFormat.json:
        summary = {
            "ok": True,
            "sites": list(fleet.sites),
            "pseudowires": count,
            "problems": [],
            "warnings": [problem_dict(w) for w in warnings],
            "underlay": [r.as_dict() for r in reaches(fleet.sites)],
            "pairs": [
                {
                    **_pair_dict(a, b, n, protection),
                    "notes": list(unconfirmed(fleet.sites[a], fleet.sites[b], protection)),
                }
                for a, b, n, protection in pairs
            ],
            "secrets": [need.as_dict() for need in unset],
            "pair_keys": [c.as_dict() for c in comparisons],
        }
        out.print_json(json.dumps(summary))
        return
    if fmt is ValidateFormat.github:
        sys.stdout.write(_annotations(warnings, "warning"))
        for need in unset:
            state = "is not set" if need.state == "missing" else "is refused"
            sys.stdout.write(
                f"::warning title=l2tpgen validate::environment variable {need.variable} {state} "
                f"(needed by {', '.join(need.sites)})\n"
            )
        sys.stdout.write(uncompared_annotations(comparisons))
        return
    _print_warnings(warnings)
    warn_unset(unset)
    warn_uncompared(comparisons)
    noted = f" ({plural(len(warnings), 'warning')})" if warnings else ""
    out.print(
        f"ok: {plural(len(fleet.sites), 'site')}, {plural(count, 'pseudowire')}, no problems{noted}"
    )
    for a, b, n, protection in pairs:
        out.print(f"{a} <-> {b}: {plural(n, 'pseudowire')}, {protection.describe()}", markup=False)
        for note in unconfirmed(fleet.sites[a], fleet.sites[b], protection):
            out.print(f"  note: {note}", markup=False)
    _print_kept_ports(fleet)


def _load_every_problem(sites: Path, fmt: ValidateFormat) -> Fleet:
    """The fleet; or exit 1 with every problem, those of the checks run on what loaded too."""
    from l2tpgen.model import load_fleet  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.model.fleet import FleetCheckError  # noqa: PLC0415

    try:
        return load_fleet(sites)
    except FleetCheckError as exc:  # the rest of the checks, on what could be checked
        more = [*exc.notes, *_unknown_ignores(exc.checked), *_warnings(exc.checked)]
        _invalid(sorted([*exc.problems, *more], key=lambda p: p.sort_key()), fmt, sites)
    except FleetValidationError as exc:
        _invalid(exc.problems, fmt, sites)
    except L2tpgenError as exc:
        if fmt is ValidateFormat.json:
            out.print_json(json.dumps({**_empty_summary(), "error": str(exc)}))
            raise typer.Exit(exit_code(exc)) from None
        fail(str(exc), exit_code(exc))


def _unknown_ignores(fleet: Fleet) -> list[Problem]:
    """``lint.site_ignores.unknown_ignores``; the linter is loaded only when a site sets any.

    The linter knows the rules, not the model; loading it (every rule, every platform's
    renderer) is a third of a small fleet's validate, for sites that mostly silence nothing.
    """
    if not any(site.lint.ignore for site in fleet.sites.values()):
        return []
    from l2tpgen.lint.site_ignores import unknown_ignores  # noqa: PLC0415 - only when used

    return unknown_ignores(fleet)


def _warnings(fleet: Fleet) -> list[Problem]:
    """What validate warns about besides the problems that stop a fleet, placed in the files."""
    from l2tpgen.model.class_checks import static_spread_hints  # noqa: PLC0415
    from l2tpgen.model.interface_checks import interface_hints  # noqa: PLC0415
    from l2tpgen.model.load import locate_problems  # noqa: PLC0415
    from l2tpgen.model.native_vlan import native_hints  # noqa: PLC0415
    from l2tpgen.model.protection_checks import hub_hints  # noqa: PLC0415
    from l2tpgen.model.salvage import restore  # noqa: PLC0415
    from l2tpgen.model.underlay import check_underlay  # noqa: PLC0415

    sites = fleet.sites
    found = [*interface_hints(sites.values()), *native_hints(sites.values()), *hub_hints(sites)]
    found += [*check_underlay(sites), *static_spread_hints(sites)]
    return locate_problems([restore(p, fleet.kept) for p in found], fleet.files)


def _compared_keys(fleet: Fleet, fmt: ValidateFormat, directory: Path) -> list[KeyComparison]:
    """The pairs whose ends name different master-key variables; exit 1 when keys differ."""
    comparisons, differ = pair_keys(fleet)  # the environment's values, compared by fingerprint
    if differ:
        _invalid(differ, fmt, directory)
    return comparisons


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


def _empty_summary() -> dict[str, object]:
    """The JSON keys of validate, all present when the fleet does not load (docs/site-files.md)."""
    return {
        "ok": False,
        "sites": [],
        "pseudowires": None,
        "problems": [],
        "warnings": [],
        "underlay": [],
        "pairs": [],
        "secrets": [],
        "pair_keys": [],
    }


def _site_names(directory: Path) -> list[str]:
    """The sites of a fleet that does not load: its site files' names."""
    from l2tpgen.model.load import SITE_SUFFIXES  # noqa: PLC0415

    try:
        return sorted(p.stem for p in directory.iterdir() if p.suffix in SITE_SUFFIXES)
    except OSError:
        return []


def _invalid(problems: Sequence[Problem], fmt: ValidateFormat, directory: Path) -> NoReturn:
    """Every problem of a fleet that does not load, in ``fmt``; exit 1."""
    errors = [p for p in problems if p.level == "error"]
    warnings = [p for p in problems if p.level != "error"]
    if fmt is ValidateFormat.json:
        summary = {
            **_empty_summary(),
            "sites": _site_names(directory),
            "problems": [problem_dict(p) for p in errors],
            "warnings": [problem_dict(p) for p in warnings],
        }
        out.print_json(json.dumps(summary))
        raise typer.Exit(1)
    if fmt is ValidateFormat.github:
        sys.stdout.write(_annotations(errors, "error") + _annotations(warnings, "warning"))
        raise typer.Exit(1)
    report_problems(FleetValidationError(problems), OutputFormat.text)


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


def _pair_dict(a: str, b: str, count: int, protection: PathProtection) -> dict[str, object]:
    ipsec = protection.ipsec
    return {
        "sites": [a, b],
        "pseudowires": count,
        "protection": protection.mode,
        "stated": protection.stated,
        "trusted": protection.trusted,
        "reason": protection.reason,
        "transform": protection.transform if ipsec else None,
        "ipsec_mode": protection.ipsec_mode if ipsec else None,
        "nat_t": protection.nat_t if ipsec else None,
    }


@app.command()
def render(
    site: Annotated[str, typer.Argument(help="Site name (site-a) or path to its site file.")],
    sites: SitesOption = Path("sites"),
    platform: Annotated[
        str | None,
        typer.Option(
            "--platform",
            metavar="|".join(NAMES),
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
            help="Write to FILE (a directory for networkd) instead of stdout; - is stdout. A "
            "device or FIFO is written into; a symbolic link is refused.",
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
    fleet = load(directory, names=[name])
    chosen = driver(platform or fleet.site(name).effective_platform)
    try:
        files = render_files(fleet, name, platform, fmt, reveal_secrets=reveal_secrets)
    except SecretError as exc:
        fail(f"{exc}; or leave out --reveal-secrets")
    except L2tpgenError as exc:
        fail(str(exc))
    if chosen.lint_platform is not None:
        _refuse_lint_errors(name, files[""], chosen.lint_platform)
    if output is None or is_stdout(output):
        sys.stdout.write(join_files(files))
        return
    try:
        written = write_files(output, files, private=reveal_secrets)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {', '.join(map(str, written))}")


def emit_text(output: Path | None, text: str) -> None:
    """One generated text to stdout (no ``-o``, or ``-o -``) or to the file ``-o`` names."""
    if output is None or is_stdout(output):
        sys.stdout.write(text)
        return
    try:
        write_files(output, {"": text}, private=False)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {output}")


def render_files(
    fleet: Fleet, name: str, platform: str | None, fmt: str | None, *, reveal_secrets: bool
) -> dict[str, str]:
    """``l2tpgen.render.render_files``, imported when a command renders (start-up stays cheap)."""
    from l2tpgen.platforms.render import render_files as render  # noqa: PLC0415

    return render(fleet, name, fmt, platform=platform, reveal_secrets=reveal_secrets)


def join_files(files: dict[str, str]) -> str:
    """``l2tpgen.render.join_files``."""
    from l2tpgen.platforms.render import join_files as join  # noqa: PLC0415

    return join(files)


def write_files(output: Path, files: dict[str, str], *, private: bool) -> list[Path]:
    """Write one config to ``output``, or several files into the directory ``output``.

    Each file goes through ``l2tpgen.files.write_output``: a regular file is written whole or
    not at all (a temporary file, then a rename), with mode 0600 when it holds secrets; a device
    or FIFO is written into; a symbolic link is refused.

    Raises:
        UserFileError: a path cannot be written (names it and says why).
    """
    if list(files) == [""]:
        targets = [(output, files[""])]
    else:
        try:
            output.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserFileError(f"cannot make directory {output}: {exc.strerror}") from exc
        targets = [(output / file, text) for file, text in files.items()]
    for path, text in targets:
        write_output(path, text, mode=0o600 if private else 0o644)
    return [path for path, _ in targets]


def _refuse_lint_errors(name: str, text: str, platform: str) -> None:
    """Lint the rendered config alone (the one site); exit 1 on an error-level finding."""
    from l2tpgen.lint import ConfigText, Severity, lint_configs  # noqa: PLC0415 - start-up
    from l2tpgen.lint.formats import text_line  # noqa: PLC0415
    from l2tpgen.lint.origins import rendered_name  # noqa: PLC0415

    linted = lint_configs([ConfigText(rendered_name(name), text, platform=platform, rendered=True)])
    errors = [f for f in linted if f.severity is Severity.ERROR]
    if errors:
        for finding in errors:
            err.print(text_line(finding), markup=False, style="red")
        fail(f"the rendered config of {name} has error-level findings; nothing was written")
