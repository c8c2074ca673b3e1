"""Push adds protection to a running pair over real SSH to simulated routers, and rolls it back.

The example fleet ``examples/hub`` is protected (IKEv2/IPsec on the public WAN); its two Cisco
routers start from their base configs. The simulator knows the IKEv2 and crypto map commands as
grammar only (``l2tpgen/sim/commands.py``, Cisco sources there): it stores and prints them, it
does not encrypt. A refused crypto line must leave the router exactly as it was before the push,
and the refusal echoed back must not carry the IKE key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from conftest_sim import IKE_PSK
from push_runs import cli, push

from l2tpgen import render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.model.keys import pair_psk
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest_sim import Lab

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"


def test_both_ends_get_protection_in_one_run_and_each_holds_exactly_its_rendering(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB)
    _, results = push(lab, "hub", "branch", sites=HUB)
    statuses = {r["site"]: r["status"] for r in results}
    assert statuses == {"hub": "changed", "branch": "changed"}, [
        {k: v for k, v in r.items() if k not in {"diff", "commands"}} for r in results
    ]
    for name in ("hub", "branch"):
        running = lab.running(name)
        assert " crypto map l2tpgen\n" in running
        assert " ip access-group l2tpgen-wan-in in\n" in running
        intended = render_site(lab.fleet, name, reveal_secrets=True)
        assert plan_change(lab.fleet.site(name), running, intended).empty, name
    again = cli(lab, "diff", "hub", "branch", "--exit-code", sites=HUB)
    assert again.exit_code == 0, again.output


def test_a_refused_crypto_line_rolls_the_router_back_to_its_exact_config_and_hides_the_key(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB, faults={"hub": Faults(refuse=r"pre-shared-key")})
    before = lab.running("hub")
    result = cli(lab, "push", "hub", "--yes", "--format", "json", sites=HUB)
    (pushed,) = json.loads(result.stdout)["results"]
    assert pushed["status"] == "rolled-back", pushed
    assert pushed["message"].startswith("the router refused `pre-shared-key <masked>`")
    assert lab.running("hub") == before
    assert IKE_PSK not in result.stdout + result.stderr
    for pair in (("hub", "branch"), ("hub", "linux-edge")):  # nor a pair key derived from it
        assert pair_psk(IKE_PSK.encode(), pair) not in result.stdout + result.stderr


def test_each_router_holds_the_keys_of_its_own_pairs_only(new_lab: Callable[..., Lab]) -> None:
    lab = new_lab(sites=HUB)
    push(lab, "hub", "branch", sites=HUB)
    to_branch = pair_psk(IKE_PSK.encode(), ("hub", "branch"))
    to_edge = pair_psk(IKE_PSK.encode(), ("hub", "linux-edge"))
    hub, branch = lab.running("hub"), lab.running("branch")
    assert f"  pre-shared-key {to_branch}\n" in hub
    assert f"  pre-shared-key {to_edge}\n" in hub
    assert f"  pre-shared-key {to_branch}\n" in branch
    assert to_edge not in branch  # the branch's config opens the branch's pair only
    assert IKE_PSK not in hub + branch  # the master key is on no router
