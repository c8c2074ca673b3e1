"""One session's command line on a simulated router: its mode stack, pending prompt, privilege.

``Terminal.handle(line)`` takes one line as a user typed it and returns what IOS would print
before the next prompt; ``Terminal.prompt()`` is that prompt. Exec commands are in ``exec_mode``
(and ``storage`` for files and saving), configuration modes in ``config_mode``. Each session has
its own terminal over the router's shared configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.sim.commands import PROMPTS
from l2tpgen.sim.config_mode import config_line
from l2tpgen.sim.exec_mode import exec_line

if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    from l2tpgen.sim.config_mode import Frame
    from l2tpgen.sim.router import Router

INVALID = "% Invalid input detected at '^' marker."
INCOMPLETE = "% Incomplete command."


class Terminal:
    """One session's command line over a router's shared configuration."""

    def __init__(self, router: Router, *, faults: bool = True, user: str = "console") -> None:
        self.router = router
        self.faults = faults
        # Who this session is, as ``show archive config rollback timer`` names the user who
        # armed a revert timer: the SSH login (set by the server), or ``console`` as in Cisco's
        # sample output for a session without one.
        self.user = user
        self.stack: list[Frame] = []
        self.pending: Callable[[str], str] | None = None
        self.pending_prompt = ""
        self.privileged = router.enable_secret is None
        self.closed = False

    @property
    def refuse(self) -> re.Pattern[str] | None:
        """The router's refuse fault, unless this terminal is exempt from faults."""
        return self.router.refuse if self.faults else None

    @property
    def in_config(self) -> bool:
        """Whether this session is in a configuration mode."""
        return bool(self.stack)

    def prompt(self) -> str:
        """What IOS prints before the next input."""
        if self.pending is not None:
            return self.pending_prompt
        name = self.router.current_hostname()
        if not self.stack:
            return f"{name}#" if self.privileged else f"{name}>"
        frame = self.stack[-1]
        mode = "subinterface" if frame.subinterface and frame.mode == "interface" else frame.mode
        return f"{name}{PROMPTS[mode]}#"

    def hides_input(self) -> bool:
        """Whether the router is asking for a password (typed input is not echoed)."""
        return self.pending is not None and "Password" in self.pending_prompt

    def ask(self, prompt: str, answer: Callable[[str], str]) -> str:
        """Ask a question (``Destination filename [x]?``); ``answer`` gets the reply."""
        self.pending, self.pending_prompt = answer, prompt
        return ""

    def handle(self, raw: str) -> str:
        """Process one input line; return the output to print before the next prompt."""
        self.router.tick()
        if self.pending is not None:
            answer, self.pending = self.pending, None
            return answer(raw.strip())
        text = raw.strip()
        if not text:
            return ""
        if self.stack:
            self.router.events.append(("config", text))
            return self.config_line(text)
        self.router.events.append(("exec", text))
        if self.refuse is not None and self.refuse.search(text):
            return self.error(text, 0, incomplete=False)
        return exec_line(self, text)

    def config_line(self, text: str) -> str:
        """A line in a configuration mode: applied, or refused like IOS."""
        words = text.split()
        if words[0] == "do" and len(words) > 1:
            return exec_line(self, " ".join(words[1:]))
        return config_line(self, text)

    def error(self, text: str, progress: int, *, incomplete: bool) -> str:
        """IOS's refusal of ``text``: a caret under the first word it could not take."""
        if incomplete:
            return INCOMPLETE
        tokens = text.split()
        offset = len(self.prompt())
        if progress < len(tokens):
            offset += sum(len(t) + 1 for t in tokens[:progress])
        else:
            offset += len(text)
        return " " * offset + "^\n" + INVALID
