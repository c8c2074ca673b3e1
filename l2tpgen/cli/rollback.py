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

from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, out, safe
from l2tpgen.cli.complete import complete_site
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

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.manual_rollback import Copy, RollbackOptions
    from l2tpgen.model import Fleet

SiteArg = Annotated[
    str,
    typer.Argument(
        metavar="SITE", help="The site (name or site file).", autocompletion=complete_site
    ),
]


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
    routers: every one is read first, and if one would be refused none is changed. A copy no
    longer on the router is refused (l2tpgen uploads nothing). Exit 0: done or nothing to do; 1:
    nothing was changed (refused, unreachable) or not saved; 4: the router did not take the copy,
    or someone else changed it meanwhile (check it by hand).
    """
    from l2tpgen.device.manual_rollback import rollback_site  # noqa: PLC0415 - start-up stays cheap

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
    from l2tpgen.device.manual_rollback import list_copies  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.errors import L2tpgenError  # noqa: PLC0415

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
    from l2tpgen.device.manual_rollback import RollbackOptions  # noqa: PLC0415
    from l2tpgen.traits import driver  # noqa: PLC0415

    platform = driver(fleet.site(name).effective_platform)
    return RollbackOptions(
        _state(),
        to=to,
        save=save,
        save_command=platform.save_command or "write memory",
        file_systems=platform.file_systems,
    )


def _warn_lone_ends(fleet: Fleet, names: list[str]) -> None:
    """Say which peers stay as they are: a pair with one end rolled back is down."""
    from l2tpgen.traits import driver  # noqa: PLC0415

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
    """Every router read first; all rolled back or none; one result per router."""
    from l2tpgen.device.rollback_fleet import rollback_fleet  # noqa: PLC0415

    def approve(diffs: Mapping[str, str]) -> bool:
        if yes:
            return True
        for diff in diffs.values():
            print_diff(diff)
        return typer.confirm(f"Roll {', '.join(diffs)} back to these configs?", err=True)

    began = time.monotonic()
    results = rollback_fleet(targets, creds, options, approve)
    code = max(r.status.exit_code for r in results)
    if fmt is OutputFormat.json:
        document = {"exit_code": code, "results": [result_dict(r) for r in results]}
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        for result in results:
            print_result(result, str(targets[result.site]), diff=yes)
        out.print(counts_line(results, time.monotonic() - began), markup=False, highlight=False)
    if code:
        raise typer.Exit(code)


@app.command()
def confirm(
    site: SiteArg,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    accept_new: AcceptNewOption = False,
) -> None:
    """Keep a change pushed with --confirm-within: `configure confirm`, then save.

    Exit 0: confirmed and saved; 1: nothing waited for confirmation (confirmed already, or the
    timer ran out and the router went back), or the save failed.
    """
    from l2tpgen.device.confirm import confirm_site  # noqa: PLC0415 - start-up stays cheap
    from l2tpgen.traits import driver  # noqa: PLC0415

    creds = read_credentials()
    fleet, names = select_sites([site], every=False, sites=sites)
    name = names[0]
    target = router_targets(fleet, names, inventory, accept_new=accept_new)[name]
    command = driver(fleet.site(name).effective_platform).save_command or "write memory"
    quiet_libraries()
    status, message = confirm_site(target, creds, _state(), save_command=command)
    if status.exit_code:
        err.print(Text.assemble(("error:", "bold red"), " ", safe(f"{target}: {message}")))
        raise typer.Exit(status.exit_code)
    out.print(safe(f"{name}: {status.value}: {message}"), markup=False, highlight=False)
