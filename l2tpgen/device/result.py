"""How a push ends: its status (and exit code) and the result every caller gets."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Status(enum.Enum):
    """How a push ended; ``exit_code`` is the command line's."""

    UNCHANGED = "unchanged"
    WOULD_CHANGE = "would-change"
    CHANGED = "changed"
    REFUSED = "refused"
    STOPPED = "stopped"
    UNSAVED = "unsaved"
    ROLLED_BACK = "rolled-back"
    ROLLBACK_FAILED = "rollback-failed"
    FAILED = "failed"

    @property
    def exit_code(self) -> int:
        """The command line's exit code for this outcome.

        0 fine; 1 nothing changed (input, access, a stop) or changed but unsaved; 3 rolled back;
        4 the router's state is unknown.
        """
        return {
            Status.UNCHANGED: 0,
            Status.WOULD_CHANGE: 0,
            Status.CHANGED: 0,
            Status.REFUSED: 1,
            Status.STOPPED: 1,
            Status.UNSAVED: 1,
            Status.FAILED: 1,
            Status.ROLLED_BACK: 3,
            Status.ROLLBACK_FAILED: 4,
        }[self]


@dataclass(frozen=True)
class PushResult:
    """The outcome of pushing one site: everything here is safe to print (secrets masked)."""

    site: str
    status: Status
    message: str = ""
    diff: str = ""
    commands: tuple[str, ...] = ()
    lines_sent: int = 0
    seconds: float = 0.0
    rollback_file: str | None = None
    errors: tuple[str, ...] = field(default=())
    notices: tuple[str, ...] = ()
    migration: bool = False
    notes: tuple[str, ...] = ()
    # False when the router could not be reached at all (nothing was sent to it): a fleet push
    # then takes back the other end of its pairs (``fleet._protect_pairs``).
    reached: bool = True
