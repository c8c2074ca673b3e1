"""What push says to a router beyond netmiko's basics: a change in chunks, flash copies, replace.

A change is written in chunks of ``CHUNK_LINES`` lines: each chunk in one write, then read until
the router has answered every line of it (one configuration prompt per line), so a change costs
one round trip per chunk instead of one per line, and the router is never fed more than a chunk
ahead of what it has answered. netmiko's author warns that reliability drops as screen-scraping
speeds up; Cisco's own NSO NED sends 100 lines per chunk by default ("a higher number normally
results in better performance but may also have a negative impact on the error handling"), and so
does l2tpgen. A chunk with a refused line ends the change: nothing more is sent. Refusals and
notices are told apart by ``l2tpgen.device.messages``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from netmiko.exceptions import ReadTimeout

from l2tpgen.device.messages import REFUSALS, Kind, classify
from l2tpgen.errors import DeviceError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

_CONFIG_PROMPT = r"\(config[^)]*\)#"
CHUNK_LINES = 100
# Seconds a show command may take (a large running config on a slow router takes a while).
SHOW_TIMEOUT = 30.0
# The line IOS prints under a refused command, pointing at the word it refused.
_CARET = re.compile(r"\^")
# A show command's refusals: the known ones only, as some answers start with `%` too
# (`%%No active L2TP tunnels`), plus AAA's.
_SHOW_REFUSALS = (
    *(re.compile(pattern) for pattern, _ in REFUSALS),
    re.compile(r"(?i)authorization failed|access denied|not authori[sz]ed"),
)
# How much of a refusal a message quotes.
_QUOTED = 80


@dataclass(frozen=True)
class LineError:
    """A configuration line and what the router said after it (a refusal or a notice)."""

    line: str
    error: str


@dataclass(frozen=True)
class Batch:
    """How a change went: lines refused, notices printed, how many lines were sent."""

    refused: tuple[LineError, ...]
    notices: tuple[LineError, ...]
    sent: int
    interrupted: bool = False


def _exec_prompt(connection: Any) -> str:  # noqa: ANN401 - netmiko's connection is untyped
    # No capturing groups: netmiko's read_until_pattern adds its own around the pattern.
    return rf"{re.escape(connection.base_prompt)}#\s*$"


def send_batch(
    connection: Any,  # noqa: ANN401 - netmiko
    commands: Sequence[str],
    *,
    timeout: float = 60,
    chunk: int = CHUNK_LINES,
    stop: Callable[[], bool] | None = None,
) -> Batch:
    """Send ``commands`` in configuration mode, a chunk at a time (see the module docstring).

    ``stop`` is asked before each chunk: when it says so, the chunk in flight has been answered
    and nothing more is sent (``interrupted``).

    Raises:
        DeviceError: the connection dropped or the router stopped answering mid-change.
    """
    prompts = re.compile(rf"{re.escape(connection.base_prompt)}{_CONFIG_PROMPT}")
    output, sent, interrupted = "", 0, False
    try:
        pending = ["configure terminal"]
        for start in range(0, len(commands), chunk):
            if stop is not None and stop():
                interrupted = True
                break
            lines = [*pending, *commands[start : start + chunk]]
            pending = []
            connection.write_channel("".join(f"{line}\n" for line in lines))
            output += _read_prompts(connection, prompts, len(lines), timeout)
            sent += len(lines) - (1 if start == 0 else 0)
            if any(e for e in parse_output(output, connection.base_prompt)[0]):
                break
        connection.write_channel("end\n")
        output += _read_until(connection, re.compile(_exec_prompt(connection)), timeout)
    except DeviceError:
        raise
    except Exception as exc:
        message = f"the router stopped answering mid-change ({type(exc).__name__})"
        raise DeviceError(message) from exc
    refused, notices = parse_output(output, connection.base_prompt)
    return Batch(tuple(refused), tuple(notices), sent, interrupted)


def _read_prompts(connection: Any, prompts: re.Pattern[str], count: int, timeout: float) -> str:  # noqa: ANN401
    """Read until the router has printed ``count`` configuration prompts (one per line sent)."""
    deadline = time.monotonic() + timeout
    output = ""
    while time.monotonic() < deadline:
        chunk = connection.read_channel()
        output += chunk
        if len(prompts.findall(output)) >= count:
            return str(output)
        if not chunk:
            if not alive(connection):
                raise DeviceError("the router stopped answering mid-change (connection lost)")
            time.sleep(0.005)
    raise DeviceError(f"the router stopped answering mid-change (no prompt within {timeout:g} s)")


def alive(connection: Any) -> bool:  # noqa: ANN401
    """Whether the SSH channel is open, found without writing to it.

    (netmiko's ``is_alive`` writes a NUL byte into the session, which a router in the middle of
    a CLI exchange would receive.)
    """
    channel = getattr(connection, "remote_conn", None)
    if channel is None or channel.closed or channel.eof_received:
        return False
    transport = channel.get_transport()
    return transport is not None and bool(transport.is_active())


def _read_until(connection: Any, prompt: re.Pattern[str], timeout: float) -> str:  # noqa: ANN401
    """Read until ``prompt``; fail at once when the channel dies instead of at the timeout."""
    deadline = time.monotonic() + timeout
    output = ""
    while time.monotonic() < deadline:
        chunk = connection.read_channel()
        output += chunk
        if prompt.search(output):
            return str(output)
        if not chunk:
            if not alive(connection):
                raise DeviceError("the router stopped answering mid-change (connection lost)")
            time.sleep(0.005)
    raise DeviceError(f"the router stopped answering mid-change (no prompt within {timeout:g} s)")


def parse_output(output: str, base_prompt: str) -> tuple[list[LineError], list[LineError]]:
    """Refusals and notices (``messages.classify``), each with the line echoed before it."""
    echo = re.compile(rf"^{re.escape(base_prompt)}{_CONFIG_PROMPT}(.*)$")
    refused: list[LineError] = []
    notices: list[LineError] = []
    last = ""
    for raw in output.splitlines():
        line = raw.rstrip()
        found = echo.match(line)
        if found:
            last = found.group(1).strip()
            continue
        kind = classify(line)
        if kind is Kind.REFUSAL:
            refused.append(LineError(last, line.strip()))
        elif kind is Kind.NOTICE:
            notices.append(LineError(last, line.strip()))
    return refused, notices


def answer_prompts(connection: Any, command: str, *, timeout: float = 30) -> str:  # noqa: ANN401
    """Run an exec command that may ask ``Destination filename [...]?`` and accept the default."""
    prompt = _exec_prompt(connection)
    try:
        connection.write_channel(command + "\n")
        output = str(
            connection.read_until_pattern(
                pattern=rf"(?:\]\?\s*$)|(?:{prompt})", read_timeout=timeout
            )
        )
        if output.rstrip().endswith("?"):
            connection.write_channel("\n")
            output += str(connection.read_until_pattern(pattern=prompt, read_timeout=timeout))
    except Exception as exc:
        raise DeviceError(f"`{command}` got no answer ({type(exc).__name__})") from exc
    return output


def show(connection: Any, command: str, *, timeout: float | None = None) -> str:  # noqa: ANN401 - netmiko
    """A show command's output, read up to the exec prompt at its end.

    netmiko's default end-of-output pattern is the bare hostname, which ``show running-config``
    contains near its top (``hostname lab-a-rtr1``): waiting for ``hostname#`` at the very end
    keeps a fast router's output from being cut short. ``timeout`` defaults to ``SHOW_TIMEOUT``.

    Raises:
        DeviceError: no answer within the timeout, or the session was lost (one line each).
    """
    wait = SHOW_TIMEOUT if timeout is None else timeout
    try:
        output = connection.send_command(
            command, expect_string=_exec_prompt(connection), read_timeout=wait
        )
    except ReadTimeout as exc:
        message = (
            f"no answer to `{command}` within {wait:g} s; the router may be overloaded or the "
            "link slow: try again"
        )
        raise DeviceError(message) from exc
    except Exception as exc:
        message = f"the session was lost during `{command}` ({type(exc).__name__}); try again"
        raise DeviceError(message) from exc
    return str(output)


def refusal(output: str) -> str | None:
    """The router's refusal of a show command (its first line), or None if it answered.

    A refusal comes first, alone (`% Invalid input`, `% Authorization failed`, `Command
    authorization failed`), after the caret line that points at the refused word; notices and
    syslog lines before it are skipped. Only the start is read: a config's banner may hold `%`.
    """
    for raw in output.splitlines():
        line = raw.strip()
        if not line or _CARET.fullmatch(line) or classify(line) is Kind.NOTICE:
            continue
        return line[:_QUOTED] if any(p.search(line) for p in _SHOW_REFUSALS) else None
    return None


def answered(connection: Any, command: str) -> str:  # noqa: ANN401 - netmiko
    """A show command's output, or ``DeviceError`` if the router refused the command."""
    output = show(connection, command)
    refused = refusal(output)
    if refused is not None:
        message = (
            f"the router refused `{command}` ({refused}); log in with privilege 15, or "
            "authorize the command for this user in AAA"
        )
        raise DeviceError(message)
    return output


def running_config(connection: Any) -> str:  # noqa: ANN401 - netmiko
    """``show running-config``, checked whole: never diff or push against a refused or cut read.

    Raises:
        DeviceError: no answer, a refusal (the login lacks the privilege or the authorization to
            read the config), nothing at all, or output that stops before its final ``end``.
    """
    output = answered(connection, "show running-config")
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if not lines:
        message = (
            "`show running-config` printed nothing; log in with privilege 15 (or a view that "
            "shows the whole config)"
        )
        raise DeviceError(message)
    if lines[-1] != "end":
        message = (
            "`show running-config` stopped before its final `end` (the output was cut short); "
            "try again"
        )
        raise DeviceError(message)
    return output
