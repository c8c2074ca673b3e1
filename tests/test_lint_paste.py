"""Lint on the text people paste (issue 20, item 7), case by case.

A config copied from a terminal session with its prompts, flat text whose sections a blank line
splits, ATM and Frame Relay circuits, sections entered twice, and misspelt headers. Every
expectation was worked out by hand from the rule documentation (docs/rules.md) and the snippet:
columns count the prompt (``R0(config-if)#`` is 14 characters, so what follows it is column 15).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import TESTS
from lint_cases import Case, check, device, params, snippet

from l2tpgen.ios.encoding import decode, split_lines
from l2tpgen.ios.prompts import prompted
from l2tpgen.ios.text import clean
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.lint.engine import parse_config
from l2tpgen.lint.pairing import pair

if TYPE_CHECKING:
    from pathlib import Path

# The same config twice: as `show running-config` prints it, and as typed in a session.
PLAIN = """
hostname R0
!
l2tp-class secure
 hello 30
!
pseudowire-class PW-PEER
 encapsulation l2tpv3
 protocol l2tpv3 secure
 ip local interface Loopback0
!
interface Loopback0
 ip address 192.0.2.1 255.255.255.255
!
interface GigabitEthernet0/0
 no ip address
!
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class PW-PEER
"""
# Exec commands, the banner `configure terminal` prints, `exit`/`end`, a command typed in
# config-pw-class mode that IOS runs globally (`interface Loopback0`), the xconnect submode's
# prompt, and a `show` whose output is not config.
PASTED = """
R0>enable
R0#configure terminal
Enter configuration commands, one per line.  End with CNTL/Z.
R0(config)#hostname R0
R0(config)#l2tp-class secure
R0(config-l2tp-class)#hello 30
R0(config-l2tp-class)#exit
R0(config)#pseudowire-class PW-PEER
R0(config-pw-class)#encapsulation l2tpv3
R0(config-pw-class)#protocol l2tpv3 secure
R0(config-pw-class)#ip local interface Loopback0
R0(config-pw-class)#interface Loopback0
R0(config-if)#ip address 192.0.2.1 255.255.255.255
R0(config-if)#interface GigabitEthernet0/0
R0(config-if)#no ip address
R0(config-if)#interface GigabitEthernet0/0.10
R0(config-subif)#encapsulation dot1Q 10
R0(config-subif)#xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class PW-PEER
R0(config-if-xconn)#end
R0#show ip interface brief
Interface                  IP-Address      OK? Method Status                Protocol
GigabitEthernet0/0         unassigned      YES NVRAM  up                    up
"""
# Line of PLAIN -> line of PASTED, for the lines a finding can point at.
PLAIN_TO_PASTED = {6: 8, 14: 14, 19: 18}
# By hand: L2T002 and L2T003 at the pseudowire-class (no `ip pmtu`, no `ip dfbit set`); L2T004
# (info) at Gi0/0, the trunk of an attachment circuit, on classic IOS (no version says otherwise);
# L2T013 at the xconnect (1500 + 42 bytes on a 1500-byte path, no `ip pmtu`). No L2T012: the
# circuit is a dot1Q subinterface. L2T024 at the xconnect: its peer 192.0.2.2 is a documentation
# address, which stands for a public one, and nothing encrypts the way out.
PLAIN_FINDINGS = {
    *{(6, 1, "L2T002"), (6, 1, "L2T003"), (14, 1, "L2T004")},
    *{(19, 2, "L2T013"), (19, 2, "L2T024")},
}
PASTED_FINDINGS = {
    *{(8, 12, "L2T002"), (8, 12, "L2T003"), (14, 15, "L2T004")},
    *{(18, 18, "L2T013"), (18, 18, "L2T024")},
}


def _lint(text: str) -> list[tuple[int, int, str, str]]:
    findings = lint_configs([ConfigText("x.conf", snippet(text))])
    return [(f.line, f.column, f.code, f.message) for f in findings]


@pytest.mark.parametrize(
    ("line", "command", "depth"),
    [
        ("R0(config)#hostname R0", "hostname R0", 0),
        ("R0(config-if)# no ip address", "no ip address", 1),
        ("R0(config-subif)#encapsulation dot1Q 10", "encapsulation dot1Q 10", 1),
        ("R0(config-l2tp-class)#hello 30", "hello 30", 1),
        ("R0(config-if-xconn)#l2tp id 1 2", "l2tp id 1 2", 2),
        ("R0(config-if-atm-l2trans-pvc)#xconnect 192.0.2.2 1", "xconnect 192.0.2.2 1", 2),
        ("R0(cfg-if-atm-l2trans-pvc-xconn)#l2tp id 1 2", "l2tp id 1 2", 3),
        # IOS runs a global command typed in a submode globally; interface commands stay.
        ("R0(config-if)#interface Gi0/1", "interface Gi0/1", 0),
        (
            "R0(config-pw-class)#ip route 0.0.0.0 0.0.0.0 198.51.100.1",
            "ip route 0.0.0.0 0.0.0.0 198.51.100.1",
            0,
        ),
        ("R0(config-if)#ip vrf forwarding A", "ip vrf forwarding A", 1),
        ("R0(config-if)#service instance 10 ethernet", "service instance 10 ethernet", 1),
        # not config
        ("R0#show running-config", None, 0),
        ("R0>enable", None, 0),
        ("R0(config)#do show ip interface brief", None, 0),
        ("R0(config-if)#exit", None, 0),
    ],
)
def test_a_prompts_mode_puts_the_command_at_its_depth(
    line: str, command: str | None, depth: int
) -> None:
    prompt = prompted(line)
    assert prompt is not None
    assert (prompt.command, prompt.depth) == (command, depth)
    if command is not None:  # the column a finding gives is where the command starts
        assert line[prompt.offset :] == command


def test_the_xconnect_submode_prompt_holds_the_session_ids() -> None:
    facts = parse_config(ConfigText("guide", snippet(GUIDE_STEPS))).facts
    xc = facts.interfaces["Ethernet0/0"].xconnect
    assert xc is not None
    assert xc.session_ids == (245, 245)


def test_a_config_pasted_with_prompts_lints_the_same_as_without_them() -> None:
    plain, pasted = _lint(PLAIN), _lint(PASTED)
    assert {(line, column, code) for line, column, code, _ in plain} == PLAIN_FINDINGS
    assert {(line, column, code) for line, column, code, _ in pasted} == PASTED_FINDINGS
    # the same findings, message for message, each on the pasted file's own line
    assert sorted((PLAIN_TO_PASTED[line], code, message) for line, _, code, message in plain) == (
        sorted((line, code, message) for line, _, code, message in pasted)
    )


# A static session typed step by step, in the prompts of its modes: `Router(config-pw)#` as Cisco's
# L2TPv3 guide prints the pseudowire-class steps (Cisco IOS Release 12.0(23)S, "Configuring the
# Xconnect Attachment Circuit", `Router(config-pw)# ip pmtu`; a copy at manualsbrain.com/fr/manuals/
# 1642508/?page=24), and `(config-if-xconn)#`, the mode after an xconnect or pseudowire line, as a
# real session shows it (`cisco-router-1941(config-if-xconn)# end`, notes on a Cisco 1941 on
# GitHub; find_string "(config-pw-class)#", file id 27269032656). Written here, not copied.
GUIDE_STEPS = """
Router# configure terminal
Router(config)# pseudowire-class static
Router(config-pw)# encapsulation l2tpv3
Router(config-pw)# protocol none
Router(config-pw)# ip local interface Loopback0
Router(config-pw)# exit
Router(config)# interface Ethernet0/0
Router(config-if)# xconnect 10.0.3.201 123 encapsulation l2tpv3 pw-class static
Router(config-if-xconn)# l2tp id 245 245
"""
# The prompted paste found in public material (an Italian networking handbook's L2TPv3 section,
# GitHub; the search tool's find_string "(config-pw-class)#", file id 56112363069), its notes
# kept, its placeholder peer replaced by a documentation address.
HANDBOOK = """
! Template (un capo — l'altro speculare, stesso VC-ID)
R0(config)# pseudowire-class PW-PEER
R0(config-pw-class)# encapsulation l2tpv3
R0(config-pw-class)# protocol none
R0(config-pw-class)# ip local interface GigabitEthernet0/1     ! IP pubblico locale
R0(config-pw-class)# exit
R0(config)# interface GigabitEthernet0/0               ! trunk verso switch
R0(config-if)# no ip address                           ! cavo L2 virtuale
R0(config-if)# xconnect 192.0.2.2 100 pw-class PW-PEER
"""

PASTE = [
    # The guide's steps: a `protocol none` class and an xconnect without `manual`, so L2T018 fires
    # at the xconnect; L2T001 too (a main Ethernet port); both after `Router(config-if)# ` (19
    # characters with its space).
    device("L2T001", "fails", "guide-steps-with-prompts-port-mode", GUIDE_STEPS, (8, 20)),
    device("L2T018", "fails", "guide-steps-with-prompts-static-not-manual", GUIDE_STEPS, (8, 20)),
    # `l2tp id` under `Router(config-if-xconn)#` is the xconnect's: L2T018 does not complain that
    # it is missing (it is about `manual`), and L2T010 does not fire (no ip pmtu in the class).
    device("L2T010", "passes", "guide-steps-static-class-without-pmtu", GUIDE_STEPS),
    # The handbook's paste: port mode (L2T001) and CDP (L2T012) on Gi0/0; `protocol none` and no
    # manual session (L2T018); the notes after `!` are not part of the commands (L2T009 names
    # GigabitEthernet0/1, not the note).
    device("L2T001", "fails", "handbook-paste-port-mode", HANDBOOK, (9, 16)),
    device("L2T012", "fails", "handbook-paste-cdp-on-the-port", HANDBOOK, (7, 13)),
    device("L2T009", "fails", "handbook-paste-local-interface-missing", HANDBOOK, (5, 22)),
    # Exec commands only: nothing is config, so nothing is reported.
    device(
        "L2T001",
        "passes",
        "exec-commands-are-not-config",
        """
        R0>enable
        R0#show running-config interface GigabitEthernet0/0 | include xconnect
        R0#show xconnect all
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    # `show running-config` prints a config: it is read as before.
    device(
        "L2T001",
        "boundary",
        "show-running-config-output-is-config",
        """
        R0#show running-config
        Building configuration...
        interface GigabitEthernet0/0
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (4, 2),
    ),
    # `configure terminal` prints only its banner: commands pasted after it without prompts count.
    device(
        "L2T001",
        "fails",
        "commands-pasted-after-configure-terminal-without-prompts",
        """
        R0#configure terminal
        Enter configuration commands, one per line.  End with CNTL/Z.
        interface GigabitEthernet0/0
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (4, 2),
    ),
    # What `do show running-config | include` prints is loose lines, not this subinterface's.
    device(
        "L2T011",
        "passes",
        "filtered-show-output-is-not-the-open-sections",
        """
        R0(config)#interface GigabitEthernet0/0.10
        R0(config-subif)#encapsulation dot1Q 10
        R0(config-subif)#xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        R0(config-subif-xconn)#do show running-config | include ip address
         ip address 198.51.100.1 255.255.255.0
        """,
    ),
    # An ATM PVC in its own submode prompt: the xconnect is the PVC's (two per interface allowed).
    device(
        "L2T008",
        "fails",
        "prompted-atm-pvcs-with-the-same-vc-id",
        """
        R0(config)#interface ATM0/0
        R0(config-if)#pvc 1/100 l2transport
        R0(config-if-atm-l2trans-pvc)#xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        R0(config-if-atm-l2trans-pvc)#exit
        R0(config-if)#pvc 1/101 l2transport
        R0(config-if-atm-l2trans-pvc)#xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
        (6, 31),
    ),
]


@pytest.mark.parametrize("case", params(PASTE))
def test_prompted_text_is_read_by_its_modes(case: Case) -> None:
    check(case)


FLAT = [
    # Flat text, a blank line inside the class: `ip pmtu` and `ip dfbit set` are still the class's.
    device(
        "L2T002",
        "passes",
        "blank-line-inside-a-flat-class-keeps-ip-pmtu",
        """
        pseudowire-class pw
        encapsulation l2tpv3

        ip pmtu
        ip dfbit set
        interface GigabitEthernet0/0.10
        encapsulation dot1Q 10
        xconnect 192.0.2.2 10 pw-class pw
        """,
        absent=("L2T003", "L2T013"),
    ),
    # A blank line then a global command: the class ends there (the `ip route` is no class line).
    device(
        "L2T002",
        "boundary",
        "blank-line-then-a-global-command-ends-the-flat-class",
        """
        pseudowire-class pw
        encapsulation l2tpv3

        ip route 0.0.0.0 0.0.0.0 198.51.100.1
        ip pmtu
        interface GigabitEthernet0/0.10
        encapsulation dot1Q 10
        xconnect 192.0.2.2 10 pw-class pw
        """,
        (1, 1),
    ),
    # A blank line then `xconnect`, a command of interface mode only: it stays in the interface.
    device(
        "L2T001",
        "fails",
        "blank-line-inside-a-flat-interface-keeps-its-xconnect",
        """
        interface GigabitEthernet0/0
        description trunk

        xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (4, 1),
    ),
]


@pytest.mark.parametrize("case", params(FLAT))
def test_a_blank_line_does_not_end_a_flat_section(case: Case) -> None:
    check(case)


CIRCUITS = [
    device(
        "L2T008",
        "fails",
        "atm-interface-entered-twice-each-pvc-with-an-xconnect",
        """
        interface ATM0/0
         no ip address
         pvc 1/100 l2transport
          encapsulation aal5
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        !
        interface ATM0/0
         pvc 1/101 l2transport
          encapsulation aal5
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
        (10, 3),
    ),
    # Flat text: `pvc` opens the PVC's submode, so each PVC keeps its own xconnect.
    device(
        "L2T008",
        "fails",
        "atm-pvcs-in-flat-text",
        """
        interface ATM0/0
        no ip address
        pvc 1/100 l2transport
        encapsulation aal5
        xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        pvc 1/101 l2transport
        encapsulation aal5
        xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
        (8, 1),
    ),
    device(
        "L2T008",
        "boundary",
        "the-same-pvc-entered-twice-is-one-circuit",
        """
        interface ATM0/0
         pvc 1/100 l2transport
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        !
        interface ATM0/0
         pvc 1/100 l2transport
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T008",
        "fails",
        "xconnect-in-a-connect-section-counts",
        """
        interface Serial0/1
         encapsulation frame-relay
        !
        connect fr1 Serial0/1 100 l2transport
         xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        !
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 20
         xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
        (9, 2),
    ),
    # The PVC's xconnect names a class that does not exist: seen, so reported.
    device(
        "L2T006",
        "fails",
        "atm-pvc-xconnect-names-an-undefined-class",
        """
        interface ATM0/0
         pvc 1/100 l2transport
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class missing
        """,
        (3, 3),
    ),
    # The ATM interface's own address belongs to its routed PVCs, not to the l2transport one.
    device(
        "L2T011",
        "passes",
        "atm-interface-address-is-not-the-pvcs",
        """
        interface ATM0/0
         ip address 198.51.100.1 255.255.255.252
         pvc 1/100 l2transport
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
    ),
]


@pytest.mark.parametrize("case", params(CIRCUITS))
def test_xconnects_under_atm_pvcs_and_connect_sections_are_seen(case: Case) -> None:
    check(case)


def test_a_connect_sections_xconnect_pairs_with_its_other_end() -> None:
    a = snippet(
        """
        interface Loopback0
         ip address 192.0.2.1 255.255.255.255
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        connect fr1 Serial0/1 100 l2transport
         xconnect 192.0.2.2 20 pw-class pw
        """
    )
    b = snippet(
        """
        interface Loopback0
         ip address 192.0.2.2 255.255.255.255
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface ATM0/0
         pvc 1/100 l2transport
          xconnect 192.0.2.1 20 pw-class pw
        """
    )
    pairing = pair([parse_config(ConfigText(n, t)).facts for n, t in (("a", a), ("b", b))])
    # Paired by tunnel source both ways, each end the other's mirror (line 7 and line 8).
    ends = {(link.end.device.file, link.end.xconnect.at.line): link for link in pairing.links}
    assert set(ends) == {("a", 7), ("b", 8)}
    assert ends["a", 7].mirror is not None
    assert ends["a", 7].mirror.xconnect.at.line == 8
    assert ends["b", 8].other is not None
    assert ends["b", 8].other.file == "a"


ABBREVIATED = [
    device(
        "L2T002",
        "fails",
        "abbreviated-pseudowire-class-is-read",
        """
        pseudowire-clas pw
         encapsulation l2tpv3
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class pw
        """,
        (1, 1),
        absent=("L2T006", "L2T030"),
    ),
]


@pytest.mark.parametrize("case", params(ABBREVIATED))
def test_an_abbreviated_section_header_is_read_as_ios_reads_it(case: Case) -> None:
    check(case)


# Every third-party config of tests/realworld, typed back as a session: each configuration line
# behind the prompt of its mode (by its depth and section), comments and banner text as they are.
REALWORLD = sorted((TESTS / "realworld" / "configs").glob("*.cfg"))
_SUBMODES = {"interface": "if", "pseudowire-class": "pw-class", "l2tp-class": "l2tp-class"}


def _as_session(text: str) -> str:
    cleaned = clean(text)
    raw = split_lines(text)
    out: list[str] = []
    header = ""
    for line, original in zip(cleaned.lines, raw, strict=True):
        stripped = line.lstrip()
        depth = len(line) - len(stripped)
        if stripped == "!":  # comments, fillers, banner text: as they were
            out.append(original)
            continue
        if depth == 0:
            header = stripped.split(" ", 1)[0].lower()
            mode = "config"
        elif depth == 1:
            mode = "config-" + _SUBMODES.get(header, "line")
            mode = "config-subif" if header == "interface" and "." in stripped else mode
        else:
            mode = "config-if-xconn" if depth == 2 else "config-if-atm-l2trans-pvc-xconn"
        out.append(f"R0({mode})#{original.strip()}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", REALWORLD, ids=lambda p: p.name)
def test_every_realworld_config_typed_with_prompts_lints_the_same(path: Path) -> None:
    text = decode(path.read_bytes())[0]
    plain = lint_configs([ConfigText("x", text)])
    pasted = lint_configs([ConfigText("x", _as_session(text))])
    assert sorted((f.line, f.code, f.message) for f in pasted) == sorted(
        (f.line, f.code, f.message) for f in plain
    )


# A config as `show running-config` prints it, with a clear-text l2tp-class password (L2T005)...
CLEAN_COPY = """
hostname R1
!
l2tp-class class1
 authentication
 password 0 placeholder-not-a-secret
!
pseudowire-class ABC
 encapsulation l2tpv3
 protocol l2tpv3 class1
 ip local interface Loopback0
!
interface Loopback0
 ip address 192.0.2.1 255.255.255.255
!
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ABC
"""
# ... and as people paste it: the prompt kept on the section headers they typed, not on the
# indented lines under them (IOS echoes a pasted block this way: the prompt appears when the
# header is entered; the body follows as pasted). Same lines, so the same line numbers.
HEADERS_PROMPTED = (
    CLEAN_COPY.replace("\nl2tp-class class1", "\nR1(config)#l2tp-class class1")
    .replace("\npseudowire-class ABC", "\nR1(config)# pseudowire-class ABC")
    .replace("\ninterface Loopback0", "\nR1(config)#interface Loopback0")
)


def _codes(text: str) -> list[tuple[int, str, str]]:
    return sorted((line, code, message) for line, _, code, message in _lint(text))


def test_a_prompt_on_a_section_header_keeps_its_indented_body_under_it() -> None:
    clean_findings = _codes(CLEAN_COPY)
    assert {code for _, code, _ in clean_findings} >= {"L2T005", "L2T002", "L2T003"}
    assert "L2T009" not in {code for _, code, _ in clean_findings}
    assert _codes(HEADERS_PROMPTED) == clean_findings  # no false L2T009/L2T021, L2T005 seen


# A session whose interface header is typed abbreviated in the pseudowire-class submode: IOS
# finds no pw-class command `int` taking an interface name, so it runs the line in global
# configuration and enters the interface (the parser falls back to the parent mode).
ABBREVIATED_SESSION = """
R1#configure terminal
R1(config)#interface Serial0/0
R1(config-if)#ip address 192.0.2.1 255.255.255.252
R1(config-if)#exit
R1(config)#pseudowire-class ABC
R1(config-pw-class)#encapsulation l2tpv3
R1(config-pw-class)#ip local interface Serial0/0
R1(config-pw-class)#ip pmtu
R1(config-pw-class)#ip dfbit set
R1(config-pw-class)# int s0/1
R1(config-if)#xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ABC
R1(config-if-xconn)#end
"""
ABBREVIATED_CLEAN = """
!
interface Serial0/0
 ip address 192.0.2.1 255.255.255.252
!
pseudowire-class ABC
 encapsulation l2tpv3
 ip local interface Serial0/0
 ip pmtu
 ip dfbit set
interface Serial0/1
 xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ABC
!
"""


def test_an_abbreviated_header_typed_in_a_submode_opens_its_own_section() -> None:
    pasted = {(code, message) for _, code, message in _codes(ABBREVIATED_SESSION)}
    clean_findings = {(code, message) for _, code, message in _codes(ABBREVIATED_CLEAN)}
    assert pasted == clean_findings
    assert ("L2T012", "attachment circuit Serial0/1 runs CDP") in pasted


@pytest.mark.parametrize(
    ("line", "depth"),
    [
        ("R1(config-pw-class)# int s0/1", 0),
        ("R1(config-if)#inter GigabitEthernet0/0.10", 0),
        ("R1(config-l2tp-class)#pseudowire-cla ABC", 0),
        ("R1(config-pw-class)#l2tp-cl class1", 0),
        ("R1(config-pw-class)#interworking ethernet", 1),  # the submode's own command
        ("R1(config-if)#ip address 192.0.2.1 255.255.255.0", 1),
    ],
)
def test_an_abbreviated_global_header_in_a_submode_goes_to_global_configuration(
    line: str, depth: int
) -> None:
    prompt = prompted(line)
    assert prompt is not None
    assert prompt.depth == depth
