"""What push says to a router beyond netmiko's basics: a change in one batch, flash copies, replace.

A batch is written in one go (``configure terminal``, every line, ``end``) and read back once,
so a change costs one round trip instead of one per line; IOS errors are still found and
attributed to the line whose echo they follow.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.errors import DeviceError

if TYPE_CHECKING:
    from collections.abc import Sequence

_CONFIG_PROMPT = r"\(config[^)]*\)#"


@dataclass(frozen=True)
class LineError:
    """A configuration line the router refused, and what it said."""

    line: str
    error: str


def _exec_prompt(connection: Any) -> str:  # noqa: ANN401 - netmiko's connection is untyped
    # No capturing groups: netmiko's read_until_pattern adds its own around the pattern.
    return rf"{re.escape(connection.base_prompt)}#\s*$"


def send_batch(connection: Any, commands: Sequence[str], *, timeout: float = 60) -> list[LineError]:  # noqa: ANN401
    """Send ``commands`` in configuration mode as one write; return the lines the router refused.

    Raises:
        DeviceError: the connection dropped or the router stopped answering mid-change.
    """
    payload = "".join(f"{line}\n" for line in ("configure terminal", *commands, "end"))
    try:
        connection.write_channel(payload)
        output = _read_until(connection, re.compile(_exec_prompt(connection)), timeout)
    except DeviceError:
        raise
    except Exception as exc:
        message = f"the router stopped answering mid-change ({type(exc).__name__})"
        raise DeviceError(message) from exc
    return parse_errors(output, connection.base_prompt)


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
            time.sleep(0.02)
    raise DeviceError(f"the router stopped answering mid-change (no prompt within {timeout:g} s)")


def parse_errors(output: str, base_prompt: str) -> list[LineError]:
    """IOS error lines (``% ...``) attributed to the command echoed before them."""
    echo = re.compile(rf"^{re.escape(base_prompt)}{_CONFIG_PROMPT}(.*)$")
    errors: list[LineError] = []
    last = ""
    for raw in output.splitlines():
        line = raw.rstrip()
        found = echo.match(line)
        if found:
            last = found.group(1).strip()
        elif line.startswith("%"):
            errors.append(LineError(last, line))
    return errors


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


def show(connection: Any, command: str, *, timeout: float = 30) -> str:  # noqa: ANN401
    """A show command's output, read up to the exec prompt at its end.

    netmiko's default end-of-output pattern is the bare hostname, which ``show running-config``
    contains near its top (``hostname lab-a-rtr1``): waiting for ``hostname#`` at the very end
    keeps a fast router's output from being cut short.
    """
    try:
        output = connection.send_command(
            command, expect_string=_exec_prompt(connection), read_timeout=timeout
        )
    except Exception as exc:
        raise DeviceError(f"`{command}` got no answer ({type(exc).__name__})") from exc
    return str(output)
