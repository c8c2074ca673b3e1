"""A user string never starts a line of its own, nor acts on a terminal, in any output format.

Issue 33 item 9: a site-file key holding line breaks put `::add-mask::`, `::error ...` and
`::stop-commands::` lines into a GitHub Actions log from `validate`, `lint` and `docs` in their
default text format (the Action runs `validate` in text). GitHub reads a line that starts with
`::` as a workflow command ("Workflow commands for GitHub Actions", docs.github.com/en/actions/
reference/workflow-commands-for-github-actions: `::add-mask::`, `::stop-commands::`), so a
hostile key could mask, fake or switch off the log's annotations. Escapes (ESC, CR) in a key
would act on the terminal of whoever reads the output.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.app import safe, safe_lines
from l2tpgen.lint.formats import escape_annotation

ROOT = Path(__file__).resolve().parent.parent
ESC = "\x1b"
KEY = '"a\\n::add-mask::x"'  # YAML: a key with a line break in it
VALUE = '"v\\r\\x1b[31mred\\n::error ::boom"'
NAME = '"c\\r\\x1b[31m\\n::stop-commands::tok"'
BIDI = '"d\\u202ee\\x85f"'  # a right-to-left override and NEL (a line break to some readers)
RAW = (ESC, "\r", "\u202e", "\x85")


@pytest.fixture
def hostile_sites(tmp_path: Path) -> Path:
    """The reference pair, site-a with a hostile key, a hostile host and a hostile class name."""
    for path in (ROOT / "sites").glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    site = tmp_path / "site-a.yaml"
    text = site.read_text(encoding="utf-8")
    text = text.replace("hostname: lab-a-rtr1", f"hostname: lab-a-rtr1\n{KEY}: 1\n{BIDI}: 2", 1)
    text = text.replace("management: {host: 192.0.2.11,", f"management: {{host: {VALUE},", 1)
    text = text.replace("l2tp_class: {name: class1,", f"l2tp_class: {{name: {NAME},", 1)
    assert text.count("\\n::") == 3
    site.write_text(text, encoding="utf-8")
    return tmp_path


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 1, result.output
    return result.output


def _no_injected_line(output: str) -> None:
    assert not [char for char in RAW if char in output]
    assert not [line for line in output.splitlines() if line.lstrip().startswith("::")]


@pytest.mark.parametrize("command", ["validate", "lint", "docs"])
def test_a_hostile_site_file_puts_no_workflow_command_nor_escape_in_text_output(
    hostile_sites: Path, command: str
) -> None:
    output = _run(command, "--sites", str(hostile_sites))
    _no_injected_line(output)
    assert "a\\n::add-mask::x: unknown key" in output  # shown, visibly escaped


@pytest.mark.parametrize(
    ("command", "fmt"),
    [
        ("validate", "json"),
        ("validate", "github"),
        ("lint", "json"),
        ("lint", "sarif"),
        ("lint", "github"),
    ],
)
def test_a_hostile_site_file_is_escaped_in_the_other_formats(
    hostile_sites: Path, command: str, fmt: str
) -> None:
    output = _run(command, "--sites", str(hostile_sites), "--format", fmt)
    assert not [char for char in RAW if char in output]
    if fmt == "github":  # every line is an annotation l2tpgen wrote, one per problem
        lines = output.splitlines()
        assert all(line.startswith(("::error ", "::warning ")) for line in lines), lines
        assert len([line for line in lines if line.startswith("::error ")]) == 4
    else:
        json.loads(output)
        assert "a\\n::add-mask::x" in output  # the exact key, as JSON escapes it


def test_a_hostile_docs_title_stays_on_its_line(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "sites", tmp_path / "sites")
    title = f"Fleet\n::add-mask::x{ESC}[31m\r"
    result = CliRunner().invoke(app, ["docs", "--sites", str(tmp_path / "sites"), "--title", title])
    assert result.exit_code == 0, result.output
    _no_injected_line(result.output)
    assert result.output.startswith("# Fleet\\u000a::add-mask::x\\u001b[31m\\u000d: 2 sites")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\nb", "a\\nb"),
        ("a\r\nb", "a\\r\\nb"),
        (f"{ESC}[2J", "\\x1b[2J"),
        ("tab\tstays", "tab\tstays"),
        ("a\u2028b", "a\\u2028b"),
        ("\u202eevil", "\\u202eevil"),
    ],
)
def test_safe_shows_every_line_break_and_control_character_visibly(text: str, shown: str) -> None:
    assert safe(text) == shown


def test_safe_lines_keeps_the_lines_l2tpgen_wrote_and_escapes_inside_them() -> None:
    assert safe_lines(f"one\ntwo {ESC}[2J\rx") == "one\ntwo \\x1b[2J\\rx"


def test_a_github_annotation_escapes_escape_sequences_too() -> None:
    assert escape_annotation(f"a{ESC}[31m\nb\r") == "a\\u001b[31m%0Ab%0D"


def test_a_site_file_named_like_a_workflow_command_starts_no_line_with_it(
    hostile_sites: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (hostile_sites / "site-a.yaml").rename(hostile_sites / "::add-mask::x.yaml")
    monkeypatch.chdir(hostile_sites)
    for command in ("validate", "lint", "docs"):
        output = _run(command, "--sites", ".")
        _no_injected_line(output)
        assert "\\x3a:add-mask::x.yaml:4:1: " in output


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("::add-mask::x", "\\x3a:add-mask::x"),
        ("  ::error file=a.yaml::boom", "  \\x3a:error file=a.yaml::boom"),
        ("##[error]boom", "\\x23#[error]boom"),
        ("::1 is the loopback", "::1 is the loopback"),  # an IPv6 address is no command
        ("::ffff:192.0.2.1", "::ffff:192.0.2.1"),
    ],
)
def test_safe_never_lets_a_string_start_a_line_with_a_workflow_command(
    text: str, shown: str
) -> None:
    assert safe(text) == shown


def test_an_error_of_several_lines_keeps_its_lines_but_starts_none_with_a_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from l2tpgen.cli.app import fail  # noqa: PLC0415 - the function under test

    with pytest.raises(typer.Exit):
        fail(f"2 problem(s):\n  one\n::add-mask::x{ESC}[31m")
    shown = capsys.readouterr().err
    assert shown == "error: 2 problem(s):\n  one\n\\x3a:add-mask::x\\x1b[31m\n"
