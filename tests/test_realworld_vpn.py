"""Real routers' other VPNs and pseudowires against push's inbound filter, judged by hand.

For each published config (sources: ``tests/realworld/vpn/SOURCES.md`` and
``tests/realworld/configs/SOURCES.md``), what the filter must admit was worked out by reading the
config against docs/security.md ("The inbound WAN filter"), not from l2tpgen's output. The
router's config stands in for its running config; the filter is the example hub's
(``examples/hub``), as push would apply it there. Issue 33: the filter judges L2TPv3 (IP protocol
115) to the hub's own addresses only, so every IKE and ESP peer passes whatever it is (the VPN
peers below, and the DMVPN and dynamic-map routers the filter refused before issue 33); the
router's own L2TPv3 xconnects are admitted by their peer address.
"""

from __future__ import annotations

from ipaddress import IPv4Address
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from l2tpgen import load_fleet, render_site
from l2tpgen.device.foreign_peers import admit_foreign_peers
from l2tpgen.ios.acl import acl_from_lines
from l2tpgen.ios.tree import parse
from l2tpgen.lint import ConfigText, lint_configs

if TYPE_CHECKING:
    from l2tpgen.model import Site

ROOT = Path(__file__).resolve().parent
HUB = ROOT.parent / "examples" / "hub"
ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-new-only-in-env-7"}
HUB_ADDRESSES = ("10.255.0.1", "198.51.100.1")  # the hub's Loopback0 and WAN
ESP, UDP, L2TP = 50, 17, 115

# file -> (IKE/ESP peers, L2TPv3 xconnect peers), by hand:
PEERS = {
    # four AWS VPN VTIs (tunnel mode ipsec ipv4), each peer also in an IKEv1 keyring and
    # profile; BGP neighbors are no pseudowire peers
    "configs/pybatfish-hybrid-cloud-exitgw.cfg": (
        {"3.19.24.131", "52.14.53.162", "34.209.88.227", "44.227.244.7"},
        set(),
    ),
    # an L2TPv3 PE whose Tunnel0 (GRE, tunnel protection) and crypto map MAP-L2TP (applied to
    # f0/0) both go to 200.13.67.6, which is also its xconnect's peer (line 108)
    "configs/labfinal2025-l2tpv3-ipsec-r2.cfg": ({"200.13.67.6"}, {"200.13.67.6"}),
    # IKEv2 keyring peer, profile and VTI to 10.10.10.3; the xconnect (line 33, tab-indented)
    # to 172.16.1.3
    "configs/obsidian-l2tpv3-ikev2-r2.cfg": ({"10.10.10.3"}, {"172.16.1.3"}),
    # typed CLI: a VTI and an IKEv1 key for 5.5.5.100
    "vpn/kireev-wsr-vti-rtr-l.cfg": ({"5.5.5.100"}, set()),
    # crypto map MYTUNNELMAP 10 `set peer 2.3.4.14`; a manual xconnect (line 41) to 172.16.18.6
    "configs/poormansmpls-l2tpv3-ipsec-hq.cfg": ({"2.3.4.14"}, {"172.16.18.6"}),
    # DMVPN spoke: mGRE to two hubs over NHRP, wildcard IKEv1 key: peers unknown, any address
    "vpn/otus-ne-dmvpn-spoke-spb-core1.cfg": (set(), set()),
    # L2TPv2 remote-access server over a dynamic crypto map: peers unknown, any address
    "configs/heldry-l2tpv2-ipsec-dynamic-map-r-l2tp.cfg": (set(), set()),
}
ANYONE = "203.0.113.200"  # a remote-access client, a DMVPN spoke: any address


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    fleet = load_fleet(HUB)
    return fleet.site("hub"), render_site(fleet, "hub", reveal_secrets=True, environ=ENV)


def _filter(admitted: str) -> list[str]:
    start = admitted.index("ip access-list extended l2tpgen-wan-in\n")
    return admitted[start : admitted.index("!", start)].splitlines()[1:]


def _verdict(entries: list[str], protocol: int, source: str, destination: str) -> str:
    acl = acl_from_lines("l2tpgen-wan-in", entries)
    return acl.verdict(protocol, IPv4Address(source), IPv4Address(destination))[0]


@pytest.mark.parametrize("name", sorted(PEERS))
def test_a_real_routers_vpn_peers_pass_and_its_pseudowire_peers_are_admitted(
    hub: tuple[Site, str], name: str
) -> None:
    _, intended = hub
    text = (ROOT / "realworld" / name).read_text(encoding="utf-8")
    admitted, notes = admit_foreign_peers(parse(text), intended, ())
    entries = _filter(admitted)
    ike, pseudowires = PEERS[name]
    found = {line.split()[3] for line in entries if line.endswith(" any") and "115" in line}
    assert found == pseudowires
    assert bool(notes) == bool(pseudowires)
    for peer in [*ike, ANYONE]:
        for own in HUB_ADDRESSES:
            assert _verdict(entries, ESP, peer, own) == "permit", (peer, own)
            assert _verdict(entries, UDP, peer, own) == "permit", (peer, own)  # IKE, NAT-T
    for peer in pseudowires:
        assert _verdict(entries, L2TP, peer, HUB_ADDRESSES[0]) == "permit"
    assert _verdict(entries, L2TP, ANYONE, HUB_ADDRESSES[0]) == "deny"
    assert "REDACTED" not in admitted + "".join(notes)


@pytest.mark.parametrize("name", sorted(PEERS))
def test_no_real_router_here_has_a_wan_filter_that_cuts_its_own_vpn(name: str) -> None:
    # By hand: only kireev's RTR-L and labfinal2025's R2 have inbound access lists; Lnew
    # permits `esp any any` and sits on Gi1 (the pasted tunnel lines belong to no interface),
    # ACL_HACIA_SERVIDOR sits on Tunnel0 itself, not on the tunnel source f0/0.
    text = (ROOT / "realworld" / name).read_text(encoding="utf-8")
    findings = lint_configs([ConfigText(name, text)])
    assert not [f for f in findings if f.code == "L2T028"]
