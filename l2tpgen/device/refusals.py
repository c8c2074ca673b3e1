"""A router's refusal of a show command told from its answer, and a running config checked whole.

Never diff or push against a bad read: a refusal (the login lacks the privilege or the
authorization), nothing at all, or output cut short is an error, not a config.
"""

from __future__ import annotations

import re

from l2tpgen.device.messages import REFUSALS, Kind, classify
from l2tpgen.errors import DeviceError

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


def accepted(command: str, output: str) -> str:
    """``output``, or ``DeviceError`` if it is the router's refusal of ``command``."""
    refused = refusal(output)
    if refused is not None:
        message = (
            f"the router refused `{command}` ({refused}); log in with privilege 15, or "
            "authorize the command for this user in AAA"
        )
        raise DeviceError(message)
    return output


def running_config_checked(output: str) -> str:
    """A ``show running-config`` output, checked whole (never diff or push against a bad read).

    Raises:
        DeviceError: a refusal (the login lacks the privilege or the authorization to read the
            config), nothing at all, or output that stops before its final ``end``.
    """
    refused = refusal(output)
    if refused is not None:
        raise DeviceError(
            f"the router refused `show running-config` ({refused}); log in with privilege 15, "
            "or authorize the command for this user in AAA"
        )
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
