"""L2TPv3 encapsulation overhead: how big an inner frame fits the WAN without fragmentation.

Pure functions, used by the model, the linter and the lab. The byte counts follow RFC 3931 and the
brief (``shared/docs/l2tpv3-brief.md`` section 2):

* IP mode (IP protocol 115): outer IPv4 header 20 + session ID 4 + cookie 0/4/8 + optional
  L2-specific sublayer 4.
* UDP mode: outer IPv4 20 + UDP 8 + L2TPv3 flags/version word 4 + session ID 4 + cookie + sublayer.
* Inner frame: Ethernet header 14, plus 4 when the dot1Q tag travels inside the pseudowire.
  The FCS is not carried (RFC 4719; unconfirmed on every Cisco platform).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

IPV4_HEADER = 20
UDP_HEADER = 8
L2TP_UDP_FLAGS = 4
SESSION_ID = 4
SUBLAYER = 4
ETHERNET_HEADER = 14
# An HDLC or PPP frame as a pseudowire carries it: address, control and protocol fields, no flags
# or FCS (RFC 4349 for HDLC; PPP likewise, without address/control-field compression).
HDLC_PPP_HEADER = 4
DOT1Q_TAG = 4
# ESP in tunnel mode with AES-CBC (16-byte IV) and SHA-1 (12-byte ICV), worst-case padding: new IP
# header 20 + SPI/sequence 8 + IV 16 + padding up to 15 + pad length/next header 2 + ICV 12.
IPSEC_ESP_TUNNEL = 73
IPV4_TCP_HEADERS = 40
MIN_WAN_MTU = 576
MAX_WAN_MTU = 65535
COOKIE_SIZES = (0, 4, 8)


class Encapsulation(enum.Enum):
    """How L2TPv3 data packets are carried: straight over IP (Cisco's only option) or in UDP."""

    IP = "ip"
    UDP = "udp"


@dataclass(frozen=True)
class OverheadBudget:
    """The byte budget of one L2TPv3 data packet on a WAN of a given MTU.

    ``items`` lists every header in the order it sits on the wire, outer first.
    """

    wan_mtu: int
    encapsulation: Encapsulation
    cookie: int
    sublayer: bool
    dot1q: bool
    items: tuple[tuple[str, int], ...]

    @property
    def encap_overhead(self) -> int:
        """Bytes added in front of the Ethernet frame (Cisco's ``encap size``)."""
        return sum(size for name, size in self.items if not name.startswith("inner"))

    @property
    def total_overhead(self) -> int:
        """Bytes between the WAN MTU and the inner IP packet."""
        return sum(size for _, size in self.items)

    @property
    def max_frame(self) -> int:
        """Largest inner Ethernet frame (header and tag, no FCS) that fits unfragmented."""
        return self.wan_mtu - self.encap_overhead

    @property
    def max_inner_mtu(self) -> int:
        """Largest inner IP MTU (the CE's interface MTU) that fits unfragmented."""
        return self.wan_mtu - self.total_overhead

    @property
    def tcp_mss(self) -> int:
        """The TCP MSS to clamp to on the CE side (IPv4, no options)."""
        return self.max_inner_mtu - IPV4_TCP_HEADERS


def default_sublayer(encapsulation: Encapsulation) -> bool:
    """Whether the L2-specific sublayer is on by default.

    Cisco sends none unless sequencing is on; Linux iproute2 defaults to the 4-byte default
    sublayer, which in practice goes with UDP tunnels.
    """
    return encapsulation is Encapsulation.UDP


def overhead_budget(
    wan_mtu: int = 1500,
    encapsulation: Encapsulation = Encapsulation.IP,
    cookie: int = 0,
    *,
    sublayer: bool | None = None,
    dot1q: bool = False,
    inner_header: tuple[str, int] = ("inner Ethernet header", ETHERNET_HEADER),
    outer: tuple[tuple[str, int], ...] = (),
) -> OverheadBudget:
    """Compute the encapsulation budget.

    Args:
        wan_mtu: the IP MTU of the path between the two PEs.
        encapsulation: IP (protocol 115) or UDP.
        cookie: cookie size in bytes: 0, 4 or 8.
        sublayer: whether the 4-byte L2-specific sublayer is sent; ``None`` takes the default of
            the encapsulation (see ``default_sublayer``).
        dot1q: whether the 802.1Q tag travels inside the pseudowire.
        inner_header: the attachment circuit's frame header (Ethernet 14; HDLC or PPP 4).
        outer: headers added outside the L2TPv3 packet on the way (IPsec), outermost first.

    Raises:
        ValueError: for a cookie size other than 0, 4 or 8, or an implausible WAN MTU.
    """
    if cookie not in COOKIE_SIZES:
        raise ValueError(f"cookie size must be 0, 4 or 8 bytes, not {cookie}")
    if not MIN_WAN_MTU <= wan_mtu <= MAX_WAN_MTU:
        raise ValueError(f"WAN MTU must be between {MIN_WAN_MTU} and {MAX_WAN_MTU}, not {wan_mtu}")
    if sublayer is None:
        sublayer = default_sublayer(encapsulation)
    items: list[tuple[str, int]] = [*outer, ("outer IPv4 header", IPV4_HEADER)]
    if encapsulation is Encapsulation.UDP:
        items += [("UDP header", UDP_HEADER), ("L2TPv3 flags and version", L2TP_UDP_FLAGS)]
    items.append(("session ID", SESSION_ID))
    if cookie:
        items.append(("cookie", cookie))
    if sublayer:
        items.append(("L2-specific sublayer", SUBLAYER))
    items.append(inner_header)
    if dot1q:
        items.append(("inner dot1Q tag", DOT1Q_TAG))
    return OverheadBudget(
        wan_mtu=wan_mtu,
        encapsulation=encapsulation,
        cookie=cookie,
        sublayer=sublayer,
        dot1q=dot1q,
        items=tuple(items),
    )


def budget_matrix(wan_mtu: int = 1500) -> tuple[OverheadBudget, ...]:
    """Every combination worth comparing, untagged and tagged, for one WAN MTU."""
    combos: list[tuple[Encapsulation, int, bool]] = [
        (Encapsulation.IP, 0, False),
        (Encapsulation.IP, 4, False),
        (Encapsulation.IP, 8, False),
        (Encapsulation.IP, 8, True),
        (Encapsulation.UDP, 0, True),
    ]
    return tuple(
        overhead_budget(wan_mtu, encap, cookie, sublayer=sublayer, dot1q=dot1q)
        for encap, cookie, sublayer in combos
        for dot1q in (False, True)
    )
