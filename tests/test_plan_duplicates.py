"""A line repeated inside an owned section is one setting, as it is on IOS.

IOS never shows a line twice in one section, but a running config pasted together from several
outputs can, and a section repeated in a file is merged into one (``l2tpgen.ios.tree``). The
planner used to stop with hier_config's ``DuplicateChildError`` ("this is a bug in l2tpgen").
"""

from __future__ import annotations

import pytest
from conftest import SITES
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.sim.router import Router

FLEET = load_fleet(SITES)
SITE_A = FLEET.site("site-a")
WANT = render_site(FLEET, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": "x1"})

REPEATS = {
    "subinterface": (" encapsulation dot1Q 2997\n", " encapsulation dot1Q 2997\n" * 2),
    "lan-trunk-hold-queue": (" hold-queue 2048 in\n", " hold-queue 2048 in\n" * 2),
    "pseudowire-class": (" ip pmtu\n", " ip pmtu\n" * 2),
    "route": ("ip route 0.0.0.0 0.0.0.0", "ip route 0.0.0.0 0.0.0.0"),
    "section-repeated": (
        "interface GigabitEthernet0/0.2999\n",
        "interface GigabitEthernet0/0.2999\n no cdp enable\n!\ninterface GigabitEthernet0/0.2999\n",
    ),
}


@pytest.mark.parametrize("case", REPEATS, ids=list(REPEATS))
def test_a_line_repeated_in_an_owned_section_changes_nothing(case: str) -> None:
    old, new = REPEATS[case]
    assert old in WANT
    plan = plan_change(SITE_A, WANT.replace(old, new, 1), WANT)
    assert plan.empty, plan.send


def test_a_repeated_line_in_a_section_that_changes_is_planned_once_and_the_router_takes_it() -> (
    None
):
    # The VLAN 2997 xconnect moves to another VC ID while its subinterface repeats a line.
    running = WANT.replace(
        " no cdp enable\n xconnect 10.216.44.47 127 ",
        " no cdp enable\n no cdp enable\n xconnect 10.216.44.47 99 ",
    )
    plan = plan_change(SITE_A, running, WANT)
    assert plan.send == (
        "interface GigabitEthernet0/0.2997",
        " no xconnect 10.216.44.47 99 encapsulation l2tpv3 pw-class ethernet",
        " xconnect 10.216.44.47 127 encapsulation l2tpv3 pw-class ethernet",
    )
    router = Router("lab-a-rtr1")
    assert router.load(running) == []
    assert send_plan(router, plan.send) == []
    assert plan_change(SITE_A, router.handle("show running-config"), WANT).empty
