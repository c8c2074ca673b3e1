"""A protection plan applied to the simulated router, line by line as push sends it.

Not over SSH (``tests/test_push_*_e2e.py`` do that for the pseudowires): the simulator's IOS
grammar for the IKEv2 and crypto map commands (``l2tpgen/sim/commands.py``, Cisco sources there)
must take every line the plan sends, and a second plan against the router's resulting running
config must be empty (the router then holds exactly the rendering, in the part push owns).
Removing the protection again must give back the router's running config before the change,
byte for byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.model.keys import pair_psk
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim.router import Router

if TYPE_CHECKING:
    from l2tpgen.model import Site

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-sim-only-master-5"}


@pytest.fixture
def hub() -> tuple[Site, str, str]:
    fleet = load_fleet(HUB)
    intended = render_site(fleet, "hub", reveal_secrets=True, environ=ENV)
    return fleet.site("hub"), render_base(fleet, "hub"), intended


def test_the_simulator_takes_every_line_of_a_protection_push_and_ends_at_the_rendering(
    hub: tuple[Site, str, str],
) -> None:
    site, base, intended = hub
    router = Router("dc-pe1")
    assert router.load(base) == []
    plan = plan_change(site, router.running.body(), intended)
    assert "crypto ikev2 keyring l2tpgen" in plan.send
    assert send_plan(router, plan.send) == []
    running = router.running.body()
    assert " crypto map l2tpgen\n" in running
    assert "crypto map l2tpgen 10 ipsec-isakmp\n set peer 10.255.0.2\n" in running
    key = pair_psk(b"Psk-sim-only-master-5", ("hub", "branch"))  # the pair's own key
    assert f"  pre-shared-key {key}\n" in running
    assert "Psk-sim-only-master-5" not in running
    assert plan_change(site, running, intended).empty


def test_removing_protection_on_the_simulator_gives_back_the_config_before_it(
    hub: tuple[Site, str, str],
) -> None:
    site, base, intended = hub
    router = Router("dc-pe1")
    router.load(base)
    unprotected = intended.replace(" crypto map l2tpgen\n", "")
    before_plan = plan_change(site, router.running.body(), unprotected)
    assert send_plan(router, before_plan.send) == []
    before = router.running.body()
    assert send_plan(router, plan_change(site, before, intended).send) == []
    assert before != router.running.body()
    back = plan_change(site, router.running.body(), before)
    assert back.send[:2] == ("interface GigabitEthernet0/0/1", " no crypto map l2tpgen")
    assert send_plan(router, back.send) == []
    assert router.running.body() == before
