"""The inbound WAN filter never cuts a VPN l2tpgen does not own (issue 25, item 3).

``l2tpgen-wan-in`` ends in ``deny esp any any`` and ``deny udp any any eq 500|4500``. Push reads
the running config for every other IKE/ESP user and either admits its peers above those denies or
refuses the filter, naming the running-config line (``l2tpgen/device/foreign_vpn.py``). The
running configs are the example hub's rendering with protection taken out, plus the user's VPN
written by hand; each expectation is worked out by hand from Cisco's command forms (cited in
``l2tpgen/ios/ike_users.py`` and docs/security.md): a ``tunnel protection`` tunnel's peer is its
``tunnel destination``; a crypto map's is ``set peer``; an IKEv1 key's or IKEv2 keyring peer's is
its ``address``; mGRE (DMVPN), dynamic maps, remote access and ``address 0.0.0.0`` have none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from builders import HUB, revealed_site, unprotected

from l2tpgen.device.foreign_vpn import ForeignVpnError
from l2tpgen.device.plan import plan_change
from l2tpgen.ios.ike_users import ike_users
from l2tpgen.ios.tree import parse

if TYPE_CHECKING:
    from l2tpgen.model import Site

ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-new-only-in-env-7"}
IKEV1_KEY = "Ikev1-key-of-the-user-5"
WAN = "interface GigabitEthernet0/0/1\n"


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    return revealed_site(HUB, "hub", ENV)


def _filter(lines: tuple[str, ...]) -> list[str]:
    """The l2tpgen-wan-in entries a plan sends, in order."""
    start = lines.index("ip access-list extended l2tpgen-wan-in") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith(" "))
    return list(lines[start:end])


# A GRE-over-IPsec tunnel (tunnel protection) sourced from the WAN, to 203.0.113.80.
_VTI = (
    "interface Tunnel10\n"
    " ip address 172.31.0.1 255.255.255.252\n"
    " tunnel source GigabitEthernet0/0/1\n"
    " tunnel destination 203.0.113.80\n"
    " tunnel protection ipsec profile CORP\n"
    "!\n"
)
_ADMIT_VTI = [
    " permit esp host 203.0.113.80 any",
    " permit udp host 203.0.113.80 any eq 500",
    " permit udp host 203.0.113.80 any eq 4500",
]


def test_a_tunnel_protection_peer_on_the_wan_is_admitted_above_the_denies(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    plan = plan_change(site, unprotected(intended) + _VTI, intended)
    entries = _filter(plan.send)
    deny = entries.index(" deny 115 any any")
    assert entries[deny - 3 : deny] == _ADMIT_VTI
    assert any("Tunnel10" in note for note in plan.notes)


def test_once_admitted_the_next_plan_is_empty(hub: tuple[Site, str]) -> None:
    site, intended = hub
    first = plan_change(site, unprotected(intended) + _VTI, intended)
    pushed = "".join(f"{line}\n" for line in _filter(first.send))
    running = re.sub(
        r"^ip access-list extended l2tpgen-wan-in\n(?: .*\n)*",
        lambda _: f"ip access-list extended l2tpgen-wan-in\n{pushed}",
        intended,
        flags=re.MULTILINE,
    )
    assert plan_change(site, running + _VTI, intended).empty


@pytest.mark.parametrize(
    ("theirs", "peers"),
    [
        # IKEv1 site-to-site: a crypto map on another interface, a pre-shared key by address
        (
            (
                "crypto map CORP 10 ipsec-isakmp\n set peer 203.0.113.90\n!\n"
                "interface GigabitEthernet0/0/2\n crypto map CORP\n!\n"
                f"crypto isakmp key {IKEV1_KEY} address 203.0.113.91\n"
            ),
            ["203.0.113.90", "203.0.113.91"],
        ),
        # IKEv2 (FlexVPN site-to-site): keyring peer and profile identity
        (
            (
                "crypto ikev2 keyring CORP\n peer hq\n  address 203.0.113.92\n!\n"
                "crypto ikev2 profile CORP\n match identity remote address 203.0.113.93 "
                "255.255.255.255\n!\n"
            ),
            ["203.0.113.92", "203.0.113.93"],
        ),
    ],
    ids=["ikev1-crypto-map-and-isakmp-key", "ikev2-keyring-and-profile"],
)
def test_ike_peers_elsewhere_in_the_config_are_admitted(
    hub: tuple[Site, str], theirs: str, peers: list[str]
) -> None:
    site, intended = hub
    plan = plan_change(site, unprotected(intended) + theirs, intended)
    entries = _filter(plan.send)
    deny = entries.index(" deny esp any any")
    for peer in peers:
        assert entries.index(f" permit esp host {peer} any") < deny, peer
        assert entries.index(f" permit udp host {peer} any eq 4500") < deny, peer
    assert IKEV1_KEY not in "\n".join(plan.commands) + "\n".join(plan.notes)


@pytest.mark.parametrize(
    ("theirs", "named"),
    [
        (  # DMVPN hub: mGRE, peers register over NHRP
            (
                "interface Tunnel0\n ip address 172.30.0.1 255.255.255.0\n ip nhrp network-id 1\n"
                " tunnel source GigabitEthernet0/0/1\n tunnel mode gre multipoint\n"
                " tunnel protection ipsec profile DMVPN\n"
            ),
            (5, "interface Tunnel0 (DMVPN mGRE, tunnel protection): its peers register"),
        ),
        (  # IKEv1 wildcard key: any peer
            f"crypto isakmp key {IKEV1_KEY} address 0.0.0.0 0.0.0.0\n",
            (1, "crypto isakmp key ... address: it matches any peer"),
        ),
        (  # remote access over a dynamic map
            (
                "crypto dynamic-map RA 10\n set transform-set TS\n!\n"
                "crypto map CORP 65535 ipsec-isakmp dynamic RA\n!\n"
                "interface GigabitEthernet0/0/2\n crypto map CORP\n"
            ),
            (4, "crypto map CORP 65535: a dynamic map"),
        ),
        (  # FlexVPN remote access
            "crypto ikev2 authorization policy RA\n pool RA-POOL\n",
            (1, "crypto ikev2 authorization policy RA: remote access"),
        ),
        (  # Easy VPN remote access
            "crypto isakmp client configuration group RA\n pool RA-POOL\n",
            (1, "crypto isakmp client configuration: remote access"),
        ),
        (  # IKEv2 profile matching by name
            "crypto ikev2 profile CORP\n match identity remote fqdn hq.example.com\n",
            (2, "crypto ikev2 profile CORP: its peers are matched by fqdn"),
        ),
        (  # GETVPN group member: ESP from any member of the group
            (
                "crypto map GET 10 gdoi\n set group G1\n!\n"
                "interface GigabitEthernet0/0/2\n crypto map GET\n"
            ),
            (1, "crypto map GET 10: a GETVPN (GDOI) map"),
        ),
        (  # `address 0.0.0.0` without a mask: any peer (Cisco's FlexVPN remote-access examples)
            "crypto ikev2 profile ANY\n match identity remote address 0.0.0.0\n",
            (2, "crypto ikev2 profile ANY: it matches any peer"),
        ),
    ],
    ids=[
        *("dmvpn-mgre", "ikev1-any", "dynamic-map", "flexvpn-ra", "easy-vpn-ra", "ikev2-fqdn"),
        *("getvpn-gdoi", "ikev2-any-address-without-mask"),
    ],
)
def test_a_vpn_whose_peers_cannot_be_named_refuses_the_filter_naming_its_line(
    hub: tuple[Site, str], theirs: str, named: tuple[int, str]
) -> None:
    site, intended = hub
    running = unprotected(intended)
    first = running.count("\n") + 1  # `theirs` starts on this line of the running config
    line, what = named
    with pytest.raises(ForeignVpnError) as raised:
        plan_change(site, running + theirs, intended)
    message = str(raised.value)
    assert f"line {first + line - 1}: {what}" in message, message
    assert "protection.inbound_filter: false" in message
    assert IKEV1_KEY not in message


def test_without_the_filter_a_dynamic_vpn_does_not_stop_the_push(hub: tuple[Site, str]) -> None:
    site, intended = hub
    no_filter = re.sub(
        r"^ip access-list extended l2tpgen-wan-in\n(?: .*\n)*", "", intended, flags=re.MULTILINE
    ).replace(" ip access-group l2tpgen-wan-in in\n", "")
    mgre = "interface Tunnel0\n tunnel mode gre multipoint\n tunnel protection ipsec profile D\n"
    plan = plan_change(site, unprotected(intended) + mgre, no_filter)
    assert not [line for line in plan.send if "wan-in" in line]


def test_l2tpgens_own_ike_sections_are_not_other_users() -> None:
    config = parse(
        "crypto ikev2 keyring l2tpgen\n peer branch\n  address 10.255.0.2\n"
        "crypto ikev2 profile l2tpgen-branch\n match identity remote address 10.255.0.2 "
        "255.255.255.255\n"
        "crypto map l2tpgen 10 ipsec-isakmp\n set peer 10.255.0.2\n"
        "interface GigabitEthernet0/0/1\n crypto map l2tpgen\n"
    )
    assert ike_users(config.roots) == []


def test_an_unapplied_crypto_map_and_an_unprotected_gre_tunnel_use_no_ike() -> None:
    config = parse(
        "crypto map SPARE 10 ipsec-isakmp\n set peer 203.0.113.1\n"
        "interface Tunnel1\n tunnel destination 203.0.113.2\n"
    )
    assert ike_users(config.roots) == []


def test_an_ikev2_keyring_subnet_is_admitted_as_a_wildcard() -> None:
    config = parse("crypto ikev2 keyring K\n peer sites\n  address 192.0.2.0 255.255.255.0\n")
    (user,) = ike_users(config.roots)
    assert [str(p) for p in user.peers] == ["192.0.2.0/24"]
    from l2tpgen.device.foreign_vpn import admit_lines  # noqa: PLC0415

    assert admit_lines([user])[0] == " permit esp 192.0.2.0 0.0.0.255 any"
