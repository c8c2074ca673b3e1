"""``push`` and ``diff``: the change each router needs, shown, approved, applied."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, fail, out
from l2tpgen.cli.routers import (
    DEFAULT_WORKERS,
    STATE_DIR,
    AllOption,
    FormatOption,
    InventoryOption,
    SitesArg,
    WorkersOption,
    read_credentials,
    router_targets,
    select_sites,
)
from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from rich.progress import TaskID

    from l2tpgen.device import PushResult
    from l2tpgen.device.fleet import FleetReport, PairState


def _print_diff(diff: str) -> None:
    styles = {"+": "green", "-": "red", "@": "cyan"}
    for line in diff.splitlines():
        out.print(Text(line, style=styles.get(line[:1], "")))


def _result_dict(result: PushResult) -> dict[str, object]:
    return {
        "site": result.site,
        "status": result.status.value,
        "exit_code": result.status.exit_code,
        "message": result.message,
        "lines_sent": result.lines_sent,
        "seconds": round(result.seconds, 3),
        "commands": list(result.commands),
        "diff": result.diff,
        "rollback_file": result.rollback_file,
        "errors": list(result.errors),
        "notices": list(result.notices),
        "migration": result.migration,
        "notes": list(result.notes),
    }


_STATUS_STYLE = {  # by Status value
    "unchanged": "green",
    "would-change": "yellow",
    "changed": "green",
    "refused": "red",
    "failed": "red",
    "stopped": "yellow",
    "unsaved": "bold red",
    "rolled-back": "red",
    "rollback-failed": "bold red",
}


def _print_result(result: PushResult, *, diff: bool = True) -> None:
    if diff and result.diff:
        _print_diff(result.diff)
    for note in result.notes:
        out.print(f"note: {result.site}: {note}", markup=False, highlight=False)
    if diff and result.commands and result.status.value != "unchanged":
        out.print(f"commands for {result.site}:", style="bold")
        for command in result.commands:
            out.print(f"  {command}", markup=False, highlight=False)
    for error in result.errors:
        err.print(f"  refused: {error}", style="red", markup=False)
    out.print(
        Text.assemble(
            (f"{result.site}: {result.status.value}", _STATUS_STYLE[result.status.value]),
            f" ({result.lines_sent} lines sent, {result.seconds:.1f} s) {result.message}",
        )
    )


class _Progress:
    """Per-router progress: a live row each on a terminal, plain lines otherwise (thread-safe)."""

    def __init__(self, names: list[str]) -> None:
        from rich.progress import (  # noqa: PLC0415 - only fleet commands show progress
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.live = err.is_terminal
        self.rows: dict[str, TaskID] = {}
        # transient: the live rows vanish when done (the summary table follows), so no spinner
        # frame stays in the scrollback
        self.bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        )
        if self.live:
            self.rows = {name: self.bar.add_task(f"{name}: waiting", total=None) for name in names}

    def __call__(self, site: str, phase: str) -> None:
        if self.live:
            self.bar.update(self.rows[site], description=f"{site}: {phase}")
        else:
            err.print(f"{site}: {phase}", markup=False, highlight=False)

    def __enter__(self) -> _Progress:  # noqa: PYI034 - a final private class; Self needs 3.11
        if self.live:
            self.bar.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.live:
            self.bar.stop()


def _summary(report: FleetReport) -> None:
    from rich.table import Table  # noqa: PLC0415 - start-up stays cheap

    table = Table(title="push summary", title_justify="left")
    for column in ("site", "result", "lines sent", "time", "detail"):
        table.add_column(column, justify="right" if column in {"lines sent", "time"} else "left")
    for r in report.results:
        status = Text(r.status.value, _STATUS_STYLE[r.status.value])
        table.add_row(r.site, status, str(r.lines_sent), f"{r.seconds:.1f} s", r.message)
    out.print(table)
    if report.pairs:
        one_sided = [p for p in report.pairs if p.one_sided]
        down = [p for p in report.pairs if not p.up_both and not p.one_sided]
        up = len(report.pairs) - len(one_sided) - len(down)
        out.print(f"pairs verified: {up} pseudowires up at both ends", markup=False)
        for p in one_sided + down:
            out.print(
                f"  {p.site} <-> {p.peer} VLAN {p.vlan} (VC {p.vc_id}): {p.here} at {p.site}, "
                f"{p.there} at {p.peer}" + (" (up on one side only)" if p.one_sided else ""),
                style="red",
                markup=False,
            )
    for error in report.verify_errors:
        err.print(f"verify: {error}", style="red", markup=False)


def _pair_dict(pair: PairState) -> dict[str, object]:
    return {
        "site": pair.site,
        "peer": pair.peer,
        "vlan": pair.vlan,
        "vc_id": pair.vc_id,
        "here": pair.here,
        "there": pair.there,
        "up_both": pair.up_both,
        "one_sided": pair.one_sided,
    }


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


def _run_push(
    sites_args: list[str] | None, every: bool, sites: Path, inventory: Path | None, run: _Run
) -> None:
    """Diff every router; then, for a push, ask (unless --yes), apply, and report."""
    from l2tpgen.device import PushOptions  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.device.fleet import push_fleet, roll_back_pairs  # noqa: PLC0415
    from l2tpgen.device.guard import Stop, stop_on_signals  # noqa: PLC0415
    from l2tpgen.render import render_site  # noqa: PLC0415

    creds = read_credentials()
    fleet, names = select_sites(sites_args, every, sites)
    targets = router_targets(fleet, names, inventory)
    if not run.dry_run and not run.yes and not sys.stdin.isatty():
        raise typer.BadParameter("pushing without a terminal needs --yes", param_hint="--yes")
    state = Path(os.environ.get(STATE_DIR, "~/.local/state/l2tpgen"))
    try:
        rendered = {name: render_site(fleet, name) for name in names}
    except L2tpgenError as exc:
        fail(str(exc))
    stop = Stop()
    base = PushOptions(
        dry_run=True,
        save=run.save,
        state_dir=state,
        rendered=rendered,
        stop=stop,
        one_end=run.one_end,
    )
    if run.dry_run or not run.yes:
        with _Progress(names) as progress:
            report = push_fleet(
                fleet, targets, creds, replace(base, progress=progress), run.workers
            )
        if run.dry_run:
            _report(report, run, diffs_shown=False)
            return
        if not _approve(report, run):
            _report(report, run, diffs_shown=True)
            return
        approved = {r.site: r.commands for r in report.results if r.status.value == "would-change"}
        targets = {name: targets[name] for name in approved}
        base = replace(base, approved=approved, lint_gate=False)
    with (
        stop_on_signals(stop, lambda text: err.print(text, style="yellow", markup=False)),
        _Progress(list(targets)) as progress,
    ):
        options = replace(base, dry_run=False, progress=progress)
        report = push_fleet(fleet, targets, creds, options, run.workers)
        if run.rollback_pairs:
            report = roll_back_pairs(fleet, report, targets, creds, options)
    _report(report, run, diffs_shown=not run.yes)


def _approve(report: FleetReport, run: _Run) -> bool:
    """Show the diffs and ask; False (and say so) when nothing is to change or the user says no."""
    changing = [r for r in report.results if r.status.value == "would-change"]
    if run.fmt is OutputFormat.text:
        for result in report.results:
            _print_result(result)
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


def _report(report: FleetReport, run: _Run, *, diffs_shown: bool) -> None:
    """Print the results (text or JSON) and exit with the run's code."""
    if run.fmt is OutputFormat.json:
        document = {
            "exit_code": _exit_code(report, run),
            "results": [_result_dict(r) for r in report.results],
            "pairs": [_pair_dict(p) for p in report.pairs],
            "verify_errors": list(report.verify_errors),
        }
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        for result in report.results:
            _print_result(result, diff=not diffs_shown)
        _summary(report)
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
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
) -> None:
    """Push sites to their routers: diff, ask, apply, check, save; roll back on failure.

    Shows each router's diff and asks before changing anything (an unchanged router asks
    nothing); --yes skips the question. Only what l2tpgen owns is touched: the model's classes,
    the LAN trunk's subinterfaces that carry an L2TPv3 xconnect or l2tpgen's description mark
    (and a single-trunk xconnect on the trunk itself, which is migrated away), the hold-queue
    lines, the tunnel loopback's address and the routes named l2tpgen-PEER. Credentials come
    from L2TPGEN_USERNAME, L2TPGEN_PASSWORD (and L2TPGEN_ENABLE_SECRET); the L2TP secret from the
    site's secret_env. Ctrl-C or SIGTERM: routers being changed finish the lines in flight and
    roll back. Exit 1: nothing changed (input, access, a stop), or changed but not saved; 3: a
    router was rolled back; 4: a rollback failed too (check the router by hand).
    """
    run = _Run(
        dry_run=dry_run,
        save=not no_save,
        yes=yes,
        fmt=fmt,
        workers=workers,
        one_end=one_end,
        rollback_pairs=rollback_pairs,
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
) -> None:
    """Show what `push` would change on each router (the same as `push --dry-run`)."""
    run = _Run(dry_run=True, yes=True, fmt=fmt, workers=workers, exit_code_on_drift=exit_code)
    _run_push(sites_args, every, sites, inventory, run)
