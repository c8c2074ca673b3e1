"""A protected Linux PE fails closed from the first line of its script (issue 25).

Every example fleet (``examples/*``, ``sites``), every site rendered as the Linux PE the lab runs:
the rendered iproute2 script is parsed, and a protected site must block IP protocol 115 both ways
(``dir out`` and ``dir in``) on every address of both families before its first session, and
after its last tunnel (the kernel refuses ``ip l2tp add tunnel ... encap ip`` under a ``dir out``
block: "Operation not permitted", measured in ``test_lab_failclosed.py``'s lab; a static tunnel
sends nothing and a session that does not exist receives nothing, so no L2TPv3 crosses before
the blocks); the only allows are per clear peer, above the blocks. An unprotected site has no
xfrm policy at all. What the lab measured that this order prevents: a charon restart sent 26
clear L2TPv3 packets carrying the CE's payload, and forgeries to the PE's other local, broadcast
and multicast addresses reached the CE 5 of 5 (``shared/docs/security-lab-notes.md``). Selector
and action grammar from ip-xfrm(8) (``ip xfrm policy { add | update } SELECTOR dir DIR [action
ACTION] [priority PRIORITY]``; ``block`` drops; ``update`` creates or replaces, so a second run
of the script does not stop at "File exists"). The inbound blocks come first, before any step
that could fail (issue 33: a re-run after ``ip xfrm policy flush`` that stops early must not
leave the PE open).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from ipaddress import ip_network

import pytest
from conftest import ROOT, SITES

from l2tpgen import load_fleet
from l2tpgen.errors import RenderError
from l2tpgen.platforms.linux.render import render_linux
from l2tpgen.platforms.render import render_files

FLEETS = {p.name: p for p in sorted((ROOT / "examples").iterdir()) if p.name != "broken"}
FLEETS["sites"] = SITES
PROTECTED_FLEETS = {"field", "hub", "protected"}  # documentation (public) addresses

_POLICY = re.compile(
    r"^ip xfrm policy update src (?P<src>\S+) dst (?P<dst>\S+) proto 115 dir (?P<dir>in|out)"
    r"(?: action (?P<action>allow|block))? priority (?P<priority>\d+)$"
)


@dataclass(frozen=True)
class Policy:
    """One rendered ``ip xfrm policy update`` for protocol 115, and its line in the script."""

    line: int
    src: str
    dst: str
    direction: str
    action: str
    priority: int

    @property
    def everywhere(self) -> bool:
        """Both selectors cover a whole family (every local, broadcast, multicast address)."""
        return ip_network(self.src).prefixlen == 0 and ip_network(self.dst).prefixlen == 0


def policies(script: str) -> list[Policy]:
    """The script's xfrm policies; any other ``ip xfrm`` line is an error."""
    found = []
    for number, line in enumerate(script.splitlines()):
        if not line.startswith("ip xfrm"):
            continue
        match = _POLICY.match(line)
        assert match is not None, f"unexpected xfrm command: {line}"
        found.append(
            Policy(
                number,
                match["src"],
                match["dst"],
                match["dir"],
                match["action"] or "allow",
                int(match["priority"]),
            )
        )
    return found


def first_line(script: str, prefix: str) -> int:
    """The number of the first line starting with ``prefix``."""
    return next(n for n, line in enumerate(script.splitlines()) if line.startswith(prefix))


def _at(script: str, number: int) -> str:
    return script.splitlines()[number]


def fails_closed(script: str) -> list[str]:
    """What is wrong with the script's fail-closed order (empty: nothing)."""
    found = policies(script)
    blocks = [p for p in found if p.action == "block"]
    problems = []
    covered = {
        (p.direction, ip_network(p.src).version) for p in blocks if p.everywhere and p.src == p.dst
    }
    problems += [
        f"no block on every IPv{version} address, dir {direction}"
        for direction in ("out", "in")
        for version in (4, 6)
        if (direction, version) not in covered
    ]
    steps = [n for n, line in enumerate(script.splitlines()) if line and line[0] != "#"]
    first = next(
        n for n in steps if not re.match(r"ip xfrm .* dir in action block |nft ", _at(script, n))
    )
    late_in = [p for p in blocks if p.direction == "in" and p.line > first]
    if late_in:
        problems.append(f"{len(late_in)} inbound block(s) after a step that could fail")
    session = first_line(script, "ip l2tp add session")
    late = [p for p in blocks if p.line > session]
    if late:
        problems.append(f"{len(late)} block(s) after the first session")
    tunnel = max(
        n for n, line in enumerate(script.splitlines()) if line.startswith("ip l2tp add tunnel")
    )
    early = [p for p in blocks if p.line < tunnel and p.direction == "out"]
    if early:
        problems.append(f"{len(early)} outbound block(s) before a tunnel: the kernel refuses it")
    weakest_allow = max((p.priority for p in found if p.action == "allow"), default=0)
    if blocks and weakest_allow >= min(p.priority for p in blocks):
        problems.append("an allow does not win over the blocks")
    return problems


def _scripts() -> list[tuple[str, str, str]]:
    cases = []
    for fleet_name, path in FLEETS.items():
        fleet = load_fleet(path).on_platform("linux")
        cases += [(fleet_name, name, render_linux(fleet, name)) for name in sorted(fleet.sites)]
    return cases


SCRIPTS = _scripts()


@pytest.mark.parametrize(
    ("fleet", "site", "script"), SCRIPTS, ids=[f"{f}/{s}" for f, s, _ in SCRIPTS]
)
def test_every_protected_linux_pe_blocks_l2tpv3_both_ways_between_its_tunnels_and_sessions(
    fleet: str, site: str, script: str
) -> None:
    if fleet in PROTECTED_FLEETS:
        assert fails_closed(script) == [], site
        assert "Safe to run before strongSwan" in script
    else:  # trusted paths (10.x, wan.trusted): nothing changes for them
        assert policies(script) == []


def test_the_protected_examples_are_all_checked() -> None:
    checked = {f for f, _, script in SCRIPTS if policies(script)}
    assert checked == PROTECTED_FLEETS


def test_the_checker_fails_on_each_wrong_order() -> None:
    # The parser's own control: each defect a renderer could have is reported.
    fleet = load_fleet(FLEETS["protected"]).on_platform("linux")
    good = render_linux(fleet, "site-a")
    assert fails_closed(good) == []
    lines = good.splitlines()
    blocks = [line for line in lines if "action block" in line]
    rest = [line for line in lines if "action block" not in line]
    assert fails_closed("\n".join(rest + blocks)) == [
        "2 inbound block(s) after a step that could fail",
        "4 block(s) after the first session",
    ]
    at_start = fails_closed("\n".join(blocks + rest))
    assert at_start == ["2 outbound block(s) before a tunnel: the kernel refuses it"]
    # issue 11's order: the inbound blocks after the addresses (a re-run stopped before them)
    inbound = [line for line in blocks if " dir in " in line]
    tunnels = next(n for n, line in enumerate(rest) if line.startswith("ip l2tp add tunnel"))
    late = rest[:tunnels] + inbound + [line for line in lines if line not in inbound][tunnels:]
    assert fails_closed("\n".join(late)) == ["2 inbound block(s) after a step that could fail"]
    one_address = good.replace(
        "dst 0.0.0.0/0 proto 115 dir in", "dst 10.197.251.215/32 proto 115 dir in"
    )
    assert "no block on every IPv4 address, dir in" in fails_closed(one_address)
    no_out = "\n".join(line for line in lines if "::/0 proto 115 dir out" not in line)
    assert fails_closed(no_out) == ["no block on every IPv6 address, dir out"]
    weak = (
        good
        + "ip xfrm policy update src 10.0.0.1/32 dst 10.0.0.2/32 proto 115 dir in "
        + "priority 2000001\n"
    )
    assert "an allow does not win over the blocks" in fails_closed(weak)


@pytest.mark.parametrize("fleet", sorted(PROTECTED_FLEETS))
def test_networkd_refuses_every_protected_example_naming_the_fail_closed_blocks(fleet: str) -> None:
    # systemd-networkd has no xfrm policies: it could bring the sessions up at boot with nothing
    # keeping clear L2TPv3 in or out (networkd.py); the iproute2 script is the way.
    loaded = load_fleet(FLEETS[fleet]).on_platform("linux")
    for name in sorted(loaded.sites):
        with pytest.raises(RenderError) as caught:
            render_files(loaded, name, "networkd")
        message = str(caught.value)
        assert "systemd-networkd cannot configure" in message
        assert "the blocks that keep clear L2TPv3 out and in while charon is down" in message
        assert "render --format iproute2" in message
