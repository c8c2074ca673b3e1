"""``rollback`` and ``confirm``: back to a copy push made, and keeping a timed push's change."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import OutputFormat, SitesOption, app, err, out, safe
from l2tpgen.cli.push_output import print_diff, print_result, result_dict
from l2tpgen.cli.routers import (
    STATE_DIR,
    AcceptNewOption,
    FormatOption,
    InventoryOption,
    quiet_libraries,
    read_credentials,
    router_targets,
    select_sites,
)

if TYPE_CHECKING:
    from l2tpgen.device.manual_rollback import Copy

SiteArg = Annotated[str, typer.Argument(metavar="SITE", help="The site (name or site file).")]


def _state() -> Path:
    return Path(os.environ.get(STATE_DIR, "~/.local/state/l2tpgen"))


def _print_copies(site: str, found: list[Copy], fmt: OutputFormat) -> None:
    if fmt is OutputFormat.json:
        rows = [
            {
                "name": c.name,
                "made": c.made,
                "on_router": c.on_router,
                "local": str(c.local) if c.local is not None else None,
            }
            for c in found
        ]
        sys.stdout.write(json.dumps({"site": site, "copies": rows}, indent=2) + "\n")
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
    site: SiteArg,
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
    """Take a site's router back to a rollback copy that push made before a change.

    Shows the diff (the running config to the copy, secrets masked) and asks unless --yes; then
    `configure replace FS:COPY force`, checks the router holds the copy, and saves unless
    --no-save. A copy no longer on the router is refused (l2tpgen uploads nothing). Exit 0: done
    or nothing to do; 1: nothing was changed (refused, unreachable) or not saved; 4: the router
    did not take the copy, or someone else changed it meanwhile (check it by hand).
    """
    from l2tpgen.device.manual_rollback import (  # noqa: PLC0415 - start-up stays cheap
        RollbackOptions,
        list_copies,
        rollback_site,
    )
    from l2tpgen.errors import L2tpgenError  # noqa: PLC0415
    from l2tpgen.platforms import driver  # noqa: PLC0415

    creds = read_credentials()
    fleet, names = select_sites([site], every=False, sites=sites)
    name = names[0]
    target = router_targets(fleet, names, inventory, accept_new=accept_new)[name]
    platform = driver(fleet.site(name).effective_platform)
    quiet_libraries()
    options = RollbackOptions(
        _state(),
        to=to,
        save=not no_save,
        save_command=platform.save_command or "write memory",
        file_systems=platform.file_systems,
    )
    if list_only:
        try:
            found = list_copies(target, creds, name, options)
        except L2tpgenError as exc:
            err.print(Text.assemble(("error:", "bold red"), " ", safe(f"{target}: {exc}")))
            raise typer.Exit(1) from None
        _print_copies(name, found, fmt)
        return
    if not yes and not sys.stdin.isatty():
        raise typer.BadParameter("rolling back without a terminal needs --yes", param_hint="--yes")

    def approve(diff: str) -> bool:
        if yes:
            return True
        print_diff(diff)
        return typer.confirm(f"Roll {name} back to this config?", err=True)

    result = rollback_site(target, creds, name, options, approve)
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps(result_dict(result), indent=2) + "\n")
    else:
        print_result(result, str(target), diff=yes)
    if result.status.exit_code:
        raise typer.Exit(result.status.exit_code)


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
    from l2tpgen.platforms import driver  # noqa: PLC0415

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
