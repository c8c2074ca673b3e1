"""``rollback`` and ``confirm``: back to a copy push made, and keeping a timed push's change."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.api import rollback_options
from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, out, safe
from l2tpgen.cli.push_output import counts_line, print_diff, print_result, result_dict
from l2tpgen.cli.routers import (
    STATE_DIR,
    AcceptNewOption,
    AllOption,
    FormatOption,
    InventoryOption,
    SitesArg,
    quiet_libraries,
    read_credentials,
    router_targets,
    select_sites,
)
from l2tpgen.errors import L2tpgenError
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.manual_rollback import Copy, RollbackOptions
    from l2tpgen.model import Fleet


def _state() -> Path:
    return Path(os.environ.get(STATE_DIR, "~/.local/state/l2tpgen"))


def _copies_dict(site: str, found: list[Copy]) -> dict[str, object]:
    rows = [
        {
            "name": c.name,
            "made": c.made,
            "on_router": c.on_router,
            "local": str(c.local) if c.local is not None else None,
        }
        for c in found
    ]
    return {"site": site, "copies": rows}


def _print_copies(site: str, found: list[Copy], fmt: OutputFormat) -> None:
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps(_copies_dict(site, found), indent=2) + "\n")
        return
    if not found:
        out.print(safe(f"{site}: no rollback copies"), markup=False)
        return
    for number, copy in enumerate(found):
        latest = "  (latest: the state before the last push)" if number == 0 else ""
        line = f"{copy.file_system}{copy.name}  before the push of {copy.made}  [{copy.where}]"
        out.print(safe(line + latest), markup=False, highlight=False)


@app.command()
def rollback(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="COPY",
            help="The copy to go back to (a name --list shows; default: the newest, the state "
            "before the most recent push).",
        ),
    ] = None,
    list_only: Annotated[
        bool, typer.Option("--list", help="List the site's rollback copies; change nothing.")
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", help="Roll back without showing the diff and asking first.")
    ] = False,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not `write memory`.")] = False,
    fmt: FormatOption = OutputFormat.text,
    accept_new: AcceptNewOption = False,
) -> None:
    """Take sites' routers back to the rollback copies push made before a change.

    Takes the sites push takes (both ends of a pair, several, or --all). Shows each diff (the
    running config to the copy, secrets masked) and asks unless --yes; then `configure replace
    FS:COPY force`, checks the router holds the copy, and saves unless --no-save. Several
    routers end with every one rolled back or every one as it was: every one is read first (one
    that would be refused or cannot be reached keeps the others unchanged); then each is rolled
    back in turn and saved only once all are; a router that is refused or fails then, or Ctrl-C
    between two, puts the ones before it back as they were (from a copy made right before each
    replace). A copy no longer on the router is refused (l2tpgen uploads nothing). Exit 0: done
    or nothing to do; 1: nothing was changed (refused, unreachable) or not saved; 3: a router
    refused or failed its rollback and the others were put back as they were; 4: a router did
    not take its copy or could not be put back, or someone else changed it meanwhile (check it
    by hand); 130: stopped by a signal (each router's state is printed).
    """
    from l2tpgen.device.manual_rollback import rollback_site  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    creds = read_credentials()
    fleet, names = select_sites(sites_args, every, sites)
    if to is not None and len(names) != 1:
        raise typer.BadParameter(
            "a copy's name belongs to one site: give one SITE", param_hint="--to"
        )
    targets = router_targets(fleet, names, inventory, accept_new=accept_new)
    quiet_libraries()
    options = {name: _options(fleet, name, to=to, save=not no_save) for name in names}
    if list_only:
        _list(targets, creds, options, fmt)
        return
    if not yes and not sys.stdin.isatty():
        raise typer.BadParameter("rolling back without a terminal needs --yes", param_hint="--yes")
    if fmt is OutputFormat.text:
        _warn_lone_ends(fleet, names)
    if len(names) > 1:
        _rollback_several(targets, creds, options, yes=yes, fmt=fmt)
        return
    name, target = names[0], targets[names[0]]

    def approve(diff: str) -> bool:
        if yes:
            return True
        print_diff(diff)
        return typer.confirm(f"Roll {name} back to this config?", err=True)

    result = rollback_site(target, creds, name, options[name], approve)
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps(result_dict(result), indent=2) + "\n")
    else:
        print_result(result, str(target), diff=yes)
    if result.status.exit_code:
        raise typer.Exit(result.status.exit_code)


def _list(
    targets: Mapping[str, Target],
    creds: Credentials,
    options: Mapping[str, RollbackOptions],
    fmt: OutputFormat,
) -> None:
    """Each site's copies; several sites in JSON: one document, ``{"sites": [...]}``."""
    from l2tpgen.device.manual_rollback import list_copies  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    listed = []
    for name, target in targets.items():
        try:
            found = list_copies(target, creds, name, options[name])
        except L2tpgenError as exc:
            err.print(Text.assemble(("error:", "bold red"), " ", safe(f"{target}: {exc}")))
            raise typer.Exit(1) from None
        if fmt is OutputFormat.json and len(targets) > 1:
            listed.append(_copies_dict(name, found))
        else:
            _print_copies(name, found, fmt)
    if listed:
        sys.stdout.write(json.dumps({"sites": listed}, indent=2) + "\n")


def _options(fleet: Fleet, name: str, *, to: str | None, save: bool) -> RollbackOptions:
    return rollback_options(fleet, name, to=to, save=save, state_dir=_state())


def _warn_lone_ends(fleet: Fleet, names: list[str]) -> None:
    """Say which peers stay as they are: a pair with one end rolled back is down."""
    for name in names:
        site = fleet.site(name)
        peers = {v.peer for v in site.vlans} | ({site.kept_port.peer} if site.kept_port else set())
        # a peer l2tpgen does not push (a Linux PE) has no rollback copy: nothing to suggest
        pushed = {
            p
            for p in peers
            if p not in fleet.sites or driver(fleet.site(p).effective_platform).pushable
        }
        for peer in sorted(pushed - set(names)):
            err.print(
                f"note: {name}'s peer {peer} is not rolled back with it; if the push changed both "
                f"ends, roll back both (`l2tpgen rollback {name} {peer}`)",
                style="yellow",
                markup=False,
                highlight=False,
            )


def _rollback_several(
    targets: Mapping[str, Target],
    creds: Credentials,
    options: Mapping[str, RollbackOptions],
    *,
    yes: bool,
    fmt: OutputFormat,
) -> None:
    """Every router read first; all rolled back or every one as it was; one result per router.

    A signal (Ctrl-C, SIGTERM) after the approval only asks the run to stop between two routers:
    the ones rolled back are put back as they were, every result is printed, and the exit code
    is 130.
    """
    from l2tpgen.device.rollback_fleet import apply, prepare  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)
    from l2tpgen.device.stop import Stop, stop_on_signals  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    began = time.monotonic()
    prepared = prepare(targets, creds, options)
    stop = Stop()
    if prepared.final is not None:
        results = prepared.final
    elif not _approved(prepared.shown, yes=yes):
        results = tuple(prepared.preflight[n] for n in targets)
    else:

        def tell(text: str) -> None:
            name = text.split(":", 1)[0]
            err.print(
                f"{name}: stopping; the router being rolled back finishes, then every router "
                "rolled back is put back as it was; nothing new is started",
                style="yellow",
                markup=False,
            )

        with stop_on_signals(stop, tell, restore=False):
            results = apply(prepared, targets, creds, options, stop=stop)
    code = max(r.status.exit_code for r in results)
    if fmt is OutputFormat.json:
        document = {"exit_code": code, "results": [result_dict(r) for r in results]}
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        for result in results:
            print_result(result, str(targets[result.site]), diff=yes)
        out.print(counts_line(results, time.monotonic() - began), markup=False, highlight=False)
    if stop():
        err.print(safe(f"{stop.reason}: the rollback was stopped"), style="yellow", markup=False)
        raise typer.Exit(130)
    if code:
        raise typer.Exit(code)


def _approved(diffs: Mapping[str, str], *, yes: bool) -> bool:
    if yes:
        return True
    for diff in diffs.values():
        print_diff(diff)
    return typer.confirm(f"Roll {', '.join(diffs)} back to these configs?", err=True)


@app.command()
def confirm(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    fmt: FormatOption = OutputFormat.text,
    accept_new: AcceptNewOption = False,
) -> None:
    """Keep a change pushed with --confirm-within: `configure confirm`, then save.

    Takes the sites push takes (both ends of a pair, several, or --all): every router is read
    first, and the change is confirmed on every one or on none (one end kept and the other
    reverted splits a pair). Only a change this login armed is confirmed (the router's `User:`
    in `show archive config rollback timer`); another's is refused, naming its user, and
    nothing is sent. Exit 0: confirmed and saved; 1: nothing was confirmed (nothing waits,
    another user's change, a lock, not reached), a confirmation did not take (each result says
    the state its router is in and what to do), or the save failed.
    """
    from l2tpgen.device.confirm_fleet import confirm_routers  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)

    creds = read_credentials()
    fleet, names = select_sites(sites_args, every, sites)
    targets = router_targets(fleet, names, inventory, accept_new=accept_new)
    commands = {
        name: driver(fleet.site(name).effective_platform).save_command or "write memory"
        for name in names
    }
    quiet_libraries()
    results = confirm_routers(targets, creds, _state(), commands)
    code = max(r.status.exit_code for r in results)
    if fmt is OutputFormat.json:
        document = {"exit_code": code, "results": [result_dict(r) for r in results]}
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    for result in results:
        if result.status.exit_code:
            line = safe(f"{targets[result.site]}: {result.message}")
            err.print(Text.assemble(("error:", "bold red"), " ", line))
        elif fmt is OutputFormat.text:
            text = safe(f"{result.site}: {result.status.value}: {result.message}")
            out.print(text, markup=False, highlight=False)
    if code:
        raise typer.Exit(code)
