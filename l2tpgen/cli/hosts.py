"""`l2tpgen hosts`: what the hosts on each stretched VLAN of a site need."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from l2tpgen.cli.app import SitesOption, app, fail, out, safe
from l2tpgen.cli.complete import SiteArgument  # noqa: TC001 - typer reads the annotations at run time
from l2tpgen.cli.loading import load
from l2tpgen.errors import L2tpgenError
from l2tpgen.hosts import merged_sysctls, port_advice, site_advice, site_sysctl
from l2tpgen.model import resolve_site

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.hosts import PortHosts, VlanHosts
    from l2tpgen.hosts.advice import HostAdvice


class HostsFormat(str, Enum):
    """Output of `hosts`."""

    text = "text"
    json = "json"
    sysctl = "sysctl"


def _link_hint(one: VlanHosts) -> str:
    pw = one.pseudowire
    return (
        f"not stated: add `link: {{bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}}` (your figures) "
        f"to the peers entry of {pw.peer.name} in {one.site_file}, or of {pw.site.name} in "
        f"{one.peer_file}"
    )


def _print_text(name: str, advice: Sequence[VlanHosts]) -> None:
    out.print(
        f"{name}: what the hosts on each stretched VLAN need "
        "(--format sysctl prints a file for /etc/sysctl.d/)"
    )
    for one in advice:
        pw, host = one.pseudowire, one.advice
        stated = f"stated in {one.carries_file}" if one.carries_file else "not stated"
        out.print()
        out.print(
            Text(
                f"VLAN {pw.vlan.id} {pw.vlan.name} to {pw.peer.name}: carries {host.workload} "
                f"({stated})",
                style="bold",
            )
        )
        path = (
            f"{host.path.describe()} (stated in {one.link_file})" if host.path else _link_hint(one)
        )
        out.print(f"  path: {safe(path)}")
        _print_items(host)


def _print_items(host: HostAdvice) -> None:
    out.print(f"  inner MTU: {host.inner_mtu} (the pseudowire's budget, l2tpgen mtu)")
    for item in host.items:
        out.print(f"  [{item.kind}] {item.setting} = {item.value}")
        out.print(f"      why:  {item.reason}")
        for number, basis in enumerate(item.basis):
            out.print(f"      {'from:' if number == 0 else '     '} {basis}")
        if item.takes_effect:
            out.print(f"      when: {item.takes_effect}")


def _print_port(port: PortHosts) -> None:
    """The hosts behind the kept port-mode pseudowire: every VLAN of the trunk, one budget."""
    kept, host = port.port, port.advice
    out.print()
    out.print(
        Text(
            f"every VLAN of {kept.interface} to {kept.peer.name} (the kept port-mode "
            f"pseudowire, VC ID {kept.vc_id}): carries {host.workload} (not stated per VLAN)",
            style="bold",
        )
    )
    link = port.site_file if kept.site.link_to(kept.peer.name) else port.peer_file
    path = f"{host.path.describe()} (stated in {link})" if host.path else "not stated"
    out.print(f"  path: {safe(path)}")
    _print_items(host)


def _items_json(host: HostAdvice) -> list[dict[str, object]]:
    return [
        {
            "kind": item.kind,
            "setting": item.setting,
            "value": item.value,
            "reason": item.reason,
            "basis": list(item.basis),
            "takes_effect": item.takes_effect,
        }
        for item in host.items
    ]


def _port_json(port: PortHosts | None) -> dict[str, object] | None:
    if port is None:
        return None
    kept, host = port.port, port.advice
    return {
        "interface": kept.interface,
        "peer": kept.peer.name,
        "vc_id": kept.vc_id,
        "carries": host.workload,
        "inner_mtu": host.inner_mtu,
        "items": _items_json(host),
    }


def _as_json(name: str, advice: Sequence[VlanHosts], port: PortHosts | None) -> dict[str, object]:
    vlans = []
    for one in advice:
        pw, host = one.pseudowire, one.advice
        link = pw.link
        vlans.append(
            {
                "vlan": pw.vlan.id,
                "name": pw.vlan.name,
                "peer": pw.peer.name,
                "carries": host.workload,
                "carries_stated_in": one.carries_file,
                "corosync_transport": host.transport,
                "link": (
                    {"bandwidth_bps": link.bandwidth, "rtt_ms": link.rtt_ms, "loss": link.loss}
                    if link
                    else None
                ),
                "link_stated_in": one.link_file,
                "inner_mtu": host.inner_mtu,
                "items": _items_json(host),
            }
        )
    extra = [port.advice] if port is not None else []
    merged = merged_sysctls([*(one.advice for one in advice), *extra])
    return {"site": name, "vlans": vlans, "port": _port_json(port), "sysctl": dict(merged)}


@app.command()
def hosts(
    site: SiteArgument,
    sites: SitesOption = Path("sites"),
    fmt: Annotated[
        HostsFormat,
        typer.Option(
            "--format", help="text, json, or sysctl (a file for /etc/sysctl.d/, for sysctl -p)."
        ),
    ] = HostsFormat.text,
    vlan: Annotated[
        list[int] | None,
        typer.Option(
            "--vlan",
            min=1,
            max=4094,
            help="Only this VLAN (repeatable): the hosts of those VLANs. Default: every VLAN.",
        ),
    ] = None,
) -> None:
    """What the hosts on each stretched VLAN need: MTU and MSS, buffers, congestion control.

    Each item comes with its reason and the numbers it came from. The path is the peers entry's
    link (either site may state it), the workload what the VLAN carries, the MTU the pseudowire's
    budget. A kept port-mode pseudowire (lan.port_xconnect) gets one block that covers all the
    VLANs of the trunk, its budget counting the dot1Q tag. --format sysctl prints one file for
    hosts on all the VLANs shown (the larger value wins where two VLANs ask for the same key).
    """
    try:
        directory, name = resolve_site(site, sites)
    except L2tpgenError as exc:
        fail(str(exc))
    fleet = load(directory, names=[name])
    try:
        advice = site_advice(fleet, name, vlan or ())
    except L2tpgenError as exc:
        fail(str(exc))
    port = None if vlan else port_advice(fleet, name)  # --vlan: only the VLAN pseudowires asked
    if fmt is HostsFormat.sysctl:
        sys.stdout.write(site_sysctl(name, advice, port))
    elif fmt is HostsFormat.json:
        sys.stdout.write(json.dumps(_as_json(name, advice, port), indent=2) + "\n")
    else:
        _print_text(name, advice)
        if port is not None:
            _print_port(port)
