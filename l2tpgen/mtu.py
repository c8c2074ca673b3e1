"""L2TPv3 encapsulation overhead: how big an inner frame fits the WAN without fragmentation.

Pure functions, used by the model, the linter and the lab. The byte counts follow RFC 3931 and the
brief (``shared/docs/l2tpv3-brief.md`` section 2):

* IP mode (IP protocol 115): outer IPv4 header 20 + session ID 4 + cookie 0/4/8 + optional
  L2-specific sublayer 4. Over an IPv6 underlay the outer header is IPv6's fixed 40 bytes
  (RFC 8200 section 3), the L2TPv3 session header following it directly, next header 115
  (RFC 3931 section 4.1.1.2; ``ipv6=True``).
* UDP mode: outer IPv4 20 + UDP 8 + L2TPv3 flags/version word 4 + session ID 4 + cookie + sublayer.
* Inner frame: Ethernet header 14, plus 4 when the dot1Q tag travels inside the pseudowire.
  The FCS is not carried (RFC 4719; unconfirmed on every Cisco platform).
* IPsec ESP (``Esp``), computed from the mode and the transform, not one constant: ESP header
  (SPI and sequence number) 8 (RFC 4303 section 2), the transform's IV and ICV (AES-GCM: IV 8,
  ICV 16, RFC 4106 sections 3.1 and 6; AES-CBC: IV 16, RFC 3602 section 3; HMAC-SHA-256-128:
  ICV 16, RFC 4868 section 2.6; HMAC-SHA-1-96: ICV 12, RFC 2404), and a trailer of padding, pad
  length 1 and next header 1, padding the payload to the cipher's alignment (GCM: 4 bytes, RFC
  4106 section 3.2; CBC: the 16-byte AES block, RFC 3602 section 3.2). Tunnel mode adds a new
  outer IPv4 header 20; NAT traversal a UDP header 8 (RFC 3948). Padding makes the overhead
  depend on the payload's length, so the budget is the largest payload that fits, and the bytes
  lost to alignment at that size are shown as such.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

IPV4_HEADER = 20
IPV6_HEADER = 40  # RFC 8200 section 3: the fixed header, no extension headers
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
# Kept for raw configs whose transform is unknown; the model computes ``Esp`` budgets instead.
IPSEC_ESP_TUNNEL = 73
ESP_HEADER = 8  # SPI 4 + sequence number 4
ESP_TRAILER = 2  # pad length 1 + next header 1
IPV4_TCP_HEADERS = 40
MIN_WAN_MTU = 576
MAX_WAN_MTU = 65535
COOKIE_SIZES = (0, 4, 8)


@dataclass(frozen=True)
class EspTransform:
    """The sizes an ESP transform adds: IV, ICV, and the alignment the payload is padded to."""

    iv: int
    icv: int
    align: int


# Names as the model spells them (``protection.transform``); the SHA-1 variants are for raw
# configs the linter reads (`esp-aes esp-sha-hmac`), not offered by the model.
ESP_TRANSFORMS: dict[str, EspTransform] = {
    "aes-gcm-128": EspTransform(iv=8, icv=16, align=4),
    "aes-gcm-256": EspTransform(iv=8, icv=16, align=4),
    "aes-cbc-128-sha256": EspTransform(iv=16, icv=16, align=16),
    "aes-cbc-256-sha256": EspTransform(iv=16, icv=16, align=16),
    "aes-cbc-128-sha1": EspTransform(iv=16, icv=12, align=16),
    "aes-cbc-256-sha1": EspTransform(iv=16, icv=12, align=16),
}


@dataclass(frozen=True)
class Esp:
    """IPsec ESP around the L2TPv3 packet: transform, transport or tunnel mode, NAT traversal."""

    transform: str = "aes-gcm-128"
    mode: str = "transport"
    nat_t: bool = False

    def __post_init__(self) -> None:
        if self.transform not in ESP_TRANSFORMS:
            raise ValueError(
                f"ESP transform must be one of {', '.join(ESP_TRANSFORMS)}, not {self.transform}"
            )
        if self.mode not in {"transport", "tunnel"}:
            raise ValueError(f"ESP mode must be transport or tunnel, not {self.mode}")

    @property
    def sizes(self) -> EspTransform:
        """The transform's IV, ICV and alignment."""
        return ESP_TRANSFORMS[self.transform]

    def describe(self) -> str:
        """``ESP transport aes-gcm-128`` (``, NAT-T`` when on)."""
        return f"ESP {self.mode} {self.transform}" + (", NAT-T" if self.nat_t else "")


def _esp_items(
    esp: Esp, wan_mtu: int, l2tp_ip: tuple[str, int]
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """ESP's items in front of the protected payload and behind it, at the largest payload.

    ``l2tp_ip`` is the L2TPv3 packet's own IP header (IPv4 or IPv6): outside ESP in transport
    mode, inside it (behind a new outer header of the same family) in tunnel mode. The largest
    payload P satisfies ``align | P + 2`` and fixed headers + P + 2 + ICV <= MTU; at that size
    the padding is 0 and what the alignment leaves unused is an item of its own.
    """
    sizes = esp.sizes
    front: list[tuple[str, int]] = []
    if esp.mode == "tunnel":
        family = "IPv6" if l2tp_ip[1] == IPV6_HEADER else "IPv4"
        front.append((f"ESP tunnel-mode outer {family} header", l2tp_ip[1]))
    else:
        front.append(l2tp_ip)
    if esp.nat_t:
        front.append(("NAT-T UDP header", UDP_HEADER))
    front += [("ESP header (SPI, sequence)", ESP_HEADER), ("ESP IV", sizes.iv)]
    if esp.mode == "tunnel":
        front.append(l2tp_ip)
    outside = sum(size for _, size in front) - (l2tp_ip[1] if esp.mode == "tunnel" else 0)
    room = wan_mtu - outside - sizes.icv  # for payload + padding + trailer
    back = [("ESP pad length and next header", ESP_TRAILER), ("ESP ICV", sizes.icv)]
    if room % sizes.align:
        back.append(("unused (ESP padding alignment)", room % sizes.align))
    return front, back


class Encapsulation(enum.Enum):
    """How L2TPv3 data packets are carried: straight over IP (Cisco's only option) or in UDP."""

    IP = "ip"
    UDP = "udp"


class Circuit(enum.Enum):
    """What an xconnect's attachment circuit hands the pseudowire: the inner frame's header.

    * ``DOT1Q_SUBINTERFACE``: a dot1Q subinterface forwards "the VLAN Ethernet frames ... in
      their entirety" (Cisco's L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.22): Ethernet
      14 and the tag 4.
    * ``ETHERNET_PORT``: a port-mode xconnect on the Ethernet port itself tunnels "any Ethernet
      frame received on an interface" (the same guide, "Ethernet"): on the trunk it usually
      is (the single trunk tunnel, L2T001) each VLAN's frames keep their tag inside the
      session, Ethernet 14 and the tag 4. The lab measured it: the single-trunk variant's
      largest unfragmented CE packet on a 1500-byte WAN is 1458, not 1462 (labs/README.md).
      A port that only ever receives untagged frames has 4 bytes to spare.
    * ``SERIAL``: an HDLC or PPP circuit, its 4-byte header (``HDLC_PPP_HEADER``).
    * ``OTHER``: anything else (a tunnel or VLAN interface): Ethernet 14, no tag.
    """

    DOT1Q_SUBINTERFACE = "dot1Q subinterface"
    ETHERNET_PORT = "Ethernet port (port mode)"
    SERIAL = "HDLC/PPP serial"
    OTHER = "other"

    @property
    def inner_header(self) -> tuple[str, int]:
        """The inner frame's header as a budget item (``overhead_budget``'s ``inner_header``)."""
        if self is Circuit.SERIAL:
            return ("inner HDLC/PPP header", HDLC_PPP_HEADER)
        return ("inner Ethernet header", ETHERNET_HEADER)

    @property
    def dot1q(self) -> bool:
        """Whether the 802.1Q tag travels inside the pseudowire."""
        return self in {Circuit.DOT1Q_SUBINTERFACE, Circuit.ETHERNET_PORT}


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
    esp: Esp | None = None
    ipv6: bool = False

    @property
    def encap_overhead(self) -> int:
        """Bytes added around the Ethernet frame (Cisco's ``encap size`` when there is no ESP)."""
        return sum(size for name, size in self.items if not name.startswith("inner"))

    @property
    def esp_overhead(self) -> int:
        """Bytes ESP costs at the largest frame (headers, trailer, ICV, alignment); 0 without."""
        return sum(size for name, size in self.items if name.startswith(("ESP", "NAT-T", "unused")))

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
    esp: Esp | None = None,
    ipv6: bool = False,
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
        outer: headers added outside the L2TPv3 packet on the way, outermost first (a raw
            config's IPsec of unknown transform: ``IPSEC_ESP_TUNNEL``).
        esp: IPsec ESP computed from its mode and transform (see ``Esp``).
        ipv6: the underlay is IPv6: the outer header (and ESP tunnel mode's) is 40 bytes.

    Raises:
        ValueError: for a cookie size other than 0, 4 or 8, or an implausible WAN MTU.
    """
    if cookie not in COOKIE_SIZES:
        raise ValueError(f"cookie size must be 0, 4 or 8 bytes, not {cookie}")
    if not MIN_WAN_MTU <= wan_mtu <= MAX_WAN_MTU:
        raise ValueError(f"WAN MTU must be between {MIN_WAN_MTU} and {MAX_WAN_MTU}, not {wan_mtu}")
    if sublayer is None:
        sublayer = default_sublayer(encapsulation)
    l2tp_ip = ("outer IPv6 header", IPV6_HEADER) if ipv6 else ("outer IPv4 header", IPV4_HEADER)
    items: list[tuple[str, int]] = [*outer, l2tp_ip]
    back: list[tuple[str, int]] = []
    if esp is not None:
        front, back = _esp_items(esp, wan_mtu - sum(s for _, s in outer), l2tp_ip)
        items = [*outer, *front]
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
        items=(*items, *back),
        esp=esp,
        ipv6=ipv6,
    )


def budget_matrix(wan_mtu: int = 1500, *, ipv6: bool = False) -> tuple[OverheadBudget, ...]:
    """Every combination worth comparing, untagged and tagged, for one WAN MTU and family."""
    combos: list[tuple[Encapsulation, int, bool]] = [
        (Encapsulation.IP, 0, False),
        (Encapsulation.IP, 4, False),
        (Encapsulation.IP, 8, False),
        (Encapsulation.IP, 8, True),
        (Encapsulation.UDP, 0, True),
    ]
    return tuple(
        overhead_budget(wan_mtu, encap, cookie, sublayer=sublayer, dot1q=dot1q, ipv6=ipv6)
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
