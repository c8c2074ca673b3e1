"""Real routers' other VPNs against push's inbound filter (issue 25), judged by hand.

For each published config (sources: ``tests/realworld/vpn/SOURCES.md`` and
``tests/realworld/configs/SOURCES.md``), what the filter must admit or where push must refuse
was worked out by reading the config against docs/security.md ("Other VPNs on the router"), not
from l2tpgen's output. The router's config stands in for its running config; the filter is the
example hub's (``examples/hub``), as push would apply it there.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from l2tpgen import load_fleet, render_site
from l2tpgen.device.foreign_vpn import ForeignVpnError, admit_foreign_peers
from l2tpgen.ios.tree import parse
from l2tpgen.lint import ConfigText, lint_configs

if TYPE_CHECKING:
    from l2tpgen.model import Site

ROOT = Path(__file__).resolve().parent
HUB = ROOT.parent / "examples" / "hub"
ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-new-only-in-env-7"}

# file -> the peers the filter admits (IKE and ESP, above its denies), by hand:
ADMITTED = {
    # four AWS VPN VTIs (tunnel mode ipsec ipv4), each peer also in an IKEv1 keyring and profile
    "configs/pybatfish-hybrid-cloud-exitgw.cfg": {
        "3.19.24.131",
        "52.14.53.162",
        "34.209.88.227",
        "44.227.244.7",
    },
    # an L2TPv3 PE whose Tunnel0 (GRE, tunnel protection) and crypto map MAP-L2TP (applied to
    # f0/0) both go to 200.13.67.6, with IKEv1 keyrings for it
    "configs/labfinal2025-l2tpv3-ipsec-r2.cfg": {"200.13.67.6"},
    # IKEv2 keyring peer (its `address` pasted flat after `peer`), profile and VTI: one peer
    "configs/obsidian-l2tpv3-ikev2-r2.cfg": {"10.10.10.3"},
    # typed CLI: the tunnel's sub-commands are unindented (top-level lines, no interface holds
    # them); the IKEv1 key names the same peer, 5.5.5.100
    "vpn/kireev-wsr-vti-rtr-l.cfg": {"5.5.5.100"},
    # crypto map MYTUNNELMAP 10 `set peer 2.3.4.14` and the IKEv1 key for it
    "configs/poormansmpls-l2tpv3-ipsec-hq.cfg": {"2.3.4.14"},
}

# file -> the lines push names when it refuses the filter, by hand:
REFUSED = {
    # DMVPN spoke: wildcard IKEv1 key (63) and mGRE (97)
    "vpn/otus-ne-dmvpn-spoke-spb-core1.cfg": [
        "line 63: crypto isakmp key",
        "line 97: interface Tunnel0",
    ],
    # L2TPv2 remote-access server: `crypto map MAP_L2TP 10 ipsec-isakmp dynamic DYN_MAP` (39)
    "configs/heldry-l2tpv2-ipsec-dynamic-map-r-l2tp.cfg": ["line 39: crypto map MAP_L2TP 10"],
}


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    fleet = load_fleet(HUB)
    return fleet.site("hub"), render_site(fleet, "hub", reveal_secrets=True, environ=ENV)


@pytest.mark.parametrize("name", sorted(ADMITTED))
def test_a_real_routers_vpn_peers_are_admitted_by_the_filter(
    hub: tuple[Site, str], name: str
) -> None:
    site, intended = hub
    text = (ROOT / "realworld" / name).read_text(encoding="utf-8")
    admitted, notes = admit_foreign_peers(parse(text), intended, site)
    filter_lines = admitted[admitted.index("ip access-list extended l2tpgen-wan-in") :]
    filter_lines = filter_lines[: filter_lines.index("!\n")]
    found = {
        line.split()[3]
        for line in filter_lines.splitlines()
        if line.startswith(" permit esp host ") and line.endswith(" any")
    }
    assert found == ADMITTED[name]
    deny = filter_lines.index(" deny esp any any")
    for peer in ADMITTED[name]:
        assert filter_lines.index(f" permit udp host {peer} any eq 4500") < deny
    assert notes
    assert "REDACTED" not in admitted + "".join(notes)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_real_routers_dynamic_vpn_refuses_the_filter_naming_its_lines(
    hub: tuple[Site, str], name: str
) -> None:
    site, intended = hub
    text = (ROOT / "realworld" / name).read_text(encoding="utf-8")
    with pytest.raises(ForeignVpnError) as raised:
        admit_foreign_peers(parse(text), intended, site)
    message = str(raised.value)
    for where in REFUSED[name]:
        assert where in message, message
    assert "REDACTED" not in message


@pytest.mark.parametrize("name", sorted({*ADMITTED, *REFUSED}))
def test_no_real_router_here_has_a_wan_filter_that_cuts_its_own_vpn(name: str) -> None:
    # By hand: only kireev's RTR-L and labfinal2025's R2 have inbound access lists; Lnew
    # permits `esp any any` and sits on Gi1 (the pasted tunnel lines belong to no interface),
    # ACL_HACIA_SERVIDOR sits on Tunnel0 itself, not on the tunnel source f0/0.
    text = (ROOT / "realworld" / name).read_text(encoding="utf-8")
    findings = lint_configs([ConfigText(name, text)])
    assert not [f for f in findings if f.code == "L2T028"]
