"""An attacker that has not read the site files (issue 25), and the judges of what it achieves.

The fleet is ``builders.mixed_fleet``: three Linux PEs on documentation addresses,
each tunnel sourced from a loopback; ``hub`` (tunnel 10.255.0.1, WAN 198.51.100.1/29) runs IPsec to
``branch`` (VLAN 100, session 100, keyed 8-byte cookies) and keyed cookies only to ``edge``
(VLAN 200): the loopback-sourced PE and the mixed PE at once. The attacker
(``l2tpgen/lab/adversary.py``) sits on the WAN router's link to the hub; it is given the session
ID of VLAN 100 and its cookie (the worst case: as if read off the wire before protection).

Facts the checks rely on, cited: the kernel finds an L2TPv3 data packet's session by its session
ID alone, over IPv4 and IPv6 alike (torvalds/linux ``net/l2tp/l2tp_ip.c`` ``l2tp_ip_recv`` and
``net/l2tp/l2tp_ip6.c`` ``l2tp_ip6_recv``: ``l2tp_session_get(net, session_id)``); neither
protocol handler sets ``no_policy`` / ``INET6_PROTO_NOPOLICY`` (``l2tp_ip6_protocol`` has only
``.handler``), so the xfrm inbound check runs on both families before delivery. RFC 3931
section 4.6: the default L2-Specific Sublayer (S bit, 24-bit sequence number).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from builders import mixed_fleet
from conftest_lab import beside, requires_protection, requires_vm
from typer.testing import CliRunner

import l2tpgen.lab.engines.attacker
import l2tpgen.lab.engines.vm
from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.adversary import SENT, VARIANTS, Aim, aim, forge_probes, markers
from l2tpgen.lab.engines.attacker import AttackReport, judge, run_attacks, without_blocks
from l2tpgen.lab.engines.vm import LabReport
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.probes import CheckResult
from l2tpgen.lab.security import reveal_secrets
from l2tpgen.lab.topology import build_topology, protection_files

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.lab.inputs import Lab


def _lab(tmp_path: Path) -> Lab:
    fleet = load_fleet(mixed_fleet(tmp_path))
    lab = parse_lab(build_topology(fleet, name="mx"), "mx", beside(fleet))
    return reveal_secrets(lab)


def _aim(tmp_path: Path) -> Aim:
    return aim(_lab(tmp_path))


def test_the_attacker_aims_at_the_mixed_loopback_sourced_pe_from_its_wan_segment(
    tmp_path: Path,
) -> None:
    a = _aim(tmp_path)
    assert (a.pe, a.peer, a.clear_peer) == ("pe-hub", "pe-branch", "pe-edge")
    assert (a.tunnel, a.peer_tunnel, a.clear_address) == ("10.255.0.1", "10.255.0.2", "10.255.0.3")
    assert (a.pair.vlan, a.session) == (100, 100)
    assert (a.wan, a.interface, a.subnet) == ("wan", "eth3", "198.51.100.6/29")
    assert re.fullmatch(r"[0-9a-f]{16}", a.cookie)  # the keyed cookie the hub expects
    assert re.fullmatch(r"[0-9a-f]{16}", a.clear_cookie)  # what edge sends on its own session
    assert a.cookie != a.clear_cookie


def test_the_attacker_learns_addresses_from_the_wire_not_from_the_topology(tmp_path: Path) -> None:
    a = _aim(tmp_path)
    probes = {p.key: p for p in forge_probes(a, "steady", "p-")}
    discover = probes["adv.steady.discover"].command
    # a sweep of its own /29 but itself, then the ARP and neighbour tables; IPv6 all-nodes
    sweep = re.search(r"for h in ([\d. ]+); do ping", discover)
    assert sweep is not None
    assert sweep.group(1).split() == [f"198.51.100.{n}" for n in (1, 2, 3, 4, 5)]
    assert "ping -6 -c 2 -W 1 -I eth3 ff02::1" in discover
    assert "ip -4 neigh show dev eth3" in discover
    assert "10.255.0.1" not in discover  # the hub's tunnel address is not given
    send = probes["adv.steady.send"].command
    assert "10.255.0.1" not in send
    assert "198.51.100.1 " not in send
    for fixed in ("255.255.255.255", "224.0.0.1", "ff02::1", "$broadcast"):
        assert f" {fixed} 100 " in send  # session 100, to each broadcast or multicast address
    # the stronger case reads every address in the hub's own namespace
    assert probes["adv.steady.all"].node == "pe-hub"
    assert '"/tmp/l2tpgen/p-pe-hub/all4"' in send
    assert len(markers("steady")) <= 128  # pwprobe watch's MAX_MARKERS


def test_the_control_leaves_out_the_block_policies_and_the_binding_and_nothing_else(
    tmp_path: Path,
) -> None:
    lab = _lab(tmp_path)
    control = without_blocks(lab)
    for node in lab.nodes:
        dropped = [c for c in node.exec if c not in control.node(node.name).exec]
        blocks = [c for c in dropped if " action block " in c]
        assert blocks == [c for c in dropped if not c.startswith("nft ")]
        if node.name == "pe-hub":
            assert len(blocks) == 4  # out and in, IPv4 and IPv6
            assert len(dropped) == 5  # and the hub's binding of its two peers (issue 33)
            assert any(c.startswith("ip xfrm") for c in control.node(node.name).exec)  # allows


def _results(
    *, delivered: int, clear: int, reach: str = "0", mixed: int = 0, right: int = 5
) -> dict[str, str]:
    """A copy's probe results: ``delivered`` of each forgery, ``clear`` packets per phase."""
    out: dict[str, str] = {"adv.steady.reach": reach}
    for phase in ("boot", "steady"):
        sends = [f"{phase}{k}0{v} 192.0.2.1 {SENT}" for k in "daf" for v in VARIANTS]
        sends += [f"{phase}{k}{v} 192.0.2.7 {SENT}" for k in "bBmM" for v in VARIANTS]
        out[f"adv.{phase}.send"] = "\n".join(sends)
        hits = dict.fromkeys(markers(phase), 0)
        for m in hits:
            label = m[len(f"PWZ{phase}") :]
            if label.endswith("r"):
                hits[m] = right
            elif label.startswith("x"):
                hits[m] = mixed
            elif label.endswith("nn"):
                hits[m] = delivered
        out[f"adv.{phase}.ce"] = "\n".join(f"hit:{m} {n}" for m, n in hits.items()) + "\nend"
    for phase in ("boot", "restart", "crash"):
        out[f"adv.{phase}.wan"] = f"l2tp {clear}\nl2tp_pair {clear}\nend"
    for phase in ("restart", "crash"):
        out[f"adv.{phase}.xfrm.before"] = "XfrmOutPolBlock\t4\nXfrmInPolBlock\t0"
        out[f"adv.{phase}.xfrm.after"] = "XfrmOutPolBlock\t30\nXfrmInPolBlock\t0"
        out[f"adv.{phase}.back"] = "0"
        out[f"adv.{phase}.ping"] = "40 packets transmitted, 30 received, 25% packet loss"
    return out


def _verdicts(protected: dict[str, str], control: dict[str, str], a: Aim) -> dict[str, bool]:
    return {r.check: r.ok for r in judge(a, protected, control)}


def test_every_check_passes_when_nothing_gets_through_and_the_control_shows_the_attacks_work(
    tmp_path: Path,
) -> None:
    a = _aim(tmp_path)
    safe = _results(delivered=0, clear=0, right=0)
    control = _results(delivered=5, clear=20, mixed=5)
    verdicts = _verdicts(safe, control, a)
    restart = next(r for r in judge(a, safe, control) if r.check == "attack-restart")
    assert "XfrmOutPolBlock +26)" in restart.detail  # what the block dropped, from the PE
    assert verdicts == dict.fromkeys(
        (
            "attack-discovered",
            "attack-every-address",
            "attack-boot",
            "attack-restart",
            "attack-crash",
            "attack-mixed",
        ),
        True,
    )


@pytest.mark.parametrize(
    ("change", "failed"),
    [
        ({"delivered": 1}, {"attack-discovered", "attack-every-address", "attack-boot"}),
        ({"clear": 2}, {"attack-boot", "attack-restart", "attack-crash"}),
        ({"mixed": 1}, {"attack-mixed"}),
        # the right cookie from the clear peer: the hub's binding keeps it out too (issue 33)
        ({"right": 1}, {"attack-mixed"}),
        # a session that does not exist delivers nothing: a 0 then proves nothing
        (
            {"reach": "1"},
            {
                "attack-discovered",
                "attack-every-address",
                "attack-boot",
                "attack-mixed",
            },
        ),
    ],
)
def test_each_check_fails_when_the_protected_copy_lets_one_through(
    tmp_path: Path, change: dict[str, int | str], failed: set[str]
) -> None:
    a = _aim(tmp_path)
    safe = _results(**{"delivered": 0, "clear": 0, "right": 0, **change})  # type: ignore[arg-type]
    control = _results(delivered=5, clear=20, mixed=5)
    verdicts = _verdicts(safe, control, a)
    assert {name for name, ok in verdicts.items() if not ok} == failed


def test_each_check_fails_when_its_control_shows_the_attack_broken(tmp_path: Path) -> None:
    a = _aim(tmp_path)
    safe = _results(delivered=0, clear=0, right=0)
    broken = _results(delivered=0, clear=0, right=0)
    verdicts = _verdicts(safe, broken, a)
    # the crash's control may be 0 (the kernel keeps SAs and policies across a SIGKILL)
    assert {name for name, ok in verdicts.items() if not ok} == {
        "attack-discovered",
        "attack-every-address",
        "attack-boot",
        "attack-restart",
        "attack-mixed",
    }


def _figure(detail: str, pattern: str) -> int:
    found = re.search(pattern, detail)
    assert found is not None, (pattern, detail)
    return int(found.group(1))


@pytest.mark.lab
@requires_vm
@requires_protection
def test_an_attacker_without_the_site_files_gets_nothing_through_a_fail_closed_pe(
    tmp_path: Path,
) -> None:
    report = run_attacks(parse_lab(*_topology(tmp_path)))
    details = {r.check: r.detail for r in report.results}
    print("\n".join(f"{r.check}: {r.ok}: {r.detail}" for r in report.results))  # noqa: T201
    assert report.setup_errors == ()
    # forgeries to the WAN address of the loopback-sourced hub and to the broadcast addresses
    discovered = details["attack-discovered"]
    for address in ("198.51.100.1", "198.51.100.7", "255.255.255.255", "224.0.0.1", "ff02::1"):
        assert f"({address} 0" in discovered or f", {address} 0" in discovered, address
        control = discovered.split("control", 1)[1]
        assert _figure(control, rf"{re.escape(address)} (\d+)") > 0, address
    assert _figure(discovered, r": 0/(\d+) reached ce-hub") > 0
    assert _figure(discovered, r"control without the block policies: (\d+)/") > 0
    every = details["attack-every-address"]
    assert _figure(every, r": (\d+)/\d+ reached ce-hub") == 0
    assert _figure(every, r"control without the block policies: (\d+)/") > 0
    # a graceful charon restart puts 0 clear L2TPv3 on the WAN; the control more than 0
    restart = details["attack-restart"]
    assert _figure(restart, r": (\d+) clear L2TPv3 packets") == 0
    assert _figure(restart, r"control: (\d+) clear") > 0
    assert "answering again" in restart
    assert "NOT answering" not in restart
    assert _figure(details["attack-crash"], r": (\d+) clear L2TPv3 packets") == 0
    boot = details["attack-boot"]
    assert _figure(boot, r"daemon: (\d+) clear") == 0
    assert _figure(boot, r"control: (\d+) clear") > 0
    # the clear peer, or someone spoofing it, cannot reach the IPsec session without its cookie
    mixed = details["attack-mixed"]
    assert _figure(mixed, r"own: (\d+)/\d+ reached") == 0
    assert _figure(mixed, r"control: (\d+)/5") > 0
    # ...nor with the session's right cookie: the hub binds the clear peer to its own sessions
    # (issue 33; before it, the cookie was the one barrier and these were 5/5 and 5/5)
    right = re.search(r"right cookie \(never sent in clear\): (\d+)/\d+ and (\d+)/", mixed)
    assert right is not None, mixed
    assert right.groups() == ("0", "0"), mixed
    assert all(r.ok for r in report.results), details


def _topology(tmp_path: Path) -> tuple[dict[str, object], str, dict[str, str]]:
    fleet = load_fleet(mixed_fleet(tmp_path))
    return build_topology(fleet, name="mx"), "mx", protection_files(fleet)


def test_lab_run_attack_full_appends_the_attackers_checks_to_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    usual = CheckResult("reach", 100, "branch->hub", ok=True, detail="3/3")
    attacked = CheckResult("attack-restart", 100, "wan->pe-hub", ok=False, detail="37 clear")
    monkeypatch.setattr(
        l2tpgen.lab.engines.vm,
        "run_vm",
        lambda lab, **_: LabReport(lab.name, "vm", (usual,), (), 9),
    )
    calls: list[str] = []

    def attacks(lab: Lab) -> AttackReport:
        calls.append(lab.name)
        return AttackReport((attacked,), (), 140)

    monkeypatch.setattr(l2tpgen.lab.engines.attacker, "run_attacks", attacks)
    (tmp_path / "sites").mkdir()
    sites = mixed_fleet(tmp_path / "sites")
    report = tmp_path / "report.json"
    args = ["lab", "run", str(sites), "--report", str(report)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert calls == []  # not by default
    result = CliRunner().invoke(app, [*args, "--attack", "full"])
    assert result.exit_code == 1, result.output  # the attack check failed
    assert calls == ["l2tpgen"]
    assert "attack-restart" in result.output
    assert '"check": "attack-restart"' in report.read_text()
