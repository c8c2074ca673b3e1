"""How push, diff and verify fail: one line on stderr per router, exit 1, no traceback, no secret.

Over real SSH against simulated routers (netmiko unmodified). Each failure is made through the
routers' own attributes (``enable_secret``), a local socket (a closed port, a listener that never
speaks SSH), the files l2tpgen reads, or a monkeypatched answer (``_answer``, the one place these
tests reach into the simulator's internals).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME, Lab
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from typer.testing import Result

runner = CliRunner()
ENABLE = "en-" + secrets.token_hex(8)
WRONG_ENABLE = "wrong-" + secrets.token_hex(8)
COMMANDS = ["push", "diff", "verify"]
# What else stderr may hold: progress lines (stderr is not a terminal here).
PROGRESS = re.compile(r"site-a: (?:connecting|reading the running config)")
TIMEOUT = 1.0


def _run(lab: Lab, command: str, *extra: str) -> Result:
    args = [command, "site-a", "--inventory", str(lab.inventory), *extra]
    return runner.invoke(app, [*args, "--yes"] if command == "push" else args)


def _the_error(result: Result, *hidden: str) -> str:
    """The one error line, once checked: exit 1, nothing else on stderr, no traceback, no secret."""
    printed = result.stdout + result.stderr
    assert result.exit_code == 1, printed
    assert "Traceback" not in printed
    leaked = [s for s in (PASSWORD, L2TP_SECRET, *hidden) if s in printed]
    assert leaked == []
    lines = [line for line in result.stderr.splitlines() if not PROGRESS.fullmatch(line)]
    assert len(lines) == 1, result.stderr
    return lines[0]


def _where(lab: Lab, port: int | None = None) -> str:
    return f"site-a (127.0.0.1:{port or lab.device('site-a').port})"


def _set_port(lab: Lab, port: object) -> None:
    inventory = json.loads(lab.inventory.read_text())
    inventory["sites"]["site-a"]["port"] = port
    lab.inventory.write_text(json.dumps(inventory))


def _known_hosts(lab: Lab) -> Any:  # noqa: ANN401 - a Path
    return lab.inventory.with_name(lab.inventory.name + ".known_hosts")


def _answer(
    lab: Lab, monkeypatch: pytest.MonkeyPatch, command: str, reply: Callable[[str], str]
) -> None:
    """Make site-a answer ``command`` with ``reply(what it would have answered)``.

    Sessions type into ``router.handle``; in the simulator being rewritten, into a terminal per
    session (``router.open_terminal()``): both are covered, so these tests survive the rewrite.
    """
    router = lab.device("site-a").router

    def wrap(handle: Callable[[str], str]) -> Callable[[str], str]:
        def typed(line: str) -> str:
            answer = handle(line)
            return reply(answer) if line.strip() == command else answer

        return typed

    opened = getattr(router, "open_terminal", None)
    if opened is None:
        monkeypatch.setattr(router, "handle", wrap(router.handle))
        return

    def open_terminal() -> Any:  # noqa: ANN401 - the simulator's terminal
        terminal = opened()
        terminal.handle = wrap(terminal.handle)
        return terminal

    monkeypatch.setattr(router, "open_terminal", open_terminal)


def _entered_config_mode(lab: Lab) -> bool:
    events = lab.device("site-a").router.events
    return any(kind == "exec" and text.startswith("conf") for kind, text in events)


@pytest.fixture
def short_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("l2tpgen.device.connection.CONNECT_TIMEOUT", TIMEOUT)
    monkeypatch.setattr("l2tpgen.device.session.SHOW_TIMEOUT", TIMEOUT)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts TCP connections and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


@pytest.fixture
def closing_port() -> Iterator[int]:
    """A port that accepts TCP connections and closes each at once."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)

        def serve() -> None:
            while True:
                try:
                    connection, _ = listener.accept()
                except OSError:
                    return  # the listener was closed: the test is over
                connection.close()

        threading.Thread(target=serve, daemon=True).start()
        yield listener.getsockname()[1]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- privilege --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_a_wrong_enable_secret_is_one_line_naming_the_variable(
    lab: Lab, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    lab.device("site-a").router.enable_secret = ENABLE
    monkeypatch.setenv("L2TPGEN_ENABLE_SECRET", WRONG_ENABLE)
    line = _the_error(_run(lab, command), ENABLE, WRONG_ENABLE)
    assert line == (
        f"error: {_where(lab)}: `enable` was refused: L2TPGEN_ENABLE_SECRET is not this router's "
        f"enable secret (user {USERNAME} stays at the `>` prompt); set the right secret, or give "
        f"{USERNAME} privilege 15 (nothing was changed)"
    )
    assert not _entered_config_mode(lab)


@pytest.mark.parametrize("command", COMMANDS)
def test_user_mode_without_an_enable_secret_says_to_set_it_or_grant_privilege_15(
    lab: Lab, command: str
) -> None:
    lab.device("site-a").router.enable_secret = ENABLE
    line = _the_error(_run(lab, command), ENABLE)
    assert line == (
        f"error: {_where(lab)}: user {USERNAME} is logged in at user level (`>` prompt) and "
        "L2TPGEN_ENABLE_SECRET is not set; set L2TPGEN_ENABLE_SECRET to the router's enable "
        f"secret, or give {USERNAME} privilege 15 on the router (nothing was changed)"
    )
    assert ("exec", "show running-config") not in lab.device("site-a").router.events


def test_the_right_enable_secret_reaches_the_privileged_prompt_and_is_never_printed(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    lab.device("site-a").router.enable_secret = ENABLE
    monkeypatch.setenv("L2TPGEN_ENABLE_SECRET", ENABLE)
    result = _run(lab, "diff")
    assert result.exit_code == 0, result.output
    assert "site-a: would-change" in result.stdout
    assert ENABLE not in result.stdout + result.stderr


# -- reaching the router ----------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_a_refused_connection_names_the_port_and_what_to_check(lab: Lab, command: str) -> None:
    port = _closed_port()
    _set_port(lab, port)
    line = _the_error(_run(lab, command))
    assert line == (
        f"error: {_where(lab, port)}: connection refused: nothing listens on port {port}; check "
        "the port (in the inventory or the site file) and that SSH is enabled on the router"
    )


@pytest.mark.parametrize(
    ("port", "shown"), [(0, "0"), (70000, "70000"), ("abc", "'abc'")], ids=["0", "70000", "abc"]
)
def test_an_invalid_port_is_caught_when_the_inventory_is_loaded_with_file_line_and_key(
    lab: Lab, port: object, shown: str
) -> None:
    _set_port(lab, port)
    text = lab.inventory.read_text()  # one line of JSON, site-a's entry first
    value_at = text.index('"port": ') + len('"port": ') + 1
    line = _the_error(_run(lab, "diff"))
    assert line == (
        f"error: {lab.inventory}:1:{value_at}: inventory entry site-a: `port` is a whole number "
        f"from 1 to 65535, not {shown}"
    )
    assert all(device.auth_attempts == 0 for device in lab.sim.devices.values())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sites: {site-a: {host: 127.0.0.1\n", ":2:1: inventory is not valid YAML/JSON: "),
        ("sites: {site-a: {host: [127.0.0.1]}}\n", ":1:24: inventory entry site-a: `host` is "),
        ("sites: {site-a: {host: 127.0.0.1, prot: 22}}\n", ":1:35: inventory entry site-a: unk"),
        ("site: {site-a: {host: 127.0.0.1}}\n", ":1:1: not an inventory: it needs a `sites:` "),
    ],
    ids=["bad-yaml", "wrong-type", "unknown-key", "no-sites"],
)
def test_a_malformed_inventory_is_one_located_line_and_no_router_is_contacted(
    lab: Lab, text: str, expected: str
) -> None:
    lab.inventory.write_text(text)
    line = _the_error(_run(lab, "diff"))
    assert line.startswith(f"error: {lab.inventory}{expected}")
    assert lab.device("site-a").auth_attempts == 0


@pytest.mark.parametrize("command", ["diff", "verify"])
def test_a_port_that_closes_at_once_is_one_line_and_no_library_traceback_in_a_real_process(
    lab: Lab, closing_port: int, command: str
) -> None:
    # paramiko logs its transport thread's failure with a traceback; only a real process shows
    # it (pytest's log capture would swallow it in-process).
    _set_port(lab, closing_port)
    args = [command, "site-a", "--sites", str(SITES), "--inventory", str(lab.inventory)]
    done = subprocess.run(
        [sys.executable, "-m", "l2tpgen", *args],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=60,
        check=False,
    )
    lines = [line for line in done.stderr.splitlines() if not PROGRESS.fullmatch(line)]
    expected = (
        f"error: {_where(lab, closing_port)}: the connection on port {closing_port} closed "
        "before SSH started; check that this is the router's SSH port and that it accepts SSH "
        "from this machine"
    )
    assert (done.returncode, lines) == (1, [expected])


# -- known_hosts ------------------------------------------------------------------------------


def _garbage(lines: list[str]) -> list[str]:
    return [lines[0], "this is not a known_hosts line", *lines[1:]]


def _bad_base64(lines: list[str]) -> list[str]:
    host, kind, _ = lines[0].split()
    return [f"{host} {kind} AAAA!!not-base64", *lines[1:]]


def _cut_key(lines: list[str]) -> list[str]:
    host, kind, key = lines[0].split()
    return [f"{host} {kind} {key[:-8]}", *lines[1:]]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("damage", "line", "problem"),
    [
        (_garbage, 2, "not a host key line (host names, key type, base64 key)"),
        (_bad_base64, 1, "the ssh-ed25519 key is not valid base64"),
        (_cut_key, 1, "the ssh-ed25519 key is cut short or has extra bytes"),
    ],
    ids=["garbage-line", "bad-base64", "cut-key"],
)
def test_a_malformed_known_hosts_is_named_with_file_and_line_before_connecting(
    lab: Lab, command: str, damage: Callable[[list[str]], list[str]], line: int, problem: str
) -> None:
    known = _known_hosts(lab)
    known.write_text("\n".join(damage(known.read_text().splitlines())) + "\n")
    error = _the_error(_run(lab, command))
    assert error == (
        f"error: {_where(lab)}: known_hosts file {known}, line {line}: {problem}; fix or delete "
        "that line (nothing was contacted)"
    )
    assert lab.device("site-a").auth_attempts == 0


# -- too slow ---------------------------------------------------------------------------------


@pytest.mark.usefixtures("short_timeouts")
@pytest.mark.parametrize("command", COMMANDS)
def test_no_ssh_handshake_in_time_names_the_phase_and_the_timeout(
    lab: Lab, silent_port: int, command: str
) -> None:
    _set_port(lab, silent_port)
    line = _the_error(_run(lab, command))
    assert line == (
        f"error: {_where(lab, silent_port)}: no SSH handshake within 1 s: port {silent_port} "
        "accepted the TCP connection but no SSH banner or key exchange followed; check that this "
        "is the router's SSH port and that the router is not overloaded"
    )


@pytest.mark.usefixtures("short_timeouts")
@pytest.mark.parametrize("command", COMMANDS)
def test_no_answer_to_the_login_in_time_names_the_phase_and_the_timeout(
    lab: Lab, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    async def slow_check(_server: object, _username: str, _password: str) -> bool:
        await asyncio.sleep(3 * TIMEOUT)
        return True

    monkeypatch.setattr("l2tpgen.sim.server._Server.validate_password", slow_check)
    line = _the_error(_run(lab, command))
    assert line == (
        f"error: {_where(lab)}: no answer to the login (authentication) within 1 s; check the "
        "router's AAA servers, or try again when it is less busy"
    )


def _late(answer: str) -> str:
    time.sleep(2 * TIMEOUT)
    return answer


@pytest.mark.usefixtures("short_timeouts")
@pytest.mark.parametrize("command", ["push", "diff"])
def test_a_show_running_config_too_slow_names_the_command_and_the_timeout(
    lab: Lab, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    _answer(lab, monkeypatch, "show running-config", _late)
    line = _the_error(_run(lab, command))
    assert line == (
        f"error: {_where(lab)}: nothing was changed: no answer to `show running-config` "
        "within 1 s; the router may be overloaded or the link slow: try again"
    )
    assert not _entered_config_mode(lab)


@pytest.mark.usefixtures("short_timeouts")
def test_a_show_xconnect_too_slow_fails_verify_naming_the_command_and_the_timeout(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    _answer(lab, monkeypatch, "show xconnect all", _late)
    line = _the_error(_run(lab, "verify"))
    assert line == (
        f"error: {_where(lab)}: no answer to `show xconnect all` within 1 s; the router may be "
        "overloaded or the link slow: try again"
    )


# -- a refused or broken read of the config ---------------------------------------------------

CARET = "                   ^\n"


@pytest.mark.parametrize("command", ["push", "diff"])
@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (
            CARET + "% Invalid input detected at '^' marker.",
            (
                "the router refused `show running-config` (% Invalid input detected at '^' "
                "marker.); log in with privilege 15, or authorize the command for this user in AAA"
            ),
        ),
        (
            "% Authorization failed.",
            (
                "the router refused `show running-config` (% Authorization failed.); log in with "
                "privilege 15, or authorize the command for this user in AAA"
            ),
        ),
        (
            "",
            (
                "`show running-config` printed nothing; log in with privilege 15 (or a view that "
                "shows the whole config)"
            ),
        ),
        (
            "Building configuration...\n\nCurrent configuration : 90 bytes\n!\nhostname x\n",
            (
                "`show running-config` stopped before its final `end` (the output was cut short); "
                "try again"
            ),
        ),
    ],
    ids=["invalid-input", "authorization-failed", "empty", "no-end"],
)
def test_a_refused_or_broken_show_running_config_stops_that_router_before_any_diff(
    lab: Lab, monkeypatch: pytest.MonkeyPatch, command: str, reply: str, problem: str
) -> None:
    before = lab.running("site-a")
    _answer(lab, monkeypatch, "show running-config", lambda _answer: reply)
    result = _run(lab, command)
    line = _the_error(result)
    assert line == f"error: {_where(lab)}: nothing was changed: {problem}"
    assert "+interface" not in result.stdout  # no diff against what was not a config
    assert not _entered_config_mode(lab)
    assert lab.running("site-a") == before


def test_a_refused_show_xconnect_fails_verify_instead_of_reporting_every_pseudowire_missing(
    lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    _answer(lab, monkeypatch, "show xconnect all", lambda _answer: "Command authorization failed.")
    result = _run(lab, "verify")
    line = _the_error(result)
    assert line == (
        f"error: {_where(lab)}: the router refused `show xconnect all` (Command authorization "
        "failed.); log in with privilege 15, or authorize the command for this user in AAA"
    )
    assert "MISSING" not in result.stdout


# -- formats ----------------------------------------------------------------------------------


def test_with_json_output_the_message_is_in_the_document_and_the_line_on_stderr(lab: Lab) -> None:
    port = _closed_port()
    _set_port(lab, port)
    result = _run(lab, "diff", "--format", "json")
    line = _the_error(result)
    (only,) = json.loads(result.stdout)["results"]
    assert (only["status"], only["exit_code"]) == ("refused", 1)
    assert line == f"error: {_where(lab, port)}: {only['message']}"


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unexpected_error_is_one_line_naming_only_its_type(
    lab: Lab, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(f"a bug whose text quotes {PASSWORD}\nover two lines")

    monkeypatch.setattr("l2tpgen.nornir.connector_of", lambda _task: broken)  # verify's task
    monkeypatch.setattr("l2tpgen.nornir.push_site", broken)  # push's and diff's
    line = _the_error(_run(lab, command))
    assert line == (
        f"error: {_where(lab)}: unexpected error (RuntimeError); this is a bug in l2tpgen"
    )
