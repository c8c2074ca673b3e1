"""The clean-up reads the lines of an ordinary indented config as it reads every line (issue 35).

``ios.text`` nests most lines of an indented config in a tight loop (``_Cleaner.run_indented``)
and hands the others to its general reader (``_Cleaner.line``): lines with a prompt, a pasted
note, a tab, a double space, a comment, ``end``/``exit``, a banner, and every line while a
banner, an exec command's output or a directive is open. Each case here is a text whose
ordinary-looking lines only read right if that hand-over happens (or if the loop keeps the
general reader's state), checked from what lint reads: the cleaned lines, the tree, the facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.extract import extract
from l2tpgen.ios.text import MAX_DEPTH, clean
from l2tpgen.ios.tree import parse

if TYPE_CHECKING:
    from l2tpgen.ios.facts import DeviceFacts


# An indented section first: a text without one is read as flattened, by the general reader alone.
INDENTED = "interface Loopback0\n ip address 192.0.2.1 255.255.255.255\n"


def _facts(text: str) -> DeviceFacts:
    return extract("r.conf", parse(text))


def test_the_cleaned_lines_of_an_indented_config_keep_each_line_and_its_fillers_depth() -> None:
    text = (
        "hostname r1\n"
        "!\n"
        "interface GigabitEthernet0/0\n"
        "  description uplink\n"
        "  !\n"
        "\n"
        "int gi0/1\n"
        " no ip address\n"
    )
    cleaned = clean(text)
    assert cleaned.lines == [
        "hostname r1",
        "!",
        "interface GigabitEthernet0/0",
        " description uplink",
        " !",  # a filler stays at the depth of the line before it
        " !",
        "interface GigabitEthernet0/1",  # an abbreviated header is written in full
        " no ip address",
    ]
    assert cleaned.columns == [1, 1, 1, 3, 3, 1, 1, 2]


def test_double_spaces_inside_a_command_read_as_one() -> None:
    text = "interface GigabitEthernet0/0\n description  to  the   ISP\n"
    (root,) = parse(text).roots
    assert root.children[0].text == "description to the ISP"
    assert _facts(text).interfaces["GigabitEthernet0/0"].description == "to the ISP"


def test_a_nul_byte_before_a_pasted_note_does_not_keep_the_note() -> None:
    # NUL characters are dropped (a UTF-16 file read as bytes), which makes ` !` of ` \0!`
    text = "interface GigabitEthernet0/0\n bandwidth 1000 \x00! the contract\n"
    iface = _facts(text).interfaces["GigabitEthernet0/0"]
    assert [line for line, _ in iface.other] == ["bandwidth 1000"]


def test_what_a_command_typed_at_a_user_prompt_prints_is_not_config() -> None:
    text = INDENTED + "r1>show version\nCisco IOS Software, C2900 Software\nr1 uptime is 2 weeks\n"
    assert [node.text for node in parse(text).roots] == ["interface Loopback0"]


def test_what_a_show_command_prints_after_a_prompt_is_not_config() -> None:
    text = INDENTED + (
        "r1#show version\n"
        "Cisco IOS Software, C2900 Software\n"
        "hostname printed\n"
        "r1#configure terminal\n"
        "r1(config)#hostname r1\n"
    )
    assert [node.text for node in parse(text).roots] == ["interface Loopback0", "hostname r1"]


def test_a_line_without_prompt_after_a_submode_prompt_is_global_again() -> None:
    text = INDENTED + (
        "r1(config)#interface GigabitEthernet0/0\nr1(config-if)#description uplink\nhostname r2\n"
    )
    facts = _facts(text)
    assert facts.hostname == "r2"
    assert facts.interfaces["GigabitEthernet0/0"].description == "uplink"


def test_a_banner_closed_by_an_exclamation_mark_ends_at_a_line_of_it() -> None:
    text = INDENTED + "banner motd !\nAuthorized access only\n!\nhostname r1\n"
    assert _facts(text).hostname == "r1"


def test_indentation_deeper_than_ios_nests_is_clamped() -> None:
    text = "interface GigabitEthernet0/0\n" + "".join(
        " " * level + f"level {level}\n" for level in range(1, MAX_DEPTH + 4)
    )
    depths = [len(line) - len(line.lstrip()) for line in clean(text).lines]
    assert depths == [*range(MAX_DEPTH + 1), MAX_DEPTH, MAX_DEPTH, MAX_DEPTH]
