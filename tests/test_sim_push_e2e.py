"""push and verify against simulated routers that disagree with l2tpgen as real ones do.

Each router stores clear-text secrets under its own type 7 salt and gives each SSH session its own
command line. Over real SSH, netmiko unmodified.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from conftest import SITES
from conftest_sim import L2TP_SECRET, Lab
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.device.verify import verify_site
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.render.classes import RENDER_SALT

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()


def _push(lab: Lab, *args: str, sites: Path = SITES) -> tuple[int, list[dict[str, object]], str]:
    result = runner.invoke(
        app,
        [
            "push",
            *args,
            "--sites",
            str(sites),
            "--inventory",
            str(lab.inventory),
            "--yes",
            "--format",
            "json",
        ],
    )
    document = json.loads(result.stdout) if result.stdout.strip() else {"results": []}
    return result.exit_code, document["results"], result.output


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
    code, (first,), _ = _push(lab, "site-a")
    assert (code, first["status"]) == (0, "changed"), first
    assert not [c for c in first["commands"] if "password" in str(c)]  # type: ignore[attr-defined]
    assert _stored_secret(lab, "site-a") == stored
    code, (second,), _ = _push(lab, "site-a")
    assert (code, second["status"], second["lines_sent"]) == (0, "unchanged", 0)


def test_a_changed_secret_is_pushed_whatever_salt_the_router_stored_the_old_one_under(
    lab: Lab,
) -> None:
    router = lab.device("site-a").router
    assert router.load("l2tp-class class1\n authentication\n password 0 an-old-secret") == []
    code, (result,), _ = _push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert " password 7 <masked>" in result["commands"]  # type: ignore[operator]
    assert _stored_secret(lab, "site-a") == type7_encode(L2TP_SECRET, RENDER_SALT)


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
