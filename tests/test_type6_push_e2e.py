"""Push converges on a router that stores keys as type 6, over real SSH to a simulated router.

Issue 33 item 7: with `password encryption aes` the router shows `pre-shared-key 6 ...`, and every
push re-sent every keyring key. The simulator stores keyring keys as type 6 once `password
encryption aes` is set (``l2tpgen/sim/type6.py``, Cisco's "Encrypted Preshared Key" cited there).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from conftest_sim import IKE_PSK
from push_runs import cli, push

from l2tpgen import load_fleet
from l2tpgen.model.keys import pair_psk
from l2tpgen.platforms.ios.render import render_base

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest_sim import Lab

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"


def test_a_second_push_to_a_router_with_password_encryption_aes_says_unchanged(
    new_lab: Callable[..., Lab],
) -> None:
    base = render_base(load_fleet(HUB), "hub") + "password encryption aes\n"
    lab = new_lab(sites=HUB, configs={"hub": base})
    _, first = push(lab, "hub", sites=HUB)
    assert [r["status"] for r in first] == ["changed"], first
    running = lab.running("hub")
    assert re.search(r"^  pre-shared-key 6 \S+$", running, re.MULTILINE), running
    assert pair_psk(IKE_PSK.encode(), ("hub", "branch")) not in running
    code, second = push(lab, "hub", sites=HUB)
    assert code == 0
    assert [r["status"] for r in second] == ["unchanged"], second
    assert not second[0]["commands"]
    assert any("type 6" in note for note in second[0]["notes"])
    diff = cli(lab, "diff", "hub", "--exit-code", sites=HUB)
    assert diff.exit_code == 0, diff.output
    assert "6 " not in json.dumps(second[0]["diff"])
