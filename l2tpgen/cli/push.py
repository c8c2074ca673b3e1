"""``push`` and ``diff``: the change each router needs, shown, approved, applied."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, fail
from l2tpgen.cli.push_output import (
    NOT_DONE,
    Progress,
    error_line,
    pair_dict,
    print_result,
    result_dict,
    summary,
)
from l2tpgen.cli.routers import (
    DEFAULT_WORKERS,
    STATE_DIR,
    AcceptNewOption,
    AllOption,
    FormatOption,
    InventoryOption,
    SitesArg,
    WorkersOption,
    quiet_libraries,
    read_credentials,
    router_targets,
    select_sites,
)
from l2tpgen.errors import L2tpgenError
from l2tpgen.ios.parsed import Readings
from l2tpgen.platforms import render as rendering  # by module: a test counts its calls

# --confirm-within's range, 1-120: Cisco's `configure revert` command reference ("Time in minutes
# (1-120)") and the cisco-ia YANG model's `revert` / `timer` (range 1..120). Here, not in
# l2tpgen.device.confirm, so that --help does not import netmiko.
MAX_CONFIRM_MINUTES = 120

if TYPE_CHECKING:
    from l2tpgen.device.fleet import FleetReport


@dataclass(frozen=True)
class _Run:
    """What the user asked of push or diff."""

    dry_run: bool
    save: bool = True
    yes: bool = False
    fmt: OutputFormat = OutputFormat.text
    workers: int = DEFAULT_WORKERS
    one_end: bool = False
    rollback_pairs: bool = False
    exit_code_on_drift: bool = False
    keep_rollbacks: int = 10
    confirm_within: int | None = None
    accept_new: bool = False
    command: str = "push"  # the summary table's title: push or diff


def _run_push(
    sites_args: list[str] | None, every: bool, sites: Path, inventory: Path | None, run: _Run
) -> None:
    """Diff every router; then, for a push, ask (unless --yes), apply, and report."""
    from l2tpgen.device import PushOptions  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)
    from l2tpgen.device.fleet import push_fleet, roll_back_pairs  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)
    from l2tpgen.device.stop import Stop, stop_on_signals  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    creds = read_credentials()
    fleet, names = select_sites(sites_args, every, sites)
    targets = router_targets(fleet, names, inventory, accept_new=run.accept_new)
    where = {name: str(target) for name, target in targets.items()}
    quiet_libraries()
    if not run.dry_run and not run.yes and not sys.stdin.isatty():
        raise typer.BadParameter("pushing without a terminal needs --yes", param_hint="--yes")
    state = Path(os.environ.get(STATE_DIR, "~/.local/state/l2tpgen"))
    try:
        rendered = {name: rendering.render_site(fleet, name) for name in names}
    except L2tpgenError as exc:
        fail(str(exc))
    stop = Stop()
    base = PushOptions(
        dry_run=True,
        save=run.save,
        state_dir=state,
        rendered=rendered,
        readings=Readings(),  # the diff's round and the push's read each rendering once
        stop=stop,
        one_end=run.one_end,
        keep_rollbacks=run.keep_rollbacks,
        confirm_within=run.confirm_within,
    )
    began = time.monotonic()
    if run.dry_run or not run.yes:
        with Progress(names) as progress:
            report = push_fleet(
                fleet, targets, creds, replace(base, progress=progress), run.workers
            )
        if run.dry_run:
            _report(report, run, where, diffs_shown=False, began=began)
            return
        if not _approve(report, run, where):
            _report(report, run, where, diffs_shown=True, began=began)
            return
        approved = {r.site: r.commands for r in report.results if r.status.value == "would-change"}
        targets = {name: targets[name] for name in approved}
        base = replace(base, approved=approved, lint_gate=False)
        began = time.monotonic()  # the change itself, not the time the question waited
    # From here a signal only requests a stop, until the process exits: the exit code is always
    # the one the report gives (a change that was saved is never followed by a 130 or 143).
    with stop_on_signals(
        stop, lambda text: err.print(text, style="yellow", markup=False), restore=False
    ):
        with Progress(list(targets)) as progress:
            options = replace(base, dry_run=False, progress=progress)
            report = push_fleet(fleet, targets, creds, options, run.workers)
            if run.rollback_pairs:
                report = roll_back_pairs(
                    fleet, report, targets, creds, options, workers=run.workers
                )
        _report(report, run, where, diffs_shown=not run.yes, began=began)


def _approve(report: FleetReport, run: _Run, where: dict[str, str]) -> bool:
    """Show the diffs and ask; False (and say so) when nothing is to change or the user says no."""
    changing = [r for r in report.results if r.status.value == "would-change"]
    if run.fmt is OutputFormat.text:
        for result in report.results:
            print_result(result, where[result.site])
    if not changing or any(r.status.exit_code for r in report.results):
        if changing:
            err.print("nothing was changed: fix the problems above first", style="red")
        return False
    for result in changing:
        if result.migration:
            err.print(_migration_warning(result.site), style="yellow", markup=False)
    sites = ", ".join(r.site for r in changing)
    if not typer.confirm(f"Apply the change to {sites}?", err=True):
        err.print("nothing was changed")
        raise typer.Exit(0)
    return True


def _migration_warning(site: str) -> str:
    return (
        f"warning: {site} moves from the single-trunk xconnect to one xconnect per VLAN: the "
        "VLANs it carried are down from the moment the first end changes until the other end "
        "has changed too"
    )


def _report(
    report: FleetReport, run: _Run, where: dict[str, str], *, diffs_shown: bool, began: float
) -> None:
    """Print the results (text or JSON; failures one error line each) and exit with the code.

    Text ends with one line (``2 ok (2 changed), 0 failed in 4.2 s``) timed from ``began``.
    """
    if run.fmt is OutputFormat.json:
        document = {
            "exit_code": _exit_code(report, run),
            "results": [result_dict(r) for r in report.results],
            "pairs": [pair_dict(p) for p in report.pairs],
            "verify_errors": list(report.verify_errors),
        }
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
        for result in report.results:
            if result.status.value in NOT_DONE:
                error_line(where[result.site], result.message)
    else:
        for result in report.results:
            print_result(result, where[result.site], diff=not diffs_shown)
        summary(report, title=f"{run.command} summary", seconds=time.monotonic() - began)
    code = _exit_code(report, run)
    if code:
        raise typer.Exit(code)


def _exit_code(report: FleetReport, run: _Run) -> int:
    drift = run.exit_code_on_drift and any(r.status.value == "would-change" for r in report.results)
    return max(report.exit_code, 1 if drift else 0)


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
    yes: Annotated[
        bool, typer.Option("--yes", help="Apply without showing the diff and asking first.")
    ] = False,
    one_end: Annotated[
        bool,
        typer.Option(
            "--one-end",
            help="Migrate a single-trunk site without its peer in the same run (its VLANs stay "
            "down until the peer is migrated too).",
        ),
    ] = False,
    rollback_pairs: Annotated[
        bool,
        typer.Option(
            "--rollback-pairs",
            help="When one end of a pair is rolled back, roll the other end back too.",
        ),
    ] = False,
    keep_rollbacks: Annotated[
        int,
        typer.Option(
            "--keep-rollbacks",
            min=1,
            help="Rollback copies kept per site on the router and in the state directory "
            "(the newest; older l2tpgen copies are deleted).",
        ),
    ] = 10,
    confirm_within: Annotated[
        int | None,
        typer.Option(
            "--confirm-within",
            metavar="MINUTES",
            min=1,
            max=MAX_CONFIRM_MINUTES,
            help="IOS/IOS-XE: the change reverts itself after MINUTES unless `l2tpgen confirm "
            "SITE...` (every site of the run together) confirms it (needs `archive` with a "
            "`path` on the router); not saved until then.",
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
    accept_new: AcceptNewOption = False,
) -> None:
    """Push sites to their routers: diff, ask, apply, check, save; roll back on failure.

    Shows each router's diff and asks before changing anything (an unchanged router asks
    nothing); --yes skips the question. Only what l2tpgen owns is touched: the model's classes,
    the LAN trunk's subinterfaces that carry an L2TPv3 xconnect or l2tpgen's description mark
    (and a single-trunk xconnect on the trunk itself, which is migrated away), the hold-queue
    lines, the tunnel loopback's address and the routes named l2tpgen-PEER; an object named like
    l2tpgen's that it did not write is refused by name, never deleted. Credentials come from
    L2TPGEN_USERNAME, L2TPGEN_PASSWORD (and L2TPGEN_ENABLE_SECRET); the L2TP secret from the
    site's secret_env. Ctrl-C or SIGTERM: routers being changed finish the lines in flight and
    roll back. Exit 1: nothing changed (input, access, ownership, a stop), or changed but not
    saved; 3: a router was rolled back; 4: a rollback failed too (check the router by hand).
    """
    run = _Run(
        dry_run=dry_run,
        save=not no_save,
        yes=yes,
        fmt=fmt,
        workers=workers,
        one_end=one_end,
        rollback_pairs=rollback_pairs,
        keep_rollbacks=keep_rollbacks,
        confirm_within=confirm_within,
        accept_new=accept_new,
    )
    _run_push(sites_args, every, sites, inventory, run)


@app.command()
def diff(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    exit_code: Annotated[
        bool,
        typer.Option(
            "--exit-code", help="Exit 1 when a router differs from the model (drift checks in CI)."
        ),
    ] = False,
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
    accept_new: AcceptNewOption = False,
) -> None:
    """Show what `push` would change on each router (the same as `push --dry-run`)."""
    run = _Run(
        dry_run=True,
        yes=True,
        fmt=fmt,
        workers=workers,
        exit_code_on_drift=exit_code,
        accept_new=accept_new,
        command="diff",
    )
    _run_push(sites_args, every, sites, inventory, run)
