"""L2T027 (a pseudowire peer with no route) on rendered configs (its cases: its examples).

Every expectation below was worked out by reading the rule's documentation and the snippet: the
xconnect's peer, the connected subnets (each `ip address` with its mask), the `ip route` prefixes
and whether a `router` section or a learned address leaves the routing unknown. The finding is
on the `xconnect` line, at the column of `xconnect` (one space of indentation: column 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen import load_fleet, render_site
from l2tpgen.lint import ConfigText, lint_configs, lint_sites

if TYPE_CHECKING:
    from pathlib import Path


def test_l2t027_leaves_rendered_configs_to_validate_which_knows_the_igp(tmp_path: Path) -> None:
    # An IGP the site files state (`wan.peer_routes: igp`, `routes: []`) is not in the rendered
    # config: the rendered text has neither a route nor a `router` section towards 10.255.0.x,
    # and L2T027 must not call that a missing route; validate reports how the peer is reached.
    for name, peer, wan, loopback in (
        ("a", "b", "198.51.100.1/29", "10.255.0.1/32"),
        ("b", "a", "203.0.113.9/29", "10.255.0.2/32"),
    ):
        gateway = wan.rsplit(".", 1)[0] + "." + str(int(wan.split(".")[3].split("/")[0]) + 5)
        (tmp_path / f"{name}.yaml").write_text(
            SITE.format(name=name, peer=peer, wan=wan, gateway=gateway, loopback=loopback)
        )
    fleet = load_fleet(tmp_path)
    rendered = render_site(fleet, "a")
    assert "ip route" not in rendered
    assert "xconnect 10.255.0.2 100" in rendered
    assert [f for f in lint_sites(fleet) if f.code == "L2T027"] == []
    # the same text as a raw config is judged: nothing in it routes to 10.255.0.2
    raw = lint_configs([ConfigText("a.conf", rendered)])
    assert [(f.code, f.line) for f in raw if f.code == "L2T027"] == [
        (
            "L2T027",
            rendered.splitlines().index(
                " xconnect 10.255.0.2 100 encapsulation l2tpv3 pw-class ethernet"
            )
            + 1,
        )
    ]


SITE = """\
name: {name}
hostname: {name}-pe
platform: iosxe
management: {{host: 192.0.2.10}}
wan:
  interface: GigabitEthernet0/1
  address: {wan}
  gateway: {gateway}
  loopback: {{interface: Loopback0, address: {loopback}}}
  routes: []
  peer_routes: igp
  trusted: true
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: dc, authentication: none}}
pseudowire_class: {{name: ethernet}}
peers: [{peer}]
vlans:
  - {{id: 100, name: web, peer: {peer}}}
"""
