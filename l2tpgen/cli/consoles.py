"""The command line's consoles (``app.out``, ``app.err``): rich's, made when first used (issue 35).

rich is a twentieth of a cold ``l2tpgen validate``; a fleet that validates with no warning prints
a few plain lines, which ``app.print_plain`` writes as rich would, without loading it. A console is
made on first use exactly as it would have been at start-up: it reads the environment of
start-up while it is made (``COLUMNS``, ``NO_COLOR``, ``TERM``...: a test that runs several
commands in one process sees the same widths and colours as before), the live one afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import Console
    from rich.status import Status

# NO_COLOR (no-color.org: set and not empty) means no escape sequence at all: rich's own NO_COLOR
# handling drops colours but keeps dim and bold.
COLOR_SYSTEM: Literal["auto"] | None = None if os.environ.get("NO_COLOR") else "auto"


class _Environ(Mapping[str, str]):
    """``os.environ`` as it was at start-up while a console is made, the live one afterwards."""

    def __init__(self) -> None:
        self.start: dict[str, str] | None = dict(os.environ)

    def _now(self) -> Mapping[str, str]:
        return os.environ if self.start is None else self.start

    def __getitem__(self, key: str) -> str:
        return self._now()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())


def _console(*, stderr: bool, environ: _Environ) -> Console:
    """Rich's console as l2tpgen prints with it (``LazyConsole``)."""
    from rich.console import Console  # noqa: PLC0415 - startup: rich, made on first use

    class _Console(Console):
        r"""rich's console, its JSON written with every non-ASCII character as ``\uNNNN``.

        rich writes JSON with ``ensure_ascii=False``: a site-file key holding U+202E
        (right-to-left override) or U+0085 (next line) reached the terminal raw in ``validate
        --format json``.
        """

        def print_json(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - rich's own
            """``Console.print_json``, ASCII only unless asked otherwise."""
            kwargs.setdefault("ensure_ascii", True)
            super().print_json(*args, **kwargs)

    # No markup: user strings (paths, site names, config text) may hold `[/]` and such. No emoji
    # codes either: an IPv6 address such as 2001:db8:0:a::2 holds `:a:`, which rich would print
    # as an emoji.
    made = _Console(
        stderr=stderr,
        highlight=False,
        soft_wrap=True,
        markup=False,
        emoji=False,
        color_system=COLOR_SYSTEM,
        _environ=environ,
    )
    environ.start = None  # made: the live environment from now on, as rich's own default
    return made


class LazyConsole:
    """One of the command line's consoles (stdout's or stderr's), made when first used."""

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._environ = _Environ()
        self._made: Console | None = None

    @property
    def console(self) -> Console:
        """The console itself (made now if it is not yet)."""
        if self._made is None:
            self._made = _console(stderr=self._stderr, environ=self._environ)
        return self._made

    def print(self, *objects: Any, **kwargs: Any) -> None:  # noqa: ANN401 - rich's own
        """``Console.print``."""
        self.console.print(*objects, **kwargs)

    def print_json(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - rich's own
        """``Console.print_json``, ASCII only unless asked otherwise."""
        self.console.print_json(*args, **kwargs)

    def status(self, *args: Any, **kwargs: Any) -> Status:  # noqa: ANN401 - rich's own
        """``Console.status``."""
        return self.console.status(*args, **kwargs)

    @property
    def is_terminal(self) -> bool:
        """``Console.is_terminal``."""
        return self.console.is_terminal
