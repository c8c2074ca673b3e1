"""Issue 26, item 7: the simulated IOS-XE answers ``show l2tp`` as genieparser's fixture shows.

The layout is ``CiscoTestAutomation/genieparser``
``src/genie/libs/parser/iosxe/tests/ShowL2tp/cli/equal/golden_output_output.txt`` (commit
84a79d7feb1bc58b5e8e253d4603db97b32b50fe), kept as
``tests/realworld/show/genieparser-show-l2tp.txt``. The IOS-XE session column of ``verify`` is
read from the simulator over SSH, so it no longer rests on the one capture alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import both_ends, copy_example
from conftest import SITES
from conftest_sim import start_lab

from l2tpgen import load_fleet, render_site
from l2tpgen.device.verify import parse, verify_site
from l2tpgen.sim.flavor import IOS, IOS_XE
from l2tpgen.sim.pseudowires import show_factory
from l2tpgen.sim.router import Router

SHOW = Path(__file__).parent / "realworld" / "show"
ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}


def _xe_sites(tmp_path: Path) -> Path:
    xe = both_ends("device_type: cisco_ios}", "device_type: cisco_xe}")
    return copy_example(SITES, tmp_path, *xe, name="xe")


def _headers(text: str) -> list[str]:
    """The lines that are not data rows: the title's words and the two tables' headers."""
    return [
        line.rstrip()
        for line in text.splitlines()
        if line.strip() and not line.strip()[0].isdigit() and line.strip() != "show l2tp"
    ]


@pytest.mark.usefixtures("lab_env")
def test_the_simulated_ios_xe_answers_show_l2tp_and_verify_reads_its_sessions(
    tmp_path: Path,
) -> None:
    sites = _xe_sites(tmp_path)
    fleet = load_fleet(sites)
    configs = {n: render_site(fleet, n, reveal_secrets=True, environ=ENV) for n in fleet.sites}
    lab = start_lab(tmp_path, sites=sites, flavor=IOS_XE, configs=configs)
    try:
        connection = lab.connect("site-a")
        try:
            text = connection.send_command("show l2tp")
            states = verify_site(fleet, "site-a", connection)
        finally:
            connection.disconnect()
    finally:
        lab.sim.close()
    fixture = (SHOW / "genieparser-show-l2tp.txt").read_text(encoding="utf-8")
    assert _headers(text)[1:] == _headers(fixture)[1:]
    assert _headers(text)[0] == "L2TP Tunnel and Session Information Total tunnels 1 sessions 4"
    tunnels = parse("cisco_xe_show_l2tp_tunnels", text)
    assert [(t["REMOTE_ADDRESS"], t["STATE"], t["SESSIONS"]) for t in tunnels] == [
        ("10.216.44.47", "est", "4")
    ]
    sessions = parse("cisco_xe_show_l2tp_sessions", text)
    assert sorted((s["VCID"], s["CIRCUIT"], s["STATE"]) for s in sessions) == [
        ("125", "Gi0/0.2999", "est"),
        ("126", "Gi0/0.2996", "est"),
        ("127", "Gi0/0.2997", "est"),
        ("128", "Gi0/0.2998", "est"),
    ]
    assert {s["TUNNEL_ID"] for s in sessions} == {tunnels[0]["LOC_TUNNEL_ID"]}
    assert [(s.vlan, s.state, s.session) for s in states] == [
        (2996, "UP", "est"),
        (2997, "UP", "est"),
        (2998, "UP", "est"),
        (2999, "UP", "est"),
    ]


def test_a_session_that_is_down_has_no_tunnel_and_is_not_est() -> None:
    router = Router("lab-a-rtr1", flavor=IOS_XE)
    fleet = load_fleet(SITES)
    assert router.load(render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)) == []
    # Alone (no peer router), every session is down; show_pseudowires is the fleet's hook.
    router.show_pseudowires = show_factory(lambda: [router])
    router.handle("enable")
    text = router.handle("show l2tp")
    assert "Total tunnels 0 sessions 4" in text
    assert not parse("cisco_xe_show_l2tp_tunnels", text)
    states = {s["STATE"] for s in parse("cisco_xe_show_l2tp_sessions", text)}
    assert states == {"wt-sss"}


def test_classic_ios_still_refuses_show_l2tp() -> None:
    router = Router("lab-a-rtr1", flavor=IOS)
    router.handle("enable")
    assert "% Invalid input" in router.handle("show l2tp")
