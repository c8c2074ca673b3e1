"""Synthetic fleets for rehearsal, tests and benchmarks: valid site files, written to a directory.

Sites come in pairs (``site-0`` <-> ``site-1``, ``site-2`` <-> ``site-3``, ...), each pair
stretching ``vlans`` VLANs (IDs from 100, VC IDs derived). WAN addresses are /30s from 10.0.0.0/8
(private: nothing ever connects to them), management addresses from 192.0.2.0/24 wrap around.
"""

from __future__ import annotations

from ipaddress import IPv4Address
from typing import TYPE_CHECKING

from l2tpgen.model.secret_names import L2TP_SECRET_ENV

if TYPE_CHECKING:
    from pathlib import Path

FIRST_VLAN = 100
MAX_VLANS = 4094 - FIRST_VLAN + 1


def site_yaml(index: int, vlans: int, secret_env: str = L2TP_SECRET_ENV) -> str:
    """The site file of ``site-<index>`` in a paired fleet."""
    if not 1 <= vlans <= MAX_VLANS:
        raise ValueError(f"vlans must be 1-{MAX_VLANS}")
    peer = index + 1 if index % 2 == 0 else index - 1
    wan = IPv4Address("10.0.0.0") + 4 * index
    lines = [
        f"name: site-{index}",
        f"hostname: rtr-{index}",
        f"management: {{host: 192.0.2.{index % 250 + 1}}}",
        f"wan: {{interface: GigabitEthernet0/1, address: {wan + 1}/30, gateway: {wan + 2}}}",
        "lan: {interface: GigabitEthernet0/0}",
        f"l2tp_class: {{secret_env: {secret_env}}}",
        f"peers: [site-{peer}]",
        "vlans:",
    ]
    lines += [
        f"  - {{id: {vlan}, name: v{vlan}, peer: site-{peer}}}"
        for vlan in range(FIRST_VLAN, FIRST_VLAN + vlans)
    ]
    return "\n".join(lines) + "\n"


def write_fleet(directory: Path, sites: int, vlans: int) -> list[str]:
    """Write ``sites`` (an even number) site files into ``directory``; return their names."""
    if sites < 2 or sites % 2:  # noqa: PLR2004 - pairs
        raise ValueError("a paired fleet needs an even number of sites, at least 2")
    directory.mkdir(parents=True, exist_ok=True)
    names = []
    for index in range(sites):
        (directory / f"site-{index}.yaml").write_text(site_yaml(index, vlans), encoding="utf-8")
        names.append(f"site-{index}")
    return names
