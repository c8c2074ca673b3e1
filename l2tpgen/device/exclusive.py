"""Another engineer on the same router: the configuration lock, and a fingerprint of the config.

Two pushes from two machines (or two state directories) share no local lock, so the router is
the referee. Two mechanisms, both folded into round trips push makes anyway:

- **IOS's exclusive configuration mode** (Cisco, "Exclusive Configuration Change Access and
  Access Session Locking",
  https://cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-lock-0.html):
  with ``configuration mode exclusive auto`` every ``configure terminal`` takes the lock, with
  ``... manual`` only ``configure terminal lock`` does; the lock holds until that session leaves
  configuration mode, and any other session's ``configure terminal`` is refused meanwhile
  ("Configuration mode locked exclusively by user ... Please try later."). Push reads which mode
  the router has from its running config and enters configuration mode accordingly, once, in the
  same write as the rollback copy, and stays there until the change is sent.
- **A fingerprint of the running config** (its text, less the lines that change by themselves,
  ``l2tpgen.ios.volatile``): read again inside configuration mode, in that same write, it must
  equal the one the plan was made from, or nothing is sent. Before a rollback the router must
  still hold exactly what push last saw there itself; otherwise someone else changed it since,
  and push does not roll back over their change (it says what changed instead).

Commands that change the router without entering configuration mode (rollback's ``configure
replace``, confirm's ``configure confirm`` and save) read ``show configuration lock`` first
(``held_by``) and refuse as push does when another session holds the lock. Its fields, as quoted
from real routers: ``Type : EXCLUSIVE`` / ``State : LOCKED`` with the holder's ``User``, ``TTY``
and ``Owner PID`` (booches.nl, "Configuration Mode Locking", 2008), ``Type : NO LOCK`` / ``State :
FREE`` with none (darenmatthews.com, "IOS Configuration Lock", 2009). The output holds several
blocks, and every one is read (``locks``, issue 33): classic IOS prints one ``Parser Configure
Lock`` block per lock, a held one beside free ones; IOS-XE prints a ``Config Session Lock``
section first (one entry per session holding it: ``Owner PID``, ``TTY number``, ``TTY
username``, ``User debug info : CLI Session Lock``, ``Lock Active time (in Sec)``), then the
``Parser Configure Lock`` section, whose entries each start at ``Owner PID`` (genieparser's
fixtures for both, CiscoTestAutomation/genieparser
``src/genie/libs/parser/{ios,iosxe}/tests/ShowConfigurationLock/cli/equal/*_output.txt``,
quoted in ``tests/test_lock_blocks.py``). A ``Config Session Lock`` entry is read as another
session in configuration mode holding a lock [U: Cisco does not document that section; its
fixtures only show it with a CLI session as owner]: nothing is changed while one is listed. A
replace that meets the lock anyway (taken between the read and the replace) prints the lock's
refusal, which ``locked_by`` finds.

Without exclusive mode on the router, a change another session makes *between* push's chunks
cannot be prevented (only found before a rollback): docs/push.md recommends
``configuration mode exclusive auto``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.device.session import comparable, read_count
from l2tpgen.errors import DeviceError
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from collections.abc import Sequence

_EXCLUSIVE = re.compile(r"^configuration mode exclusive (auto|manual)\s*$", re.MULTILINE)
# What IOS prints when another session holds the lock (quoted in the module docstring's sources:
# "Configuration mode locked exclusively by user 'netop' process '187' from terminal '7'. Please
# try later.").
_LOCKED = re.compile(r"(?i)configuration mode (?:is )?locked exclusively by[^\n]*")
SHOW = "do show running-config"
SHOW_LOCK = "show configuration lock"
# One `key : value` line of `show configuration lock` (keys have spaces and parentheses).
_LOCK_FIELD = re.compile(r"^\s*([A-Za-z][A-Za-z ()]*?)\s*:\s*(.*?)\s*$")
_PARSER_LOCK = "Parser Configure Lock"
_SESSION_LOCK = "Config Session Lock"
# The fields a holder is named by, per block, in the order they are quoted.
_NAMED_BY = {
    _PARSER_LOCK: ("User", "TTY", "Owner PID"),
    _SESSION_LOCK: ("TTY username", "TTY number", "Owner PID", "User debug info"),
}
# How many characters of one holder, and how many holders, a message quotes.
_QUOTED_HOLDER = 160
_QUOTED_HOLDERS = 3
# How many changed lines a message quotes.
_QUOTED_LINES = 4


def enter_command(running: str) -> str:
    """``configure terminal``, or ``configure terminal lock`` on a router in manual exclusive mode.

    (In auto mode ``configure terminal`` takes the lock itself; without exclusive mode there is no
    lock to take, and ``lock`` is not sent: its behaviour there is not documented.)
    """
    found = _EXCLUSIVE.search(running)
    return (
        "configure terminal lock" if found and found.group(1) == "manual" else "configure terminal"
    )


def exclusive_mode(running: str) -> str | None:
    """``auto`` or ``manual`` when the router has exclusive configuration mode, else None."""
    found = _EXCLUSIVE.search(running)
    return found.group(1) if found else None


def locked_by(output: str) -> str:
    """The lock refusal IOS printed in ``output`` (its first line), or ""."""
    found = _LOCKED.search(output)
    return found.group(0).strip() if found else ""


@dataclass(frozen=True)
class Lock:
    """One entry of ``show configuration lock``: its block's title and its fields, as printed."""

    block: str  # _PARSER_LOCK, _SESSION_LOCK, or "" before any title
    fields: tuple[tuple[str, str], ...]

    def get(self, key: str) -> str:
        """A field's value ("" when the entry has none)."""
        return next((value for name, value in self.fields if name.lower() == key.lower()), "")

    @property
    def held(self) -> bool:
        """Whether this entry is a lock someone holds.

        A ``Parser Configure Lock`` entry (or one before any title) only in state ``LOCKED``; an
        IOS-XE ``Config Session Lock`` entry is listed only while held, unless its owner is -1.
        """
        if self.block == _SESSION_LOCK:
            return self.get("Owner PID") not in {"", "-1"}
        return self.get("State").upper() == "LOCKED"

    def holder(self) -> str:
        """Who holds it, in the router's own field names."""
        keys = _NAMED_BY[_SESSION_LOCK if self.block == _SESSION_LOCK else _PARSER_LOCK]
        who = ", ".join(f"{key} {self.get(key)}" for key in keys if self.get(key))
        if self.block == _SESSION_LOCK:
            text = f"config session lock held by {who or 'another session'}"
        else:
            text = f"exclusive configuration mode: locked by {who or 'another session'}"
        return mask_secrets(text)[:_QUOTED_HOLDER]


def locks(output: str) -> list[Lock]:
    """Every entry of every block of ``show configuration lock``, in the order printed.

    A block starts at its title (``Parser Configure Lock``, ``Config Session Lock``); within a
    block each ``Owner PID`` line starts a new entry (IOS-XE lists several owners under one
    title). Dashes, blank lines and a refusal are skipped: a router that refuses the command has
    no lock to show.
    """
    found: list[Lock] = []
    block = ""
    fields: list[tuple[str, str]] = []

    def close() -> None:
        if fields:
            found.append(Lock(block, tuple(fields)))
        fields.clear()

    for raw in output.splitlines():
        line = raw.strip()
        if line in {_PARSER_LOCK, _SESSION_LOCK}:
            close()
            block = line
            continue
        match = _LOCK_FIELD.match(line)
        if match is None:
            continue
        key, value = match.group(1), match.group(2)
        if key == "Owner PID":
            close()  # each entry starts at its owner (genieparser keys entries by it too)
        fields.append((key, value))
    close()
    return found


def held_by(output: str) -> str:
    """Who holds a lock, from ``show configuration lock`` ("" when nobody does).

    Every block is read (``locks``): each held entry is named, in the order printed.
    """
    holders = list(dict.fromkeys(lock.holder() for lock in locks(output) if lock.held))
    shown = "; ".join(holders[:_QUOTED_HOLDERS])
    more = len(holders) - _QUOTED_HOLDERS
    return shown + (f"; and {more} more" if more > 0 else "")


def lock_refusal(holder: str, again: str) -> str:
    """What push, rollback and confirm say when another session holds the lock."""
    return (
        f"nothing was changed: another session holds the router's configuration lock "
        f"({holder}); {again} when it has finished"
    )


def same_config(one: str, other: str) -> bool:
    """Whether two ``show running-config`` outputs hold the same configuration."""
    return comparable(one) == comparable(other)


def what_changed(old: str, new: str) -> str:
    """The first lines that differ from ``old`` to ``new`` (masked), for a message."""
    lines = [
        line
        for line in difflib.unified_diff(
            comparable(old).splitlines(), comparable(new).splitlines(), lineterm="", n=0
        )
        if line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip() != "!"
    ]
    shown = ", ".join(f"`{mask_secrets(line)}`" for line in lines[:_QUOTED_LINES])
    more = f" and {len(lines) - _QUOTED_LINES} more" if len(lines) > _QUOTED_LINES else ""
    return (shown + more) or "no line (only its order)"


@dataclass(frozen=True)
class Entered:
    """How the write that copies the config and enters configuration mode went.

    ``copy``: the copy command's output; ``entered``: configuration mode was entered (else
    ``locked_by`` says whose lock kept push out, or ``answer`` what the router said instead);
    ``seen``: the running config as read inside configuration mode.
    """

    copy: str
    entered: bool
    seen: str
    locked_by: str = ""
    answer: str = ""


def copy_and_enter(
    connection: Any,  # noqa: ANN401 - netmiko
    before_commands: Sequence[str],
    copy: str,
    enter: str,
    *,
    timeout: float = 60,
) -> Entered:
    """Delete, copy, enter configuration mode and read the config there, in one write.

    ``before_commands`` (deletes), the copy (its question answered ahead), ``enter`` and ``do show
    running-config``; then read until that show has been answered.

    Raises:
        DeviceError: the router stopped answering.
    """
    base = re.escape(connection.base_prompt)
    done = re.compile(
        rf"^{base}(?:\([^)]*\))?#{re.escape(SHOW)}\n.*?^{base}(?:\([^)]*\))?#",
        re.DOTALL | re.MULTILINE,
    )
    lines = [*before_commands, copy, "", enter, SHOW]
    try:
        connection.write_channel("".join(f"{line}\n" for line in lines))
        text = read_count(connection, done, 1, timeout)
    except DeviceError as exc:
        raise DeviceError(f"`{copy}` got no answer ({exc})") from exc
    prompts = re.compile(rf"^{base}(\([^)]*\))?#(.*)$", re.MULTILINE)
    if not prompts.match(text):  # the prompt before the first command was read with the last answer
        text = f"{connection.base_prompt}#{text}"
    segments: list[tuple[str, bool, str]] = []  # (echoed command, in config mode, output)
    marks = list(prompts.finditer(text))
    for mark, following in zip(marks, [*marks[1:], None], strict=False):
        end = following.start() if following is not None else len(text)
        segments.append((mark.group(2).strip(), mark.group(1) is not None, text[mark.end() : end]))
    copied = next((out for command, _, out in segments if command == copy), "")
    shown = next(((config, out) for command, config, out in segments if command == SHOW), None)
    entered = shown is not None and shown[0]
    answer = next((out for command, _, out in segments if command == enter), "")
    return Entered(
        copied.split("\n", 1)[1] if "\n" in copied else copied,
        entered,
        shown[1].split("\n", 1)[1] if shown is not None and "\n" in shown[1] else "",
        locked_by(answer),
        mask_secrets(answer.strip()[:120]),
    )


def leave(connection: Any, timeout: float = 30) -> None:  # noqa: ANN401 - netmiko
    """``end``: back to the exec prompt (the lock, if any, goes with it)."""
    base = re.escape(connection.base_prompt)
    connection.write_channel("end\n")
    read_count(connection, re.compile(rf"^{base}#", re.MULTILINE), 1, timeout)


def sections(config: str) -> dict[str, str]:
    """Each top-level line of a ``show running-config`` and the text of its section."""
    found: dict[str, str] = {}
    header = ""
    for line in comparable(config).splitlines():
        if line.startswith("!"):
            continue
        if not line.startswith(" "):
            header = line
            found[header] = found.get(header, "") + line + "\n"
        elif header:
            found[header] += line + "\n"
    return found


def touched(commands: Sequence[str]) -> frozenset[str]:
    """The top-level lines a change edits (``no interface X`` edits ``interface X``)."""
    return frozenset(
        line.removeprefix("no ").strip() for line in commands if line and not line[0].isspace()
    )


def foreign_change(
    now: str, before: str, expected: str | None, edits: frozenset[str]
) -> str | None:
    """What someone other than this push changed on the router, or None.

    ``expected``: the running config push last read itself (the router must still hold exactly
    that). Unknown (the connection was lost mid-change): the sections the change does not edit
    must be as before.
    """
    if expected is not None:
        return None if same_config(now, expected) else what_changed(expected, now)
    old, new = sections(before), sections(now)
    others = sorted(
        h for h in old.keys() | new.keys() if h not in edits and old.get(h) != new.get(h)
    )
    if not others:
        return None
    return what_changed(
        "\n".join(old.get(h, "") for h in others), "\n".join(new.get(h, "") for h in others)
    )
