"""How the driver conformance suite reads each format's text (``tests/conformance.py``).

One ``Reader`` per format a platform's driver lists (``Traits.formats``): the regexes that say, in
that format's text, each thing a trait promises, or None where the format cannot say it. Each
entry names where its syntax comes from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reader:
    """How one format's text says each thing the traits promise (regexes, MULTILINE; all must
    match). ``None``: the format cannot say it, so a platform promising it in this format fails
    (unless the format refuses such a site with a ``RenderError``). ``{vlan}``/``{address}`` are
    filled in; ``mtu`` has a group ``mtu``."""

    ipsec: tuple[str, ...] | None
    inbound_filter: tuple[str, ...] | None
    fail_closed: tuple[str, ...] | None
    static_hello: tuple[str, ...] | None
    cookie: tuple[str, ...] | None
    tag_carried: tuple[str, ...] | None  # the VLAN's frames enter the pseudowire tagged
    kernel_session: tuple[str, ...] | None
    peer_route: tuple[str, ...] | None
    sublayer: tuple[str, ...] | None
    static: tuple[str, ...] | None
    dynamic: tuple[str, ...] | None
    mtu: str | None
    hold_queue: str | None  # a hold-queue line: groups ``size`` and ``way`` (in, out)
    signature: str  # what makes a text this format's (every rendering holds it)


_IOS_SUB = r"^interface \S+\.{vlan}\n(?:[ !].*\n)*?"
READERS: dict[str, Reader] = {
    # Cisco IOS: crypto map + IKEv2 (Cisco's "FlexVPN and IKEv2" and crypto map guides), the
    # dot1Q subinterface bound to an xconnect (L2TPv3 feature guide), `l2tp hello` under a manual
    # xconnect, `l2tp cookie local SIZE`, `sequencing` in the pseudowire-class (the sublayer).
    "ios": Reader(
        ipsec=(
            r"^crypto ikev2 profile \S+$",
            r"^crypto map \S+ \d+ ipsec-isakmp$",
            r"^ crypto map \S+$",
        ),
        inbound_filter=(r"^ ip access-group \S+ in$",),
        fail_closed=None,
        static_hello=(r"^  l2tp hello \S+$",),
        cookie=(r"^  l2tp cookie local 8 ",),
        tag_carried=(_IOS_SUB + r" encapsulation dot1Q {vlan}\n(?:[ !].*\n)*? xconnect ",),
        kernel_session=None,
        peer_route=(r"^ip route {address} 255\.255\.255\.255 ",),
        sublayer=(r"^ sequencing (?:transmit|receive|both)$",),
        static=(r"^ xconnect \S+ \d+ encapsulation l2tpv3 manual pw-class \S+$",),
        dynamic=(r"^ xconnect \S+ \d+ encapsulation l2tpv3 pw-class \S+$",),
        mtu=_IOS_SUB + r" mtu (?P<mtu>\d+)$",
        hold_queue=r"^ hold-queue (?P<size>\d+) (?P<way>in|out)$",
        signature=r"^interface \S+\n(?: .*\n)* xconnect ",
    ),
    # iproute2 (ip-l2tp(8), ip-xfrm(8)) and strongSwan's swanctl.conf(5).
    "iproute2": Reader(
        ipsec=(r"^connections \{{$", r"^ +mode = (?:transport|tunnel)$", r"^ +remote_ts = "),
        # `update`: the script is safe to run again (ip-xfrm(8): update adds or replaces)
        inbound_filter=(r"^ip xfrm policy (?:add|update) .* proto 115 dir in action block",),
        fail_closed=(
            (
                r"^ip xfrm policy (?:add|update) src 0\.0\.0\.0/0 dst 0\.0\.0\.0/0 proto 115 "
                r"dir out action block"
            ),
            r"^ip xfrm policy (?:add|update) src ::/0 dst ::/0 proto 115 dir in action block",
        ),
        static_hello=None,  # a kernel tunnel has no control channel
        cookie=(r"^ip l2tp add session .* cookie \S+ peer_cookie \S+",),
        tag_carried=(r"^ip link add link l2tp{vlan} name \S+ type vlan id {vlan}$",),
        kernel_session=(r"^ip l2tp add session name \S+ tunnel_id \d+ session_id \d+ ",),
        peer_route=(r"^ip route add {address}(?:/32)? ",),
        sublayer=(r"^ip l2tp add session .* l2spec_type (?!none)",),
        static=(r"^ip l2tp add session ",),
        dynamic=None,
        mtu=r"^ip link set dev l2tp{vlan} up mtu (?P<mtu>\d+)$",
        hold_queue=None,
        signature=r"^ip l2tp add tunnel ",
    ),
    # systemd.netdev(5), systemd.network(5): no IPsec, cookies nor sequencing (it refuses them).
    "networkd": Reader(
        ipsec=None,
        inbound_filter=None,
        fail_closed=None,
        static_hello=None,
        cookie=None,
        tag_carried=(r"^Name=l2tp{vlan}\.{vlan}$",),
        kernel_session=(r"^\[L2TPSession\]$",),
        peer_route=(r"^Destination={address}(?:/32)?$",),
        sublayer=None,
        static=(r"^\[L2TPSession\]$",),
        dynamic=None,
        mtu=r"^# ==> \S*l2tp{vlan}\.network <==\n(?:(?!# ==>).*\n)*?MTUBytes=(?P<mtu>\d+)$",
        hold_queue=None,
        signature=r"^\[NetDev\]$",
    ),
    # VyOS's `set` commands (vyos-1x interface-definitions: interfaces_l2tpv3.xml.in has no
    # cookie and no l2spec option, so iproute2's default 4-byte sublayer is always on).
    "set": Reader(
        ipsec=(
            r"^set vpn ipsec esp-group \S+ mode '(?:transport|tunnel)'$",
            r"^set vpn ipsec site-to-site peer \S+ tunnel \d+ protocol '115'$",
        ),
        inbound_filter=None,
        fail_closed=None,
        static_hello=None,
        cookie=None,
        tag_carried=None,
        kernel_session=(r"^set interfaces l2tpv3 \S+ session-id '\d+'$",),
        peer_route=(r"^set protocols static route {address}/32 ",),
        sublayer=(r"^set interfaces l2tpv3 \S+ session-id '\d+'$",),
        static=(r"^set interfaces l2tpv3 \S+ session-id '\d+'$",),
        dynamic=None,
        mtu=r"^set interfaces l2tpv3 l2tpeth{vlan} mtu '(?P<mtu>\d+)'$",
        hold_queue=None,
        signature=r"^set interfaces ",
    ),
}
