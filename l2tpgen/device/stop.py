"""A clean stop: SIGINT or SIGTERM asks a run's pushes to stop where it is safe.

``Stop``: set by SIGINT or SIGTERM (``stop_on_signals``). A push that has not started changing
its router stops there; one that is sending finishes the chunk in flight (the router has answered
every line of it), then rolls back, and so does one that has sent everything but not yet begun to
save. Once the save has begun, the stop changes nothing (the result says so).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import FrameType


class Stop:
    """A stop request shared by every push of a run (thread-safe)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reason = ""

    def request(self, reason: str) -> None:
        """Ask every push to stop."""
        if not self._event.is_set():
            self.reason = reason
            self._event.set()

    def __call__(self) -> bool:
        """Whether a stop was requested."""
        return self._event.is_set()


@contextlib.contextmanager
def stop_on_signals(
    stop: Stop, tell: Callable[[str], None] | None = None, *, restore: bool = True
) -> Iterator[Stop]:
    """SIGINT and SIGTERM request a stop instead of killing the run (main thread only).

    A second signal does not kill it either: a rollback in progress must finish. ``restore``:
    put the previous handlers back afterwards; a command line passes False (the signals are
    ignored from then on), so that a signal between its report and its exit cannot kill the
    process with an exit code (130, 143) other than the one its report gives.
    """
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(number: int, _frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        if not stop() and tell is not None:
            tell(
                f"{name}: stopping; routers being changed finish the lines in flight, then roll "
                "back; nothing new is started"
            )
        stop.request(name)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, old in previous.items():
            # Not restored: ignored from now to the exit (Python resets its own handlers to the
            # default, which kills, while the interpreter shuts down; an ignored signal stays so).
            signal.signal(sig, old if restore else signal.SIG_IGN)
