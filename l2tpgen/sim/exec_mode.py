"""Exec mode (the ``#`` and ``>`` prompts): show commands, enable, configure.

Files and saving are in ``storage``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from l2tpgen.sim import config_lock, revert, storage
from l2tpgen.sim.config_mode import Frame
from l2tpgen.sim.grammar import Match, match

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.sim.terminal import Terminal

    Handler = Callable[[Terminal, list[str]], str]


def _noop(_t: Terminal, _words: list[str]) -> str:
    return ""


def _logout(t: Terminal, _words: list[str]) -> str:
    t.closed = True
    return ""


def _enable(t: Terminal, _words: list[str]) -> str:
    if t.privileged:
        return ""

    def check(answer: str) -> str:
        if answer == t.router.enable_secret:
            t.privileged = True
            return ""
        return "% Access denied"

    return t.ask("Password: ", check)


def _disable(t: Terminal, _words: list[str]) -> str:
    t.privileged = t.router.enable_secret is None
    return ""


def _show_version(t: Terminal, _words: list[str]) -> str:
    return t.router.flavor.version.format(hostname=t.router.current_hostname())


def _show_running(t: Terminal, _words: list[str]) -> str:
    return t.router.running.show()


def _show_startup(t: Terminal, _words: list[str]) -> str:
    if not t.router.startup.lines:
        return "startup-config is not present"
    return t.router.startup.show()


def _show_xconnect(t: Terminal, _words: list[str]) -> str:
    show = t.router.show_pseudowires
    return show(t.router, "xconnect") if show else ""


def _show_l2tun(t: Terminal, _words: list[str]) -> str:
    show = t.router.show_pseudowires
    return show(t.router, "l2tun") if show else ""


def _show_l2tp(t: Terminal, words: list[str]) -> str:
    """IOS-XE's ``show l2tp`` (``pseudowires.show_l2tp``); classic IOS refuses it here [U]."""
    show = t.router.show_pseudowires
    if not t.router.flavor.show_l2tp:
        return t.error(" ".join(words), 1, incomplete=False)
    return show(t.router, "l2tp") if show else ""


def _show_ip_brief(t: Terminal, _words: list[str]) -> str:
    rows = ["Interface              IP-Address      OK? Method Status                Protocol"]
    for line in t.router.running.lines:
        if line.text.startswith("interface "):
            address = next(
                (c.text.split()[2] for c in line.children if c.text.startswith("ip address ")),
                "unassigned",
            )
            down = any(c.text == "shutdown" for c in line.children)
            status = "administratively down" if down else "up"
            name = line.text.split()[1]
            rows.append(
                f"{name:<22} {address:<15} YES manual {status:<21} {'down' if down else 'up'}"
            )
    return "\n".join(rows)


def _show_clock(_t: Terminal, _words: list[str]) -> str:
    return time.strftime("*%H:%M:%S.000 UTC %a %b %d %Y", time.gmtime())


def _configure(t: Terminal, words: list[str]) -> str:
    allowed, said = config_lock.enter(t, lock=words[-1] == "lock")
    if allowed:
        t.stack = [Frame("config")]
    return said


EXEC_COMMANDS: tuple[tuple[str, Handler], ...] = (
    ("terminal length <0-512>", _noop),
    ("terminal width <0-512>", _noop),
    ("terminal no monitor", _noop),
    ("terminal monitor", _noop),
    ("show version", _show_version),
    ("show running-config", _show_running),
    ("show startup-config", _show_startup),
    ("show xconnect all", _show_xconnect),
    ("show l2tun session all", _show_l2tun),
    ("show l2tun", _show_l2tun),
    ("show l2tp", _show_l2tp),
    ("show ip interface brief", _show_ip_brief),
    ("show clock", _show_clock),
    ("configure terminal revert timer <1-120>", revert.start),
    ("configure confirm", revert.confirm),
    ("configure revert now", revert.revert_now),
    ("show archive config rollback timer", revert.show_timer),
    ("show configuration lock", config_lock.show),
    ("configure terminal lock", _configure),
    ("configure terminal", _configure),
    ("configure replace WORD [force]", storage.configure_replace),
    ("write memory", storage.write),
    ("write", storage.write),
    ("copy running-config startup-config", storage.copy_startup),
    ("copy running-config WORD", storage.copy_file),
    ("dir [WORD]", storage.directory),
    ("delete [/force] WORD", storage.delete),
    ("enable", _enable),
    ("disable", _disable),
    ("exit", _logout),
    ("logout", _logout),
    ("end", _noop),
)
# What a user at the `>` prompt may run.
UNPRIVILEGED: frozenset[Handler] = frozenset({_enable, _logout, _show_version, _noop})


def exec_line(t: Terminal, text: str) -> str:
    """A command at the ``#`` or ``>`` prompt."""
    tokens = text.split()
    best = Match(complete=False, exhausted=False, progress=0, words=())
    for pattern, handler in EXEC_COMMANDS:
        found = match(pattern, tokens)
        if found.complete:
            if not t.privileged and handler not in UNPRIVILEGED:
                return t.error(text, 0, incomplete=False)
            return handler(t, list(found.words))
        if found.progress > best.progress or (found.exhausted and not best.exhausted):
            best = found
    return t.error(text, best.progress, incomplete=best.exhausted)
