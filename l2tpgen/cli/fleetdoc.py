"""``l2tpgen docs``: the fleet as one Markdown page with a diagram GitHub draws."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from l2tpgen.cli.app import SitesOption, app, emit_text
from l2tpgen.cli.loading import load
from l2tpgen.render.fleetdoc import fleet_markdown


@app.command()
def docs(
    sites: SitesOption = Path("sites"),
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write the page to this file instead of stdout."),
    ] = None,
    title: Annotated[str, typer.Option("--title", help="The page's heading.")] = "Fleet",
) -> None:
    """Write the fleet's documentation: a Mermaid diagram of sites and pseudowires, and tables.

    One Markdown page: each site (hostname, platform, WAN, tunnel source, peers), each
    pseudowire (VLAN, VC ID, what it carries, signaling, cookie, the CE MTU). GitHub draws the
    Mermaid diagram when it shows the page. The page holds no date, so regenerating it changes
    it only when the fleet changed (commit it, or publish it from CI: see the Action's `docs`
    input).
    """
    text = fleet_markdown(load(sites), title=title)

    emit_text(output, text, "the fleet page", "fleet.md")
