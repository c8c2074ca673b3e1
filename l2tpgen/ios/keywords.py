"""The keywords of each IOS configuration mode l2tpgen reads, and how they may be abbreviated.

IOS accepts a unique prefix of at least two letters among the commands of a mode (``xconn``,
``encap``, ``ip loc int``); each table maps every spelling it accepts to the keyword.
"""

from __future__ import annotations

MIN_ABBREVIATION = 2

# The commands of each mode that an abbreviation must be unique among (IOS's rule), including
# common ones l2tpgen does not read, so that `de` stays ambiguous as it is on a router.
_INTERFACE_WORDS = (
    "xconnect",
    "encapsulation",
    "hold-queue",
    "mtu",
    "description",
    "shutdown",
    "ip",
    "no",
    "crypto",
    "tunnel",
    "cdp",
    "service-policy",
    "duplex",
    "speed",
    "delay",
    "default",
    "bandwidth",
    "load-interval",
    "keepalive",
    "negotiation",
    "media-type",
    "mpls",
    "ipv6",
    "standby",
    "vrrp",
    "switchport",
    "spanning-tree",
    "channel-group",
    "pseudowire",
    "peer",
    "ppp",
    "clock",
    "logging",
    "lldp",
    "arp",
    "mac-address",
    "nat",
    "vrf",
    "zone-member",
)
_IP_INTERFACE_WORDS = (
    "address",
    "mtu",
    "route-cache",
    "access-group",
    "tcp",
    "nat",
    "ospf",
    "helper-address",
    "redirects",
    "unreachables",
    "proxy-arp",
    "pim",
    "igmp",
    "policy",
    "vrf",
    "flow",
    "virtual-reassembly",
    "verify",
    "directed-broadcast",
    "mroute-cache",
    "accounting",
)
_PW_WORDS = (
    "encapsulation",
    "protocol",
    "ip",
    "sequencing",
    "interworking",
    "control-word",
    "preferred-path",
    "status",
    "vc",
    "mpls",
    "switching",
    "backup",
    "description",
)
_IP_PW_WORDS = ("local", "pmtu", "dfbit", "tos", "ttl", "protocol")
_L2TP_WORDS = (
    "authentication",
    "password",
    "digest",
    "hello",
    "hostname",
    "cookie",
    "hidden",
    "receive-window",
    "retransmit",
    "timeout",
    "description",
)
_XCONNECT_ARGS = ("encapsulation", "manual", "pw-class", "sequencing")


def abbreviations(choices: tuple[str, ...]) -> dict[str, str]:
    """The keyword each spelling stands for: the word, or a unique prefix of two letters or more.

    Looked up with the word lower-cased: one dictionary look-up per config line (IOS's rule).
    """
    starts: dict[str, list[str]] = {}
    for choice in choices:
        for length in range(MIN_ABBREVIATION, len(choice)):
            starts.setdefault(choice[:length], []).append(choice)
    table = {prefix: found[0] for prefix, found in starts.items() if len(found) == 1}
    table.update((choice, choice) for choice in choices)  # a whole word wins over a prefix
    return table


# The modes' tables, looked up once per config line.
INTERFACE = abbreviations(_INTERFACE_WORDS)
IP_INTERFACE = abbreviations(_IP_INTERFACE_WORDS)
PW = abbreviations(_PW_WORDS)
IP_PW = abbreviations(_IP_PW_WORDS)
L2TP = abbreviations(_L2TP_WORDS)
XCONNECT = abbreviations(_XCONNECT_ARGS)
