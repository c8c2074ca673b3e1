"""What docs/import.md promises about `l2tpgen import` that no other test held (issue 34).

- `--vlans SITE=LIST` takes a config file as the key too, and applies to that router only; a
  `--vlans LIST` for every router does not override a `--port-xconnect SITE=keep`;
- the platform: IOS-XE when a line only IOS-XE takes is there (`platform ...`, the IOS-XE
  forwarding plane's commands), else classic IOS (no `platform:` written);
- hold-queues, duplex and speed are written only where they differ from l2tpgen's default for
  the platform (2048/2048 hold-queues on IOS; duplex and speed: not set): a router with IOS's
  own 75/40 gets them written, a router at 2048/2048 does not;
- a line on the LAN trunk or the WAN interface is noted as left on the router, a route not via
  the gateway as routing push leaves alone.

Configs: the reference case's single-trunk routers (tests/importer/single-trunk) and the
reference pair as l2tpgen renders it (tests/golden/render).
"""

from __future__ import annotations

from conftest import GOLDEN, TESTS

from l2tpgen.importer import ImportOptions, import_configs, parse_port_choice, parse_vlans

SINGLE_TRUNK = sorted((TESTS / "importer" / "single-trunk").glob("*.cfg"))
CONFIGS = [(str(p), p.read_text()) for p in SINGLE_TRUNK]
A, B = "lab-a-rtr1", "lab-b-rtr1"
RENDERED_A = (GOLDEN / "render" / "site-a.ios.conf").read_text()
RENDERED_B = (GOLDEN / "render" / "site-b.ios.conf").read_text()


def _by_name(options: ImportOptions) -> dict[str, dict[str, object]]:
    return {s.name: dict(s.data) for s in import_configs(CONFIGS, options).sites}


def _pair(config_a: str) -> dict[str, dict[str, object]]:
    result = import_configs([("a.cfg", config_a), ("b.cfg", RENDERED_B)])
    return {s.name: dict(s.data) for s in result.sites}


def test_a_vlan_list_keyed_by_config_file_applies_to_that_router_only() -> None:
    (file_a,) = [name for name, _ in CONFIGS if name.endswith(f"{A}.cfg")]
    sites = _by_name(ImportOptions(vlans=parse_vlans([f"{file_a}=10"])))
    assert sites[A]["vlans"] == [{"id": 10, "name": "vlan10", "peer": B}]
    assert sites[A]["lan"]["port_xconnect"]["action"] == "migrate"  # type: ignore[index]
    assert sites[B]["vlans"] == []
    assert sites[B]["lan"]["port_xconnect"]["action"] == "keep"  # type: ignore[index]


def test_a_vlan_list_for_every_router_does_not_override_a_keep_for_one() -> None:
    options = ImportOptions(vlans=parse_vlans(["10"]), port=parse_port_choice([f"{A}=keep"]))
    sites = _by_name(options)
    assert sites[A]["vlans"] == []
    assert sites[A]["lan"]["port_xconnect"]["action"] == "keep"  # type: ignore[index]
    assert sites[B]["vlans"] == [{"id": 10, "name": "vlan10", "peer": A}]
    assert sites[B]["lan"]["port_xconnect"]["action"] == "migrate"  # type: ignore[index]


def test_a_line_only_ios_xe_takes_makes_the_site_ios_xe_and_its_absence_classic_ios() -> None:
    xe = _pair("platform punt-keepalive disable-kernel-core\n" + RENDERED_A)
    assert (xe["site-a"].get("platform"), xe["site-b"].get("platform")) == ("iosxe", None)
    classic = _pair(RENDERED_A)
    assert "platform" not in classic["site-a"]


def test_hold_queues_duplex_and_speed_are_written_only_where_they_differ_from_the_default() -> None:
    # The single-trunk routers never set a hold-queue: IOS's 75/40, not l2tpgen's 2048/2048.
    kept = _by_name(ImportOptions())
    assert kept[A]["lan"]["hold_queue"] == {"in": 75, "out": 40}  # type: ignore[index]
    assert kept[A]["wan"]["hold_queue"] == {"in": 75, "out": 40}  # type: ignore[index]
    # The reference pair is at 2048/2048, l2tpgen's default: nothing written; duplex and speed
    # as configured, and left out where the config sets none.
    without_duplex = RENDERED_A.replace(" no ip address\n duplex full\n", " no ip address\n", 1)
    site = _pair(without_duplex)["site-a"]
    assert site["lan"] == {"interface": "GigabitEthernet0/0", "speed": "auto"}
    assert "hold_queue" not in site["wan"]  # type: ignore[operator]
    assert (site["wan"]["duplex"], site["wan"]["speed"]) == ("auto", "auto")  # type: ignore[index]


def test_a_lan_or_wan_line_is_left_on_the_router_and_a_route_elsewhere_left_to_routing() -> None:
    config = RENDERED_A.replace(
        "\ninterface GigabitEthernet0/0\n",
        "\ninterface GigabitEthernet0/0\n service-policy output shape\n",
    ).replace(
        "\ninterface GigabitEthernet0/1\n",
        "\ninterface GigabitEthernet0/1\n ip access-group 101 in\n",
    )
    config += "ip route 10.99.0.0 255.255.0.0 10.197.251.210\n"
    result = import_configs([("a.cfg", config), ("b.cfg", RENDERED_B)])
    assert [n.message for n in result.unexpressed] == [
        "`service-policy output shape` on GigabitEthernet0/0: push leaves it on the router",
        "`ip access-group 101 in` on GigabitEthernet0/1: push leaves it on the router",
        (
            "ip route 10.99.0.0/16 is not via the WAN gateway 10.197.251.209: push leaves "
            "routing alone"
        ),
    ]
