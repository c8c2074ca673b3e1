"""What the simulated router accepts in each configuration mode.

Each command has a pattern (see ``grammar``), a key (which stored line it replaces: the indices of
the words that identify the setting; ``None`` means every distinct line is its own setting), what
``no`` does, and the sub-mode it enters. The table covers what l2tpgen renders plus what a typical
branch router's running config holds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One configuration command of one mode.

    ``default_on``: the setting is on unless negated, so ``no X`` is stored as a line (``no cdp
    enable``) and ``X`` removes that line. ``negation_stored``: ``no X`` removes the setting and is
    itself shown (``no ip address``).
    """

    pattern: str
    key: tuple[int, ...] | None = (0,)
    enters: str | None = None
    default_on: bool = False
    negation_stored: bool = False


def _c(pattern: str, key: tuple[int, ...] | None = (0,), **kwargs: object) -> Command:
    return Command(pattern, key, **kwargs)  # type: ignore[arg-type]


GLOBAL: tuple[Command, ...] = (
    _c("interface IFNAME", None, enters="interface"),
    _c("l2tp-class WORD", None, enters="l2tp-class"),
    _c("pseudowire-class WORD", None, enters="pw-class"),
    _c("line (vty|console|con|aux) <0-1000> [<0-1000>]", None, enters="line"),
    _c("router (ospf|eigrp|bgp) <1-65535>", None, enters="router"),
    _c("ip access-list (standard|extended) WORD", None, enters="acl"),
    # Renumbers a named list's entries in their order (not stored): Cisco, "IP Access List Entry
    # Sequence Numbering" (`ip access-list resequence access-list-name starting-sequence-number
    # increment`; https://manualsbrain.com/en/manuals/1643333/?page=9), as ``config_mode`` does.
    _c("ip access-list resequence WORD <1-2147483647> <1-2147483647>", None),
    _c("hostname WORD"),
    _c("version WORD"),
    _c("service LINE", None),
    _c("boot-start-marker", None),
    _c("boot-end-marker", None),
    _c("enable secret [<0-9>] WORD", (0, 1)),
    _c("password encryption aes", (0, 1)),
    _c("username WORD [privilege <0-15>] (password|secret) [<0-9>] WORD", (0, 1)),
    _c("aaa LINE", None),
    _c("clock LINE", None),
    _c("ip cef", (0, 1), default_on=True),
    _c("ip domain lookup", (0, 1, 2), default_on=True),
    _c("ip domain name WORD", (0, 1, 2)),
    _c("ip domain-name WORD", (0, 1)),
    _c("ip name-server A.B.C.D", None),
    _c("ip ssh LINE", None),
    _c("ip http server", (0, 1, 2), default_on=True),
    _c("ip http secure-server", (0, 1, 2), default_on=True),
    _c("ip forward-protocol nd", (0, 1)),
    _c("ip route A.B.C.D A.B.C.D (A.B.C.D|IFNAME) [A.B.C.D] [<1-255>] [name WORD]", None),
    _c("ipv6 unicast-routing", (0,)),
    _c("cdp run", (0, 1), default_on=True),
    _c("lldp run", (0, 1)),
    _c("logging LINE", None),
    _c("ntp server A.B.C.D", None),
    _c("snmp-server LINE", None),
    _c("access-list <1-2699> (permit|deny) LINE", None),
    _c("banner (motd|login|exec) LINE", (0, 1)),
    _c("license LINE", None),
    _c("spanning-tree LINE", None),
    _c("vtp LINE", None),
    _c("crypto key LINE", None),
    _c("multilink bundle-name authenticated", (0,)),
    _c("memory-size LINE", None),
    _c("control-plane", None),
    _c("configuration mode exclusive (auto|manual)", (0, 1, 2)),  # sim/config_lock.py
    _c("default interface IFNAME", None),
    _c("archive", (0,), enters="archive"),  # sim/revert.py: the confirmed change needs it
    # IKEv2 and crypto maps (``CRYPTO`` below for the sources).
    _c("crypto ikev2 proposal WORD", None, enters="ikev2-proposal"),
    _c("crypto ikev2 policy WORD", None, enters="ikev2-policy"),
    _c("crypto ikev2 keyring WORD", None, enters="ikev2-keyring"),
    _c("crypto ikev2 profile WORD", None, enters="ikev2-profile"),
    _c("crypto ipsec transform-set WORD LINE", None, enters="transform-set"),
    _c("crypto map WORD local-address IFNAME", (0, 1, 2, 3)),
    # An IKEv1 pre-shared key of a user's VPN (grammar only, for issue 25's tests): Cisco IOS
    # Security Command Reference, `crypto isakmp key keystring address peer-address [mask]`.
    _c("crypto isakmp key WORD address A.B.C.D [A.B.C.D]", None),
    _c("crypto map WORD <1-65535> (ipsec-isakmp|ipsec-manual)", None, enters="crypto-map"),
)

INTERFACE: tuple[Command, ...] = (
    _c("description LINE"),
    _c("ip address A.B.C.D A.B.C.D [secondary]", (0, 1), negation_stored=True),
    _c("ip address dhcp", (0, 1), negation_stored=True),
    _c("encapsulation dot1Q <1-4094> [native]"),
    _c(
        "xconnect A.B.C.D <1-4294967295> [encapsulation (l2tpv3|mpls)] [manual] pw-class WORD",
        enters="xconnect",
    ),
    _c("xconnect A.B.C.D <1-4294967295> encapsulation (l2tpv3|mpls) [manual]", enters="xconnect"),
    _c("duplex (auto|full|half)"),
    _c("speed (auto|10|100|1000|10000)"),
    _c("cdp enable", (0, 1), default_on=True),
    _c("hold-queue <0-65535> (in|out)", (0, 2)),
    _c("shutdown"),
    _c("mtu <64-9216>"),
    _c("ip mtu <68-9216>", (0, 1)),
    _c("ip tcp adjust-mss <500-1460>", (0, 1, 2)),
    _c("ip nat (inside|outside)", (0, 1)),
    _c("ip access-group WORD (in|out)", (0, 1, 3)),
    _c("ip helper-address A.B.C.D", None),
    _c("ip ospf LINE", None),
    _c("ip redirects", (0, 1), default_on=True),
    _c("ip unreachables", (0, 1), default_on=True),
    _c("ip proxy-arp", (0, 1), default_on=True),
    _c("negotiation auto", (0,)),
    _c("bandwidth <1-100000000>"),
    _c("load-interval <30-600>"),
    _c("keepalive [<0-32767>]", (0,), default_on=True),
    _c("media-type WORD"),
    _c("service-policy (input|output) WORD", (0, 1)),
    _c("crypto map WORD", (0, 1)),  # one crypto map per interface: a second replaces the first
    # Tunnel interfaces (a user's VTI, GRE over IPsec or DMVPN that push must leave working:
    # issue 25), grammar only: Cisco, "IPsec Virtual Tunnel Interfaces" (`tunnel mode ipsec
    # ipv4`, `tunnel protection ipsec profile`) and "Dynamic Multipoint VPN Configuration Guide"
    # (`tunnel mode gre multipoint`, `ip nhrp ...`, `tunnel key`), IOS XE configuration guides.
    _c("tunnel source (A.B.C.D|IFNAME)", (0, 1)),
    _c("tunnel destination A.B.C.D", (0, 1)),
    _c("tunnel mode LINE", (0, 1)),
    _c("tunnel key <0-4294967295>", (0, 1)),
    _c("tunnel protection ipsec profile WORD [shared]", (0, 1)),
    _c("ip nhrp LINE", None),
)

# CRYPTO: the IKEv2 and crypto map sub-modes, grammar only (what l2tpgen renders, as Cisco
# documents it): Cisco, "Appendix: IKEv2 and Legacy VPNs" (IOS 15.2M&T),
# https://www.cisco.com/en/US/docs/ios-xml/ios/sec_conn_ike2vpn/configuration/15-2mt/sec-apx-ikev2-legacy.html
# (proposal: encryption/integrity/group; policy: proposal; keyring: peer, address,
# pre-shared-key; profile: match identity remote address, authentication local|remote
# pre-share, keyring local; crypto map NAME SEQ ipsec-isakmp: set peer, set transform-set, set
# ikev2-profile, match address; `crypto map NAME` on the interface); Cisco 7600 "Configuring IKE
# Features Using the IPSec VPN SPA" (IKEv2 proposal `prf`, keyring peer sub-mode),
# http://www.cisco.com/c/en/us/td/docs/interfaces_modules/shared_port_adapters/configuration/7600series/sipspasw/76cfvpn2.html;
# Cisco IOS Security Command Reference, `crypto map local-address`,
# http://www.cisco.com/en/US/docs/ios/security/command/reference/sec_c4.html; Cisco, "IPSec
# Network Security" (IOS 11.3), `mode transport` in a transform set,
# http://www.cisco.com/en/US/docs/ios/11_3/feature/guide/ipsec.html. The simulator stores the
# pre-shared key as typed (IOS shows it in clear unless `password encryption aes` is set).
IKEV2_PROPOSAL: tuple[Command, ...] = (
    _c("encryption LINE"),
    _c("integrity LINE"),
    _c("prf LINE"),
    _c("group LINE"),
)
IKEV2_POLICY: tuple[Command, ...] = (_c("proposal WORD", None), _c("match LINE", None))
IKEV2_KEYRING: tuple[Command, ...] = (_c("peer WORD", None, enters="ikev2-keyring-peer"),)
IKEV2_KEYRING_PEER: tuple[Command, ...] = (
    _c("address A.B.C.D [A.B.C.D]"),
    _c("identity LINE"),
    _c("pre-shared-key LINE"),  # stored as type 6 under `password encryption aes` (``type6``)
)
IKEV2_PROFILE: tuple[Command, ...] = (
    _c("match identity remote address A.B.C.D [A.B.C.D]", None),
    _c("identity local address A.B.C.D", (0, 1)),
    _c("authentication (remote|local) (pre-share|rsa-sig)", (0, 1)),
    _c("keyring local WORD", (0, 1)),
)
TRANSFORM_SET: tuple[Command, ...] = (_c("mode (transport|tunnel)"),)
CRYPTO_MAP: tuple[Command, ...] = (
    _c("set peer A.B.C.D", None),
    _c("set transform-set WORD", (0, 1)),
    _c("set ikev2-profile WORD", (0, 1)),
    _c("match address WORD", (0, 1)),
)

XCONNECT: tuple[Command, ...] = (
    _c("l2tp id <1-4294967295> <1-4294967295>", (0, 1)),
    _c("l2tp cookie local (4|8) <0-4294967295> [<0-4294967295>]", (0, 1, 2)),
    _c("l2tp cookie remote (4|8) <0-4294967295> [<0-4294967295>]", (0, 1, 2)),
    _c("l2tp hello WORD", (0, 1)),
    _c("backup peer A.B.C.D <1-4294967295>", (0, 1)),
)

L2TP_CLASS: tuple[Command, ...] = (
    _c("authentication", (0,)),
    _c("password [(0|7)] WORD"),
    _c("digest [secret [(0|7)] WORD] [hash (md5|sha)]"),
    _c("hello <0-1000>"),
    _c("hostname WORD"),
    _c("hidden"),
    _c("receive-window <1-5000>"),
    _c("retransmit LINE", None),
    _c("timeout setup <60-6000>", (0, 1)),
    _c("cookie size (4|8)", (0, 1)),
)

PW_CLASS: tuple[Command, ...] = (
    _c("encapsulation (l2tpv3|mpls)"),
    _c("protocol (l2tpv3|l2tpv3ietf|none) [WORD]"),
    _c("ip local interface IFNAME", (0, 1, 2)),
    _c("ip pmtu", (0, 1)),
    _c("ip dfbit set", (0, 1)),
    _c("ip tos (reflect|value) [<0-255>]", (0, 1)),
    _c("ip ttl <1-255>", (0, 1)),
    _c("ip protocol WORD", (0, 1)),
    _c("sequencing (transmit|receive|both)"),
)

LINE: tuple[Command, ...] = (
    _c("login [local]"),
    _c("password [(0|7)] WORD"),
    _c("transport input LINE", (0, 1)),
    _c("transport output LINE", (0, 1)),
    _c("exec-timeout <0-35791> [<0-2147483>]"),
    _c("logging synchronous", (0, 1)),
    _c("privilege level <0-15>", (0, 1)),
    _c("stopbits <1-2>"),
    _c("access-class WORD (in|out)", (0, 2)),
)

GENERIC: tuple[Command, ...] = (_c("LINE", None),)

# A named access list's entries: IOS's ACL mode (config-ext-nacl) takes permit/deny, with an
# optional sequence number, and remark; any other line falls back to global configuration, as in
# every sub-mode. Cisco, "IP Access List Entry Sequence Numbering" (IOS 12.2(14)S, 12.2(15)T,
# 12.3(2)T): `sequence-number permit|deny ...` in named access list mode, and without a number an
# entry is added at the end; copies read at https://manualsbrain.com/en/manuals/1643333/?page=7
# and https://pdfslide.us/documents/ip-access-list-entry-sequence-numbering-summary-steps-1-enable-2-configure-terminal.html
ACL: tuple[Command, ...] = (
    _c("[<1-2147483647>] (permit|deny) LINE", None),
    _c("remark LINE", None),
)

# The configuration archive (Cisco, "Configuration Replace and Configuration Rollback": `path`,
# `maximum`, `write-memory`, `time-period`).
ARCHIVE: tuple[Command, ...] = (
    _c("path WORD"),
    _c("maximum <1-14>"),
    _c("write-memory"),
    _c("time-period <1-525600>", (0,)),
)

MODES: dict[str, tuple[Command, ...]] = {
    "config": GLOBAL,
    "interface": INTERFACE,
    "xconnect": XCONNECT,
    "l2tp-class": L2TP_CLASS,
    "pw-class": PW_CLASS,
    "line": LINE,
    "router": GENERIC,
    "acl": ACL,
    "archive": ARCHIVE,
    "ikev2-proposal": IKEV2_PROPOSAL,
    "ikev2-policy": IKEV2_POLICY,
    "ikev2-keyring": IKEV2_KEYRING,
    "ikev2-keyring-peer": IKEV2_KEYRING_PEER,
    "ikev2-profile": IKEV2_PROFILE,
    "transform-set": TRANSFORM_SET,
    "crypto-map": CRYPTO_MAP,
}

PROMPTS: dict[str, str] = {
    "config": "(config)",
    "interface": "(config-if)",
    "subinterface": "(config-subif)",
    "xconnect": "(config-if-xconn)",
    "l2tp-class": "(config-l2tp-class)",
    "pw-class": "(config-pw-class)",
    "line": "(config-line)",
    "router": "(config-router)",
    "acl": "(config-ext-nacl)",
    "archive": "(config-archive)",
    "ikev2-proposal": "(config-ikev2-proposal)",
    "ikev2-policy": "(config-ikev2-policy)",
    "ikev2-keyring": "(config-ikev2-keyring)",
    "ikev2-keyring-peer": "(config-ikev2-keyring-peer)",
    "ikev2-profile": "(config-ikev2-profile)",
    "transform-set": "(cfg-crypto-trans)",
    "crypto-map": "(config-crypto-map)",
}
