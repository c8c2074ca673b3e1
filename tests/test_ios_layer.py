"""The IOS layer reads real-world text without losing facts (each case was measured lost before)."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import TYPE_CHECKING

import pytest
from conftest import SITES, TESTS

from l2tpgen import load_fleet
from l2tpgen.ios import tree
from l2tpgen.ios.encoding import decode, split_lines
from l2tpgen.ios.extract import extract
from l2tpgen.ios.text import clean
from l2tpgen.ios.tree import Node, build, parse
from l2tpgen.ios.volatile import config_body
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.platforms.render import render_site

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.ios.facts import DeviceFacts

CLASS = "pseudowire-class pw\n encapsulation l2tpv3\n protocol l2tpv3\n ip pmtu\n ip dfbit set\n"


def facts(text: str) -> DeviceFacts:
    return extract("x.cfg", parse(text))


def codes(text: str) -> set[str]:
    return {f.code for f in lint_configs([ConfigText("x.cfg", text)])}


def test_a_repeated_interface_section_adds_to_the_first_as_on_a_router() -> None:
    text = (
        "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10\n!\n"
        "interface Gi0/0.10\n xconnect 192.0.2.2 10 pw-class pw\n"
    )
    iface = facts(text).interfaces["GigabitEthernet0/0.10"]
    assert iface.dot1q == 10
    assert iface.xconnect is not None
    assert iface.at.line == 1  # findings point at the first section


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("Loop 0", "Loopback0"),
        ("tunnel 1", "Tunnel1"),
        ("GigabitEthernet 0/1", "GigabitEthernet0/1"),
        ("gig0/1", "GigabitEthernet0/1"),
    ],
)
def test_ip_local_interface_keeps_every_word_of_the_name(written: str, name: str) -> None:
    text = (
        f"{CLASS} ip local interface {written}\n"
        f"interface {name}\n ip address 10.255.0.1 255.255.255.255\n"
    )
    device = facts(text)
    assert device.pw_classes["pw"].local_interface == name
    assert "L2T009" not in codes(text)  # measured before: a false "interface not in config"


def test_a_block_pasted_with_a_uniform_indent_keeps_its_sections_across_blank_lines() -> None:
    text = (
        "    interface GigabitEthernet0/0.10\n"
        "     encapsulation dot1Q 10\n"
        "\n"
        "     xconnect 192.0.2.2 10 pw-class pw\n"
    )
    iface = facts(text).interfaces["GigabitEthernet0/0.10"]
    assert iface.xconnect is not None
    assert iface.xconnect.at.line == 4


def test_abbreviated_keywords_are_read_like_ios_reads_them() -> None:
    text = "interface Gi0/0.10\n encap dot1Q 10\n xconn 192.0.2.2 10 encap l2tpv3 pw pw\n"
    iface = facts(text).interfaces["GigabitEthernet0/0.10"]
    assert iface.dot1q == 10
    assert iface.xconnect is not None
    assert (iface.xconnect.vc_id, iface.xconnect.encapsulation) == (10, "l2tpv3")
    assert iface.xconnect.pw_class == "pw"


def test_an_inline_note_after_an_interface_name_is_not_part_of_it() -> None:
    device = facts(f"{CLASS} ip local interface GigabitEthernet0/1 ! public address\n")
    assert device.pw_classes["pw"].local_interface == "GigabitEthernet0/1"


def test_utf16_with_a_byte_order_mark_as_powershell_writes_it_decodes() -> None:
    text, encoding = decode(("\ufeff" + CLASS).encode("utf-16-le"))
    assert encoding == "utf-16-le"
    assert text == CLASS


def test_utf16_without_a_byte_order_mark_is_recognised_by_its_nul_bytes() -> None:
    assert decode(CLASS.encode("utf-16-be")) == (CLASS, "utf-16-be")


def test_latin1_text_decodes_without_error() -> None:
    assert decode("banner motd ^Ccaf\xe9^C\n".encode("latin-1"))[1] == "latin-1"


def test_only_lf_crlf_and_cr_end_lines_so_line_numbers_match_editors() -> None:
    # str.splitlines() also splits at form feed and U+2028, shifting every later line.
    assert split_lines("a\r\nb\rc\x0cstill c\u2028still c\nd\n") == [
        "a",
        "b",
        "c\x0cstill c\u2028still c",
        "d",
    ]


def test_nul_terminated_lines_read_as_the_same_config() -> None:
    text = "".join(f"{line}\x00\n" for line in CLASS.splitlines())
    assert facts(text).pw_classes["pw"].pmtu


def test_show_running_config_header_prompt_exit_and_end_are_not_config() -> None:
    text = (
        "rtr#show running-config\nBuilding configuration...\n\nCurrent configuration : 99 bytes\n"
        f"{CLASS}exit\nend\nrtr#\n"
    )
    cleaned = clean(text)
    assert cleaned.lines[:4] == ["!", "!", "!", "!"]
    assert [n.text for n in parse(text).roots] == ["pseudowire-class pw"]


def test_a_banner_with_braces_and_ascii_art_is_left_out_and_the_rest_is_read() -> None:
    text = "banner motd #\n}  ~~ {art} ~~ {\n#\n}\ninterface Gi0/0.10\n encapsulation dot1Q 10\n"
    device = facts(text)
    assert device.interfaces["GigabitEthernet0/0.10"].dot1q == 10


@pytest.mark.parametrize("delimiter", ["@", "#", "^C"])
def test_a_banner_ends_at_its_delimiter_whatever_it_is_even_the_macro_end(delimiter: str) -> None:
    text = (
        f"banner motd {delimiter}\nAuthorized access only{delimiter}\n"
        "interface Gi0/0.10\n encapsulation dot1Q 10\n"
    )
    assert facts(text).interfaces["GigabitEthernet0/0.10"].dot1q == 10


def test_a_macro_body_is_not_config_and_what_follows_its_closing_line_is() -> None:
    # `macro name` (Catalyst smartports) holds commands to apply later, up to a line `@`:
    # an interface in it is not one of the router's, the one after the `@` is.
    text = (
        "macro name uplink\ninterface Gi0/0.20\n encapsulation dot1Q 20\n@\n"
        "interface Gi0/0.10\n encapsulation dot1Q 10\n"
    )
    assert set(facts(text).interfaces) == {"GigabitEthernet0/0.10"}
    assert [node.text for node in parse(text).roots] == [
        "macro name uplink",
        "interface GigabitEthernet0/0.10",
    ]


def test_five_hundred_levels_of_indentation_are_clamped_not_followed() -> None:
    text = "".join(" " * depth + f"level {depth}\n" for depth in range(500)) + CLASS
    assert "pw" in facts(text).pw_classes


@pytest.mark.parametrize(
    "line",
    [" ip", " ip address", " mtu " + "9" * 5000, " hold-queue " + "1" * 5000 + " in", " encap"],
)
def test_lines_missing_words_or_with_huge_numbers_give_no_fact_and_no_error(line: str) -> None:
    iface = facts(f"interface GigabitEthernet0/1\n{line}\n").interfaces["GigabitEthernet0/1"]
    assert (iface.mtu, iface.hold_queue_in, iface.addresses) == (None, None, ())


def test_an_xconnect_with_a_vc_id_of_five_thousand_digits_is_read_without_one() -> None:
    text = "interface Gi0/0\n xconnect 192.0.2.2 " + "9" * 5000 + " pw-class pw\n"
    xc = facts(text).interfaces["GigabitEthernet0/0"].xconnect
    assert xc is not None
    assert xc.vc_id is None


def test_a_placeholder_peer_keeps_the_xconnect_in_scope_of_device_rules() -> None:
    text = "interface Gi0/0\n xconnect <IP-OF-HQ> 100 pw-class pw\n"
    assert "L2T001" in codes(text)


@pytest.mark.parametrize(
    ("xconnect", "in_scope"),
    [
        ("xconnect 192.0.2.2 10 encapsulation mpls", False),
        ("xconnect 192.0.2.2 10 pw-class mplspw", False),
        ("xconnect vfi CUSTOMER", False),
        ("xconnect 192.0.2.2 10 encapsulation udp", False),
        ("xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw", True),
        ("xconnect 192.0.2.2 10 pw-class pw", True),
    ],
)
def test_only_l2tpv3_xconnects_are_in_the_rules_scope(xconnect: str, in_scope: bool) -> None:
    text = f"{CLASS}pseudowire-class mplspw\n encapsulation mpls\ninterface Gi0/0\n {xconnect}\n"
    assert bool(facts(text).xconnects()) is in_scope


def test_a_pe_running_atom_and_l2tpv2_beside_nothing_else_gets_no_l2tpv3_finding() -> None:
    text = (
        "pseudowire-class atom\n encapsulation mpls\n!\n"
        "pseudowire-class v2\n encapsulation l2tpv2\n protocol l2tpv2 lns\n!\n"
        "l2tp-class lns\n password 0 REDACTED\n!\n"
        "interface GigabitEthernet0/0\n no ip address\n"
        "interface GigabitEthernet0/0.100\n encapsulation dot1Q 100\n"
        " xconnect 192.0.2.9 100 encapsulation mpls\n"
        "interface GigabitEthernet0/1\n xconnect 192.0.2.9 200 pw-class atom\n"
        "interface Virtual-PPP1\n ip address 10.9.9.1 255.255.255.0\n"
        " pseudowire 192.0.2.7 10 pw-class v2\n"
    )
    assert codes(text) == set()


@pytest.mark.parametrize(
    ("config", "platform_is_classic"),
    [
        ("version 15.7\n", True),
        ("version 17.3\n", False),
        ("platform punt-keepalive disable-kernel-core\n", False),
        ("interface GigabitEthernet1\n ip address 10.0.0.1 255.255.255.0\n", False),
        ("hostname r1\n", True),
    ],
)
def test_ios_xe_is_told_from_its_version_platform_lines_or_port_names(
    config: str, platform_is_classic: bool
) -> None:
    assert facts(config).classic_ios is platform_is_classic


def test_volatile_lines_do_not_count_when_comparing_two_running_configs() -> None:
    first = "Building configuration...\n! Last configuration change at 10:00\nntp clock-period 17\n"
    second = (
        "Building configuration...\n! Last configuration change at 11:00\nntp clock-period 18\n"
    )
    assert config_body(first + CLASS) == config_body(second + CLASS)


def _shape(nodes: Sequence[Node]) -> list[object]:
    return [(n.text, n.line, n.column, _shape(n.children)) for n in nodes]


def _rendered_and_real_configs() -> list[tuple[str, str]]:
    fleet = load_fleet(SITES)
    texts = [(f"rendered:{name}", render_site(fleet, name)) for name in fleet.sites]
    corpus = sorted((TESTS / "realworld" / "configs").glob("*.cfg"))
    return texts + [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in corpus]


@pytest.mark.parametrize(("name", "text"), _rendered_and_real_configs(), ids=lambda v: str(v)[:40])
def test_the_plain_indentation_stack_and_ciscoconfparse_build_the_same_tree(
    name: str, text: str
) -> None:
    cleaned = clean(text)
    assert _shape(build(cleaned, name, rendered=True).roots) == _shape(build(cleaned, name).roots)


_EVERY_FIELD = (
    "interface Serial0/0\n encapsulation ppp\n mtu 1500\n ip mtu 1400\n no ip route-cache cef\n"
    " crypto map VPN\n tunnel protection ipsec profile P\n description uplink\n shutdown\n"
    " duplex full\n speed 100\n hold-queue 2048 in\n hold-queue 2048 out\n no cdp enable\n"
    " ip address 192.0.2.1 255.255.255.0\n"
    "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10\n"
    " xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class pw\n  l2tp id 1 2\n"
    "  l2tp cookie local 4 1\n  l2tp cookie remote 8 1 2\n  l2tp hello l2tp-defaults\n"
)


@pytest.mark.parametrize(
    ("name", "text"),
    [("every-field", _EVERY_FIELD), *_rendered_and_real_configs()],
    ids=lambda v: str(v)[:40],
)
def test_interfaces_and_xconnects_made_without_init_equal_those_init_makes(
    name: str, text: str
) -> None:
    made = [
        fact
        for iface in extract(name, parse(text)).interfaces.values()
        for fact in (iface, iface.xconnect)
        if fact is not None
    ]
    assert made
    for fact in made:
        names = [f.name for f in fields(fact)]
        assert set(vars(fact)) <= set(names)  # no other name (the others read their default)
        values = {name: getattr(fact, name) for name in names}  # a required field left out raises
        assert MISSING not in values.values()
        built = type(fact)(**values)
        assert built == fact
        assert repr(built) == repr(fact)


@pytest.mark.parametrize(("name", "text"), _rendered_and_real_configs(), ids=lambda v: str(v)[:40])
def test_ciscoconfparse_in_small_batches_builds_the_same_tree_as_in_one(
    name: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: a large config is parsed a batch of sections at a time (memory, and time)."""
    cleaned = clean(text)
    whole = _shape(build(cleaned, name).roots)
    monkeypatch.setattr("l2tpgen.ios.tree.BATCH_LINES", 3)
    assert _shape(build(cleaned, name).roots) == whole


def test_a_batch_is_cut_only_before_a_top_level_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree, "BATCH_LINES", 2)
    kept = ["a", " b", " c", "d", "e", " f", "  g"]
    assert list(tree._batches(kept)) == [(0, 3), (3, 7)]  # noqa: SLF001
