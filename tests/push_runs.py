"""Push, diff and verify run on a lab as a user runs them, and what the routers received."""

from __future__ import annotations

import io
import json
import re
import socket
from typing import TYPE_CHECKING, Any

import typer.testing
from conftest import SITES
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

    import pytest
    from conftest_sim import Lab

runner = CliRunner()


def cli(
    lab: Lab, *args: str, sites: Path = SITES, answer: str | None = None
) -> typer.testing.Result:
    """``l2tpgen ARGS --sites SITES --inventory LAB``; ``answer`` is typed at its questions."""
    return runner.invoke(
        app, [*args, "--sites", str(sites), "--inventory", str(lab.inventory)], input=answer
    )


def push(lab: Lab, *args: str, sites: Path = SITES) -> tuple[int, list[dict[str, Any]]]:
    """``push ARGS --yes --format json``: the exit code and one result per router."""
    result = cli(lab, "push", *args, "--yes", "--format", "json", sites=sites)
    document = json.loads(result.stdout) if result.stdout.strip() else {"results": []}
    return result.exit_code, document["results"]


def section(running: str, header: str) -> str:
    """One top-level section of a running config, its header included ("" when absent)."""
    found = re.search(rf"^{re.escape(header)}\n(?: .*\n)*", running, re.MULTILINE)
    return found.group(0) if found is not None else ""


def config_lines(lab: Lab, name: str) -> list[str]:
    """Every line typed in configuration mode on the router, in order (push's own reads there,
    ``do show running-config``, aside: they change nothing)."""
    events = lab.device(name).router.events
    return [text for kind, text in events if kind == "config" and not text.startswith("do show")]


def entered_config_mode(lab: Lab, name: str) -> bool:
    """Whether anyone typed ``configure`` on the router."""
    events = lab.device(name).router.events
    return any(kind == "exec" and text.startswith("conf") for kind, text in events)


def exec_lines(lab: Lab, name: str) -> list[str]:
    """Every exec command typed on the router, in order."""
    return [text for kind, text in lab.device(name).router.events if kind == "exec"]


class _TerminalInput(io.BytesIO):
    def isatty(self) -> bool:
        return True


def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the CLI's stdin a terminal under CliRunner (push asks only on a terminal)."""

    def terminal(data: str | bytes | None, charset: str) -> io.BytesIO:
        raw = data.encode(charset) if isinstance(data, str) else (data or b"")
        return _TerminalInput(raw)

    monkeypatch.setattr(typer.testing, "make_input_stream", terminal)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def unreachable(lab: Lab, name: str) -> None:
    """Point the lab's inventory for ``name`` at a port nothing listens on."""
    inventory = json.loads(lab.inventory.read_text(encoding="utf-8"))
    inventory["sites"][name]["port"] = _closed_port()
    lab.inventory.write_text(json.dumps(inventory), encoding="utf-8")
