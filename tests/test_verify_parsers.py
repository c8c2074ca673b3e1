"""The shipped TextFSM templates parse real captured outputs and the simulator's."""

from __future__ import annotations

from conftest import TESTS

from l2tpgen.device.verify import parse
from l2tpgen.sim.pseudowires import Xc, show_l2tun, show_xconnect
from l2tpgen.sim.router import Router

SAMPLES = TESTS / "samples"


def _sample(name: str) -> str:
    lines = (SAMPLES / name).read_text().splitlines()
    return "\n".join(line for line in lines if not line.startswith("Router#"))


def test_show_xconnect_interface_sample_gives_every_pseudowire_row() -> None:
    rows = parse("cisco_ios_show_xconnect_all", _sample("show-xconnect-interface.iosxe.txt"))
    assert len(rows) == 6  # the standby bridge-domain row has no second segment
    l2tp = [r for r in rows if r["SEGMENT2_TYPE"] == "l2tp"]
    assert [(r["XC_STATE"], r["SEGMENT2"], r["S2_STATE"]) for r in l2tp] == [
        ("UP", "100.3.1.1:101", "UP"),
        ("UP", "192.168.1.5:201", "UP"),
    ]
    assert l2tp[0]["SEGMENT1"] == "ac Gi0/0/0:8(Ethernet)"


def test_show_xconnect_all_sample_keeps_states() -> None:
    rows = parse("cisco_ios_show_xconnect_all", _sample("show-xconnect-all.iosxe.txt"))
    assert [(r["XC_STATE"], r["SEGMENT2"], r["S2_STATE"]) for r in rows] == [
        ("UP", "10.55.55.2:1000", "UP"),
        ("IA", "10.55.55.3:1001", "DN"),
    ]


def _xc(vc: int, vlan: int) -> Xc:
    return Xc(
        interface=f"GigabitEthernet0/0.{vlan}",
        vlan=vlan,
        peer="10.216.44.47",
        vc_id=vc,
        pw_class="ethernet",
        static=False,
        source="10.197.251.215",
        secret="s",  # noqa: S106 - a simulated control-channel secret
        shutdown=False,
    )


def test_simulated_show_xconnect_parses_with_vlan_circuits() -> None:
    text = show_xconnect([(_xc(126, 2996), True), (_xc(128, 2998), False)])
    rows = parse("cisco_ios_show_xconnect_all", text)
    assert [(r["XC_STATE"], r["SEGMENT1"], r["SEGMENT2"]) for r in rows] == [
        ("UP", "ac Gi0/0.2996:2996(Eth VLAN)", "10.216.44.47:126"),
        ("DN", "ac Gi0/0.2998:2998(Eth VLAN)", "10.216.44.47:128"),
    ]


def test_simulated_show_l2tun_session_all_parses_per_session() -> None:
    text = show_l2tun(Router("lab-a-rtr1"), [(_xc(126, 2996), True), (_xc(128, 2998), False)])
    rows = parse("cisco_ios_show_l2tun_session_all", text)
    assert [(r["VCID"], r["STATE"], r["PEER"], r["CIRCUIT_STATE"]) for r in rows] == [
        ("126", "established", "10.216.44.47", "UP"),
        ("128", "wait-for-tunnel", "10.216.44.47", "DOWN"),
    ]
