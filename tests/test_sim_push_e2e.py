"""push and verify against simulated routers that disagree with l2tpgen as real ones do.

Each router stores clear-text secrets under its own type 7 salt, refuses a duplicate (peer, VC ID),
prints IOS's notice when a subinterface goes, gives each SSH session its own command line, and can
refuse to save. Over real SSH, netmiko unmodified.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from builders import both_ends, copy_example, without_vlan
from conftest import SITES
from conftest_sim import L2TP_SECRET, Lab, start_lab
from push_runs import cli, push

from l2tpgen.device.messages import Kind, classify
from l2tpgen.device.session import LineError, answer_prompts, send_batch
from l2tpgen.device.verify import verify_site
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.render.classes import RENDER_SALT
from l2tpgen.sim import Faults
from l2tpgen.sim.config_mode import SUBINTERFACE_NOTICE, duplicate_xconnect
from l2tpgen.sim.flavor import IOS_XE
from l2tpgen.sim.storage import WRITE_BUSY

if TYPE_CHECKING:
    from pathlib import Path


def _stored_secret(lab: Lab, name: str) -> str:
    found = re.search(r"^ password 7 (\S+)$", lab.running(name), re.MULTILINE)
    assert found is not None
    return found.group(1)


def test_a_secret_typed_in_clear_on_the_router_is_unchanged_for_push_under_another_salt(
    lab: Lab,
) -> None:
    router = lab.device("site-a").router
    assert router.salt != RENDER_SALT
    # someone set the class up by hand: the router stores the secret under its own salt
    assert router.load(f"l2tp-class class1\n authentication\n password 0 {L2TP_SECRET}") == []
    stored = _stored_secret(lab, "site-a")
    assert stored == type7_encode(L2TP_SECRET, router.salt)
    assert stored != type7_encode(L2TP_SECRET, RENDER_SALT)
    code, (first,) = push(lab, "site-a")
    assert (code, first["status"]) == (0, "changed"), first
    assert not [c for c in first["commands"] if "password" in str(c)]
    assert _stored_secret(lab, "site-a") == stored
    code, (second,) = push(lab, "site-a")
    assert (code, second["status"], second["lines_sent"]) == (0, "unchanged", 0)


def test_a_changed_secret_is_pushed_whatever_salt_the_router_stored_the_old_one_under(
    lab: Lab,
) -> None:
    router = lab.device("site-a").router
    assert router.load("l2tp-class class1\n authentication\n password 0 an-old-secret") == []
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert " password 7 <masked>" in result["commands"]
    assert _stored_secret(lab, "site-a") == type7_encode(L2TP_SECRET, RENDER_SALT)


def test_a_duplicate_peer_and_vc_id_on_another_interface_is_refused_and_rolled_back(
    lab: Lab,
) -> None:
    # an xconnect l2tpgen does not manage (on the WAN port) already uses (site-b, VC ID 126)
    taken = (
        "interface GigabitEthernet0/1.50\n encapsulation dot1Q 50\n"
        " xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet\n"
    )
    assert lab.device("site-a").router.load(taken) == []
    before = lab.running("site-a")
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (3, "rolled-back"), result
    refusal = duplicate_xconnect("10.216.44.47", "126", "GigabitEthernet0/1.50")
    assert refusal.startswith("% ")
    assert result["errors"] == [
        f"xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet: {refusal}"
    ]
    assert lab.running("site-a") == before


def test_removing_a_vlan_gets_ios_subinterface_notice_and_no_rollback(
    lab: Lab, tmp_path: Path
) -> None:
    assert push(lab, "site-a")[0] == 0
    sites = without_vlan(tmp_path, 2998)
    code, (result,) = push(lab, "site-a", sites=sites)
    assert (code, result["status"]) == (0, "changed"), result
    assert result["commands"] == ["no interface GigabitEthernet0/0.2998"]
    assert "GigabitEthernet0/0.2998" not in lab.running("site-a")
    # what push's session layer reads from the router after that line: a notice, not a refusal
    connection = lab.connect("site-a")
    try:
        batch = send_batch(connection, ["no interface GigabitEthernet0/0.2997"])
    finally:
        connection.disconnect()
    assert batch.refused == ()
    removed = "no interface GigabitEthernet0/0.2997"
    assert batch.notices == (LineError(removed, SUBINTERFACE_NOTICE),)


def test_swapping_two_vlans_vc_ids_is_pushed_in_an_order_ios_accepts(
    lab: Lab, tmp_path: Path
) -> None:
    assert push(lab, "site-a")[0] == 0
    swap = (("vc_id: 126", "vc_id: X"), ("vc_id: 127", "vc_id: 126"), ("vc_id: X", "vc_id: 127"))
    sites = copy_example(SITES, tmp_path, *(e for old, new in swap for e in both_ends(old, new)))
    code, (result,) = push(lab, "site-a", sites=sites)
    assert (code, result["status"]) == (0, "changed"), result


def test_push_shows_the_notice_a_removed_subinterface_prints(lab: Lab, tmp_path: Path) -> None:
    assert push(lab, "site-a")[0] == 0
    sites = without_vlan(tmp_path, 2998)
    printed = cli(lab, "push", "site-a", "--yes", "--format", "json", sites=sites).output
    assert "Not all config may be removed" in printed


def test_verify_from_a_second_session_while_the_first_is_in_config_mode(lab: Lab) -> None:
    pusher, verifier = lab.connect("site-a"), lab.connect("site-a")
    try:
        pusher.config_mode()
        pusher.send_config_set(["interface GigabitEthernet0/0.2996"], exit_config_mode=False)
        assert pusher.find_prompt() == "lab-a-rtr1(config-subif)#"
        assert verifier.find_prompt() == "lab-a-rtr1#"
        states = verify_site(lab.fleet, "site-a", verifier)
        assert [s.state for s in states] == ["MISSING"] * 4
        # the first session is where it was: its next line lands on the subinterface
        output = pusher.send_config_set(["encapsulation dot1Q 2996"], exit_config_mode=False)
        assert "%" not in output
        assert pusher.find_prompt() == "lab-a-rtr1(config-subif)#"
    finally:
        pusher.disconnect()
        verifier.disconnect()
    assert "interface GigabitEthernet0/0.2996\n encapsulation dot1Q 2996\n" in lab.running("site-a")


@pytest.mark.usefixtures("lab_env")
def test_a_router_refusing_to_save_prints_ios_failure_and_keeps_its_startup_config(
    tmp_path: Path,
) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(refuse_save=True)})
    try:
        before = lab.device("site-a").router.startup.body()
        connection = lab.connect("site-a")
        try:
            output = answer_prompts(connection, "write memory")
        finally:
            connection.disconnect()
        (line,) = [x for x in output.splitlines() if "failed" in x]
        assert line.strip() == WRITE_BUSY
        assert classify(line) is Kind.REFUSAL
        code, (result,) = push(lab, "site-a")
        assert (code, result["status"]) == (1, "unsaved"), result
        assert lab.device("site-a").router.startup.body() == before
    finally:
        lab.sim.close()


@pytest.mark.usefixtures("lab_env")
def test_push_does_not_report_a_refused_save_as_saved(tmp_path: Path) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(refuse_save=True)})
    try:
        code, (result,) = push(lab, "site-a")
        assert (code, result["status"]) == (1, "unsaved"), result
        message = str(result["message"])
        assert "NOT saved" in message
        assert WRITE_BUSY in message
        assert "unless you run `write memory` on the router" in message
    finally:
        lab.sim.close()


@pytest.mark.usefixtures("lab_env")
def test_a_connection_drops_once_so_the_push_after_the_rollback_goes_through(
    tmp_path: Path,
) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(drop_after_config_lines=3)})
    try:
        code, (dropped,) = push(lab, "site-a")
        assert (code, dropped["status"]) == (3, "rolled-back"), dropped
        code, (result,) = push(lab, "site-a")
        assert (code, result["status"]) == (0, "changed"), result
    finally:
        lab.sim.close()


@pytest.mark.usefixtures("lab_env")
def test_an_iosxe_lab_inventory_names_its_routers_cisco_xe(tmp_path: Path) -> None:
    lab = start_lab(tmp_path, flavor=IOS_XE)
    lab.sim.close()
    sites = json.loads(lab.inventory.read_text())["sites"]
    assert {entry["device_type"] for entry in sites.values()} == {"cisco_xe"}


@pytest.mark.usefixtures("lab_env")
def test_push_changes_nothing_when_its_rollback_copy_cannot_be_saved(
    tmp_path: Path,
) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(refuse="^copy running-config")}, flavor=IOS_XE)
    try:
        before = lab.running("site-a")
        code, (result,) = push(lab, "site-a")
        assert (code, result["status"]) == (1, "failed"), result
        assert "could not save a rollback copy to bootflash:" in str(result["message"])
        assert lab.running("site-a") == before
        # configuration mode is entered in the copy's write (to read the config under the
        # lock), but no configuration line is typed: push's read and `end` only
        typed = [t for k, t in lab.device("site-a").router.events if k == "config"]
        assert typed == ["do show running-config", "end"]
    finally:
        lab.sim.close()


@pytest.mark.usefixtures("lab_env")
def test_push_to_an_iosxe_router_uses_bootflash(tmp_path: Path) -> None:
    lab = start_lab(tmp_path, flavor=IOS_XE)
    try:
        code, (result,) = push(lab, "site-a")
        assert (code, result["status"]) == (0, "changed"), result
    finally:
        lab.sim.close()
