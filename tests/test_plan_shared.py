"""The planner on interfaces push shares with the rest of the router, and on classes it changes.

Push owns a few lines of the LAN trunk, the WAN interface and the loopback (``device/scope.py``),
never the interfaces themselves: whatever the model says, a plan never holds ``no interface`` for
one of them. Cases come from third-party configs (``tests/realworld/configs``, imported as a user
would) and from inline variations of the reference pair; each plan is applied to the simulator,
which refuses what IOS refuses (``% Removal of physical interfaces is not permitted``).
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import pytest
from conftest import SITES, TESTS
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.errors import DeviceError
from l2tpgen.importer import ImportOptions, import_configs, parse_vlans
from l2tpgen.ios.tree import parse
from l2tpgen.model import Fleet, Site
from l2tpgen.sim.router import Router

if TYPE_CHECKING:
    from pathlib import Path

REALWORLD = TESTS / "realworld" / "configs"
REFERENCE = TESTS / "reference"
ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}


def _indented(text: str) -> str:
    """A config as IOS shows it (the realworld file lost its indentation in a web page)."""

    def lines(node: object, depth: int) -> list[str]:
        out = [" " * depth + node.text]  # type: ignore[attr-defined]
        for child in node.children:  # type: ignore[attr-defined]
            out += lines(child, depth + 1)
        return out

    return "".join(line + "\n" for root in parse(text).roots for line in lines(root, 0))


def _fleet(out: Path, *edits: tuple[str, str]) -> Fleet:
    """The reference sites, text replaced in site-a's file (``(old, new)`` each)."""
    shutil.copytree(SITES, out)
    path = out / "site-a.yaml"
    text = path.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    return load_fleet(out)


LAN_DEFAULT_QUEUE = (
    "  speed: auto\n  hold_queue: {in: 2048, out: 2048}\n# The",
    "  speed: auto\n  hold_queue: {in: 75, out: 40}\n# The",
)
WAN_DEFAULT_QUEUE = (
    "  speed: auto\n  hold_queue: {in: 2048, out: 2048}\nlan:",
    "  speed: auto\n  hold_queue: {in: 75, out: 40}\nlan:",
)
WAN_ON_SUBINTERFACE = ("interface: GigabitEthernet0/1\n", "interface: GigabitEthernet0/1.100\n")


# What the byteworks configs hold that the simulator does not model (IPsec, the VTI's tunnel lines).
NOT_SIMULATED = (
    "crypto ",
    "encr ",
    "hash ",
    "authentication pre-share",
    "mode ",
    "set ",
    "tunnel ",
)


def test_an_imported_single_trunk_router_keeps_its_lan_port_when_push_migrates_it() -> None:
    # byteworks: a real pair (see tests/realworld/configs/SOURCES.md) that never set a hold-queue;
    # import writes IOS's default (75/40), which renders no line on the trunk.
    names = ["byteworks-xconnect-over-ipsec-site1.cfg", "byteworks-xconnect-over-ipsec-site2.cfg"]
    configs = [(name, (REALWORLD / name).read_text()) for name in names]
    result = import_configs(configs, ImportOptions(vlans=parse_vlans(["10-11"])))
    fleet = Fleet.build(Site.model_validate(s.data) for s in result.sites)
    peers = {names[0]: "10.100.101.2", names[1]: "10.100.101.1"}
    for imported in result.sites:
        site = fleet.site(imported.name)
        running = dict(configs)[imported.source or ""]
        plan = plan_change(site, running, render_site(fleet, imported.name))
        assert site.lan.interface == "FastEthernet0/1"
        assert "no interface FastEthernet0/1" not in plan.send
        trunk = plan.send.index("interface FastEthernet0/1")
        peer = peers[imported.source or ""]
        assert plan.send[trunk + 1] == (
            f" no xconnect {peer} 60 encapsulation l2tpv3 pw-class xconnect-pw"
        )
        assert "-interface FastEthernet0/1\n" not in plan.diff(imported.name)
        # On the simulator (which refuses what IOS refuses), from the router's own running config.
        router = Router(imported.name)
        left_out = router.load(_indented(running))
        assert all(line.startswith(NOT_SIMULATED) for line in left_out), left_out
        intended = render_site(fleet, imported.name)
        plan = plan_change(site, router.handle("show running-config"), intended)
        assert send_plan(router, plan.send) == []
        after = router.handle("show running-config")
        assert "interface FastEthernet0/1\n" in after
        assert "xconnect 10.100.101" in after.split("interface FastEthernet0/1.10\n")[1]
        assert plan_change(site, after, intended).empty


def test_the_reference_single_trunk_router_migrates_when_its_lan_hold_queue_is_the_default(
    tmp_path: Path,
) -> None:
    fleet = _fleet(tmp_path / "sites", LAN_DEFAULT_QUEUE)
    router = Router("lab-a-rtr1")
    assert router.load((REFERENCE / "before-router-a.conf").read_text()) == []
    intended = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)
    plan = plan_change(fleet.site("site-a"), router.handle("show running-config"), intended)
    assert not [line for line in plan.send if line.startswith("no interface")]
    assert send_plan(router, plan.send) == []
    running = router.handle("show running-config")
    assert "interface GigabitEthernet0/0\n" in running
    assert running.count("xconnect 10.216.44.47 125 ") == 1  # now on Gi0/0.2999 only
    again = plan_change(fleet.site("site-a"), running, intended)
    assert again.empty, again.send


def test_the_wan_subinterface_carrying_the_routers_address_is_never_removed(
    tmp_path: Path,
) -> None:
    before = _fleet(tmp_path / "before", WAN_ON_SUBINTERFACE)
    after = _fleet(tmp_path / "after", WAN_ON_SUBINTERFACE, WAN_DEFAULT_QUEUE)
    running = render_site(before, "site-a", reveal_secrets=True, environ=ENV)
    intended = render_site(after, "site-a", reveal_secrets=True, environ=ENV)
    plan = plan_change(after.site("site-a"), running, intended)
    assert plan.send == (
        "interface GigabitEthernet0/1.100",
        " no hold-queue 2048 in",
        " no hold-queue 2048 out",
    )


def test_a_plan_that_would_remove_a_shared_interface_is_refused_before_anything_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The safety net under the fix above: break it, and the plan is refused, not sent.
    monkeypatch.setattr("l2tpgen.device.plan._shared_headers", lambda *_: "")
    fleet = _fleet(tmp_path / "sites", LAN_DEFAULT_QUEUE)
    intended = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)
    running = (REFERENCE / "before-router-a.conf").read_text()
    with pytest.raises(DeviceError, match=r"would remove interface GigabitEthernet0/0, which"):
        plan_change(fleet.site("site-a"), running, intended)
