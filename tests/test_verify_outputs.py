"""verify says "could not read" for output it cannot read, and reads IOS-XE's `show l2tp`.

Before: indented `show xconnect all` text (as pasted or logged) gave no rows, so every pseudowire
was reported MISSING, as if push had removed them. IOS-XE's session table (`show l2tp`, the
command genieparser's IOS-XE parser runs; capture in tests/realworld/show, SOURCES.md there) was
not read at all. Expectations were read off the captures by eye.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import copy_example
from conftest import SITES, TESTS
from support import XCONNECT_HEADER, ShowRouter

from l2tpgen import load_fleet
from l2tpgen.device.verify import (
    UnreadableOutputError,
    parse,
    read_xconnect_table,
    verify_site,
)
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

SHOW = TESTS / "realworld" / "show"
FLEET = load_fleet(SITES)
ROWS = "".join(
    f"UP pri   ac Gi0/0.{vlan}:{vlan}(Eth VLAN)    UP l2tp 10.216.44.47:{vc}             UP\n"
    for vlan, vc in ((2996, 126), (2997, 127), (2998, 128), (2999, 125))
)


def _indented(text: str, by: str = "    ") -> str:
    return "".join(by + line for line in text.splitlines(keepends=True))


@pytest.mark.parametrize("by", ["    ", "\t"], ids=["spaces", "tab"])
def test_an_indented_xconnect_table_is_could_not_read_never_every_pseudowire_missing(
    by: str,
) -> None:
    router = ShowRouter({"show xconnect all": _indented(XCONNECT_HEADER + ROWS, by)})
    with pytest.raises(UnreadableOutputError) as caught:
        verify_site(FLEET, "site-a", router)
    assert str(caught.value) == (
        "could not read the `show xconnect all` output: its lines are indented (text pasted or "
        "logged?); the pseudowires' states are unknown (not missing): check the output by hand, "
        "or run verify again"
    )


@pytest.mark.parametrize(
    "output",
    ["", "Building configuration...\n", "Total tunnels 0 sessions 0\n", ROWS],
    ids=["empty", "another-commands-output", "session-summary", "rows-without-header"],
)
def test_output_that_is_not_the_xconnect_table_is_could_not_read(output: str) -> None:
    router = ShowRouter({"show xconnect all": output})
    with pytest.raises(UnreadableOutputError, match=r"has no `XC ST  Segment 1 \.\.\. S2` table"):
        verify_site(FLEET, "site-a", router)


@pytest.mark.parametrize("capture", sorted(SHOW.glob("*xconnect*.txt")), ids=lambda p: p.name)
def test_every_real_xconnect_capture_is_a_readable_table(capture: Path) -> None:
    assert read_xconnect_table("show xconnect all", capture.read_text(encoding="utf-8"))


def test_an_xconnect_table_without_rows_is_read_as_every_pseudowire_missing() -> None:
    # The header is there: the router really has none of them (the simulator prints this).
    states = verify_site(FLEET, "site-a", ShowRouter({"show xconnect all": XCONNECT_HEADER}))
    assert [s.state for s in states] == ["MISSING"] * 4


def test_the_ios_xe_show_l2tp_capture_gives_its_tunnel_and_its_xconnect_session() -> None:
    text = (SHOW / "genieparser-show-l2tp.txt").read_text(encoding="utf-8")
    tunnels = parse("cisco_xe_show_l2tp_tunnels", text)
    assert [(t["LOC_TUNNEL_ID"], t["REMOTE_ADDRESS"], t["STATE"]) for t in tunnels] == [
        ("3217474068", "100.3.1.1", "est")
    ]
    sessions = parse("cisco_xe_show_l2tp_sessions", text)
    assert [(s["TUNNEL_ID"], s["VCID"], s["CIRCUIT"], s["STATE"]) for s in sessions] == [
        ("3217474068", "101", "Gi0/0/0", "est")
    ]


def _xe_fleet(tmp_path: Path) -> Fleet:
    xe = ("site-a", "device_type: cisco_ios}", "device_type: cisco_xe}")
    fleet = load_fleet(copy_example(SITES, tmp_path, xe))
    assert fleet.site("site-a").effective_platform == "iosxe"
    return fleet


# `show l2tp` in the capture's layout (genieparser-show-l2tp.txt), with site-a's pseudowires:
# one tunnel to 10.216.44.47, sessions for VC IDs 126 and 127 only (the last one down).
SHOW_L2TP = """\
L2TP Tunnel and Session Information Total tunnels 1 sessions 2

LocTunID   RemTunID   Remote Name   State  Remote Address  Sessn L2TP Class/
                                                           Count VPDN Group
3217474068 2611998623 lab-b-rtr1    est    10.216.44.47    2     class1

LocID      RemID      TunID      Username, Intf/      State  Last Chg Uniq ID
                                 Vcid, Circuit
2409671146 3648835555 3217474068 126, Gi0/0.2996      est    00:00:22 0
2409671147 3648835556 3217474068 127, Gi0/0.2997      wt-sss 00:00:03 0
"""


def test_an_ios_xe_router_is_asked_show_l2tp_and_its_sessions_fill_the_session_column(
    tmp_path: Path,
) -> None:
    # [U] Whether IOS-XE still takes classic IOS's `show l2tun session all` is unconfirmed: the
    # IOS-XE driver asks `show l2tp`, which genieparser's IOS-XE parser runs on real captures.
    assert driver("iosxe").show_sessions == "show l2tp"
    assert driver("ios").show_sessions == "show l2tun session all"
    router = ShowRouter({"show xconnect all": XCONNECT_HEADER + ROWS, "show l2tp": SHOW_L2TP})
    states = verify_site(_xe_fleet(tmp_path), "site-a", router)
    assert router.asked == ["show xconnect all", "show l2tp"]
    assert [(s.vlan, s.state, s.session) for s in states] == [
        (2996, "UP", "est"),
        (2997, "UP", "wt-sss"),
        (2998, "UP", "-"),
        (2999, "UP", "-"),
    ]
