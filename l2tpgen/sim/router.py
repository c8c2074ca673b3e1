"""The simulated IOS router's command line, without the SSH around it.

``Router.handle(line)`` takes one line as a user typed it and returns what IOS would print
before the next prompt; ``Router.prompt()`` is that prompt. Configuration is checked against the
grammar of each mode (``commands``); what is refused is never applied.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.ios import type7
from l2tpgen.sim.commands import MODES, PROMPTS, Command
from l2tpgen.sim.config import Config, Line
from l2tpgen.sim.defaults import as_stored
from l2tpgen.sim.grammar import Match, match

if TYPE_CHECKING:
    import re
    from collections.abc import Callable

INVALID = "% Invalid input detected at '^' marker."
SALT = 2
INCOMPLETE = "% Incomplete command."

EXEC_COMMANDS: tuple[tuple[str, str], ...] = (
    ("terminal length <0-512>", "noop"),
    ("terminal width <0-512>", "noop"),
    ("terminal no monitor", "noop"),
    ("terminal monitor", "noop"),
    ("show version", "show_version"),
    ("show running-config", "show_running"),
    ("show startup-config", "show_startup"),
    ("show xconnect all", "show_xconnect"),
    ("show l2tun session all", "show_l2tun"),
    ("show l2tun", "show_l2tun"),
    ("show ip interface brief", "show_ip_brief"),
    ("show clock", "show_clock"),
    ("configure terminal", "configure"),
    ("configure replace WORD [force]", "configure_replace"),
    ("write memory", "write"),
    ("write", "write"),
    ("copy running-config startup-config", "copy_startup"),
    ("copy running-config WORD", "copy_flash"),
    ("dir [WORD]", "dir"),
    ("delete [/force] WORD", "delete"),
    ("enable", "enable"),
    ("disable", "disable"),
    ("exit", "logout"),
    ("logout", "logout"),
    ("end", "noop"),
)


def _secret_line(words: list[str], at: int) -> str | None:
    """Store a secret as type 7, as ``service password-encryption`` does; None if refused."""
    kind = words[at] if at < len(words) else ""
    if kind in {"0", "7"} and at + 1 < len(words):
        secret, rest = words[at + 1], words[at + 2 :]
    elif kind and kind != "hash":
        secret, rest, kind = kind, words[at + 1 :], "0"
    else:
        return " ".join(words)
    if kind == "7":
        try:
            type7.decode(secret)
        except type7.Type7Error:
            return None
        encoded = secret
    else:
        try:
            encoded = type7.encode(secret, SALT)
        except type7.Type7Error:
            return None
    return " ".join([*words[:at], "7", encoded, *rest])


def _key(command: Command, words: list[str] | tuple[str, ...]) -> tuple[str, ...] | None:
    """The words that identify the setting a line holds (None: every line is its own)."""
    if command.key is None:
        return None
    return tuple(words[i] for i in command.key if i < len(words))


@dataclass
class Frame:
    """One level of the mode stack: the mode and the line whose children it edits."""

    mode: str
    line: Line | None = None
    subinterface: bool = False


@dataclass
class Router:
    """A simulated IOS router: running and startup configs, flash, a mode stack, a record."""

    hostname: str
    running: Config = field(default_factory=Config)
    enable_secret: str | None = None
    show_pseudowires: Callable[[Router, str], str] | None = None
    startup: Config = field(default_factory=Config)
    flash: dict[str, Config] = field(default_factory=dict)
    privileged: bool = True
    stack: list[Frame] = field(default_factory=list)
    events: list[tuple[str, str]] = field(default_factory=list)
    pending: Callable[[str], str] | None = None
    pending_prompt: str = ""
    refuse: re.Pattern[str] | None = None
    closed: bool = False

    def __post_init__(self) -> None:
        self.privileged = self.enable_secret is None

    # -- prompts and modes ---------------------------------------------------------------------

    @property
    def in_config(self) -> bool:
        """Whether the router is in a configuration mode."""
        return bool(self.stack)

    def prompt(self) -> str:
        """What IOS prints before the next input."""
        if self.pending is not None:
            return self.pending_prompt
        name = self.current_hostname()
        if not self.stack:
            return f"{name}#" if self.privileged else f"{name}>"
        frame = self.stack[-1]
        mode = "subinterface" if frame.subinterface and frame.mode == "interface" else frame.mode
        return f"{name}{PROMPTS[mode]}#"

    def hides_input(self) -> bool:
        """Whether the router is asking for a password (typed input is not echoed)."""
        return self.pending is not None and "Password" in self.pending_prompt

    def current_hostname(self) -> str:
        """The hostname of the running config."""
        line = next((x for x in self.running.lines if x.text.startswith("hostname ")), None)
        return line.text.split()[1] if line else self.hostname

    # -- input -----------------------------------------------------------------------------------

    def handle(self, raw: str) -> str:
        """Process one input line; return the output to print before the next prompt."""
        if self.pending is not None:
            answer, self.pending = self.pending, None
            return answer(raw.strip())
        text = raw.strip()
        if not text:
            return ""
        if self.stack:
            self.events.append(("config", text))
            return self.config_line(text)
        self.events.append(("exec", text))
        if self.refuse is not None and self.refuse.search(text):
            return self._error(text, 0, incomplete=False)
        return self.exec_line(text)

    def _error(self, text: str, progress: int, *, incomplete: bool) -> str:
        if incomplete:
            return INCOMPLETE
        tokens = text.split()
        offset = len(self.prompt())
        if progress < len(tokens):
            offset += sum(len(t) + 1 for t in tokens[:progress])
        else:
            offset += len(text)
        return " " * offset + "^\n" + INVALID

    # -- exec mode -------------------------------------------------------------------------------

    def exec_line(self, text: str) -> str:
        """A command at the ``#`` or ``>`` prompt."""
        tokens = text.split()
        best = Match(complete=False, exhausted=False, progress=0, words=())
        for pattern, action in EXEC_COMMANDS:
            found = match(pattern, tokens)
            if found.complete:
                if not self.privileged and action not in {
                    "enable",
                    "logout",
                    "show_version",
                    "noop",
                }:
                    return self._error(text, 0, incomplete=False)
                handler: Callable[[list[str]], str] = getattr(self, f"do_{action}")
                return handler(list(found.words))
            if found.progress > best.progress or (found.exhausted and not best.exhausted):
                best = found
        return self._error(text, best.progress, incomplete=best.exhausted)

    def do_noop(self, _words: list[str]) -> str:
        return ""

    def do_logout(self, _words: list[str]) -> str:
        self.closed = True
        return ""

    def do_enable(self, _words: list[str]) -> str:
        if self.privileged:
            return ""

        def check(answer: str) -> str:
            if answer == self.enable_secret:
                self.privileged = True
                return ""
            return "% Access denied"

        self.pending, self.pending_prompt = check, "Password: "
        return ""

    def do_disable(self, _words: list[str]) -> str:
        self.privileged = self.enable_secret is None
        return ""

    def do_show_version(self, _words: list[str]) -> str:
        return (
            "Cisco IOS Software, C2900 Software (C2900-UNIVERSALK9-M), Version 15.7(3)M8, "
            "RELEASE SOFTWARE (fc2)\n"
            "Technical Support: http://www.cisco.com/techsupport\n"
            f"{self.current_hostname()} uptime is 1 hour, 2 minutes\n"
            'System image file is "flash:c2900-universalk9-mz.SPA.157-3.M8.bin"\n'
            "Cisco CISCO2911/K9 (revision 1.0) with 487424K/36864K bytes of memory.\n"
            "3 Gigabit Ethernet interfaces\n"
            "Configuration register is 0x2102\n"
        )

    def do_show_running(self, _words: list[str]) -> str:
        return self.running.show()

    def do_show_startup(self, _words: list[str]) -> str:
        if not self.startup.lines:
            return "startup-config is not present"
        return self.startup.show()

    def do_show_xconnect(self, _words: list[str]) -> str:
        return self.show_pseudowires(self, "xconnect") if self.show_pseudowires else ""

    def do_show_l2tun(self, _words: list[str]) -> str:
        return self.show_pseudowires(self, "l2tun") if self.show_pseudowires else ""

    def do_show_ip_brief(self, _words: list[str]) -> str:
        rows = ["Interface              IP-Address      OK? Method Status                Protocol"]
        for line in self.running.lines:
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

    def do_show_clock(self, _words: list[str]) -> str:
        return time.strftime("*%H:%M:%S.000 UTC %a %b %d %Y", time.gmtime())

    def do_configure(self, _words: list[str]) -> str:
        self.stack = [Frame("config")]
        return "Enter configuration commands, one per line.  End with CNTL/Z."

    def do_write(self, _words: list[str]) -> str:
        self.startup = self.running.copy()
        return "Building configuration...\n[OK]"

    def do_copy_startup(self, _words: list[str]) -> str:
        def confirm(_answer: str) -> str:
            return self.do_write([])

        self.pending, self.pending_prompt = confirm, "Destination filename [startup-config]? "
        return ""

    def do_copy_flash(self, words: list[str]) -> str:
        target = words[-1]
        if not target.startswith("flash:"):
            return self._error(" ".join(words), 2, incomplete=False)
        default = target.removeprefix("flash:")

        def confirm(answer: str) -> str:
            name = answer or default
            self.flash[name] = self.running.copy()
            size = len(self.running.body())
            return f"{size} bytes copied in 0.012 secs ({size * 80} bytes/sec)"

        self.pending, self.pending_prompt = confirm, f"Destination filename [{default}]? "
        return ""

    def do_configure_replace(self, words: list[str]) -> str:
        name = words[2].removeprefix("flash:")
        if name not in self.flash:
            return f"%Error opening flash:{name} (File not found)"
        self.running = self.flash[name].copy()
        self.events.append(("replace", name))
        return "Total number of passes: 1\nRollback Done"

    def do_dir(self, _words: list[str]) -> str:
        rows = ["Directory of flash:/", ""]
        for number, (name, config) in enumerate(sorted(self.flash.items()), start=1):
            rows.append(
                f"{number:>4}  -rw-  {len(config.body()):>10}  Nov 21 2026 00:00:00 +00:00  {name}"
            )
        rows.append("")
        rows.append("256487424 bytes total (255000000 bytes free)")
        return "\n".join(rows)

    def do_delete(self, words: list[str]) -> str:
        name = words[-1].removeprefix("flash:")
        if self.flash.pop(name, None) is None:
            return f"%Error deleting flash:{name} (No such file or directory)"
        return ""

    # -- configuration modes ---------------------------------------------------------------------

    def config_line(self, text: str) -> str:  # noqa: PLR0911 - one return per keyword, flat
        """A line in a configuration mode: applied, or refused like IOS."""
        words = text.split()
        if words[0] == "end" and len(words) == 1:
            self.stack = []
            return ""
        if words[0] == "exit" and len(words) == 1:
            self.stack.pop()
            return ""
        if words[0] == "do" and len(words) > 1:
            return self.exec_line(" ".join(words[1:]))
        if self.refuse is not None and self.refuse.search(text):
            return self._error(text, 0, incomplete=False)
        if words[0].lower() == "no" and len(words) > 1:
            return self.negate(text, words[1:])
        if words[0].lower() == "default" and len(words) > 1:
            return self.default(text, words[1:])
        return self.apply(text, words)

    def _candidates(self) -> list[int]:
        """Stack depths to try, innermost first: IOS falls back to parent modes."""
        return list(range(len(self.stack) - 1, -1, -1))

    def apply(self, text: str, words: list[str]) -> str:
        """Enter a configuration line, trying the current mode and then its parents."""
        best = Match(complete=False, exhausted=False, progress=0, words=())
        for depth in self._candidates():
            mode = self.stack[depth].mode
            for command in MODES[mode]:
                found = match(command.pattern, words)
                if found.complete:
                    del self.stack[depth + 1 :]
                    return self.store(command, list(found.words))
                if found.progress > best.progress:
                    best = found
        return self._error(text, best.progress, incomplete=best.exhausted)

    def _container(self) -> list[Line]:
        frame = self.stack[-1]
        return frame.line.children if frame.line is not None else self.running.lines

    def store(self, command: Command, words: list[str]) -> str:
        """Apply a matched command in the current frame."""
        if words[0] in {"password", "digest"} and self.stack[-1].mode in {"l2tp-class", "line"}:
            at = 1 if words[0] == "password" else 2
            if words[0] == "digest" and (len(words) < 3 or words[1] != "secret"):  # noqa: PLR2004
                at = len(words)
            secret = _secret_line(words, at)
            if secret is None:
                return "% Invalid encrypted password"
            words = secret.split()
        key = (
            None if command.key is None else tuple(words[i] for i in command.key if i < len(words))
        )
        words = as_stored(self.stack[-1].mode, words)
        text = " ".join(words)
        container = self._container()
        if not words:  # a default: the setting goes back to it and shows nothing
            container[:] = [x for x in container if not (key is not None and x.key == key)]
            return ""
        if command.enters is not None:
            return self._enter(command, text, key, container)
        if command.default_on:
            container[:] = [x for x in container if x.text != f"no {text}"]
            return ""
        container[:] = [
            x for x in container if not (key is not None and x.key == key) and x.text != text
        ]
        if command.negation_stored and key is not None:
            container[:] = [x for x in container if x.text != "no " + " ".join(key)]
        container.append(Line(text, key))
        return ""

    def _enter(
        self, command: Command, text: str, key: tuple[str, ...] | None, container: list[Line]
    ) -> str:
        existing = next((x for x in container if x.text == text), None)
        if existing is None and key is not None:
            existing = next((x for x in container if x.key == key), None)
            if existing is not None:
                return "% Interface already has an xconnect; remove it first (no xconnect)"
        if existing is None:
            existing = Line(text, key)
            container.append(existing)
        name = text.split(" ", 1)[1] if " " in text else ""
        self.stack.append(Frame(command.enters or "", existing, subinterface="." in name))
        return ""

    def negate(self, text: str, words: list[str]) -> str:
        """``no ...``: remove a setting or a section, or store a negated default."""
        best = Match(complete=False, exhausted=False, progress=0, words=())
        for depth in self._candidates():
            mode = self.stack[depth].mode
            for command in MODES[mode]:
                found = match(command.pattern, words)
                if not (found.complete or found.exhausted):
                    best = found if found.progress > best.progress else best
                    continue
                del self.stack[depth + 1 :]
                return self._remove(command, found)
        return self._error(text, best.progress + 1, incomplete=False)

    def _remove(self, command: Command, found: Match) -> str:
        container = self._container()
        spelled = " ".join(found.words)
        if command.default_on:
            key = None if command.key is None else tuple(found.words[i] for i in command.key)
            container[:] = [x for x in container if x.text != f"no {spelled}"]
            container.append(Line(f"no {spelled}", key))
            return ""
        if command.enters == "interface":
            name = found.words[1] if len(found.words) > 1 else ""
            if "." not in name and not name.startswith(("Loopback", "Tunnel")):
                return "% Removal of physical interfaces is not permitted"
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
            container.append(Line("no " + " ".join(stored_key), stored_key))
        return ""

    def default(self, text: str, words: list[str]) -> str:
        """``default interface X``: the interface back to no configuration."""
        found = match("interface IFNAME", words)
        if not found.complete:
            return self._error(text, found.progress + 1, incomplete=found.exhausted)
        line = self.running.find(" ".join(found.words))
        if line is not None:
            line.children = []
        return f"Interface {found.words[1]} set to default configuration"

    # -- loading ---------------------------------------------------------------------------------

    def load(self, text: str) -> list[str]:
        """Apply a whole config text (indented as IOS prints it); return the lines refused."""
        self.stack = [Frame("config")]
        refused = []
        for raw in text.splitlines():
            stripped = raw.strip()
            if not stripped or stripped.startswith("!") or stripped == "end":
                continue
            if not raw.startswith(" "):
                self.stack = [Frame("config")]
            output = self.config_line(stripped)
            if "%" in output:
                refused.append(stripped)
        self.stack = []
        return refused
