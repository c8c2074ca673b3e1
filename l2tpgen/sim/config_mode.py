"""Configuration modes: a line is applied to the running config, or refused as IOS refuses it.

A line is checked against the grammar of the mode and its parents (``commands``); what is refused
is never applied.

Beyond the grammar, IOS refuses a second xconnect with the same peer and VC ID on another
interface, and prints a notice when a subinterface is removed; both are here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.sim import type6, type7
from l2tpgen.sim.commands import MODES, Command
from l2tpgen.sim.config import Line, place
from l2tpgen.sim.defaults import as_stored
from l2tpgen.sim.grammar import Match, match

if TYPE_CHECKING:
    from l2tpgen.sim.terminal import Terminal

# IOS's notice after `no interface X.Y` (Net::Telnet::Cisco, Cisco's NSO NED and CCP Express list
# it as harmless; that this command prints it is the research notes' inference, section 8).
SUBINTERFACE_NOTICE = (
    "%Not all config may be removed and may reappear after reactivating the sub-interface"
)
NOTICES = frozenset({SUBINTERFACE_NOTICE})
INVALID_SECRET = "% Invalid encrypted password"  # noqa: S105 - IOS's message, not a secret
PHYSICAL_REMOVAL = "% Removal of physical interfaces is not permitted"


def is_refusal(output: str) -> bool:
    """Whether a configuration line's output says it was refused (a ``%`` line, not a notice)."""
    return any(line.startswith("%") and line not in NOTICES for line in output.splitlines())


def duplicate_xconnect(peer: str, vc_id: str, interface: str) -> str:
    """IOS's refusal of a second xconnect with the same (peer, VC ID).

    NOT VERIFIED AGAINST A ROUTER: the exact IOS text was not found in any public source (research
    notes, section 8). A ``%`` line, as every IOS refusal, so push sees it as one.
    """
    return f"% Xconnect to peer {peer} with VC ID {vc_id} already exists on {interface}"


@dataclass
class Frame:
    """One level of the mode stack: the mode and the line whose children it edits."""

    mode: str
    line: Line | None = None
    subinterface: bool = False


def config_line(t: Terminal, text: str) -> str:
    """A line in a configuration mode (``do`` excepted): applied, or refused like IOS."""
    words = text.split()
    if words[0] == "end" and len(words) == 1:
        t.stack = []
        return ""
    if words[0] == "exit" and len(words) == 1:
        t.stack.pop()
        return ""
    if t.refuse is not None and t.refuse.search(text):
        return t.error(text, 0, incomplete=False)
    if words[0].lower() == "no" and len(words) > 1:
        return _negate(t, text, words[1:])
    if words[0].lower() == "default" and len(words) > 1:
        return _default(t, text, words[1:])
    return _apply(t, text, words)


def _candidates(t: Terminal) -> list[int]:
    """Stack depths to try, innermost first: IOS falls back to parent modes."""
    return list(range(len(t.stack) - 1, -1, -1))


def _apply(t: Terminal, text: str, words: list[str]) -> str:
    """Enter a configuration line, trying the current mode and then its parents."""
    best = Match(complete=False, exhausted=False, progress=0, words=())
    for depth in _candidates(t):
        mode = t.stack[depth].mode
        for command in MODES[mode]:
            found = match(command.pattern, words)
            if found.complete:
                del t.stack[depth + 1 :]
                if command.pattern.startswith("ip access-list resequence "):
                    name, start, step = found.words[3:6]
                    return _resequence(t, name, int(start), int(step))
                return _store(t, command, list(found.words))
            if found.progress > best.progress:
                best = found
    return t.error(text, best.progress, incomplete=best.exhausted)


def _container(t: Terminal) -> list[Line]:
    frame = t.stack[-1]
    return frame.line.children if frame.line is not None else t.router.running.lines


def _secret_line(words: list[str], at: int, salt: int) -> str | None:
    """Store a secret as type 7, as ``service password-encryption`` does; None if refused.

    A secret typed in clear (``0`` or no type) is encoded with the router's own salt; a type 7
    string is kept as typed (whatever its salt).
    """
    kind = words[at] if at < len(words) else ""
    if kind in {"0", "7"} and at + 1 < len(words):
        secret, rest = words[at + 1], words[at + 2 :]
    elif kind and kind != "hash":
        secret, rest, kind = kind, words[at + 1 :], "0"
    else:
        return " ".join(words)
    try:
        if kind == "7":
            type7.decode(secret)
            encoded = secret
        else:
            encoded = type7.encode(secret, salt)
    except type7.Type7Error:
        return None
    return " ".join([*words[:at], "7", encoded, *rest])


def _secret_words(t: Terminal, words: list[str]) -> list[str] | None:
    """A ``password`` or ``digest secret`` line's words, its secret as type 7; None if refused."""
    at = 1 if words[0] == "password" else 2
    if words[0] == "digest" and (len(words) < 3 or words[1] != "secret"):  # noqa: PLR2004
        at = len(words)
    secret = _secret_line(words, at, t.router.salt)
    return None if secret is None else secret.split()


def _replace(container: list[Line], command: Command, line: Line, mode: str) -> None:
    """Store a setting: in place of the one with its key (or its text), and of its negation."""
    key = line.key
    container[:] = [
        x for x in container if not (key is not None and x.key == key) and x.text != line.text
    ]
    if command.negation_stored and key is not None:
        container[:] = [x for x in container if x.text != "no " + " ".join(key)]
    place(container, line, mode)


def _store(t: Terminal, command: Command, words: list[str]) -> str:
    """Apply a matched command in the current frame."""
    if words[0] in {"password", "digest"} and t.stack[-1].mode in {"l2tp-class", "line"}:
        secret = _secret_words(t, words)
        if secret is None:
            return INVALID_SECRET
        words = secret
    mode = t.stack[-1].mode
    if type6.applies(t.router.running, mode, words):
        words = type6.stored(words)
    key = None if command.key is None else tuple(words[i] for i in command.key if i < len(words))
    words = as_stored(mode, words)
    container = _container(t)
    if mode == "acl":
        return _acl_entry(container, words)
    text = " ".join(words)
    if not words:  # a default: the setting goes back to it and shows nothing
        container[:] = [x for x in container if not (key is not None and x.key == key)]
        return ""
    if command.enters is not None:
        return _enter(t, command, text, key, container)
    if command.default_on:
        container[:] = [x for x in container if x.text != f"no {text}"]
        return ""
    _replace(container, command, Line(text, key), mode)
    if text == type6.ENABLED:
        type6.convert_all(t.router.running)
    return ""


DUPLICATE_SEQUENCE = "% Duplicate sequence number"


def _acl_entry(container: list[Line], words: list[str]) -> str:
    """An access list entry: at its sequence number, or the last one plus 10 (``order``).

    The number is not printed by ``show running-config``. A number already taken is refused
    ([U]: the wording is not confirmed); an entry typed again is not added twice.
    """
    seq = None
    if words[0].isdigit():
        seq, words = int(words[0]), words[1:]
        if any(x.seq == seq for x in container):
            return DUPLICATE_SEQUENCE
    text = " ".join(words)
    if any(x.text == text for x in container):
        return ""
    if seq is None:
        seq = max((x.seq or 0 for x in container), default=0) + 10
    place(container, Line(text, None, seq=seq), "acl")
    return ""


def _resequence(t: Terminal, name: str, start: int, step: int) -> str:
    """``ip access-list resequence NAME START STEP``: the entries renumbered, in their order.

    A list that does not exist is left alone, silently ([U]: IOS's answer is not confirmed).
    """
    for kind in ("extended", "standard"):
        section = t.router.running.find(f"ip access-list {kind} {name}")
        if section is not None:
            entries = [x for x in section.children if x.seq is not None]
            for index, entry in enumerate(entries):
                entry.seq = start + index * step
    return ""


def _same_xconnect_elsewhere(t: Terminal, words: list[str]) -> str | None:
    """The interface that already has an xconnect to this peer and VC ID (None: none has)."""
    here = t.stack[-1].line
    for line in t.router.running.lines:
        if line is here or not line.text.startswith("interface "):
            continue
        for child in line.children:
            if child.text.split()[:3] == words[:3]:
                return line.text.split(" ", 1)[1]
    return None


# Interfaces a router creates on demand; every other name is a port of its hardware.
VIRTUAL = ("Loopback", "Tunnel", "Vlan", "BDI", "Port-channel", "Virtual-Template", "Dialer")


def _has_hardware(t: Terminal, text: str) -> bool:
    """Whether ``interface NAME`` names a port the router has (or a virtual interface).

    IOS refuses an interface of a port it does not have (``% Invalid input`` under the name).
    """
    name = text.split(" ", 1)[1]
    hardware = t.router.hardware
    return hardware is None or name.startswith(VIRTUAL) or name.split(".")[0] in hardware


def _enter(
    t: Terminal, command: Command, text: str, key: tuple[str, ...] | None, container: list[Line]
) -> str:
    existing = next((x for x in container if x.text == text), None)
    if existing is None and key is not None:
        existing = next((x for x in container if x.key == key), None)
        if existing is not None:
            return "% Interface already has an xconnect; remove it first (no xconnect)"
    if existing is None and command.enters == "interface" and not _has_hardware(t, text):
        return t.error(text, 1, incomplete=False)
    if existing is None and command.enters == "xconnect":
        words = text.split()
        other = _same_xconnect_elsewhere(t, words)
        if other is not None:
            return duplicate_xconnect(words[1], words[2], other)
    if existing is None:
        existing = Line(text, key)
        place(container, existing, t.stack[-1].mode)
    name = text.split(" ", 1)[1] if " " in text else ""
    t.stack.append(Frame(command.enters or "", existing, subinterface="." in name))
    return ""


def _negate(t: Terminal, text: str, words: list[str]) -> str:
    """``no ...``: remove a setting or a section, or store a negated default."""
    best = Match(complete=False, exhausted=False, progress=0, words=())
    for depth in _candidates(t):
        mode = t.stack[depth].mode
        for command in MODES[mode]:
            found = match(command.pattern, words)
            if not (found.complete or found.exhausted):
                best = found if found.progress > best.progress else best
                continue
            del t.stack[depth + 1 :]
            return _remove(t, command, found)
    return t.error(text, best.progress + 1, incomplete=False)


def _interface_removal(command: Command, found: Match, container: list[Line]) -> str | None:
    """What ``no interface X`` prints: None when refused (a port), a subinterface's notice.

    Empty for any other command.
    """
    if command.enters != "interface":
        return ""
    name = found.words[1] if len(found.words) > 1 else ""
    if "." not in name and not name.startswith(("Loopback", "Tunnel")):
        return None
    spelled = " ".join(found.words)
    if "." in name and any(x.text == spelled for x in container):
        return SUBINTERFACE_NOTICE
    return ""


def _remove_lines(t: Terminal, command: Command, found: Match, container: list[Line]) -> None:
    """Remove the lines (and sections) ``found`` names; store its negation where IOS does."""
    spelled = " ".join(found.words)
    key = None
    if found.complete and command.key is not None:
        key = tuple(found.words[i] for i in command.key if i < len(found.words))
    kept = [
        x
        for x in container
        if not (x.text == spelled or x.text.startswith(spelled + " ") or (key and x.key == key))
    ]
    container[:] = kept
    if command.negation_stored and command.key is not None:
        stored_key = tuple(found.words[i] for i in command.key if i < len(found.words))
        place(container, Line("no " + " ".join(stored_key), stored_key), t.stack[-1].mode)


def _remove(t: Terminal, command: Command, found: Match) -> str:
    container = _container(t)
    spelled = " ".join(found.words)
    if command.default_on:
        key = None if command.key is None else tuple(found.words[i] for i in command.key)
        container[:] = [x for x in container if x.text != f"no {spelled}"]
        place(container, Line(f"no {spelled}", key), t.stack[-1].mode)
        return ""
    notice = _interface_removal(command, found, container)
    if notice is None:
        return PHYSICAL_REMOVAL
    if t.stack[-1].mode == "acl" and found.words[:1] and found.words[0].isdigit():
        number = int(found.words[0])  # `no 20`: the entry numbered 20
        container[:] = [x for x in container if x.seq != number]
        return ""
    _remove_lines(t, command, found, container)
    return notice


def _default(t: Terminal, text: str, words: list[str]) -> str:
    """``default interface X``: the interface back to no configuration."""
    found = match("interface IFNAME", words)
    if not found.complete:
        return t.error(text, found.progress + 1, incomplete=found.exhausted)
    line = t.router.running.find(" ".join(found.words))
    if line is not None:
        line.children = []
    return f"Interface {found.words[1]} set to default configuration"
