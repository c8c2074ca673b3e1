"""The simulated IOS router: what every session to it shares.

A ``Router`` holds the configuration (running, startup, the files of its file system), what it
is (its flavor, the salt it stores type 7 secrets with, its hardware) and the record of commands
typed on it. Each SSH session gets its own command line, a ``Terminal`` (mode stack, pending
prompt, privilege), over that shared state, as on a real router where one vty in configuration
mode does not move another. ``Router.handle`` and ``Router.prompt`` drive one built-in terminal
(the console), for tests that need no SSH.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.sim import revert, type7
from l2tpgen.sim.config import Config
from l2tpgen.sim.config_mode import Frame, is_refusal
from l2tpgen.sim.flavor import IOS, Flavor
from l2tpgen.sim.matching import ASSUMED, Assumptions
from l2tpgen.sim.terminal import INCOMPLETE, INVALID, Terminal

if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    from l2tpgen.sim.revert import Pending

__all__ = ["INCOMPLETE", "INVALID", "Router", "random_salt"]


def random_salt() -> int:
    """A type 7 salt (0-15), as a router picks one."""
    return secrets.randbelow(type7.MAX_SALT + 1)


@dataclass
class Router:
    """A simulated IOS router: configs, files, what it is, and a record of what was typed.

    ``salt``: the type 7 salt the router stores ``password 0 X`` / ``digest secret 0 X`` with
    (random per router unless given). ``hardware``: the physical ports it has (None: any port);
    the pseudowires of subinterfaces of other ports show ``NH`` (No Hardware), as after a module
    was pulled. ``pinned``: states set by hand for (peer, VC ID), for what the simulator does not
    model itself (``HS``/``RV``: a standby route processor, a switchover; ``SB``, ``--``).
    ``refuse`` and ``save_fails`` are faults (``l2tpgen.sim.faults``). ``assumptions``: what the
    router takes for granted where Cisco's documentation is silent (``l2tpgen.sim.matching``).
    """

    hostname: str
    # configs hold type 7 secrets and enable_secret is one: none of them in a repr or traceback
    running: Config = field(default_factory=Config, repr=False)
    enable_secret: str | None = field(default=None, repr=False)
    show_pseudowires: Callable[[Router, str], str] | None = None
    startup: Config = field(default_factory=Config, repr=False)
    files: dict[str, Config] = field(default_factory=dict, repr=False)
    events: list[tuple[str, str]] = field(default_factory=list)
    refuse: re.Pattern[str] | None = None
    save_fails: bool = False
    flavor: Flavor = IOS
    salt: int = field(default_factory=random_salt)
    hardware: set[str] | None = None
    pinned: dict[tuple[str, int], str] = field(default_factory=dict)
    assumptions: Assumptions = ASSUMED
    # The revert timer (``l2tpgen.sim.revert``): the unconfirmed change, the router's clock
    # (seconds) and how many of its seconds make a minute (tests shorten it, or drive the clock).
    pending_revert: Pending | None = field(default=None, repr=False)
    clock: Callable[[], float] = time.monotonic
    minute: float = 60.0
    console: Terminal = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.console = self.open_terminal()

    def open_terminal(self) -> Terminal:
        """A new session's command line (exec mode; ``>`` when there is an enable secret)."""
        return Terminal(self)

    def current_hostname(self) -> str:
        """The hostname of the running config."""
        line = next((x for x in self.running.lines if x.text.startswith("hostname ")), None)
        return line.text.split()[1] if line else self.hostname

    # -- the console ------------------------------------------------------------------------------

    def tick(self) -> None:
        """Let the revert timer fire if it has run out (``l2tpgen.sim.revert``)."""
        revert.tick(self)

    def handle(self, raw: str) -> str:
        """Type one line on the console; return what IOS prints before the next prompt."""
        return self.console.handle(raw)

    def prompt(self) -> str:
        """The console's prompt."""
        return self.console.prompt()

    def hides_input(self) -> bool:
        """Whether the console is asking for a password."""
        return self.console.hides_input()

    # -- loading ----------------------------------------------------------------------------------

    def load(self, text: str) -> list[str]:
        """Apply a whole config text (indented as IOS prints it); return the lines refused.

        Typed on a terminal of its own, with no fault: this is the router's own configuration
        (its start-up config, or a change made by hand in a test), not a session's.
        """
        terminal = Terminal(self, faults=False)
        terminal.stack = [Frame("config")]
        refused = []
        for raw in text.splitlines():
            stripped = raw.strip()
            if not stripped or stripped.startswith("!") or stripped == "end":
                continue
            if not raw.startswith(" "):
                terminal.stack = [Frame("config")]
            if is_refusal(terminal.config_line(stripped)):
                refused.append(stripped)
        return refused
