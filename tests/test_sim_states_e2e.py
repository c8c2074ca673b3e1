"""The states simulated routers give pseudowires, as `verify` reads them over SSH.

Both flavors: classic IOS (two-line legend) and IOS-XE (three-line legend, SB/HS/RV), laid out as
the real captures in tests/realworld/show are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import TESTS
from conftest_sim import L2TP_SECRET, Lab, start_lab

from l2tpgen.device.verify import verify_site
from l2tpgen.platforms.render import render_site
from l2tpgen.sim.flavor import IOS, IOS_XE, Flavor

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

SHOW = TESTS / "realworld" / "show"
PEER_OF_A = "10.216.44.47"  # site-b's tunnel source
VLANS = (2996, 2997, 2998, 2999)
FLAVORS = [pytest.param(IOS, id="ios"), pytest.param(IOS_XE, id="iosxe")]


@pytest.fixture(params=FLAVORS)
def built(request: pytest.FixtureRequest, tmp_path: Path, lab_env: None) -> Iterator[Lab]:  # noqa: ARG001 - needs the environment
    """Both routers of the example fleet holding their rendered configs."""
    lab = start_lab(tmp_path, flavor=request.param)
    for name in ("site-a", "site-b"):
        config = render_site(
            lab.fleet, name, reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET}
        )
        assert lab.device(name).router.load(config) == []
    yield lab
    lab.sim.close()


def _states(lab: Lab, name: str = "site-a") -> dict[int, str]:
    connection = lab.connect(name)
    try:
        return {s.vlan: s.state for s in verify_site(lab.fleet, name, connection)}
    finally:
        connection.disconnect()


def _far_end_missing(lab: Lab) -> None:
    lab.device("site-b").router.load("no interface GigabitEthernet0/0.2996")


def _shut(lab: Lab) -> None:
    lab.device("site-a").router.load("interface GigabitEthernet0/0.2996\n shutdown")


def _module_pulled(lab: Lab) -> None:
    hardware = lab.device("site-a").router.hardware
    assert hardware is not None
    hardware.discard("GigabitEthernet0/0")


def _class_gone(lab: Lab) -> None:
    lab.device("site-a").router.load("no pseudowire-class ethernet")


def _pin(state: str) -> Callable[[Lab], None]:
    def pin(lab: Lab) -> None:
        lab.device("site-a").router.pinned[PEER_OF_A, 126] = state

    return pin


CASES = [
    pytest.param(lambda _lab: None, dict.fromkeys(VLANS, "UP"), id="UP-both-ends"),
    pytest.param(_far_end_missing, {2996: "DN", 2997: "UP", 2998: "UP", 2999: "UP"}, id="DN"),
    pytest.param(_shut, {2996: "AD", 2997: "UP", 2998: "UP", 2999: "UP"}, id="AD-shut"),
    pytest.param(_module_pulled, dict.fromkeys(VLANS, "NH"), id="NH-no-port"),
    pytest.param(_class_gone, dict.fromkeys(VLANS, "IA"), id="IA-no-pw-class"),
    *(
        pytest.param(_pin(code), {2996: code, 2997: "UP", 2998: "UP", 2999: "UP"}, id=code)
        for code in ("SB", "HS", "RV", "--")
    ),
]


@pytest.mark.parametrize(("make", "expected"), CASES)
def test_verify_reads_every_state_the_simulator_prints(
    built: Lab, make: Callable[[Lab], None], expected: dict[int, str]
) -> None:
    make(built)
    assert _states(built) == expected


@pytest.mark.parametrize("make", [_shut, _module_pulled, _class_gone], ids=["AD", "NH", "IA"])
def test_a_pseudowire_stopped_at_one_end_is_down_at_the_other(
    built: Lab, make: Callable[[Lab], None]
) -> None:
    make(built)
    assert _states(built, "site-b")[2996] == "DN"


def _show_xconnect(lab: Lab) -> list[str]:
    router = lab.device("site-a").router
    return router.open_terminal().handle("show xconnect all").splitlines()


@pytest.mark.parametrize(
    ("flavor", "capture", "legend_at"),
    [
        pytest.param(IOS, "genieparser-show-xconnect-all-1.txt", 2, id="ios"),
        pytest.param(IOS_XE, "spcor-show-xconnect-all-detail.txt", 1, id="iosxe"),
    ],
)
def test_show_xconnect_is_laid_out_as_the_real_captures(
    tmp_path: Path,
    lab_env: None,  # noqa: ARG001 - needs the environment
    flavor: Flavor,
    capture: str,
    legend_at: int,
) -> None:
    real = (SHOW / capture).read_text().splitlines()
    lab = start_lab(tmp_path, flavor=flavor)
    try:
        config = render_site(
            lab.fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET}
        )
        lab.device("site-a").router.load(config)
        shown = _show_xconnect(lab)
    finally:
        lab.sim.close()
    head = len(flavor.legend) + 2  # the legend, the header and its ruler
    assert shown[:head] == real[legend_at : legend_at + head]
    row = shown[head]
    real_row = real[legend_at + head]
    assert row.startswith("DN pri ")
    # the segment type sits where the capture has it; S1 and S2 are in the same columns
    assert row[7:11] == ("ac  " if flavor is IOS else "  ac")
    assert real_row[7:11] == row[7:11]
    assert (row[41:43], row[78:80]) == ("UP", "DN")
    assert (real_row[41:43], real_row[78:80]) == ("UP", "UP")
