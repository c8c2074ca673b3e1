"""A NetBox that accepts the connection and never answers: a clear error, not a hang.

The "NetBox" is a listening socket on 127.0.0.1 that never accepts: the kernel completes the TCP
handshake (the backlog), and no byte ever comes back. Each command runs in a thread; should it
still wait long after its timeout (the bug), the socket is closed, which resets the connection and
ends the command with another error than the one expected, so the test fails instead of hanging.
"""

from __future__ import annotations

import socket
import threading
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.netbox import DEFAULT_TIMEOUT as CLI_DEFAULT
from l2tpgen.netbox.http import DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytest.importorskip("pynetbox")
runner = CliRunner()
# Generous, so a slow machine never fails a correct build: the timeout under test is 0.5 s.
GIVE_UP = 60


@pytest.fixture
def silent_netbox() -> Iterator[socket.socket]:
    """A socket on 127.0.0.1 that completes TCP handshakes and never says a word."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    yield server
    server.close()


def _invoke(server: socket.socket, args: list[str], env: dict[str, str]) -> Any:  # noqa: ANN401
    """Run the CLI in a thread; close ``server`` if it is still waiting after GIVE_UP seconds."""
    results: list[Any] = []
    thread = threading.Thread(target=lambda: results.append(runner.invoke(app, args, env=env)))
    thread.start()
    thread.join(GIVE_UP)
    if thread.is_alive():
        server.close()  # resets the connection: the hang ends, with another error
        thread.join()
    return results[0]


@pytest.mark.parametrize(
    "command",
    [
        ["netbox", "pull", "-o", "{out}"],
        ["netbox", "diff", "--sites", str(SITES)],
        ["netbox", "push", "--sites", str(SITES)],
    ],
    ids=["pull", "diff", "push"],
)
def test_a_netbox_command_against_a_netbox_that_never_answers_fails_naming_the_timeout(
    silent_netbox: socket.socket, tmp_path: Path, command: list[str]
) -> None:
    url = f"http://127.0.0.1:{silent_netbox.getsockname()[1]}"
    args = [part.replace("{out}", str(tmp_path / "out")) for part in command]
    result = _invoke(
        silent_netbox,
        [*args, "--url", url, "--timeout", "0.5"],
        {"L2TPGEN_NETBOX_TOKEN": "nbt_test.not-a-secret"},
    )
    assert result.exit_code == 1
    flat = result.output.replace("\n", " ")
    assert f"NetBox at {url} accepted the connection but did not answer within 0.5 s" in flat
    assert "nbt_test" not in result.output
    assert not (tmp_path / "out").exists()


def test_push_with_a_netbox_inventory_that_never_answers_fails_before_any_router(
    silent_netbox: socket.socket, tmp_path: Path
) -> None:
    url = f"http://127.0.0.1:{silent_netbox.getsockname()[1]}"
    result = _invoke(
        silent_netbox,
        ["push", "site-a", "--sites", str(SITES), "--inventory", "netbox", "--dry-run"],
        {
            "L2TPGEN_NETBOX_URL": url,
            "L2TPGEN_NETBOX_TOKEN": "nbt_test.not-a-secret",
            "L2TPGEN_NETBOX_TIMEOUT": "0.5",
            "L2TPGEN_USERNAME": "u",
            "L2TPGEN_PASSWORD": "p",
            "L2TPGEN_STATE_DIR": str(tmp_path),
        },
    )
    assert result.exit_code == 1
    flat = result.output.replace("\n", " ")
    assert f"NetBox at {url} accepted the connection but did not answer within 0.5 s" in flat
    assert "connecting" not in result.output


def test_the_cli_default_timeout_is_the_librarys() -> None:
    assert CLI_DEFAULT == DEFAULT_TIMEOUT
