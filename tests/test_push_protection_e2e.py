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
from push_runs import cli, config_lines, push, section

from l2tpgen import render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.model.keys import pair_psk
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest_sim import Lab

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
IKEV1_KEY = "Ikev1-key-of-the-user-5"


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


def _with(lab_base: str, theirs: str) -> str:
    """The hub's base config with a VPN of the user's (its lines go before `end`, if any)."""
    return (
        lab_base.replace("\nend\n", f"\n{theirs}end\n")
        if "\nend\n" in lab_base
        else lab_base + theirs
    )


def test_a_tunnel_protection_and_ike_peers_keep_ike_and_esp_through_the_pushed_filter(
    new_lab: Callable[..., Lab],
) -> None:
    # Issue 25: the filter ends in `deny esp any any` / `deny udp any any eq 500|4500`; a GRE
    # tunnel with `tunnel protection` sourced from the WAN to 203.0.113.80 must keep its peer.
    from l2tpgen import load_fleet  # noqa: PLC0415
    from l2tpgen.platforms.ios.render import render_base  # noqa: PLC0415

    vti = (
        "interface Tunnel10\n ip address 172.31.0.1 255.255.255.252\n"
        " tunnel source GigabitEthernet0/0/1\n tunnel destination 203.0.113.80\n"
        " tunnel protection ipsec profile CORP\n!\n"
        "crypto ikev2 keyring CORP\n peer hq\n  address 203.0.113.81\n!\n"
        f"crypto isakmp key {IKEV1_KEY} address 203.0.113.82\n"
    )
    base = _with(render_base(load_fleet(HUB), "hub"), vti)
    lab = new_lab(sites=HUB, configs={"hub": base})
    _, results = push(lab, "hub", sites=HUB)
    (pushed,) = results
    assert pushed["status"] == "changed", pushed
    acl = section(lab.running("hub"), "ip access-list extended l2tpgen-wan-in")
    entries = acl.splitlines()
    deny = entries.index(" deny esp any any")
    for peer in ("203.0.113.80", "203.0.113.81", "203.0.113.82"):
        assert entries.index(f" permit esp host {peer} any") < deny, acl
        assert entries.index(f" permit udp host {peer} any eq 500") < deny, acl
        assert entries.index(f" permit udp host {peer} any eq 4500") < deny, acl
    assert " tunnel protection ipsec profile CORP" in lab.running("hub")
    assert IKEV1_KEY not in json.dumps(results)


def test_a_dmvpn_hub_on_the_router_refuses_the_filter_and_nothing_is_sent(
    new_lab: Callable[..., Lab],
) -> None:
    from l2tpgen import load_fleet  # noqa: PLC0415
    from l2tpgen.platforms.ios.render import render_base  # noqa: PLC0415

    mgre = (
        "interface Tunnel0\n ip address 172.30.0.1 255.255.255.0\n"
        " tunnel source GigabitEthernet0/0/1\n tunnel mode gre multipoint\n"
        " tunnel protection ipsec profile DMVPN\n!\n"
    )
    lab = new_lab(sites=HUB, configs={"hub": _with(render_base(load_fleet(HUB), "hub"), mgre)})
    before = lab.running("hub")
    result = cli(lab, "push", "hub", "--yes", "--format", "json", sites=HUB)
    (pushed,) = json.loads(result.stdout)["results"]
    assert pushed["status"] != "changed", pushed
    assert "interface Tunnel0 (DMVPN mGRE, tunnel protection): its peers" in pushed["message"]
    assert "protection.inbound_filter: false" in pushed["message"]
    assert lab.running("hub") == before
    assert not config_lines(lab, "hub")
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
