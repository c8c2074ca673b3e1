"""Commands that talk to routers: push, diff, verify."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import (
    EXIT_FINDINGS,
    OutputFormat,
    SitesOption,
    app,
    err,
    fail,
    load,
    out,
    safe,
)
from l2tpgen.cli.push_output import (
    NOT_DONE,
    Progress,
    error_line,
    pair_dict,
    print_result,
    result_dict,
    summary,
)
from l2tpgen.errors import L2tpgenError
from l2tpgen.platforms import driver

if TYPE_CHECKING:
    from l2tpgen.device.connection import Credentials
    from l2tpgen.device.inventory import Inventory, Target
    from l2tpgen.model import Fleet

# l2tpgen.device.fleet.DEFAULT_WORKERS, repeated so that --help does not import Nornir and
# netmiko; a test keeps the two equal.
DEFAULT_WORKERS = 20


# Where push keeps local rollback copies (they hold the router's type 7 secrets; mode 0600).
STATE_DIR = "L2TPGEN_STATE_DIR"


SitesArg = Annotated[
    list[str] | None,
    typer.Argument(metavar="[SITE]...", help="Sites (names or site files)."),
]
AllOption = Annotated[bool, typer.Option("--all", help="Every site of the fleet.")]
InventoryOption = Annotated[
    Path | None,
    typer.Option("--inventory", help="Inventory file overriding the site files' management."),
]
FormatOption = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]


def _select(sites_args: list[str] | None, every: bool, sites: Path) -> tuple[Fleet, list[str]]:
    """The fleet and the sites to work on: with --all every site, else the named ones.

    Named sites are loaded with their peers only (what a push needs: the peers' addresses, and
    both ends of each pseudowire for the lint gate), whatever the size of the fleet.
    """
    from l2tpgen.model import resolve_site  # noqa: PLC0415 - start-up stays cheap

    names = list(sites_args or [])
    if not names and not every:
        raise typer.BadParameter("name at least one site, or use --all", param_hint="SITE")
    directory = sites
    if names:
        try:
            resolved = [resolve_site(n, sites) for n in names]
        except L2tpgenError as exc:
            fail(str(exc))
        directory, names = resolved[0][0], [name for _, name in resolved]
    fleet = load(directory, names=[] if every else names)
    for name in names:
        try:
            site = fleet.site(name)
        except L2tpgenError as exc:
            fail(str(exc))
        if not driver(site.effective_platform).pushable:
            fail(not_pushable(name, site.effective_platform))
    if names:
        return fleet, names
    chosen = [n for n, s in fleet.sites.items() if driver(s.effective_platform).pushable]
    for name in sorted(set(fleet.sites) - set(chosen)):
        err.print(f"{name}: skipped ({fleet.sites[name].effective_platform} PE: not pushed)")
    return fleet, chosen


def not_pushable(name: str, platform: str) -> str:
    """Why push, diff and verify leave a site alone."""
    return (
        f"{name} is a {platform} PE: push, diff and verify handle Cisco IOS and IOS-XE routers "
        f"only; configure it from `l2tpgen render {name}` (iproute2 commands, or --format "
        "networkd for systemd-networkd files)"
    )


def _inventory(path: Path | None) -> Inventory | None:
    from l2tpgen.device import load_inventory  # noqa: PLC0415 - start-up stays cheap

    if path is None:
        return None
    try:
        return load_inventory(path)
    except L2tpgenError as exc:
        fail(str(exc))


def _quiet_libraries() -> None:
    """Keep Nornir's, paramiko's and netmiko's log records (tracebacks among them) off stderr.

    Each failure is reported as one line by l2tpgen; without a handler of their own, Python
    would print these libraries' warnings and errors through its last-resort handler.
    """
    import logging  # noqa: PLC0415 - start-up stays cheap

    for name in ("nornir", "paramiko", "netmiko"):
        logger = logging.getLogger(name)
        if not logger.handlers:
            logger.addHandler(logging.NullHandler())


def _credentials() -> Credentials:
    from l2tpgen.device import credentials_from_env  # noqa: PLC0415 - start-up stays cheap

    try:
        return credentials_from_env()
    except L2tpgenError as exc:
        fail(str(exc))


def _targets(fleet: Fleet, names: list[str], inventory: Path | None) -> dict[str, Target]:
    from l2tpgen.device import target_for  # noqa: PLC0415 - start-up stays cheap

    table = _inventory(inventory)
    try:
        return {name: target_for(fleet.site(name), table) for name in names}
    except L2tpgenError as exc:
        fail(str(exc))


def _run_push(
    sites_args: list[str] | None,
    every: bool,
    sites: Path,
    inventory: Path | None,
    *,
    dry_run: bool,
    save: bool,
    yes: bool,
    fmt: OutputFormat,
    workers: int,
) -> None:
    from l2tpgen.device import PushOptions  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.device.fleet import push_fleet  # noqa: PLC0415

    credentials = _credentials()
    fleet, names = _select(sites_args, every, sites)
    targets = _targets(fleet, names, inventory)
    if not dry_run and not yes:
        if not sys.stdin.isatty():
            raise typer.BadParameter("pushing without a terminal needs --yes", param_hint="--yes")
        typer.confirm(f"Apply the change to {', '.join(names)}?", abort=True)
    state = Path(os.environ.get(STATE_DIR, "~/.local/state/l2tpgen")) / "rollback"
    _quiet_libraries()
    with Progress(names) as progress:
        options = PushOptions(dry_run=dry_run, save=save, state_dir=state, progress=progress)
        report = push_fleet(fleet, targets, credentials, options, workers)
    if fmt is OutputFormat.json:
        document = {
            "exit_code": report.exit_code,
            "results": [result_dict(r) for r in report.results],
            "pairs": [pair_dict(p) for p in report.pairs],
            "verify_errors": list(report.verify_errors),
        }
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
        for result in report.results:
            if result.status.value in NOT_DONE:
                error_line(str(targets[result.site]), result.message)
    else:
        for result in report.results:
            print_result(result, str(targets[result.site]))
        summary(report)
    if report.exit_code:
        raise typer.Exit(report.exit_code)


WorkersOption = Annotated[int, typer.Option("--workers", min=1, help="Routers worked on at once.")]


@app.command()
def push(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the diff and commands; never enter config mode.")
    ] = False,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not `write memory`.")] = False,
    yes: Annotated[bool, typer.Option("--yes", help="Apply without asking.")] = False,
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
) -> None:
    """Push sites to their routers: diff, apply in one batch, verify, save; roll back on failure.

    Only the l2tp-class and pseudowire-class of the model, the LAN trunk's subinterfaces and the
    hold-queue lines are touched. Credentials come from L2TPGEN_USERNAME, L2TPGEN_PASSWORD
    (and L2TPGEN_ENABLE_SECRET); the L2TP secret from the site's secret_env. Exit 1: a router
    could not be reached, logged into or read (one error line each, nothing changed on it);
    exit 3: a line was refused and the router was rolled back; exit 4: the rollback failed too.
    """
    _run_push(
        sites_args,
        every,
        sites,
        inventory,
        dry_run=dry_run,
        save=not no_save,
        yes=yes,
        fmt=fmt,
        workers=workers,
    )


@app.command()
def diff(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
) -> None:
    """Show what `push` would change (the same as `push --dry-run`)."""
    _run_push(
        sites_args,
        every,
        sites,
        inventory,
        dry_run=True,
        save=False,
        yes=True,
        fmt=fmt,
        workers=workers,
    )


@app.command()
def verify(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
) -> None:
    """Read pseudowire state from the routers (in parallel); exit 1 if any is not up."""
    from l2tpgen.device.fleet import verify_fleet  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.ios.names import short_interface_name  # noqa: PLC0415

    credentials = _credentials()
    fleet, names = _select(sites_args, every, sites)
    targets = _targets(fleet, names, inventory)
    _quiet_libraries()
    states, problems = verify_fleet(fleet, targets, credentials, workers)
    order = {name: index for index, name in enumerate(names)}
    states.sort(key=lambda s: (order[s.site], s.vlan))
    if fmt is OutputFormat.json:
        rows = [s.__dict__ | {"up": s.up} for s in states]
        sys.stdout.write(json.dumps({"pseudowires": rows, "errors": problems}, indent=2) + "\n")
    else:
        from rich.table import Table  # noqa: PLC0415 - start-up stays cheap

        view = Table(title="pseudowires", title_justify="left")
        for column in ("site", "VLAN", "interface", "peer", "VC ID", "state", "session"):
            view.add_column(column)
        for s in states:
            view.add_row(
                s.site,
                str(s.vlan),
                short_interface_name(s.interface),
                s.peer,
                str(s.vc_id),
                Text(s.state + (f" ({s.detail})" if s.detail else ""), "green" if s.up else "red"),
                s.session,
            )
        out.print(view)
    for problem in problems:
        err.print(Text.assemble(("error:", "bold red"), " ", safe(problem)))
    if problems or not all(s.up for s in states):
        raise typer.Exit(EXIT_FINDINGS)
