"""``app.print_plain`` writes what the command line's console would, byte for byte (issue 35).

``l2tpgen validate`` prints a fleet that validates with no warning through ``print_plain``, which
writes a line of printable ASCII itself instead of loading rich (a twentieth of a cold start).
Each line is compared with what the console ``app.out`` is made as (``consoles.py``) prints, on
a terminal and not, in colour and not: generated lines, and the lines validate prints.
"""

from __future__ import annotations

import io
import sys

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.app import print_plain
from l2tpgen.cli.consoles import LazyConsole

runner = CliRunner()


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _rich(line: str, *, terminal: bool, color: str | None) -> str:
    """What ``out.print(line)`` writes: rich's console as ``consoles.py`` makes it."""
    file = _Tty() if terminal else io.StringIO()
    console = Console(
        file=file,
        highlight=False,
        soft_wrap=True,
        markup=False,
        emoji=False,
        color_system=color,  # type: ignore[arg-type]
        force_terminal=terminal,
        width=40,  # narrower than the lines: soft wrap keeps them whole
    )
    console.print(line)
    return file.getvalue()


def _plain(line: str, monkeypatch: pytest.MonkeyPatch) -> str:
    file = io.StringIO()
    monkeypatch.setattr(sys, "stdout", file)
    print_plain(line)
    monkeypatch.undo()
    return file.getvalue()


CASES: list[tuple[bool, str | None]] = [(False, None), (True, None), (True, "truecolor")]


@pytest.mark.parametrize(("terminal", "color"), CASES)
@settings(max_examples=200, deadline=None)
@given(line=st.text(st.characters(min_codepoint=0, max_codepoint=0x2FF), max_size=150))
def test_a_line_is_printed_as_the_console_prints_it(
    line: str, terminal: bool, color: str | None
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _plain(line, monkeypatch) == _rich(line, terminal=terminal, color=color)


VALIDATE_LINES = [
    "ok: 2 sites, 4 pseudowires, no problems",
    "ok: 3 sites, 1 pseudowire, no problems (1 warning)",
    (
        "site-a <-> site-b: 4 pseudowires, no protection (default; trusted path: no public "
        "address at either end)"
    ),
    (
        "hub <-> branch: 6 pseudowires, IPsec IKEv2 transport aes-gcm-128 (untrusted path: "
        "198.51.100.1 is public)"
    ),
    "  note: esp-gcm on classic IOS is not confirmed by Cisco's documents [U]",
    "a <-> b: a port-mode pseudowire kept as it stands (VC ID 125, every VLAN of Gi0/0)",
]


@pytest.mark.parametrize(("terminal", "color"), CASES)
@pytest.mark.parametrize("line", VALIDATE_LINES)
def test_validates_lines_are_written_without_rich_as_rich_writes_them(
    line: str, terminal: bool, color: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert line.isascii()  # the plain route, not rich's
    assert line.isprintable()
    assert _plain(line, monkeypatch) == _rich(line, terminal=terminal, color=color)


@pytest.mark.parametrize(
    "fleet", ["sites", "examples/protected", "examples/hub", "examples/vyos", "examples/ipv6"]
)
def test_validate_prints_what_it_printed_through_rich(
    fleet: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"L2TPGEN_L2TP_SECRET": "validate-plain-test", "L2TPGEN_IKE_PSK": "x" * 32}
    printed = runner.invoke(app, ["validate", "--sites", str(ROOT / fleet)], env=env)
    assert printed.exit_code == 0, printed.output
    monkeypatch.setattr("l2tpgen.cli.sites.print_plain", app_out_print)
    before = runner.invoke(app, ["validate", "--sites", str(ROOT / fleet)], env=env)
    assert printed.stdout == before.stdout
    assert printed.stdout.startswith("ok: ")


def app_out_print(line: str) -> None:
    """How validate printed these lines before: ``out.print(line, markup=False)``."""
    from l2tpgen.cli.app import out  # noqa: PLC0415 - the console under test, made on first use

    out.print(line, markup=False)


def test_a_console_made_late_reads_the_start_up_environment_then_the_live_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "77")
    console = LazyConsole()  # at start-up: COLUMNS=77
    monkeypatch.setenv("COLUMNS", "500")  # a test's runner.invoke(env=...) before the first print
    assert console.console.width == 77  # made now, as it would have been at start-up
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setenv("LINES", "33")
    assert console.console.height == 33  # afterwards, what rich reads live is live
