"""``mtu``: the L2TPv3 overhead budget, of given options or of a site's pairs."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from l2tpgen.cli.app import OutputFormat, SitesOption, app, fail, out
from l2tpgen.cli.complete import complete_site
from l2tpgen.cli.loading import load
from l2tpgen.errors import L2tpgenError
from l2tpgen.model.load import resolve_site
from l2tpgen.model.vlan_list import vlan_ranges
from l2tpgen.mtu import COOKIE_SIZES, Encapsulation, Esp, budget_matrix, overhead_budget

if TYPE_CHECKING:
    from l2tpgen.mtu import OverheadBudget


class EncapChoice(str, Enum):
    """L2TPv3 data encapsulation."""

    ip = "ip"
    udp = "udp"


class IpsecChoice(str, Enum):
    """IPsec ESP around the pseudowire."""

    none = "none"
    transport = "transport"
    tunnel = "tunnel"


class TransformChoice(str, Enum):
    """ESP transforms (the model's ``protection.transform``)."""

    aes_gcm_128 = "aes-gcm-128"
    aes_gcm_256 = "aes-gcm-256"
    aes_cbc_128_sha256 = "aes-cbc-128-sha256"
    aes_cbc_256_sha256 = "aes-cbc-256-sha256"


def _budget_table(budget: OverheadBudget) -> Table:
    over = f", {budget.esp.describe()}" if budget.esp else ""
    family = " IPv6" if budget.ipv6 else ""
    table = Table(
        title=f"L2TPv3 overhead on a {budget.wan_mtu}-byte{family} WAN{over}",
        title_justify="left",
    )
    table.add_column("part", overflow="fold")
    table.add_column("bytes", overflow="fold", justify="right")
    for name, size in budget.items:
        table.add_row(name, str(size))
    table.add_section()
    if budget.esp:
        table.add_row("of which ESP (at the largest frame)", str(budget.esp_overhead))
    table.add_row("encapsulation overhead (encap size)", str(budget.encap_overhead))
    table.add_row("largest inner Ethernet frame (no FCS)", str(budget.max_frame))
    table.add_row(
        Text("largest inner IP MTU (CE MTU)", "bold"), Text(str(budget.max_inner_mtu), "bold")
    )
    table.add_row("TCP MSS to clamp to", str(budget.tcp_mss))
    return table


def _matrix_table(wan_mtu: int, *, ipv6: bool = False) -> Table:
    family = " IPv6" if ipv6 else ""
    table = Table(
        title=f"Largest inner IP MTU on a {wan_mtu}-byte{family} WAN", title_justify="left"
    )
    for column in ("encapsulation", "cookie", "sublayer", "untagged", "dot1Q carried"):
        table.add_column(
            column, overflow="fold", justify="right" if column != "encapsulation" else "left"
        )
    rows = budget_matrix(wan_mtu, ipv6=ipv6)
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
        "ipv6": budget.ipv6,
        "esp": (
            {
                "transform": budget.esp.transform,
                "mode": budget.esp.mode,
                "nat_t": budget.esp.nat_t,
                "overhead": budget.esp_overhead,
            }
            if budget.esp
            else None
        ),
        "items": [{"part": name, "bytes": size} for name, size in budget.items],
        "encap_overhead": budget.encap_overhead,
        "max_frame": budget.max_frame,
        "max_inner_mtu": budget.max_inner_mtu,
        "tcp_mss": budget.tcp_mss,
    }


@app.command()
def mtu(
    site: Annotated[
        str | None,
        typer.Argument(
            help="A site (name or site file): each of its pairs' real budget, from the site "
            "files (WAN MTUs, cookies, sequencing, the dot1Q tag, IPsec); the other options "
            "are then not used.",
            show_default=False,
            autocompletion=complete_site,
        ),
    ] = None,
    sites: SitesOption = Path("sites"),
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
        bool,
        typer.Option(
            "--dot1q/--no-dot1q",
            help="The dot1Q tag travels, as l2tpgen renders a pseudowire with a Cisco end; "
            "--no-dot1q: Linux to Linux (the VLAN subinterface removes the tag).",
        ),
    ] = True,
    ipsec: Annotated[
        IpsecChoice,
        typer.Option("--ipsec", help="IPsec ESP around the pseudowire: none, transport or tunnel."),
    ] = IpsecChoice.none,
    transform: Annotated[
        TransformChoice,
        typer.Option("--transform", help="ESP transform (with --ipsec)."),
    ] = TransformChoice.aes_gcm_128,
    nat_t: Annotated[
        bool, typer.Option("--nat-t/--no-nat-t", help="ESP in UDP (NAT traversal, with --ipsec).")
    ] = False,
    ipv6: Annotated[
        bool,
        typer.Option(
            "--ipv6/--ipv4",
            help="The underlay between the PEs: IPv4 (20-byte outer header) or IPv6 (40).",
        ),
    ] = False,
    show_all: Annotated[
        bool, typer.Option("--all", help="Compare every encapsulation, cookie and tagging.")
    ] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = (
        OutputFormat.text
    ),
) -> None:
    """Show the L2TPv3 overhead budget: the largest CE MTU that crosses without fragmentation.

    With SITE, the budget of each of its pairs as the site files make it (what render, hosts and
    the lab use), its kept port-mode xconnect included (the tag carried); without, the budget of
    the options given.
    """
    if site is not None:
        _site_budgets(site, sites, fmt)
        return
    if cookie not in COOKIE_SIZES:
        raise typer.BadParameter("must be 0, 4 or 8", param_hint="--cookie")
    if show_all:
        rows = budget_matrix(wan_mtu, ipv6=ipv6)
        if fmt is OutputFormat.json:
            out.print_json(json.dumps([_budget_dict(b) for b in rows]))
        else:
            out.print(_matrix_table(wan_mtu, ipv6=ipv6))
        return
    esp = None
    if ipsec is not IpsecChoice.none:
        esp = Esp(transform.value, ipsec.value, nat_t)
    budget = overhead_budget(
        wan_mtu,
        Encapsulation(encap.value),
        cookie,
        sublayer=sublayer,
        dot1q=dot1q,
        esp=esp,
        ipv6=ipv6,
    )
    if fmt is OutputFormat.json:
        out.print_json(json.dumps(_budget_dict(budget)))
    else:
        out.print(_budget_table(budget))


def _site_budgets(argument: str, sites: Path, fmt: OutputFormat) -> None:
    """``mtu SITE``: one row per peer, from the pseudowires the fleet builds."""
    try:
        directory, name = resolve_site(argument, sites)
    except L2tpgenError as exc:
        fail(str(exc))
    fleet = load(directory, fmt, [name])
    rows: dict[str, tuple[list[int], OverheadBudget]] = {}
    for pw in fleet.pseudowires(name):
        vlans, _ = rows.setdefault(pw.peer.name, ([], pw.budget))
        vlans.append(pw.vlan.id)
    port = fleet.kept_port(name)  # the trunk's own pseudowire: every VLAN of the port, tagged
    entries = [(peer, vlans, budget, False) for peer, (vlans, budget) in rows.items()]
    if port is not None:
        entries.append((port.peer.name, [], port.budget, True))
    if fmt is OutputFormat.json:
        report = [
            {"site": name, "peer": peer, "vlans": vlans, "port": kept, **_budget_dict(budget)}
            for peer, vlans, budget, kept in entries
        ]
        out.print_json(json.dumps(report))
        return
    # One block per peer, not a wide table: a long site name is never cut at 80 columns.
    for peer, vlans, budget, kept in entries:
        esp = budget.esp.describe() if budget.esp else "no ESP"
        family = " (IPv6)" if budget.ipv6 else ""
        what = (
            f"the kept port-mode xconnect of {fleet.site(name).lan.interface} (every VLAN)"
            if kept
            else f"VLANs {vlan_ranges(vlans)}"
        )
        out.print(f"{name} -> {peer}: {what}", markup=False)
        out.print(
            f"  WAN MTU {budget.wan_mtu}{family}, cookie {budget.cookie}, "
            f"sublayer {'yes' if budget.sublayer else 'no'}, dot1Q "
            f"{'carried' if budget.dot1q else 'removed'}, {esp}",
            markup=False,
        )
        out.print(
            f"  overhead {budget.encap_overhead} bytes: largest CE MTU {budget.max_inner_mtu}, "
            f"TCP MSS {budget.tcp_mss}",
            markup=False,
        )
