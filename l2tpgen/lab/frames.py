"""The frame a Linux PE puts inside a pseudowire, seen on the WAN in the QEMU lab.

The lab runs every PE on Linux (``Fleet.on_platform``), so its pseudowires are Linux to Linux and
carry no tag. This check instead renders one site as the Linux renderer does for the fleet as
modelled (its peer may be Cisco), builds that PE in a namespace of the lab VM with a CE behind its
LAN trunk and a bare next hop on its WAN, sends from the CE on the pseudowire's VLAN, and captures
the L2TPv3 packets (IP protocol 115) on the WAN with tcpdump. ``inner_frames`` reads each
captured packet's inner Ethernet frame: its EtherType, and its VLAN ID when it is 802.1Q.

Towards a Cisco dot1Q subinterface the frame must carry the tag, as Cisco sends it (its L2TPv3
feature guide: VLAN frames are forwarded in their entirety); Linux to Linux it must not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.lab.engines.qemu import Extras, _libraries, _need
from l2tpgen.platforms.render import kernel_plane

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Pseudowire

DOT1Q = 0x8100
CE_ADDRESS = "192.0.2.1/24"  # documentation addresses, inside the VM's namespaces only
CE_TARGET = "192.0.2.2"
# The CE's MAC: only its frames are judged (the PE's bridge sends IGMP reports of its own).
CE_MAC = "02:00:00:00:02:01"
_IP = "/sbin/ip"
BATCH_EOF = "L2TPGEN_FRAMES_EOF"


@dataclass(frozen=True)
class InnerFrame:
    """The Ethernet frame inside one captured L2TPv3 packet."""

    source: str
    ethertype: int
    vlan: int | None


def tcpdump_extras() -> Extras:
    """The guest's tcpdump and its libraries for the guest, and a passwd file for ``-Z root``."""
    tcpdump = _need("tcpdump")
    files = [("/sbin/tcpdump", Path(tcpdump).read_bytes(), 0o100755)]
    files += [(lib, Path(lib).read_bytes(), 0o100755) for lib in _libraries(tcpdump)]
    files.append(("/etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n", 0o100644))
    return Extras(files=tuple(files))


def _tagged_peer(fleet: Fleet, name: str, wan: str, pw: Pseudowire) -> list[str]:
    """The far end in the WAN namespace, framing as a Cisco dot1Q subinterface does.

    Its session device carries a VLAN device with the pseudowire's VLAN ID, holding the address
    the CE pings: it answers only frames that arrive tagged, and tags its replies.
    """
    site = fleet.site(name)
    (session, _), vlan = pw.session_ids, pw.vlan.id
    return [
        f"{_IP} -n {wan} addr add {pw.peer_address}/32 dev lo",
        f"{_IP} -n {wan} link set lo up",
        f"{_IP} -n {wan} route add {site.tunnel_address}/32 via {site.wan.address.ip}",
        (
            f"{_IP} -n {wan} l2tp add tunnel tunnel_id 1 peer_tunnel_id 1 encap ip "
            f"local {pw.peer_address} remote {site.tunnel_address}"
        ),
        (
            f"{_IP} -n {wan} l2tp add session name pw0 tunnel_id 1 session_id {session} "
            f"peer_session_id {session} l2spec_type none"
        ),
        f"{_IP} -n {wan} link set pw0 up",
        f"{_IP} -n {wan} link add link pw0 name pw0.{vlan} type vlan id {vlan}",
        f"{_IP} -n {wan} addr add {CE_TARGET}/24 dev pw0.{vlan}",
        f"{_IP} -n {wan} link set pw0.{vlan} up",
    ]


def frame_script(
    fleet: Fleet,
    name: str,
    prefix: str,
    *,
    tagged_peer: bool = False,
    pw: Pseudowire | None = None,
    pings: int = 3,
) -> str:
    """Guest shell lines: build ``name``'s PE as rendered, send on one VLAN, capture.

    The VLAN is ``pw``'s (default: the site's first pseudowire). The capture is printed between
    ``==<prefix>==`` and ``==<prefix> end==``. With ``tagged_peer`` the far end answers tagged
    frames only (``_tagged_peer``); without, the WAN namespace only holds the peer's address, so
    that the PE finds a next hop for it. The CE's ping result (``pings`` pings) is printed as
    ``<prefix> reached: yes`` or ``no``.
    """
    site = fleet.site(name)
    pw = pw or fleet.pseudowires(name)[0]
    kernel = kernel_plane()
    pe, wan, ce = f"{prefix}pe", f"{prefix}wan", f"{prefix}ce"
    vlan = pw.vlan.id
    commands = [
        f"{_IP} netns add {pe}",
        f"{_IP} netns add {wan}",
        f"{_IP} netns add {ce}",
        f"{_IP} link add {site.data_plane.wan} netns {pe} type veth peer name wan netns {wan}",
        f"{_IP} link add {site.data_plane.lan} netns {pe} type veth peer name lan netns {ce}",
        f"{_IP} -n {pe} link set lo up",
        # The PE exactly as rendered (iproute2 lines, run in its namespace).
        *(f"{_IP} -n {pe} {command[3:]}" for command in kernel.base(site)),
        *(f"{_IP} -n {pe} {kernel.bare(c)[3:]}" for c in kernel.pseudowires(site, (pw,))),
        # The next hop answers ARP, so the PE sends its L2TPv3 packets onto the WAN.
        f"{_IP} -n {wan} addr add {site.wan.gateway}/{site.wan.address.network.prefixlen} dev wan",
        f"{_IP} -n {wan} link set wan up",
        *(
            _tagged_peer(fleet, name, wan, pw)
            if tagged_peer
            else (f"{_IP} -n {wan} addr add {pw.peer_address}/32 dev wan",)
        ),
        f"{_IP} -n {ce} link set lan address {CE_MAC} up",
        f"{_IP} -n {ce} link add link lan name lan.{vlan} type vlan id {vlan}",
        f"{_IP} -n {ce} addr add {CE_ADDRESS} dev lan.{vlan}",
        f"{_IP} -n {ce} link set lan.{vlan} up",
    ]
    lines = [
        *batched(commands),
        (
            f"nsenter --net=/run/netns/{wan} /sbin/tcpdump -Z root -i wan -nn -x -l "
            f"'ip proto 115' >/tmp/{prefix}.cap 2>/tmp/{prefix}.err & TP=$!"
        ),
        # tcpdump says "listening on" once its capture is open; it is polled often (no event
        # without a FIFO reader kept for tcpdump's whole life), at most 10 s as before.
        f"for i in $(seq 1000); do grep -q listening /tmp/{prefix}.err && break; sleep 0.01; done",
        # ARP requests (answered only by a tagged peer): broadcast frames into the pseudowire.
        (
            f"nsenter --net=/run/netns/{ce} /sbin/ping -c {pings} -W 1 {CE_TARGET} >/dev/null "
            f"2>&1 && R=yes || R=no; echo {prefix} reached: $R"
        ),
        f"for i in $(seq 500); do grep -q '^[0-9]' /tmp/{prefix}.cap && break; sleep 0.01; done",
        "kill $TP 2>/dev/null; wait $TP",
        f"echo =={prefix}==; cat /tmp/{prefix}.cap; echo =={prefix} end==",
    ]
    return "\n".join(lines) + "\n"


def batched(commands: list[str]) -> list[str]:
    """Consecutive ``/sbin/ip [-n NS] ...`` commands of one namespace as one ``ip -batch``.

    One process instead of one per command (under software emulation each costs 0.1-0.7 s
    here); ``-force`` goes on after a failed command, as separate commands did.
    """
    groups: list[tuple[str, list[str]]] = []
    for command in commands:
        words = command.removeprefix(f"{_IP} ").split(" ")
        ns, rest = (words[1], words[2:]) if words[0] == "-n" else ("", words)
        if groups and groups[-1][0] == ns:
            groups[-1][1].append(" ".join(rest))
        else:
            groups.append((ns, [" ".join(rest)]))
    lines = []
    for ns, body in groups:
        netns = f" -n {ns}" if ns else ""
        lines += [f"{_IP}{netns} -force -batch - <<'{BATCH_EOF}'", *body, BATCH_EOF]
    return lines


def _packets(text: str) -> list[bytes]:
    packets: list[bytearray] = []
    for line in text.splitlines():
        hexline = re.match(r"\s+0x[0-9a-f]+:\s+((?:[0-9a-f]{2,4}\s?)+)", line)
        if hexline is not None and packets:
            packets[-1] += bytes.fromhex(hexline.group(1).replace(" ", ""))
        elif re.match(r"\d", line):
            packets.append(bytearray())
    return [bytes(p) for p in packets]


def inner_frames(
    output: str, prefix: str, cookie: int = 0, *, sublayer: bool = False
) -> list[InnerFrame]:
    """The CE's inner frames in the packets captured for ``prefix`` (L2TPv3 over IPv4).

    ``cookie``: the cookie's size in bytes; ``sublayer``: the 4-byte L2-specific sublayer
    follows it. Nothing captured (no section in ``output``): no frames.
    """
    if f"=={prefix}==" not in output:
        return []
    section = output.split(f"=={prefix}==", 1)[1].split(f"=={prefix} end==", 1)[0]
    frames = []
    for packet in _packets(section):
        # IP header, session ID, cookie, sublayer
        start = (packet[0] & 0x0F) * 4 + 4 + cookie + (4 if sublayer else 0)
        ethertype = int.from_bytes(packet[start + 12 : start + 14], "big")
        vlan = None
        if ethertype == DOT1Q:
            vlan = int.from_bytes(packet[start + 14 : start + 16], "big") & 0x0FFF
        source = packet[start + 6 : start + 12].hex(":")
        if source == CE_MAC:
            frames.append(InnerFrame(source, ethertype, vlan))
    return frames
