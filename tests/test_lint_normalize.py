"""Messy real-world IOS text parses, and always gives the findings its clean form gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import GOLDEN, TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from l2tpgen.ios.text import clean as normalize
from l2tpgen.lint import ConfigText, Finding, lint_configs

if TYPE_CHECKING:
    from pathlib import Path

CONFIGS = sorted(
    [*(TESTS / "lint").rglob("*.conf"), *(GOLDEN / "render").glob("*.conf")],
    key=str,
)
IDS = [str(p.relative_to(TESTS)) for p in CONFIGS]


def _essence(findings: list[Finding]) -> list[tuple[int, str, str]]:
    """What must not change when only white space changes: line, code, message."""
    return sorted((f.line, f.code, f.message) for f in findings)


def _lint_text(text: str) -> list[Finding]:
    return lint_configs([ConfigText("x.conf", text)])


def flatten(text: str) -> str:
    """What a web page does to a config: every leading space gone."""
    return "".join(line.lstrip() for line in text.splitlines(keepends=True))


@pytest.mark.parametrize("path", CONFIGS, ids=IDS)
def test_flattened_config_gives_the_same_findings_as_its_indented_form(path: Path) -> None:
    text = path.read_text()
    assert _essence(_lint_text(flatten(text))) == _essence(_lint_text(text))


@st.composite
def messy(draw: st.DrawFn, text: str) -> str:
    """The same config with other indentation, trailing blanks, CRLF, or none of its indentation."""
    if draw(st.booleans()):
        return flatten(text)
    unit = draw(st.sampled_from([" ", "  ", "   ", "\t", " \t"]))
    trailing = draw(st.sampled_from(["", " ", "  ", "\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = []
    for line in text.splitlines():
        depth = len(line) - len(line.lstrip(" "))
        lines.append(unit * depth + line.lstrip(" ") + trailing)
    return newline.join(lines) + newline


@pytest.mark.parametrize("path", CONFIGS, ids=IDS)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_whitespace_variants_of_every_test_config_give_the_same_findings(
    path: Path, data: st.DataObject
) -> None:
    text = path.read_text()
    variant = data.draw(messy(text))
    assert _essence(_lint_text(variant)) == _essence(_lint_text(text))


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
    text = (TESTS / "lint" / "pairs" / "L2T105" / "pass" / "a.conf").read_text()
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
