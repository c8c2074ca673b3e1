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

from l2tpgen.device.messages import Kind, classify
from l2tpgen.device.refusals import running_config_checked
from l2tpgen.errors import DeviceError
from l2tpgen.ios.volatile import config_body
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# Configuration sub-mode prompts start with "config", except the transform set's,
# `(cfg-crypto-trans)#` (IOS transcripts in public configs: `R1(cfg-crypto-trans)# mode tunnel`).
_CONFIG_PROMPT = r"\((?:config|cfg)[^)]*\)#"
CHUNK_LINES = 100
# Seconds a show command may take (a large running config on a slow router takes a while).
SHOW_TIMEOUT = 30.0


@dataclass(frozen=True)
class LineError:
    """A configuration line and what the router said after it (a refusal or a notice)."""

    line: str
    error: str


@dataclass(frozen=True)
class Batch:
    """How a change went: lines refused, notices printed, how many lines were sent.

    ``after``: the outputs of the exec commands sent right behind the change (``then``), empty if
    the change stopped before its last chunk.
    """

    refused: tuple[LineError, ...]
    notices: tuple[LineError, ...]
    sent: int
    interrupted: bool = False
    after: tuple[str, ...] = ()
    # The running config as last read within the change (``seen``), None if never read.
    observed: str | None = None
    # Someone else changed the config between two of push's chunks: (as push last saw it, as the
    # router held it right before the next chunk).
    foreign: tuple[str, str] | None = None


def _exec_prompt(connection: Any) -> str:  # noqa: ANN401 - netmiko's connection is untyped
    # No capturing groups: netmiko's read_until_pattern adds its own around the pattern.
    return rf"{re.escape(connection.base_prompt)}#\s*$"


def exec_prompts(connection: Any) -> re.Pattern[str]:  # noqa: ANN401
    """The exec prompt at the start of a line (the echoed command follows it)."""
    return re.compile(rf"^{re.escape(connection.base_prompt)}#", re.MULTILINE)


def _split_exec(text: str, prompts: re.Pattern[str], count: int) -> tuple[str, ...]:
    """The outputs of ``count`` exec commands in ``text`` (each behind its echo line)."""
    cuts = [m.start() for m in prompts.finditer(text)]
    outputs = []
    for start, end in zip([0, *cuts[:-1]], cuts, strict=False):
        segment = text[start:end]
        at_prompt = prompts.match(segment)
        segment = segment[at_prompt.end() :] if at_prompt is not None else segment
        outputs.append(segment.split("\n", 1)[1] if "\n" in segment else "")
    return tuple(outputs[-count:]) if count else ()


def exec_batch(
    connection: Any,  # noqa: ANN401 - netmiko
    commands: Sequence[str],
    *,
    timeout: float | None = None,
) -> tuple[str, ...]:
    """Several exec commands in one write, so one round trip: their outputs, in order.

    Raises:
        DeviceError: the router stopped answering (naming the commands).
    """
    prompts = exec_prompts(connection)
    wait = SHOW_TIMEOUT if timeout is None else timeout
    try:
        connection.write_channel("".join(f"{command}\n" for command in commands))
        text = read_count(connection, prompts, len(commands), wait)
    except _NoPromptError as exc:  # name the first command that did not come back
        done = min(len(prompts.findall(exc.output)), len(commands) - 1)
        pending, answered = commands[done:], _split_exec(exc.output, prompts, done)
        named = "`, `".join(pending)
        if "connection lost" in str(exc):
            raise BatchError(f"the connection was lost during `{named}`", answered) from exc
        raise BatchError(
            f"no answer to `{pending[0]}` within {wait:g} s; the router may be overloaded or the "
            "link slow: try again",
            answered,
        ) from exc
    return _split_exec(text, prompts, len(commands))


def _write_chunk(
    connection: Any,  # noqa: ANN401 - netmiko
    lines: Sequence[str],
    *,
    first: bool,
    last: bool,
    show: list[str],
    then: Sequence[str],
) -> int:
    """Write a chunk in one write; the configuration prompts it is answered with.

    ``configure terminal`` before the first; ``show`` before each and after all but the last;
    ``end`` and the exec commands ``then`` after the last.
    """
    head = ["configure terminal"] if first else []
    tail = ["end", *then] if last else show
    connection.write_channel("".join(f"{line}\n" for line in [*head, *show, *lines, *tail]))
    return len(head) + len(show) + len(lines) + (0 if last else len(tail))


def _last_answer(
    connection: Any,  # noqa: ANN401 - netmiko
    back_at_exec: re.Pattern[str],
    then: Sequence[str],
    timeout: float,
    text: str,
) -> tuple[str, tuple[str, ...]]:
    """The last chunk's answer read to the end: its configuration part, and what ``then`` printed.

    Refusals are looked for in the configuration part only.
    """
    text += read_count(connection, back_at_exec, 1 + len(then), timeout, text)
    back = back_at_exec.search(text)
    cut = back.start() if back is not None else len(text)
    return text[:cut], _split_exec(text[cut:], back_at_exec, len(then))


def _shown(
    text: str, base: str, observed: str | None, *, last: bool
) -> tuple[str, str | None, tuple[str, str] | None]:
    """A chunk's answer less its ``do show running-config`` outputs.

    Returns the rest, the config last seen (the closing show's, unless ``last``), and (the config
    last seen, the one found) when the opening show found another config there.
    """
    text, start = _cut_first_show(text, base)
    foreign = None
    if observed is not None and comparable(start) != comparable(observed):
        foreign = (observed, start)
    if not last:
        text, observed = _cut_show(text, base)
    return text, observed, foreign


def send_batch(
    connection: Any,  # noqa: ANN401 - netmiko
    commands: Sequence[str],
    *,
    timeout: float = 60,
    chunk: int = CHUNK_LINES,
    stop: Callable[[], bool] | None = None,
    then: Sequence[str] = (),
    entered: bool = False,
    seen: str | None = None,
) -> Batch:
    """Send ``commands`` in configuration mode, a chunk at a time (see the module docstring).

    The last chunk carries ``end`` and the exec commands ``then`` in the same write (no round
    trip of their own). ``stop`` is asked before each chunk: when it says so, the chunk in flight
    has been answered and nothing more is sent (``interrupted``). ``entered``: the session is in
    configuration mode already (no ``configure terminal``).

    ``seen``: the running config as push last read it. Then each chunk starts (and every one but
    the last ends) with ``do show running-config`` in the same write: the config the router held
    right before the chunk's first line must be the one read after the chunk before (else someone
    else changed it meanwhile: ``Batch.foreign``, and nothing more is sent), and the config push
    last saw is known whenever the change stops (``Batch.observed``).

    Raises:
        DeviceError: the connection dropped or the router stopped answering mid-change.
    """
    base = connection.base_prompt
    prompts = re.compile(rf"{re.escape(base)}{_CONFIG_PROMPT}")
    back_at_exec = exec_prompts(connection)
    chunks = [commands[i : i + chunk] for i in range(0, len(commands), chunk)] or [[]]
    output, sent, interrupted, ended = "", 0, False, False
    after: tuple[str, ...] = ()
    observed, foreign = seen, None
    show = ["do show running-config"] if seen is not None else []
    try:
        for index, lines in enumerate(chunks):
            if stop is not None and stop():
                interrupted = True
                break
            last = index == len(chunks) - 1
            first = index == 0 and not entered
            count = _write_chunk(connection, lines, first=first, last=last, show=show, then=then)
            text = read_count(connection, prompts, count, timeout)
            sent += len(lines)
            if last:
                text, after = _last_answer(connection, back_at_exec, then, timeout, text)
                ended = True
            if show:
                text, observed, foreign = _shown(text, base, observed, last=last)
            observed = after[0] if last and after else observed
            output += text
            if foreign is not None or parse_output(output, base)[0]:
                break
        if not ended:
            connection.write_channel("end\n")
            output += read_count(connection, back_at_exec, 1, timeout)
    except DeviceError as exc:
        raise DeviceError(f"the router stopped answering mid-change ({exc})") from exc
    except Exception as exc:
        message = f"the router stopped answering mid-change ({type(exc).__name__})"
        raise DeviceError(message) from exc
    refused, notices = parse_output(output, base)
    return Batch(tuple(refused), tuple(notices), sent, interrupted, after, observed, foreign)


# Lines a router may print into a show's output by itself: a timestamped log line (`*Apr 22
# 19:31:44.825: Configuration mode locked exclusively. ...`, as a Cisco capture shows it printed
# after `configure terminal` in exclusive mode) is no part of the configuration.
_LOGGED = re.compile(r"^\*?[A-Z][a-z]{2}\s+\d+\s+\d+:\d+:\d+(?:\.\d+)?(?:\s+\w+)?:\s")


def comparable(show_running: str) -> str:
    """What two reads of one config share: ``config_body``, less log lines printed into it."""
    return config_body(
        "\n".join(line for line in show_running.splitlines() if not _LOGGED.match(line.strip()))
    )


def _cut_first_show(text: str, base_prompt: str) -> tuple[str, str]:
    """A chunk's answer without its opening ``do show running-config``, and that show's output."""
    prompt = rf"{re.escape(base_prompt)}{_CONFIG_PROMPT}"
    found = re.search(rf"^(?:{prompt})?do show running-config\n", text, re.MULTILINE)
    if found is None:
        return text, ""
    following = re.search(rf"^{prompt}", text[found.end() :], re.MULTILINE)
    end = found.end() + following.start() if following is not None else len(text)
    return text[: found.start()] + text[end:], text[found.end() : end]


def _cut_show(text: str, base_prompt: str) -> tuple[str, str]:
    """A chunk's answer without its closing ``do show running-config``, and that show's output."""
    echo = re.compile(
        rf"^{re.escape(base_prompt)}{_CONFIG_PROMPT}do show running-config\n", re.MULTILINE
    )
    found = None
    for found in echo.finditer(text):  # noqa: B007 - the last one is wanted
        pass
    if found is None:
        return text, ""
    shown = text[found.end() :]
    closing = list(re.finditer(rf"^{re.escape(base_prompt)}{_CONFIG_PROMPT}", shown, re.MULTILINE))
    return text[: found.start()], shown[: closing[-1].start()] if closing else shown


def read_count(
    connection: Any,  # noqa: ANN401
    prompts: re.Pattern[str],
    count: int,
    timeout: float,
    already: str = "",
) -> str:
    """Read until ``prompts`` has matched ``count`` times in ``already`` + what is read.

    Returns what was read (without ``already``); carriage returns are dropped.

    Raises:
        DeviceError: the connection was lost, or no such prompt came within ``timeout``.
    """
    deadline = time.monotonic() + timeout
    output = ""
    while True:
        if len(prompts.findall(already + output)) >= count:
            return output
        if time.monotonic() >= deadline:
            raise _NoPromptError(f"no prompt within {timeout:g} s", output)
        chunk = str(connection.read_channel()).replace("\r", "")
        output += chunk
        if not chunk:
            if not alive(connection):
                raise _NoPromptError("connection lost", output)
            time.sleep(0.005)


class BatchError(DeviceError):
    """``exec_batch`` stopped; ``answered`` holds the outputs of the commands answered before."""

    def __init__(self, message: str, answered: tuple[str, ...]) -> None:
        super().__init__(message)
        self.answered = answered


class _NoPromptError(DeviceError):
    """``read_count`` ran out of time or connection; ``output`` is what had come by then."""

    def __init__(self, message: str, output: str) -> None:
        super().__init__(message)
        self.output = output


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


def parse_output(output: str, base_prompt: str) -> tuple[list[LineError], list[LineError]]:
    """Refusals and notices (``messages.classify``), each with the line echoed before it.

    Both are masked (``mask_secrets``): the echoed line may be a secret's (``password 7 ...``),
    and every message that quotes it (stderr, the table, JSON, logs) quotes this masked text.
    """
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
            refused.append(LineError(mask_secrets(last), mask_secrets(line.strip())))
        elif kind is Kind.NOTICE:
            notices.append(LineError(mask_secrets(last), mask_secrets(line.strip())))
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


def running_config(connection: Any) -> str:  # noqa: ANN401 - netmiko
    """``show running-config``, checked whole (``running_config_checked``)."""
    return running_config_checked(show(connection, "show running-config"))
