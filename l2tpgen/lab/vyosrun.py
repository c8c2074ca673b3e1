"""A VyOS PE in the lab: the ``set`` commands l2tpgen renders, run as vyos-1x runs them.

VyOS forwards L2TPv3 with the Linux kernel, and its configuration backend (vyos-1x) turns each
``set`` into iproute2 commands; the lab runs those for the lines l2tpgen renders, in vyos-1x's
commit order (Ethernet and loopback addresses, the static routes, the L2TPv3 interfaces, the
bridge; see ``vyos_commands`` on the routes). Sources, vyos/vyos-1x (``python/vyos/ifconfig/``):

- ``l2tpv3.py``: ``ip l2tp add tunnel tunnel_id T peer_tunnel_id P ... encap ip local S remote
  R``, then ``ip l2tp add session name IF tunnel_id T session_id S peer_session_id P`` (no
  ``l2spec_type``, no cookie: iproute2's default 4-byte sublayer), then the interface up;
- ``bridge.py``: ``enable-vlan`` is the bridge's ``vlan_filtering``; each member's VLANs not
  configured are deleted (the default VID 1), ``bridge vlan add dev IF vid V master`` per
  ``allowed-vlan``, ``bridge vlan add dev IF vid V pvid untagged master`` for ``native-vlan``;
- ``interface.py``: ``mtu`` is ``ip link set dev IF mtu M``, an address ``ip addr add``.

``set vpn ipsec`` lines are strongSwan's: the lab runs them as the swanctl.conf l2tpgen renders
for the same site (``topology.swanctl_file``), not vyos-1x's own; every other line this module
does not know is refused, so that no rendered line is silently left out.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from l2tpgen.errors import L2tpgenError


class VyosLabError(L2tpgenError):
    """A rendered VyOS line the lab cannot run."""


@dataclass
class _Config:
    ethernet: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    loopback: list[str] = field(default_factory=list)
    routes: list[tuple[str, str]] = field(default_factory=list)
    sessions: dict[str, dict[str, str]] = field(default_factory=dict)
    bridges: dict[str, bool] = field(default_factory=dict)  # name -> enable-vlan
    members: dict[str, dict[str, list[tuple[str, str]]]] = field(default_factory=dict)


def _parse(text: str, where: str) -> _Config:
    config = _Config()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line)
        if words[0] != "set" or not _take(config, words[1:]):
            raise VyosLabError(f"{where}:{number}: the lab does not run this VyOS line: {line}")
    return config


def _take(config: _Config, path: list[str]) -> bool:
    """Record one ``set`` path in ``config``; False for a form the lab does not run."""
    head, size = path[:2], len(path)
    if head == ["vpn", "ipsec"]:
        pass  # strongSwan's: the lab runs l2tpgen's swanctl.conf for this site
    elif head == ["interfaces", "ethernet"] and size == 5:  # noqa: PLR2004
        config.ethernet.setdefault(path[2], {}).setdefault(path[3], []).append(path[4])
    elif path[:4] == ["interfaces", "loopback", "lo", "address"] and size == 5:  # noqa: PLR2004
        config.loopback.append(path[4])
    elif path[:3] == ["protocols", "static", "route"] and path[4:5] == ["next-hop"]:
        config.routes.append((path[3], path[5]))
    elif head == ["interfaces", "l2tpv3"] and size == 5:  # noqa: PLR2004
        config.sessions.setdefault(path[2], {})[path[3]] = path[4]
    elif head == ["interfaces", "bridge"] and path[3:] == ["enable-vlan"]:
        config.bridges[path[2]] = True
    elif head == ["interfaces", "bridge"] and path[3:5] == ["member", "interface"] and size == 8:  # noqa: PLR2004
        config.bridges.setdefault(path[2], False)
        config.members.setdefault(path[2], {}).setdefault(path[5], []).append((path[6], path[7]))
    else:
        return False
    return True


def _session(name: str, values: dict[str, str]) -> list[str]:
    if values.get("encapsulation", "udp") != "ip":
        raise VyosLabError(f"{name}: the lab runs L2TPv3 over IP only (`encapsulation 'ip'`)")
    commands = [
        (
            f"ip l2tp add tunnel tunnel_id {values['tunnel-id']} "
            f"peer_tunnel_id {values['peer-tunnel-id']} encap ip "
            f"local {values['source-address']} remote {values['remote']}"
        ),
        (
            f"ip l2tp add session name {name} tunnel_id {values['tunnel-id']} "
            f"session_id {values['session-id']} peer_session_id {values['peer-session-id']}"
        ),
    ]
    if "mtu" in values:
        commands.append(f"ip link set dev {name} mtu {values['mtu']}")
    commands.append(f"ip link set dev {name} up")
    return commands


def _bridge(name: str, *, vlans: bool, members: dict[str, list[tuple[str, str]]]) -> list[str]:
    commands = [f"ip link add {name} type bridge" + (" vlan_filtering 1" if vlans else "")]
    for member, settings in members.items():
        commands += [f"ip link set dev {member} master {name}", f"ip link set dev {member} up"]
        if not vlans:
            continue
        commands.append(f"bridge vlan del dev {member} vid 1 master")  # not configured
        for kind, vlan in settings:
            if kind == "allowed-vlan":
                commands.append(f"bridge vlan add dev {member} vid {vlan} master")
        for kind, vlan in settings:
            if kind == "native-vlan":
                commands.append(f"bridge vlan add dev {member} vid {vlan} pvid untagged master")
    commands.append(f"ip link set dev {name} up")
    return commands


def vyos_commands(text: str, where: str = "VyOS config") -> list[str]:
    """The iproute2 and bridge commands vyos-1x runs for ``text`` (l2tpgen's VyOS rendering).

    Raises:
        VyosLabError: a line the lab does not run (``where``:line says which).
    """
    config = _parse(text, where)
    commands: list[str] = []
    for interface, settings in config.ethernet.items():
        for key in settings:
            if key not in ("address", "mtu"):
                raise VyosLabError(f"{where}: the lab does not run `ethernet {interface} {key}`")
        mtu = settings.get("mtu", [])
        commands.append(f"ip link set dev {interface} up" + (f" mtu {mtu[-1]}" if mtu else ""))
        commands += [f"ip addr add {address} dev {interface}" for address in settings["address"]]
    commands += [f"ip addr add {address} dev lo" for address in config.loopback]
    # vyos-1x retries `ip l2tp add tunnel` for up to 10 s until the route to the remote exists
    # (``wait_for_add_l2tpv3``: the static routes come later, from FRR); the lab adds them first.
    commands += [f"ip route add {network} via {gateway}" for network, gateway in config.routes]
    for name, values in config.sessions.items():
        commands += _session(name, {k: v for k, v in values.items() if k != "description"})
    for name, vlans in config.bridges.items():
        commands += _bridge(name, vlans=vlans, members=config.members.get(name, {}))
    return commands
