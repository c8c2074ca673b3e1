"""Messy real-world IOS text parses, and always gives the findings its clean form gives."""

from __future__ import annotations

import pytest
from conftest import GOLDEN, TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from l2tpgen.ios.text import clean as normalize
from l2tpgen.lint import ALL_RULES, ConfigText, Finding, lint_configs

# Every config of the rules' examples (each config of a pair on its own), the reference
# designs and the rendered golden configs.
_FILES = sorted(
    [*(TESTS / "lint" / "reference").glob("*.conf"), *(GOLDEN / "render").glob("*.conf")], key=str
)
TEXTS: dict[str, str] = {
    **{str(p.relative_to(TESTS)): p.read_text() for p in _FILES},
    **{
        f"{case.code}-{case.id}-{file}": text
        for rule in ALL_RULES
        for case in rule.examples()
        if not case.model
        for file, text in case.configs
    },
}
# Configs whose flattened form is known to read differently, and why (the clean-up is wrong).
# Texts whose flattened form cannot read as the indented one (none known: the interface command
# `crypto map VPN` was read as the global section `crypto map NAME SEQ` until it was told apart).
FLATTENING_GAPS: dict[str, str] = {}
CONFIGS = [
    pytest.param(
        text,
        id=name,
        marks=[pytest.mark.xfail(strict=True, reason=FLATTENING_GAPS[name])]
        if name in FLATTENING_GAPS
        else [],
    )
    for name, text in TEXTS.items()
]
_GAP_TEXTS = frozenset(TEXTS[name] for name in FLATTENING_GAPS)


def _essence(findings: list[Finding]) -> list[tuple[int, str, str]]:
    """What must not change when only white space changes: line, code, message."""
    return sorted((f.line, f.code, f.message) for f in findings)


def _lint_text(text: str) -> list[Finding]:
    return lint_configs([ConfigText("x.conf", text)])


def flatten(text: str) -> str:
    """What a web page does to a config: every leading space gone."""
    return "".join(line.lstrip() for line in text.splitlines(keepends=True))


@pytest.mark.parametrize("text", CONFIGS)
def test_flattened_config_gives_the_same_findings_as_its_indented_form(text: str) -> None:
    assert _essence(_lint_text(flatten(text))) == _essence(_lint_text(text))


@st.composite
def messy(draw: st.DrawFn, text: str, *, may_flatten: bool = True) -> str:
    """The same config with other indentation, trailing blanks, CRLF, or none of its indentation."""
    if may_flatten and draw(st.booleans()):
        return flatten(text)
    unit = draw(st.sampled_from([" ", "  ", "   ", "\t", " \t"]))
    trailing = draw(st.sampled_from(["", " ", "  ", "\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = []
    for line in text.splitlines():
        depth = len(line) - len(line.lstrip(" "))
        lines.append(unit * depth + line.lstrip(" ") + trailing)
    return newline.join(lines) + newline


@pytest.mark.parametrize("text", [pytest.param(text, id=name) for name, text in TEXTS.items()])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_whitespace_variants_of_every_test_config_give_the_same_findings(
    text: str, data: st.DataObject
) -> None:
    # A known flattening gap is a strict xfail of the test above; here it keeps its other variants.
    variant = data.draw(messy(text, may_flatten=text not in _GAP_TEXTS))
    assert _essence(_lint_text(variant)) == _essence(_lint_text(text))


def _where(findings: list[Finding], shift: int = 0) -> list[tuple[int, int, str, str]]:
    return sorted((f.line, f.column + shift, f.code, f.message) for f in findings)


@pytest.mark.parametrize("text", [pytest.param(text, id=name) for name, text in TEXTS.items()])
def test_every_test_config_reads_the_same_with_lone_cr_line_ends(text: str) -> None:
    classic_mac = text.replace("\n", "\r")
    assert _where(_lint_text(classic_mac)) == _where(_lint_text(text))


@pytest.mark.parametrize("text", [pytest.param(text, id=name) for name, text in TEXTS.items()])
def test_every_test_config_pasted_with_a_uniform_indent_reads_as_the_block(text: str) -> None:
    indented = "".join(f"    {line}" for line in text.splitlines(keepends=True))
    assert _where(_lint_text(indented)) == _where(_lint_text(text), shift=4)


def test_a_note_pasted_after_a_command_is_not_read_as_part_of_it() -> None:
    text = (
        "pseudowire-class pw\n"
        " encapsulation l2tpv3\n"
        " ip local interface Gi0/1 ! the public address\n"
        "interface GigabitEthernet0/1\n"
        " description uplink ! to the ISP\n"
        " ip address 198.51.100.1 255.255.255.252\n"
    )
    found = [(f.line, f.column, f.code) for f in _lint_text(text) if f.code in {"L2T009", "L2T014"}]
    assert found == [(3, 2, "L2T014")]  # the tunnel source exists and has an address
    assert normalize(text).lines[4] == " description uplink ! to the ISP"  # free text keeps it


def test_show_running_config_output_parses_with_line_numbers_of_the_file() -> None:
    text = (TESTS / "lint" / "reference" / "before.conf").read_text()
    captured = (
        "lab-a-rtr1#show running-config\nBuilding configuration...\n\n"
        "Current configuration : 1234 bytes\n!\n" + text + "end\n"
    )
    shifted = _essence(_lint_text(captured))
    assert [(line - 5, code, msg) for line, code, msg in shifted] == _essence(_lint_text(text))


def test_exit_lines_comments_and_abbreviations_are_understood() -> None:
    text = (
        "pseudowire-class pw\n"
        "encapsulation l2tpv3\n"
        "exit\n"
        "int gi0/0\n"
        "! the trunk towards the lab switch\n"
        "no ip address\n"
        "xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw\n"
        "exit\n"
    )
    findings = _lint_text(text)
    (single,) = [f for f in findings if f.code == "L2T001"]
    assert (single.line, single.column) == (7, 1)
    assert "GigabitEthernet0/0" in single.message


def test_static_xconnect_submode_is_nested_when_flattened() -> None:
    text = (
        "interface GigabitEthernet0/0.10\n"
        " encapsulation dot1Q 10\n"
        " xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static\n"
        "  l2tp id 1010 2010\n"
        "  l2tp cookie local 4 1111\n"
    )
    lines = normalize(flatten(text)).lines
    index = next(i for i, line in enumerate(lines) if line.strip().startswith("l2tp id"))
    assert lines[index] == "  l2tp id 1010 2010"


def test_disable_comment_switches_a_rule_off_for_the_next_line() -> None:
    text = (TESTS / "lint" / "reference" / "before.conf").read_text()
    quiet = text.replace(
        "interface GigabitEthernet0/0\n",
        "! l2tpgen: disable=L2T004\ninterface GigabitEthernet0/0\n",
    )
    before = [f for f in _lint_text(text) if f.code == "L2T004"]
    after = [f for f in _lint_text(quiet) if f.code == "L2T004"]
    assert len(after) == len(before) - 1


def test_disable_file_comment_switches_a_rule_off_everywhere() -> None:
    text = (
        "! l2tpgen: disable-file=L2T00,L2T013\n"
        + (TESTS / "lint" / "reference" / "before.conf").read_text()
    )
    codes = {f.code for f in _lint_text(text)}
    assert codes == {"L2T014"}


def test_banner_text_is_not_read_as_config() -> None:
    text = "banner motd ^C\ninterface GigabitEthernet0/0\n xconnect 192.0.2.2 10 pw-class x\n^C\n"
    assert _lint_text(text) == []
