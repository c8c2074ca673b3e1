"""A fleet push is all-or-nothing before its first line, and never leaves a pair half-protected.

Over real SSH against simulated routers of the protected example fleet (``examples/hub``: IKEv2 /
IPsec between hub and branch). Every router of a run is read, planned and checked before any
router changes; a router that would be refused (here: another crypto map already on its WAN,
which IOS allows only one of per interface) keeps every other router of the run as it was. The
simulator shows a pseudowire with IPsec at one end only as down (``l2tpgen/sim/ipsec.py``), so
the pair check after a push sees a half-protected pair.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME
from push_runs import cli, exec_lines, push

from l2tpgen.device.credentials import Credentials
from l2tpgen.device.fleet import _held, push_fleet
from l2tpgen.device.inventory import Target
from l2tpgen.device.push import PushOptions
from l2tpgen.device.result import PushResult, Status
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest_sim import Lab

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
FOREIGN_MAP = "interface GigabitEthernet0/0/1\n crypto map theirs\n"


def test_push_a_b_with_a_refused_before_any_change_changes_nothing_on_b(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB)
    assert lab.device("hub").router.load(FOREIGN_MAP) == []
    before = {name: lab.running(name) for name in ("hub", "branch")}

    code, results = push(lab, "hub", "branch", sites=HUB)

    by_site = {r["site"]: r for r in results}
    assert code == 1
    assert by_site["hub"]["status"] == "refused"
    assert "crypto map" in by_site["hub"]["message"]
    assert by_site["branch"]["status"] == "refused"
    assert "hub would be refused" in by_site["branch"]["message"]
    assert "every router or none" in by_site["branch"]["message"]
    assert {name: lab.running(name) for name in before} == before
    assert not any(line.startswith("conf") for line in exec_lines(lab, "branch"))


def test_an_end_whose_crypto_map_is_refused_mid_change_takes_its_peer_back_too(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB, faults={"hub": Faults(refuse=r"^\s*crypto map l2tpgen$")})
    before = {name: lab.running(name) for name in ("hub", "branch")}

    code, results = push(lab, "hub", "branch", sites=HUB)

    by_site = {r["site"]: r for r in results}
    assert by_site["hub"]["status"] == "rolled-back", by_site["hub"]["message"]
    assert by_site["branch"]["status"] == "rolled-back", by_site["branch"]["message"]
    assert "never left half-protected" in by_site["branch"]["message"]
    assert code == 3
    assert {name: lab.running(name) for name in before} == before


def _branch_states(lab: Lab) -> tuple[int, set[str]]:
    """``verify branch``: its exit code and the states of its pseudowires (all to the hub)."""
    checked = cli(lab, "verify", "branch", "--format", "json", sites=HUB)
    rows = json.loads(checked.stdout)["pseudowires"]
    return checked.exit_code, {row["state"] for row in rows}


def test_ipsec_at_one_end_only_is_down_and_fails_the_pair_check(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB)
    code, results = push(lab, "hub", "branch", sites=HUB)
    assert code == 0, [r["message"] for r in results]
    assert _branch_states(lab) == (0, {"UP"})
    lab.device("branch").router.load("interface GigabitEthernet0/1\n no crypto map l2tpgen\n")
    assert " crypto map l2tpgen\n" not in lab.running("branch")

    code, states = _branch_states(lab)

    assert code == 1
    assert "UP" not in states, states


def test_a_stop_during_the_checks_stops_every_router_of_the_run_not_refuses_them() -> None:
    stopped = {"hub": PushResult("hub", Status.STOPPED, "stopped before any change")}
    refused = {"hub": PushResult("hub", Status.REFUSED, "not pushed: a foreign crypto map")}

    assert _held("branch", stopped).status is Status.STOPPED
    assert _held("branch", refused).status is Status.REFUSED
    assert _held("hub", refused) is refused["hub"]


def test_a_router_gone_between_the_checks_and_its_change_takes_the_other_end_back(
    lab: Lab, tmp_path: Path
) -> None:
    pair = ("site-a", "site-b")
    before = {name: lab.running(name) for name in pair}
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    targets = {n: Target(n, "127.0.0.1", lab.device(n).port, "cisco_ios", known) for n in pair}
    connecting: list[str] = []

    def progress(site: str, phase: str) -> None:
        if phase == "connecting":
            connecting.append(site)
            if connecting.count("site-b") == 2:  # checked by the preflight, gone before its change
                lab.sim.servers.stop("site-b")

    options = PushOptions(
        state_dir=tmp_path / "state",
        environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET},
        progress=progress,
    )
    report = push_fleet(lab.fleet, targets, Credentials(USERNAME, PASSWORD), options, workers=2)

    by_site = {r.site: r for r in report.results}
    assert by_site["site-b"].status.value == "refused", by_site["site-b"].message
    assert by_site["site-a"].status.value == "rolled-back", by_site["site-a"].message
    assert "could not be reached" in by_site["site-a"].message
    assert report.exit_code == 3
    assert lab.running("site-a") == before["site-a"]
    assert lab.device("site-a").router.startup.body() == before["site-a"]
