"""Classes change make-before-break: a class xconnects still use is never edited in place.

Push changes classes before subinterfaces (``device/plan.py``), so an xconnect about to be replaced
still uses its class while the classes change. Going from static to dynamic sessions changes the
pseudowire-class's ``protocol`` (``none`` -> ``l2tpv3 CLASS``): edited in place under the ``manual``
xconnects, it would change what live sessions run on (docs/l2tpv3-brief.md: ``protocol none``
turns signaling off). Each plan is applied to the simulator and planned again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from builders import both_ends, copy_example
from conftest import SITES
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.sim.router import Router

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}
DYNAMIC = load_fleet(SITES)
WANT = render_site(DYNAMIC, "site-a", reveal_secrets=True, environ=ENV)


def _static(tmp_path: Path) -> Fleet:
    """The reference pair with static sessions, their hellos in an l2tp-class named hello1."""
    static = both_ends("signaling: dynamic, pmtu: true", "signaling: static, pmtu: false")
    hello1 = both_ends("{name: class1,", "{name: hello1,")
    return load_fleet(copy_example(SITES, tmp_path, *static, *hello1, name="static"))


def test_static_to_dynamic_builds_a_new_class_version_and_never_edits_the_one_in_use(
    tmp_path: Path,
) -> None:
    router = Router("lab-a-rtr1")
    static = render_site(_static(tmp_path), "site-a", reveal_secrets=True, environ=ENV)
    assert " xconnect 10.216.44.47 126 encapsulation l2tpv3 manual pw-class ethernet\n" in static
    assert router.load(static) == []
    plan = plan_change(DYNAMIC.site("site-a"), router.handle("show running-config"), WANT)
    send = list(plan.send)
    assert "pseudowire-class ethernet" not in send  # never entered while `manual` uses it
    assert not [line for line in send if "protocol" in line and "none" in line]
    new = next(line for line in send if line.startswith("pseudowire-class ethernet-"))
    version = new.removeprefix("pseudowire-class ")
    first_sub = send.index("interface GigabitEthernet0/0.2996")
    assert send.index(new) < first_sub
    assert send[send.index(new) + 2] == " protocol l2tpv3 class1"
    moved = f" xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class {version}"
    assert (
        send.index(moved)
        == send.index(" no xconnect 10.216.44.47 126 encapsulation l2tpv3 manual pw-class ethernet")
        + 1
    )
    # The old class and the static design's l2tp-class go last, once nothing uses them.
    assert send[-2:] == ["no pseudowire-class ethernet", "no l2tp-class hello1"]
    assert plan.notes
    assert send_plan(router, plan.send) == []
    running = router.handle("show running-config")
    assert "manual" not in running
    assert "hello1" not in running
    assert "pseudowire-class ethernet\n" not in running
    again = plan_change(DYNAMIC.site("site-a"), running, WANT)
    assert again.empty, again.send


def test_the_static_designs_l2tp_class_stays_while_a_foreign_xconnect_says_hello_with_it(
    tmp_path: Path,
) -> None:
    static = render_site(_static(tmp_path), "site-a", reveal_secrets=True, environ=ENV)
    foreign = (
        "pseudowire-class theirs\n encapsulation l2tpv3\n protocol none\n"
        " ip local interface GigabitEthernet0/1\n!\n"
        "interface GigabitEthernet0/2\n no ip address\n"
        " xconnect 192.0.2.99 900 encapsulation l2tpv3 manual pw-class theirs\n"
        "  l2tp id 900 900\n  l2tp hello hello1\n!\n"
    )
    router = Router("lab-a-rtr1")
    assert (
        router.load(
            static.replace(
                "interface GigabitEthernet0/0\n", foreign + "interface GigabitEthernet0/0\n"
            )
        )
        == []
    )
    plan = plan_change(DYNAMIC.site("site-a"), router.handle("show running-config"), WANT)
    assert "no l2tp-class hello1" not in plan.send
    assert "no pseudowire-class theirs" not in plan.send
    assert send_plan(router, plan.send) == []
    running = router.handle("show running-config")
    assert "l2tp-class hello1\n" in running
    assert "  l2tp hello hello1\n" in running
