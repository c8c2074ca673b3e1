"""What l2tpgen writes to a real terminal: NO_COLOR means no escape sequence at all."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest
from conftest import TESTS

BEFORE = TESTS / "lint" / "reference" / "before.conf"


LINT = ("lint", "--config", str(BEFORE))


def _on_a_terminal(env: dict[str, str], args: tuple[str, ...] = LINT) -> bytes:
    """Run `l2tpgen ARGS` (lint of the "before" config) with stdout and stderr on a terminal."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "l2tpgen", *args],
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process has ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "FORCE_COLOR", "TERM"}}
    return {**env, "TERM": "xterm-256color", "COLUMNS": "200", **extra}


def test_lint_on_a_terminal_is_coloured_and_dims_its_fix_lines() -> None:
    shown = _on_a_terminal(_env())
    assert b"\x1b[2m  fix: add `ip pmtu`" in shown  # the control: escapes do reach a terminal


@pytest.mark.parametrize("value", ["1", "true"])
def test_no_color_leaves_no_escape_sequence_on_a_terminal(value: str) -> None:
    shown = _on_a_terminal(_env(NO_COLOR=value))
    assert b"fix: add `ip pmtu` to pseudowire-class ethernet" in shown
    assert b"\x1b[" not in shown


@pytest.mark.parametrize(
    "args",
    [("--help",), ("lint", "--help"), ("validate", "--no-such-option")],
    ids=["help", "command-help", "usage-error"],
)
def test_no_color_holds_for_help_and_usage_errors_too(args: tuple[str, ...]) -> None:
    assert b"\x1b[" in _on_a_terminal(_env(), args)  # the control: typer colours them
    shown = _on_a_terminal(_env(NO_COLOR="1"), args)
    assert b"Usage:" in shown
    assert b"\x1b[" not in shown


def test_help_shows_no_escaping_backslash() -> None:
    shown = _on_a_terminal(_env(NO_COLOR="1"), ("lint", "--help"))
    assert b"[tool.l2tpgen.lint]" in shown
    assert b"[default: warning]" in shown
    assert b"\\[" not in shown


def test_summary_stays_on_its_own_line_when_stdout_and_stderr_share_a_pipe() -> None:
    # CI logs: both streams into one pipe. Each finding's lines reach the pipe before the summary.
    result = subprocess.run(
        [sys.executable, "-m", "l2tpgen", "lint", "--config", str(BEFORE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=_env(),
        check=False,
        timeout=120,
    )
    lines = result.stdout.decode().splitlines()
    assert lines[-1] == "8 findings (5 warning, 3 info)"
    assert all(line.startswith((str(BEFORE), "  fix: ")) for line in lines[:-1])
