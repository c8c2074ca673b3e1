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


# ESP (RFC 4303) per transform, as IOS names them in `crypto ipsec transform-set`: the cipher's IV
# and block size (the padding aligns payload + 2 trailer bytes to it; 4 for counter modes), the
# integrity check value of each HMAC (96-bit truncation for MD5/SHA-1, RFC 2403/2404; half the hash
# for SHA-2, RFC 4868) and GCM/GMAC's 16-byte ICV (RFC 4106/4543, Cisco's default size).
_ESP_CIPHERS = {
    "esp-aes": (16, 16),
    "esp-des": (8, 8),
    "esp-3des": (8, 8),
    "esp-gcm": (8, 4),
    "esp-gmac": (8, 4),
    "esp-null": (0, 4),
}
_ESP_ICV = {
    "esp-md5-hmac": 12,
    "esp-sha-hmac": 12,
    "esp-sha256-hmac": 16,
    "esp-sha384-hmac": 24,
    "esp-sha512-hmac": 32,
}
_AEAD_ICV = 16
ESP_HEADER = 8  # SPI 4 + sequence number 4
ESP_TRAILER = 2  # pad length 1 + next header 1


def esp_overhead(
    transform: str, mode: str = "tunnel", *, nat_t: bool = False, wan_mtu: int | None = None
) -> int:
    """Bytes ESP adds to an IP packet on the WAN, for an IOS transform set.

    Minimal version written for the linter (l2tpgen/lint/rules/paths.py); the model's own ESP
    budget may replace it, keeping this signature.

    Args:
        transform: the transform set's transforms as IOS prints them (`esp-aes 256 esp-sha-hmac`,
            `esp-gcm 256`); key lengths do not change the size.
        mode: ``tunnel`` (a new 20-byte IPv4 header) or ``transport``.
        nat_t: ESP in UDP (RFC 3948): 8 more bytes.
        wan_mtu: with it, the exact overhead of the largest packet that fits that MTU (padding as
            the sizes fall); without it, the worst case (a full block of padding but one).

    Raises:
        ValueError: for a transform or mode this function does not know.
    """
    if mode not in {"tunnel", "transport"}:
        raise ValueError(f"IPsec mode must be tunnel or transport, not {mode}")
    words = [w for w in transform.lower().split() if not w.isdigit()]
    ciphers = [w for w in words if w in _ESP_CIPHERS]
    unknown = [w for w in words if w not in _ESP_CIPHERS and w not in _ESP_ICV]
    if len(ciphers) != 1 or unknown:
        raise ValueError(f"unknown ESP transform set: {transform}")
    iv, block = _ESP_CIPHERS[ciphers[0]]
    aead = ciphers[0] in {"esp-gcm", "esp-gmac"}
    icv = _AEAD_ICV if aead else sum(_ESP_ICV[w] for w in words if w in _ESP_ICV)
    fixed = (IPV4_HEADER if mode == "tunnel" else 0) + (UDP_HEADER if nat_t else 0)
    fixed += ESP_HEADER + iv + ESP_TRAILER + icv
    if wan_mtu is None:
        return fixed + block - 1
    # The encrypted part starts after the IP header in transport mode, at it in tunnel mode.
    clear = IPV4_HEADER if mode == "transport" else 0
    packet = wan_mtu - fixed
    while packet > 0 and packet + fixed + (-(packet - clear + ESP_TRAILER) % block) > wan_mtu:
        packet -= 1
    return wan_mtu - packet
