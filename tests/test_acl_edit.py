"""A changed inbound filter never makes the WAN more restrictive than both its old and new lists.

Issue 33: push used to send `no ip access-list extended l2tpgen-wan-in` and type the list again
while `ip access-group l2tpgen-wan-in in` stayed on the WAN; from the first entry to `permit ip
any any` IOS dropped everything else inbound (SSH included). Now an existing list is edited by
sequence number (``l2tpgen/device/acl_edit.py``). These tests replay every prefix of what push
sends on an interpreter of IOS's named access list editing, written here from Cisco's "IP Access
List Entry Sequence Numbering" (IOS 12.2(14)S, 12.2(15)T, 12.3(2)T; copies read at
https://manualsbrain.com/en/manuals/1643333/?page=9 and
https://pdfslide.us/documents/ip-access-list-entry-sequence-numbering-summary-steps-1-enable-2-configure-terminal.html):
`ip access-list resequence NAME START STEP` renumbers the entries in order; in the list's mode
`SEQ permit|deny ...` inserts at SEQ and `no SEQ` removes that entry; an entry without a number
goes last (the last number plus 10); `no ip access-list extended NAME` removes the list. An
applied list that does not exist filters nothing (taken as IOS's behaviour [U]: it only makes the
old retyping look less bad than it was). Each state is judged with l2tpgen's own evaluator
(``l2tpgen.ios.acl``): a packet both the old and the new list admit is admitted at every prefix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from ipaddress import IPv4Address
from typing import TYPE_CHECKING

import pytest
from builders import HUB, revealed_site
from hypothesis import given
from hypothesis import strategies as st

from l2tpgen.device.acl_edit import AclEditError, adopt_order, edit_commands
from l2tpgen.device.plan import plan_change
from l2tpgen.ios.acl import acl_from_lines

if TYPE_CHECKING:
    from collections.abc import Iterable

    from l2tpgen.model import Site

NAME = "l2tpgen-wan-in"
HEADER = f"ip access-list extended {NAME}"
ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-new-only-in-env-7"}
OWN, WAN = "10.255.0.1", "198.51.100.1"  # examples/hub: Loopback0 and the WAN's address
BEHIND = "192.168.50.10"  # a host behind the hub: transit, not the hub's
STRANGER = "203.0.113.66"
TCP, UDP, ESP, L2TP = 6, 17, 50, 115


@dataclass
class NamedList:
    """One named access list as IOS edits it: (sequence number, entry) in order."""

    entries: list[tuple[int, str]] = field(default_factory=list)
    exists: bool = True

    def apply(self, line: str, *, inside: bool) -> None:
        words = line.split()
        if not inside:
            if words[:3] == ["ip", "access-list", "resequence"] and words[3] == NAME:
                start, step = int(words[4]), int(words[5])
                self.entries = [(start + i * step, t) for i, (_, t) in enumerate(self.entries)]
            elif line == HEADER and not self.exists:
                self.exists, self.entries = True, []
            elif line == f"no {HEADER}":
                self.exists, self.entries = False, []
            return
        if words[0] == "no" and words[1].isdigit():
            self.entries = [(n, t) for n, t in self.entries if n != int(words[1])]
        elif words[0] == "no":
            self.entries = [(n, t) for n, t in self.entries if t != " ".join(words[1:])]
        else:
            number = int(words[0]) if words[0].isdigit() else None
            text = " ".join(words[1:] if number is not None else words)
            assert number is None or all(n != number for n, _ in self.entries), line
            if any(t == text for _, t in self.entries):
                return  # IOS keeps one copy of an entry
            if number is None:
                number = max((n for n, _ in self.entries), default=0) + 10
            self.entries = sorted([*self.entries, (number, text)])

    def texts(self) -> list[str]:
        return [t for _, t in self.entries]


def replay(old: list[str], commands: Iterable[str]) -> Iterable[list[str] | None]:
    """The list's entries after each command (None: the list does not exist)."""
    state = NamedList([(10 * (i + 1), t) for i, t in enumerate(old)])
    inside = False  # in this list's mode (a top-level line leaves it, its header enters it)
    for line in commands:
        if not line.startswith(" "):
            inside = line == HEADER
            state.apply(line, inside=False)
        elif inside:
            state.apply(line, inside=True)
        yield state.texts() if state.exists else None


Packet = tuple[int, str, str]


def packets(peers: Iterable[str]) -> list[Packet]:
    """L2TPv3 from each address and a stranger to the hub's addresses and across it; ESP, IKE
    and SSH too."""
    out: list[Packet] = []
    for source in [*peers, STRANGER]:
        out += [(L2TP, source, OWN), (L2TP, source, WAN), (L2TP, source, BEHIND)]
        out += [(ESP, source, OWN), (UDP, source, OWN), (TCP, source, WAN)]
    return out


def admitted(entries: list[str] | None, packet: Packet) -> bool:
    if entries is None:  # an applied list that does not exist filters nothing [U]
        return True
    protocol, source, destination = packet
    verdict, _ = acl_from_lines(NAME, entries).verdict(
        protocol, IPv4Address(source), IPv4Address(destination)
    )
    assert verdict != "unknown"
    return verdict == "permit"


def _decides(text: str, probe: list[Packet]) -> bool:
    """Whether an entry can decide any probe packet (it matches one, or cannot be told)."""
    (found,) = acl_from_lines(NAME, [text]).entries or (None,)
    if found is None:
        return False  # a remark
    return any(
        found.matches(protocol, IPv4Address(source), IPv4Address(destination)) is not False
        for protocol, source, destination in probe
    )


def assert_never_tighter(
    old: list[str], new: list[str], commands: list[str], probe: list[Packet]
) -> None:
    """Every prefix admits what both ``old`` and ``new`` admit; the last state is ``new``.

    An entry that matches no probe packet never decides one's verdict (the first match does):
    each state is judged on the entries that match some probe packet, in their order.
    """
    both = [p for p in probe if admitted(old, p) and admitted(new, p)]
    deciding: dict[str, bool] = {}
    state: list[str] | None = old
    for at, state in enumerate(replay(old, commands)):
        judged = None
        if state is not None:
            for text in state:
                if text not in deciding:
                    deciding[text] = _decides(text, both)
            judged = [t for t in state if deciding[t]]
        for packet in both:
            assert admitted(judged, packet), (at, commands[at], packet)
    assert state == new


# -- l2tpgen-shaped lists, as rendered before and after issue 33 ---------------------------------

POOL = [f"10.255.0.{i}" for i in range(2, 9)]


def legacy(peers: list[str], foreign: list[str]) -> list[str]:
    """The filter l2tpgen rendered before issue 33 (IKE users admitted above the denies)."""
    out = []
    for peer in peers:
        out += [f"permit 115 host {peer} host {OWN}", f"permit esp host {peer} host {OWN}"]
        out += [f"permit udp host {peer} host {OWN} eq {port}" for port in (500, 4500)]
    out += [f"permit esp host {f} any" for f in foreign]
    out += ["deny 115 any any", "deny esp any any", "deny udp any any eq 500"]
    return [*out, "deny udp any any eq 4500", "permit ip any any"]


def current(peers: list[str], foreign: list[str]) -> list[str]:
    """The filter issue 33 renders (model peers, then the router's other pseudowire peers)."""
    out = [f"permit 115 host {peer} host {OWN}" for peer in peers]
    out += [f"permit 115 host {f} any" for f in foreign]
    return [*out, f"deny 115 any host {OWN}", f"deny 115 any host {WAN}", "permit ip any any"]


def foreign_peers(count: int) -> list[str]:
    return [f"198.18.{i // 250}.{i % 250 + 1}" for i in range(count)]


@given(
    old_peers=st.lists(st.sampled_from(POOL), unique=True, max_size=5),
    new_peers=st.lists(st.sampled_from(POOL), unique=True, max_size=5),
    count=st.sampled_from([0, 1, 40]),
    known=st.floats(0, 1),
    was_legacy=st.booleans(),
)
def test_every_prefix_of_a_filter_edit_admits_what_old_and_new_both_admit(
    old_peers: list[str], new_peers: list[str], count: int, known: float, was_legacy: bool
) -> None:
    foreign = foreign_peers(count)
    old_foreign = foreign[: int(len(foreign) * known)]  # the peers the old filter had
    old = (legacy if was_legacy else current)(old_peers, old_foreign)
    new = adopt_order(old, current(new_peers, foreign))
    commands = edit_commands(HEADER, old, new)
    assert f"no {HEADER}" not in commands
    assert_never_tighter(old, new, commands, packets([*POOL, *foreign[:3], *foreign[-3:]]))


ENTRIES = [
    f"{action} {protocol} {source} {destination}"
    for action in ("permit", "deny")
    for protocol in ("115", "esp", "ip")
    for source in ("host 10.255.0.2", "host 10.255.0.3", "any")
    for destination in (f"host {OWN}", "any")
]


@given(
    old=st.lists(st.sampled_from(ENTRIES), unique=True, max_size=8),
    new=st.lists(st.sampled_from(ENTRIES), unique=True, max_size=8),
)
def test_any_two_lists_are_edited_without_a_tighter_moment_or_refused_by_name(
    old: list[str], new: list[str]
) -> None:
    # Lists of any shape, not only l2tpgen's: either the edit is safe at every prefix, or an
    # entry would have to move and the edit is refused (nothing sent).
    new = adopt_order(old, new)
    message = ""
    try:
        commands = edit_commands(HEADER, old, new)
    except AclEditError as refused:
        message, commands = str(refused), []
    if not commands:
        assert old == new or "in another place" in message
        return
    probe = [(p, s, d) for p in (L2TP, ESP, TCP) for s in POOL[:3] for d in (OWN, BEHIND)]
    assert_never_tighter(old, new, commands, probe)


def test_a_new_deny_never_lands_before_the_new_permit_above_it() -> None:
    # By hand: 115 from 10.255.0.2 passes the old list (permit ip any any) and the new one (its
    # permit comes first); added bottom up, `deny 115 any any` would drop it for a moment.
    old = ["permit ip any any"]
    new = ["permit 115 host 10.255.0.2 any", "deny 115 any any", "permit ip any any"]
    commands = edit_commands(HEADER, old, new)
    assert commands[2:4] == [" 10 permit 115 host 10.255.0.2 any", " 20 deny 115 any any"]
    assert_never_tighter(old, new, commands, packets(POOL[:1]))


def test_the_old_delete_and_retype_fails_the_same_check() -> None:
    # The check can fail: the pre-issue-33 plan (`no ip access-list` and the list whole) drops
    # SSH and the other peers' traffic from its first entry until `permit ip any any`.
    old, new = legacy(POOL[:1], []), current(POOL[:2], [])
    retyped = [f"no {HEADER}", HEADER, *(f" {t}" for t in new)]
    with pytest.raises(AssertionError):
        assert_never_tighter(old, new, retyped, packets(POOL))


def test_an_entry_that_would_have_to_move_is_refused_naming_it() -> None:
    old = ["permit 115 host 10.255.0.2 any", "deny 115 any any", "permit ip any any"]
    new = ["deny 115 any any", "permit 115 host 10.255.0.2 any", "permit ip any any"]
    with pytest.raises(AclEditError, match=r"holds `deny 115 any any` in another place"):
        edit_commands(HEADER, old, adopt_order(old, new))


def test_same_action_entries_keep_the_routers_order_and_nothing_is_sent() -> None:
    old = current(["10.255.0.3", "10.255.0.2"], [])
    new = adopt_order(old, current(["10.255.0.2", "10.255.0.3"], []))
    assert new == old
    assert edit_commands(HEADER, old, new) == []


def test_a_remark_is_left_out_of_the_numbering_and_removed_by_its_text() -> None:
    old = ["remark by hand", *current(POOL[:1], [])]
    commands = edit_commands(HEADER, old, current(POOL[:2], []))
    assert commands[-2:] == [" no remark by hand", "ip access-list resequence l2tpgen-wan-in 10 10"]
    assert commands[0] == "ip access-list resequence l2tpgen-wan-in 20 20"


def test_sequence_numbers_as_ios_xe_prints_them_are_not_a_change() -> None:
    old = [f"{10 * (i + 1)} {t}" for i, t in enumerate(current(POOL[:2], []))]
    assert edit_commands(HEADER, old, current(POOL[:2], [])) == []


# -- the plan push sends, on the example hub with other pseudowires on the router ----------------


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    return revealed_site(HUB, "hub", ENV)


def _router(intended: str, old_filter: list[str], foreign: list[str]) -> str:
    """The hub as rendered, with ``old_filter`` applied and ``foreign`` pseudowires of a user."""
    start = intended.index(f"{HEADER}\n")
    end = intended.index("!", start)
    body = "".join(f" {t}\n" for t in old_filter)
    theirs = "pseudowire-class THEIRS\n encapsulation l2tpv3\n ip local interface Loopback0\n!\n"
    for i, peer in enumerate(foreign):
        theirs += (
            f"interface GigabitEthernet0/0/2.{100 + i}\n encapsulation dot1Q {100 + i}\n"
            f" xconnect {peer} {5000 + i} encapsulation l2tpv3 pw-class THEIRS\n!\n"
        )
    return intended[:start] + HEADER + "\n" + body + intended[end:] + theirs


HUB_PEERS = ["10.255.0.2", "10.255.0.3"]  # branch, linux-edge


@pytest.mark.parametrize("count", [0, 1, 40, 2000])
@pytest.mark.parametrize("was_legacy", [True, False], ids=["from-legacy", "from-current"])
def test_a_hub_with_other_pseudowires_never_gets_a_tighter_wan_at_any_prefix_of_its_plan(
    hub: tuple[Site, str], count: int, was_legacy: bool
) -> None:
    site, intended = hub
    foreign = foreign_peers(count)
    # The router's filter: from before issue 33, or current but without the user's newer half
    # of pseudowires and with a peer (10.255.0.9) the model dropped.
    old = (
        legacy(HUB_PEERS, [])
        if was_legacy
        else current([*HUB_PEERS, "10.255.0.9"], foreign[: count // 2])
    )
    plan = plan_change(site, _router(intended, old, foreign), intended)
    assert f"no {HEADER}" not in plan.send
    assert plan.send, "the filter changes"
    new = acl_entries(plan.intended)
    assert {f"permit 115 host {f} any" for f in foreign} <= set(new)
    probe = packets([*HUB_PEERS, "10.255.0.9", *foreign[:3], *foreign[-3:]])
    assert_never_tighter(old, new, list(plan.send), probe)
    if count:
        assert any("other pseudowire peer" in note for note in plan.notes)


def test_a_router_with_40_other_pseudowires_whose_filter_changes_never_loses_its_applied_list(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    foreign = foreign_peers(40)
    running = _router(intended, legacy(HUB_PEERS, []), foreign)
    assert " ip access-group l2tpgen-wan-in in\n" in running
    plan = plan_change(site, running, intended)
    assert not [line for line in plan.send if line.startswith("no ip access-list")]
    assert " no ip access-group l2tpgen-wan-in in" not in plan.send
    # every entry added carries a sequence number: none lands after `permit ip any any`
    inside = plan.send[plan.send.index(HEADER) + 1 :]
    body = list(inside[: next(i for i, x in enumerate(inside) if x[0] != " ")])
    # 40 peers and 2 denies added; 10 legacy entries removed (6 ESP/IKE permits, 4 denies)
    assert len(body) == 40 + 2 + 10
    assert all(line.split()[0].isdigit() or line.startswith(" no ") for line in body)


def acl_entries(config: str) -> list[str]:
    lines = config.splitlines()
    start = lines.index(HEADER) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith(" "))
    return [line.strip() for line in lines[start:end]]


def test_a_filter_printed_with_sequence_numbers_is_no_change(hub: tuple[Site, str]) -> None:
    # IOS-XE prints a named list's sequence numbers in `show running-config`; the same entries
    # in the same order are the same list.
    site, intended = hub
    entries = acl_entries(intended)
    numbered = "".join(f" {10 * (i + 1)} {t}\n" for i, t in enumerate(entries))
    start = intended.index(f"{HEADER}\n") + len(HEADER) + 1
    end = intended.index("!", start)
    plan = plan_change(site, intended[:start] + numbered + intended[end:], intended)
    assert plan.empty
    assert plan.diff("hub") == ""
