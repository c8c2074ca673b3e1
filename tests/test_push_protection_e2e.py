"""Push adds protection to a running pair over real SSH to simulated routers, and rolls it back.

The example fleet ``examples/hub`` is protected (IKEv2/IPsec on the public WAN); its two Cisco
routers start from their base configs. The simulator knows the IKEv2 and crypto map commands as
grammar only (``l2tpgen/sim/commands.py``, Cisco sources there): it stores and prints them, it
does not encrypt. A refused crypto line must leave the router exactly as it was before the push,
and the refusal echoed back must not carry the IKE key.
"""

from __future__ import annotations

import json
from ipaddress import IPv4Address
from pathlib import Path
from typing import TYPE_CHECKING

from conftest_sim import IKE_PSK
from push_runs import cli, config_lines, push, section

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.ios.acl import acl_from_lines
from l2tpgen.model.keys import pair_psk
from l2tpgen.platforms.ios.render import render_base
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


_THEIRS = (
    "interface Tunnel10\n ip address 172.31.0.1 255.255.255.252\n"
    " tunnel source GigabitEthernet0/0/1\n tunnel destination 203.0.113.80\n"
    " tunnel protection ipsec profile CORP\n!\n"
    "interface Tunnel0\n ip address 172.30.0.1 255.255.255.0\n"
    " tunnel source GigabitEthernet0/0/1\n tunnel mode gre multipoint\n"
    " tunnel protection ipsec profile DMVPN\n!\n"
    "crypto ikev2 keyring CORP\n peer hq\n  address 203.0.113.81\n!\n"
    f"crypto isakmp key {IKEV1_KEY} address 203.0.113.82\n"
    "pseudowire-class THEIRS\n encapsulation l2tpv3\n ip local interface Loopback0\n!\n"
    "interface GigabitEthernet0/0/2\n"
    " xconnect 192.0.2.70 700 encapsulation l2tpv3 pw-class THEIRS\n!\n"
    "interface GigabitEthernet0/0/3\n no ip address\n!\n"
)


def _hub_with_theirs(new_lab: Callable[..., Lab]) -> Lab:
    return new_lab(sites=HUB, configs={"hub": _with(render_base(load_fleet(HUB), "hub"), _THEIRS)})


def _verdict(acl: str, protocol: int, source: str, destination: str) -> str:
    entries = acl_from_lines("l2tpgen-wan-in", acl.splitlines()[1:])
    return entries.verdict(protocol, IPv4Address(source), IPv4Address(destination))[0]


def test_other_vpns_and_pseudowires_keep_their_traffic_through_the_pushed_filter(
    new_lab: Callable[..., Lab],
) -> None:
    # Issue 33: the filter judges L2TPv3 to the hub's own addresses only. A VTI, a DMVPN hub
    # (refused before issue 33), IKE peers and another L2TPv3 xconnect keep their traffic.
    lab = _hub_with_theirs(new_lab)
    _, results = push(lab, "hub", sites=HUB)
    (pushed,) = results
    assert pushed["status"] == "changed", pushed
    acl = section(lab.running("hub"), "ip access-list extended l2tpgen-wan-in")
    entries = acl.splitlines()
    assert entries.index(" permit 115 host 192.0.2.70 any") < entries.index(
        " deny 115 any host 10.255.0.1"
    )
    for peer in ("203.0.113.80", "203.0.113.81", "203.0.113.82", "203.0.113.99"):
        for own in ("10.255.0.1", "198.51.100.1"):
            assert _verdict(acl, 50, peer, own) == "permit"  # ESP
            assert _verdict(acl, 17, peer, own) == "permit"  # IKE, NAT-T
    assert _verdict(acl, 115, "192.0.2.70", "10.255.0.1") == "permit"
    assert _verdict(acl, 115, "203.0.113.99", "10.255.0.1") == "deny"
    assert " tunnel protection ipsec profile CORP" in lab.running("hub")
    assert IKEV1_KEY not in json.dumps(results)


def test_a_changed_filter_is_edited_in_place_and_the_next_push_finds_nothing(
    new_lab: Callable[..., Lab],
) -> None:
    # Issue 33: the applied filter changes (someone adds a pseudowire) and push edits it by
    # sequence number on the router; the simulator takes Cisco's grammar for it.
    lab = _hub_with_theirs(new_lab)
    push(lab, "hub", sites=HUB)
    before = len(config_lines(lab, "hub"))
    router = lab.device("hub").router
    added = (
        "interface GigabitEthernet0/0/3\n"
        " xconnect 192.0.2.71 701 encapsulation l2tpv3 pw-class THEIRS\n"
    )
    assert router.load(added) == []
    _, results = push(lab, "hub", sites=HUB)
    (pushed,) = results
    assert pushed["status"] == "changed", pushed
    sent = config_lines(lab, "hub")[before:]
    assert "ip access-list resequence l2tpgen-wan-in 20 20" in sent
    assert not [line for line in sent if line.startswith("no ip access-list")]
    acl = section(lab.running("hub"), "ip access-list extended l2tpgen-wan-in")
    assert " permit 115 host 192.0.2.71 any\n" in acl
    again = cli(lab, "diff", "hub", "--exit-code", sites=HUB)
    assert again.exit_code == 0, again.output


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
