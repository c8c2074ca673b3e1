"""``verify``: the pseudowires' state, read from the routers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from l2tpgen.api import verify as verified
from l2tpgen.cli.app import EXIT_FINDINGS, OutputFormat, SitesOption, app, err, out, safe
from l2tpgen.cli.routers import (
    DEFAULT_WORKERS,
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
from l2tpgen.ios.names import short_interface_name


@app.command()
def verify(
    sites_args: SitesArg = None,
    every: AllOption = False,
    sites: SitesOption = Path("sites"),
    inventory: InventoryOption = None,
    fmt: FormatOption = OutputFormat.text,
    workers: WorkersOption = DEFAULT_WORKERS,
    accept_new: AcceptNewOption = False,
) -> None:
    """Read pseudowire state from the routers (in parallel); exit 1 if any is not up.

    Every VLAN pseudowire of the selected sites is read, and the kept port-mode xconnect of a
    site's LAN trunk (lan.port_xconnect, action keep) as one row, VLAN "port (all)".
    """
    credentials = read_credentials()
    fleet, names = select_sites(sites_args, every, sites)
    targets = router_targets(fleet, names, inventory, accept_new=accept_new)
    quiet_libraries()
    found = verified(fleet, names, credentials=credentials, workers=workers, where=targets)
    states, problems = found.states, list(found.errors)
    if fmt is OutputFormat.json:
        rows = [s.__dict__ | {"up": s.up} for s in states]
        sys.stdout.write(json.dumps({"pseudowires": rows, "errors": problems}, indent=2) + "\n")
    else:
        view = Table(title="pseudowires", title_justify="left")
        for column in ("site", "VLAN", "interface", "peer", "VC ID", "state", "session"):
            view.add_column(column, overflow="fold")
        for s in states:
            view.add_row(
                s.site,
                "port (all)" if s.port else str(s.vlan),
                short_interface_name(s.interface),
                s.peer,
                str(s.vc_id),
                Text(
                    safe(s.state + (f" ({s.detail})" if s.detail else "")),
                    "green" if s.up else "red",
                ),
                safe(s.session),  # router text: escaped like every other
            )
        out.print(view)
    for problem in problems:
        err.print(Text.assemble(("error:", "bold red"), " ", safe(problem)))
    if not found.ok:
        raise typer.Exit(EXIT_FINDINGS)
