"""Misbehaviour a simulated router can be told to show, so that users can rehearse a rollback.

From the command line (``l2tpgen sim up --fault ...``) each fault is one word:

- ``refuse=REGEX``: every command matching REGEX (``re.search``, exec or configuration mode) is
  refused with ``% Invalid input detected``, as IOS refuses a line it does not take;
- ``drop-after=N``: the SSH connection drops after the Nth configuration-mode line (once);
- ``refuse-save``: ``write memory`` and ``copy running-config startup-config`` fail as IOS does
  when NVRAM is busy (texts in ``storage``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Iterable

KINDS = ("refuse=REGEX", "drop-after=N", "refuse-save")


class FaultError(L2tpgenError):
    """A fault the simulator cannot take (an unknown kind, a bad regex, N not a number)."""


@dataclass(frozen=True)
class Faults:
    """Misbehaviour to inject: all off by default."""

    latency_ms: float = 0.0
    drop_after_config_lines: int | None = None
    refuse: str | None = None  # a regex: matching commands (config or exec) are refused
    refuse_save: bool = False

    def refusing(self) -> re.Pattern[str] | None:
        """``refuse`` compiled (None when nothing is refused)."""
        return re.compile(self.refuse) if self.refuse else None

    def words(self) -> list[str]:
        """The faults as ``--fault`` words (latency aside)."""
        found = [] if self.refuse is None else [f"refuse={self.refuse}"]
        if self.drop_after_config_lines is not None:
            found.append(f"drop-after={self.drop_after_config_lines}")
        return [*found, "refuse-save"] if self.refuse_save else found


def parse_fault(text: str, faults: Faults | None = None) -> Faults:
    """Add one ``--fault`` word to ``faults``.

    Raises:
        FaultError: the word is not one of ``KINDS`` or its value is not valid.
    """
    faults = faults or Faults()
    kind, has_value, value = text.partition("=")
    if kind == "refuse" and has_value:
        if not value:
            raise FaultError("refuse= needs a regular expression (refuse=REGEX)")
        try:
            re.compile(value)
        except re.error as exc:
            raise FaultError(f"refuse={value}: not a regular expression ({exc})") from None
        joined = value if faults.refuse is None else f"(?:{faults.refuse})|(?:{value})"
        return replace(faults, refuse=joined)
    if kind == "drop-after" and has_value:
        if not value.isascii() or not value.isdigit() or int(value) < 1:
            raise FaultError(f"drop-after={value}: N is a whole number of lines, 1 or more")
        if faults.drop_after_config_lines is not None:
            raise FaultError("drop-after is given twice")
        return replace(faults, drop_after_config_lines=int(value))
    if kind == "refuse-save" and not has_value:
        return replace(faults, refuse_save=True)
    raise FaultError(f"unknown fault {text!r}: one of {', '.join(KINDS)}")


def parse_faults(texts: Iterable[str], base: Faults | None = None) -> Faults:
    """Every ``--fault`` word, added to ``base`` (latency, say) in order.

    Raises:
        FaultError: as ``parse_fault``.
    """
    faults = base or Faults()
    for text in texts:
        faults = parse_fault(text, faults)
    return faults
