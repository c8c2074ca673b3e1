"""The simulator prints a section's lines where IOS does, whatever order they were typed in.

Issue 26, item 5: a line typed again or added later lands in its own place in the section, not at
the end (``l2tpgen/sim/order.py`` cites the capture or document behind each order).
"""

from __future__ import annotations

from pathlib import Path

from l2tpgen.sim.config_mode import DUPLICATE_SEQUENCE
from l2tpgen.sim.router import Router

REALWORLD = Path(__file__).parent / "realworld" / "configs"


def _section(router: Router, header: str) -> list[str]:
    lines = router.handle("show running-config").splitlines()
    at = lines.index(header) + 1
    end = at
    while lines[end].startswith(" "):
        end += 1
    return lines[at:end]


def _config(router: Router, *lines: str) -> list[str]:
    router.handle("configure terminal")
    out = [router.handle(line) for line in lines]
    router.handle("end")
    return out


def test_a_pseudowire_class_typed_in_any_order_prints_as_the_aviacao_capture() -> None:
    capture = (REALWORLD / "aviacao-cme-rtop-cme.cfg").read_text().splitlines()
    at = capture.index("pseudowire-class 1CC1")
    printed = capture[at + 1 : at + 7]
    assert printed[:2] == [" encapsulation l2tpv3", " sequencing transmit"]
    router = Router("r1")
    assert router.load("interface Loopback0\n ip address 192.0.2.1 255.255.255.255\n") == []
    assert router.load("\n".join(["pseudowire-class 1CC1", *printed[::-1]])) == []
    assert _section(router, "pseudowire-class 1CC1") == printed


def test_a_line_typed_again_stays_in_its_place() -> None:
    router = Router("r1")
    text = (
        "pseudowire-class pw\n encapsulation l2tpv3\n sequencing transmit\n protocol none\n"
        " ip local interface GigabitEthernet0/1\n ip pmtu\n ip dfbit set\n"
    )
    assert router.load(text) == []
    assert _config(router, "pseudowire-class pw", "sequencing both") == ["", ""]
    assert _section(router, "pseudowire-class pw")[:3] == [
        " encapsulation l2tpv3",
        " sequencing both",
        " protocol none",
    ]


def test_an_interface_line_added_later_goes_before_the_hold_queues() -> None:
    router = Router("r1")
    assert router.load("interface GigabitEthernet0/1\n hold-queue 2048 out\n speed auto\n") == []
    _config(
        router,
        "interface GigabitEthernet0/1",
        "hold-queue 2048 in",
        "crypto map l2tpgen",
        "ip address 192.0.2.1 255.255.255.0",
        "description WAN",
        "no cdp enable",
    )
    assert _section(router, "interface GigabitEthernet0/1") == [
        " description WAN",
        " ip address 192.0.2.1 255.255.255.0",
        " speed auto",
        " no cdp enable",
        " crypto map l2tpgen",
        " hold-queue 2048 in",
        " hold-queue 2048 out",
    ]


def test_ikev2_profile_lines_print_in_the_order_of_a_show_running_config() -> None:
    router = Router("r1")
    _config(
        router,
        "crypto ikev2 profile p",
        "keyring local k",
        "authentication local pre-share",
        "authentication remote pre-share",
        "identity local address 192.0.2.1",
        "match identity remote address 192.0.2.2 255.255.255.255",
    )
    assert _section(router, "crypto ikev2 profile p") == [
        " match identity remote address 192.0.2.2 255.255.255.255",
        " identity local address 192.0.2.1",
        " authentication remote pre-share",
        " authentication local pre-share",
        " keyring local k",
    ]


def test_access_list_entries_go_by_sequence_number() -> None:
    router = Router("r1")
    answers = _config(
        router,
        "ip access-list extended a",
        "permit udp any any eq 500",
        "permit ip any any",
        "15 deny ip host 192.0.2.9 any",
        "5 deny ip host 192.0.2.6 any",
        "deny ip host 192.0.2.8 any",
        "15 permit ip host 192.0.2.7 any",
    )
    assert answers[-1] == DUPLICATE_SEQUENCE
    assert _section(router, "ip access-list extended a") == [
        " deny ip host 192.0.2.6 any",
        " permit udp any any eq 500",
        " deny ip host 192.0.2.9 any",
        " permit ip any any",
        " deny ip host 192.0.2.8 any",
    ]
    _config(router, "ip access-list extended a", "no 15")
    assert " deny ip host 192.0.2.9 any" not in _section(router, "ip access-list extended a")


def test_resequence_renumbers_the_entries_in_their_order_for_later_edits() -> None:
    # Issue 33: Cisco, "IP Access List Entry Sequence Numbering" (IOS 12.2(14)S, 12.2(15)T,
    # 12.3(2)T): `ip access-list resequence NAME START STEP` renumbers the entries in their order
    # (its example: `ip access-list resequence 150 1 2` turns 10..100 into 1, 3, ..., 19;
    # https://manualsbrain.com/en/manuals/1643333/?page=9). Typed in the list's own mode it is
    # a global command, which IOS takes from any sub-mode.
    router = Router("r1")
    _config(
        router,
        "ip access-list extended a",
        "permit 115 host 192.0.2.2 any",
        "15 deny 115 any any",
        "permit ip any any",
    )  # numbers 10, 15, 20
    answers = _config(
        router,
        "ip access-list resequence a 40 40",  # 40, 80, 120
        "ip access-list extended a",
        "50 permit 115 host 192.0.2.3 any",
        "60 deny 115 any host 198.51.100.1",
        "no 80",
        "ip access-list resequence a 10 10",
    )
    assert answers == ["", "", "", "", "", ""]
    assert _section(router, "ip access-list extended a") == [
        " permit 115 host 192.0.2.2 any",
        " permit 115 host 192.0.2.3 any",
        " deny 115 any host 198.51.100.1",
        " permit ip any any",
    ]
    _config(router, "ip access-list extended a", "no 20")  # after `10 10`: the second entry
    assert " permit 115 host 192.0.2.3 any" not in _section(router, "ip access-list extended a")
